package pdfio

import (
	"errors"
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A Certification is a document's certification signature (PDF 1.7
// §8.7.1, "DocMDP", and §8.7.3; ISO 32000-1 §12.8.2.2): the catalog's
// /Perms /DocMDP signature, and the changes it permits after it.
type Certification struct {
	Signature webcapture.Ref // the signature dictionary
	// Permission is the DocMDP transform's /P (default 2): 1 no changes,
	// 2 filling in forms and signing, 3 that and annotations.
	Permission int64
	// Signed is how many bytes of the file the signature covers (the end
	// of its /ByteRange): what comes after was added later.
	Signed int64
	// WebCaptureAfter: Web Capture structures (/SpiderInfo, the IDS or URLS
	// tree, a content set) lie after the signed bytes, added after the
	// document was certified.
	WebCaptureAfter bool
}

// Allows says in words what the certification permits.
func (c *Certification) Allows() string {
	switch c.Permission {
	case 1:
		return "no changes"
	case 2:
		return "filling in forms and signing"
	case 3:
		return "filling in forms, signing and annotations"
	}
	return fmt.Sprintf("/P %d, which is not a defined permission", c.Permission)
}

// ErrCertified: the document is certified, and its permissions forbid the
// update (adding pages, content sets, name trees, catalog entries): the
// certification would no longer validate.
var ErrCertified = errors.New("the document is certified and its permissions forbid this update")

// A CertifiedError is an update refused because of a certification.
type CertifiedError struct {
	Certification *Certification
}

func (e *CertifiedError) Error() string {
	return fmt.Sprintf("%v (DocMDP /P %d: %s; the signature %s would no longer validate)",
		ErrCertified, e.Certification.Permission, e.Certification.Allows(), e.Certification.Signature)
}

func (e *CertifiedError) Unwrap() error { return ErrCertified }

// certification reads the catalog's /Perms /DocMDP, if any.
func (r *reader) certification(cat types.Dict) *Certification {
	perms, _, _ := r.resolve(cat["Perms"], "Perms")
	pd, ok := perms.(types.Dict)
	if !ok {
		return nil
	}
	sig, ref, _ := r.resolve(pd["DocMDP"], "Perms/DocMDP")
	sd, ok := sig.(types.Dict)
	if !ok {
		return nil
	}
	c := &Certification{Signature: ref, Permission: 2}
	refs, _, _ := r.resolve(sd["Reference"], "Perms/DocMDP/Reference")
	if a, ok := refs.(types.Array); ok {
		for _, e := range a {
			o, _, _ := r.resolve(e, "Perms/DocMDP/Reference")
			sr, ok := o.(types.Dict)
			if m, _ := sr["TransformMethod"].(types.Name); !ok || m != "DocMDP" {
				continue
			}
			tp, _, _ := r.resolve(sr["TransformParams"], "Perms/DocMDP/Reference/TransformParams")
			if tpd, ok := tp.(types.Dict); ok {
				if p, ok := tpd["P"].(types.Integer); ok {
					c.Permission = int64(p)
				}
			}
		}
	}
	br, _, _ := r.resolve(sd["ByteRange"], "Perms/DocMDP/ByteRange")
	if a, ok := br.(types.Array); ok && len(a) == 4 {
		off, ok1 := a[2].(types.Integer)
		n, ok2 := a[3].(types.Integer)
		if ok1 && ok2 {
			c.Signed = int64(off) + int64(n)
		}
	}
	return c
}

// certifiedAfter reports whether any of the Web Capture objects lies
// after the first signed bytes of the file (by the cross-reference
// offsets; an object in an object stream lies where its stream does).
func (r *reader) certifiedAfter(c *Certification) {
	if c == nil || c.Signed <= 0 {
		return
	}
	var refs []webcapture.Ref
	if i := r.doc.Info; i != nil {
		refs = append(refs, i.Ref)
	}
	for _, t := range []*Tree{r.doc.IDS, r.doc.URLS} {
		if t != nil {
			refs = append(refs, t.Root)
		}
	}
	for _, cs := range r.doc.Sets {
		refs = append(refs, cs.Ref)
	}
	for _, ref := range refs {
		if off := r.offset(ref); off >= c.Signed {
			c.WebCaptureAfter = true
			return
		}
	}
}

// offset is where an object starts in the file, or -1.
func (r *reader) offset(ref webcapture.Ref) int64 {
	if ref.IsZero() {
		return -1
	}
	e := r.entry(ref.Num)
	if e.none() || e.free() {
		return -1
	}
	if stm, ok := e.stream(); e.compressed() && ok {
		return r.offset(webcapture.Ref{Num: stm})
	}
	if !hasOff(e) {
		return -1
	}
	return entOffset(e)
}
