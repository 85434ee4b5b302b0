package audit

import "github.com/webcap/webcap/pdfio"

// damageRule maps what the reader had to repair in the file, or could not
// read, to rules (WC-PDF-*). A file with any is not well-formed, in
// JHOVE's sense: another reader may see other objects than these.
var damageRule = map[pdfio.DamageKind]string{
	pdfio.DamageXRef:       "WC-PDF-XREF",
	pdfio.DamageOffset:     "WC-PDF-OFFSET",
	pdfio.DamageLength:     "WC-PDF-LENGTH",
	pdfio.DamageUnreadable: "WC-PDF-UNREADABLE",
	pdfio.DamageRecovered:  "WC-PDF-RECOVERED",
}

// wellFormed reports the damage the reader found in the bytes.
func (a *auditor) wellFormed() {
	for _, dm := range a.d.Damage {
		rule, ok := damageRule[dm.Kind]
		if !ok {
			rule = "WC-PDF-UNREADABLE"
		}
		a.add(rule, dm.Object, "", "%s", dm.Message)
	}
}

// certified notes a certification signature, and Web Capture structures
// added after it (which DocMDP permits under no /P: adding pages and
// catalog entries is none of form filling, signing or annotating).
func (a *auditor) certified() {
	c := a.d.Certification
	if c == nil {
		return
	}
	a.add("WC-CERTIFIED", c.Signature, "/Perms", "the document is certified (DocMDP /P %d: %s); build, append and refresh refuse to update it without --force",
		c.Permission, c.Allows())
	if c.WebCaptureAfter {
		a.add("WC-CERTIFIED-AFTER", c.Signature, "/Perms", "Web Capture structures were added after the document was certified (they lie past the %d bytes the signature covers), which DocMDP /P %d does not permit: a validator that checks the certification's permissions reports it broken",
			c.Signed, c.Permission)
	}
}
