package audit

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/webcap/webcap/seal"
	"github.com/webcap/webcap/webcapture"
)

// seals checks each signature and document timestamp (package seal
// verifies it: WC-SEAL-FORMAT, -RANGE, -DIGEST, -UNTRUSTED, -VERIFIED),
// then what the file says about time and what was added after it
// (WC-SEAL-TIME, -AFTER, -DOCMDP). Without Options.File nothing is said
// of the seals (a writer auditing what it wrote after a certified input,
// --force, has WC-CERTIFIED-AFTER).
func (a *auditor) seals() {
	if len(a.d.Seals) == 0 || a.opts.File == nil {
		return
	}
	verdicts := seal.Verify(a.opts.File, a.opts.FileSize, a.d, seal.VerifyOptions{Trust: a.opts.Trust})
	for _, v := range verdicts {
		a.verdict(v)
	}
	a.sealTimes(verdicts)
	a.sealAfter(verdicts)
	a.droppedSeals(verdicts)
	a.docMDP(verdicts)
}

// droppedSeals names each seal whose field a later update took out of
// /AcroForm /Fields (WC-SEAL-AFTER): a reader no longer shows it, whatever
// it proves (a spoofing attack hands its signature to another field).
func (a *auditor) droppedSeals(vs []*seal.Verdict) {
	for _, v := range vs {
		i := v.Seal.DroppedIn
		if i <= 0 || i >= len(a.d.Revisions) {
			continue
		}
		r := a.d.Revisions[i]
		a.add("WC-SEAL-AFTER", v.Seal.Ref, "", "%s is no longer in the form: update %d (bytes %d to %d) took its field out of /AcroForm /Fields, so a reader shows no such signature",
			sealName(v), i, r.Start, r.End)
	}
}

// formChanges says how the updates after revision rev changed
// /AcroForm /Fields beyond adding signature fields: the fields each takes
// out (or replaces), and those it adds that are not signature fields. It
// names the object that holds the changed list (the AcroForm, or the
// catalog), as the update wrote it.
func (a *auditor) formChanges(rev int) []string {
	if rev < 0 || rev >= len(a.d.Revisions) || !a.d.Revisions[rev].FieldsRead {
		return nil
	}
	before := a.d.Revisions[rev].Fields
	var out []string
	for i := rev + 1; i < len(a.d.Revisions); i++ {
		r := a.d.Revisions[i]
		if !r.FieldsRead {
			continue
		}
		var removed, added []string
		for _, f := range before {
			if !slices.Contains(r.Fields, f) {
				removed = append(removed, a.fieldName(f))
			}
		}
		for _, f := range r.Fields {
			if !slices.Contains(before, f) && !a.isSignatureField(f) {
				added = append(added, f.String())
			}
		}
		before = r.Fields
		if len(removed) == 0 && len(added) == 0 {
			continue
		}
		holder := "/AcroForm /Fields ("
		for j, ref := range r.Objects {
			if j < len(r.Roles) && (r.Roles[j] == "AcroForm" || r.Roles[j] == "catalog" && holder == "/AcroForm /Fields (") {
				holder = ref.String() + " (" + r.Roles[j] + "; "
			}
		}
		var did []string
		if len(removed) > 0 {
			did = append(did, "takes "+strings.Join(removed, ", ")+" out of /Fields")
		}
		if len(added) > 0 {
			did = append(did, "adds "+strings.Join(added, ", ")+", not signature fields")
		}
		out = append(out, fmt.Sprintf("%supdate %d %s)", holder, i, strings.Join(did, " and ")))
	}
	return out
}

// fieldName names a form field for a message: its seal's field name
// when a seal's field is taken out, and its object.
func (a *auditor) fieldName(f webcapture.Ref) string {
	for _, s := range a.d.Seals {
		if s.DroppedIn > 0 && s.FieldRef == f && s.Field != "" {
			return fmt.Sprintf("the signature field %q (%s)", s.Field, f)
		}
	}
	return "field " + f.String()
}

// isSignatureField: f is the field of a seal, or a later revision added
// it as a signature field.
func (a *auditor) isSignatureField(f webcapture.Ref) bool {
	for _, s := range a.d.Seals {
		if s.FieldRef == f {
			return true
		}
	}
	for _, r := range a.d.Revisions {
		if j := slices.Index(r.Objects, f); j >= 0 && j < len(r.Roles) {
			return r.Roles[j] == "signature field"
		}
	}
	return false
}

var checkRule = map[seal.Check]string{
	seal.CheckFormat:    "WC-SEAL-FORMAT",
	seal.CheckRange:     "WC-SEAL-RANGE",
	seal.CheckDigest:    "WC-SEAL-DIGEST",
	seal.CheckUntrusted: "WC-SEAL-UNTRUSTED",
}

// sealName names a seal in a message: its kind and field.
func sealName(v *seal.Verdict) string {
	kind := v.Kind
	if kind == "" {
		kind = "seal"
	}
	switch {
	case v.Seal.Field != "":
		return fmt.Sprintf("the %s %q", kind, v.Seal.Field)
	case v.Seal.UsageRights:
		return "the usage-rights " + kind + " (/Perms /UR3)"
	}
	return "the " + kind
}

// verdict reports one seal's problems, or that it verifies.
func (a *auditor) verdict(v *seal.Verdict) {
	for _, p := range v.Problems {
		a.add(checkRule[p.Check], v.Seal.Ref, "/Contents", "%s: %s", sealName(v), p.Message)
	}
	if !v.Verified() {
		return
	}
	trust := "not trusted (see WC-SEAL-UNTRUSTED)"
	if v.Trusted {
		trust = "trusted"
	}
	when := "no time"
	if !v.Time.IsZero() {
		when = v.Time.UTC().Format("2006-01-02T15:04:05Z") + " (" + v.TimeFrom + ")"
	}
	signer := v.Signer
	if signer == "" {
		signer = "an unknown signer"
	}
	a.add("WC-SEAL-VERIFIED", v.Seal.Ref, "", "%s verifies: signed by %s at %s, covering the file up to byte %d; %s",
		sealName(v), signer, when, a.coveredEnd(v), trust)
}

func (a *auditor) coveredEnd(v *seal.Verdict) int64 {
	if br := v.Seal.ByteRange; len(br) == 4 {
		return br[2] + br[3]
	}
	return 0
}

// clockSkew is how far a claimed time (a set's /TS, a signature's /M or
// signing-time, from the writer's own clock) may be ahead of a time it is
// compared with: a capture's clock a few seconds fast of its TSA's is no
// finding. Two tokens' times are compared as they are.
const clockSkew = 10 * time.Minute

// sealTimes: a seal's time must not be before the /TS of a content set it
// covers, nor after the time of a seal that covers it (WC-SEAL-TIME).
func (a *auditor) sealTimes(vs []*seal.Verdict) {
	for _, v := range vs {
		if v.Time.IsZero() || v.Revision < 0 {
			continue
		}
		for _, cs := range a.d.Sets {
			if cs.Created == nil || !cs.Created.Valid || a.revisionHolding(cs.Ref) > v.Revision {
				continue
			}
			if cs.Created.Time.After(v.Time.Add(clockSkew)) {
				a.add("WC-SEAL-TIME", v.Seal.Ref, "/TS", "%s is dated %s (%s), before the content set %s it covers was created (/TS %s)",
					sealName(v), v.Time.UTC().Format("2006-01-02T15:04:05Z"), v.TimeFrom, cs.Ref, cs.Created)
			}
		}
		for _, w := range vs {
			if w == v || w.Time.IsZero() || w.Revision <= v.Revision {
				continue
			}
			skew := clockSkew
			if v.Timestamped && w.Timestamped {
				skew = 0
			}
			if v.Time.After(w.Time.Add(skew)) {
				a.add("WC-SEAL-TIME", v.Seal.Ref, "", "%s is dated %s (%s), after %s (%s, %s), which was added later and covers it",
					sealName(v), v.Time.UTC().Format("2006-01-02T15:04:05Z"), v.TimeFrom, sealName(w), w.Time.UTC().Format("2006-01-02T15:04:05Z"), w.TimeFrom)
			}
		}
	}
}

// revisionHolding is the revision that holds ref's current definition, or
// -1.
func (a *auditor) revisionHolding(ref webcapture.Ref) int {
	for i, r := range a.d.Revisions {
		if slices.Contains(r.Objects, ref) {
			return i
		}
	}
	return -1
}

// sealUpdate says of an object a revision after a seal changed whether an
// update that adds a DSS, a document timestamp or a signature may change it
// (ISO 32000-2 §12.8.2.2.2, Table 257; §12.8.4.3): what those updates
// write, and the file's own bookkeeping.
var sealUpdate = map[string]bool{
	"signature": true, "signature field": true, "DSS": true, "catalog": true, "AcroForm": true,
	"cross-reference stream": true, "object stream": true, "info": true, "metadata": true,
}

// changed lists, for the revisions after rev, what they changed that
// allowed does not allow: objects, pages and content sets, and the
// document timestamps and signatures they add. An object nothing reachable
// refers to changes nothing a reader shows: it is listed apart
// (unreferenced), never as a change.
func (a *auditor) changed(rev int, allowed func(role string) bool) (what []string, pages, sets, unreferenced []string) {
	for i := rev + 1; i < len(a.d.Revisions); i++ {
		r := a.d.Revisions[i]
		for j, ref := range r.Objects {
			role := "object"
			if j < len(r.Roles) {
				role = r.Roles[j]
			}
			if strings.HasPrefix(role, "unreferenced ") {
				unreferenced = append(unreferenced, fmt.Sprintf("%s (%s)", ref, role))
				continue
			}
			if allowed(role) {
				continue
			}
			what = append(what, fmt.Sprintf("%s (%s)", ref, role))
			switch {
			case strings.HasPrefix(role, "page ") && role != "page tree":
				pages = append(pages, strings.TrimPrefix(role, "page "))
			case strings.HasPrefix(role, "content stream of page "):
				pages = append(pages, strings.TrimPrefix(role, "content stream of page "))
			case role == "content set":
				sets = append(sets, ref.String())
			}
		}
	}
	slices.Sort(pages)
	return what, slices.Compact(pages), sets, unreferenced
}

// sealAfter names what an update after the last seal changed beyond a
// DSS, a document timestamp or a signature (WC-SEAL-AFTER): a shadow
// attack or a silent edit shows there.
func (a *auditor) sealAfter(vs []*seal.Verdict) {
	last, lastV := -1, (*seal.Verdict)(nil)
	for _, v := range vs {
		if rev := a.sealRevision(v); rev > last {
			last, lastV = rev, v
		}
	}
	if lastV == nil || last >= len(a.d.Revisions)-1 {
		return
	}
	what, pages, sets, unref := a.changed(last, func(role string) bool { return sealUpdate[role] })
	what = append(what, a.formChanges(last)...)
	metaObjs := a.metadataChanged(last)
	lastEnd := a.d.Revisions[len(a.d.Revisions)-1].End
	switch {
	case len(what) > 0:
		a.add("WC-SEAL-AFTER", lastV.Seal.Ref, "/ByteRange", "%d update(s) after %s (which covers bytes 0 to %d of %d) changed what no seal covers: %s%s%s%s",
			len(a.d.Revisions)-1-last, sealName(lastV), a.d.Revisions[last].End, lastEnd,
			listShort(what), pagesAndSets(pages, sets), metadataToo(metaObjs), unreferencedToo(unref))
	case len(metaObjs) > 0:
		// The document information and XMP metadata only: named, a
		// warning (no page changes, and a writer may rewrite /ModDate
		// when it saves after a signature; of the signed real-world
		// files none changes only its metadata after its last seal).
		f := a.finding("WC-SEAL-AFTER", lastV.Seal.Ref, "/ByteRange", "%d update(s) after %s (which covers bytes 0 to %d of %d) changed only the document's metadata, which no seal covers: %s (a viewer's document properties may not be what was signed)%s",
			[]any{len(a.d.Revisions) - 1 - last, sealName(lastV), a.d.Revisions[last].End, lastEnd,
				listShort(metaObjs), unreferencedToo(unref)})
		f.Severity = Caution
		a.emit(f)
	}
}

// sealRevision is the revision a seal covers (Verdict.Revision), or, when
// its range ends inside a revision (WC-SEAL-RANGE), the one it ends in:
// the updates after that one are after the seal all the same.
func (a *auditor) sealRevision(v *seal.Verdict) int {
	if v.Revision >= 0 {
		return v.Revision
	}
	br := v.Seal.ByteRange
	if len(br) != 4 {
		return -1
	}
	end := br[2] + br[3]
	for i, r := range a.d.Revisions {
		if r.Start < end && end <= r.End {
			return i
		}
	}
	return -1
}

// metadataChanged lists the document information dictionary and XMP
// metadata streams the revisions after rev wrote.
func (a *auditor) metadataChanged(rev int) []string {
	var out []string
	for i := rev + 1; i < len(a.d.Revisions); i++ {
		r := a.d.Revisions[i]
		for j, ref := range r.Objects {
			if j < len(r.Roles) && (r.Roles[j] == "info" || r.Roles[j] == "metadata") {
				name := "the document information"
				if r.Roles[j] == "metadata" {
					name = "the XMP metadata"
				}
				out = append(out, fmt.Sprintf("%s %s", name, ref))
			}
		}
	}
	return out
}

// metadataToo says the metadata changed besides.
func metadataToo(meta []string) string {
	if len(meta) == 0 {
		return ""
	}
	return "; and the document's metadata: " + listShort(meta)
}

// unreferencedToo says the objects added that nothing refers to.
func unreferencedToo(unref []string) string {
	if len(unref) == 0 {
		return ""
	}
	return fmt.Sprintf("; and %d unreferenced object(s), which change nothing shown: %s", len(unref), listShort(unref))
}

// pagesAndSets says the pages and content sets a change touches.
func pagesAndSets(pages, sets []string) string {
	s := ""
	if len(pages) > 0 {
		s += "; pages " + strings.Join(pages, ", ")
	}
	if len(sets) > 0 {
		s += "; content sets " + listShort(sets)
	}
	return s
}

// listShort joins the first items of a list, saying how many more.
func listShort(l []string) string {
	const shown = 12
	if len(l) <= shown {
		return strings.Join(l, ", ")
	}
	return strings.Join(l[:shown], ", ") + fmt.Sprintf(" and %d more", len(l)-shown)
}

// docMDP checks a certification's permissions against every update after
// it (WC-SEAL-DOCMDP; ISO 32000-2 Table 257): /P 1 allows only a DSS and
// document timestamps; 2 also form filling and signing; 3 also
// annotations. Pages, content sets and other objects none allows.
func (a *auditor) docMDP(vs []*seal.Verdict) {
	c := a.d.Certification
	if c == nil {
		return
	}
	var cv *seal.Verdict
	for _, v := range vs {
		if v.Seal.Certification {
			cv = v
		}
	}
	if cv == nil || cv.Revision < 0 {
		return
	}
	allowed := func(role string) bool {
		switch role {
		case "DSS", "catalog", "cross-reference stream", "object stream", "info", "metadata":
			return true
		case "signature", "signature field", "AcroForm":
			return true // a document timestamp's; a signature's at /P 1 is below
		case "annotation":
			return c.Permission >= 3
		}
		return false
	}
	what, pages, sets, unref := a.changed(cv.Revision, allowed)
	for _, v := range vs {
		if c.Permission == 1 && v.Revision > cv.Revision && v.Kind != seal.KindTimestamp {
			what = append(what, fmt.Sprintf("%s (a signature added: %s)", v.Seal.Ref, sealName(v)))
		}
	}
	if len(what) == 0 {
		return
	}
	a.add("WC-SEAL-DOCMDP", cv.Seal.Ref, "/Reference", "the certification allows %s (DocMDP /P %d), but a later update changed %s%s%s",
		c.Allows(), c.Permission, listShort(what), pagesAndSets(pages, sets), unreferencedToo(unref))
}
