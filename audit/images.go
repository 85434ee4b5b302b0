package audit

import (
	"fmt"
	"strings"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// refCounts checks an image set's /R: its shape against /O, and each count
// against the pages that use the image. An image set's count is the number
// of pages that refer to the image (PDF 1.7 §10.9.3; ISO 32000-1 §14.10.4.3);
// Acrobat counts only the pages whose resources name it, so an image drawn
// only through a tiling pattern, a form or an annotation has the count 0
// (every such image in the real files does). A count is reported only when
// it is neither that direct count nor the count of every page that uses the
// image.
func (a *auditor) refCounts(cs *pdfio.ContentSet) {
	ref := cs.Ref
	switch n := len(cs.Objects); {
	case cs.RefCounts == nil:
		a.add("WC-R", ref, "/R", "the image set has no /R (reference counts, required)")
		return
	case !cs.RefArray && n > 1:
		a.add("WC-R-SHAPE", ref, "/R", "/R is an integer but /O holds %d objects: want an array of %d counts", n, n)
	case cs.RefArray && len(cs.RefCounts) != n && !(n == 0 && len(cs.RefCounts) == 0):
		a.add("WC-R-SHAPE", ref, "/R", "/R has %d counts but /O holds %d objects: they must be parallel", len(cs.RefCounts), n)
	case cs.RefArray && n == 1:
		a.add("WC-R-ARRAY1", ref, "/R", "/R is a one-element array for a single object; ISO 32000-1 wants the integer")
	}
	for i, c := range cs.RefCounts {
		var im *pdfio.Image
		if i < len(cs.Objects) && a.d.ImageUseKnown {
			im = a.image(cs.Objects[i])
		}
		switch {
		case c < 0:
			a.add("WC-R-NEGATIVE", ref, "/R", "R[%d] is %d: a count of pages cannot be negative", i, c)
		case im == nil && c == 0:
			a.add("WC-R-ZERO", ref, "/R", "R[%d] is 0: no page names the image in its resources (Acrobat counts only those pages); it may still be drawn through a pattern, a form or an annotation", i)
		case im == nil:
		case c == 0 && len(im.Pages) == 0:
			a.add("WC-R-ZERO", ref, "/R", "R[%d] is 0 and no page uses image %s at all, directly or through a pattern, a form or an annotation: it may be removed from /O", i, im.Ref)
		case c == 0 && len(im.Direct) == 0:
			a.add("WC-R-ZERO", ref, "/R", "R[%d] is 0: no page uses image %s directly (Acrobat counts only those pages); it is drawn through %s on %s, so it is in use: keep it in /O", i, im.Ref, via(im.Via), pageList(im.Pages))
		case c != int64(len(im.Direct)) && c != int64(len(im.Pages)):
			a.add("WC-R-COUNT", ref, "/R", "R[%d] is %d, but image %s is named in the resources of %s and used by %s in all", i, c, im.Ref, count(len(im.Direct), im.Direct), count(len(im.Pages), im.Pages))
		}
	}
}

// image returns the image XObject ref is, or nil.
func (a *auditor) image(ref webcapture.Ref) *pdfio.Image {
	if a.imageByRef == nil {
		a.imageByRef = map[webcapture.Ref]*pdfio.Image{}
		for _, im := range a.d.Images {
			a.imageByRef[im.Ref] = im
		}
	}
	return a.imageByRef[ref]
}

// images checks the image XObjects of a capture (those in an image set, or
// with /ID) that no page uses (PDF 1.7 Appendix H, note 165: Acrobat keeps
// them as long as /O holds them), and Form XObjects with /ID.
func (a *auditor) images() {
	if a.d.ImageUseKnown {
		inSet := map[webcapture.Ref]*pdfio.ContentSet{}
		for _, cs := range a.d.Sets {
			if cs.IsImageSet() {
				for _, o := range cs.Objects {
					inSet[o] = cs
				}
			}
		}
		for _, im := range a.d.Images {
			cs := inSet[im.Ref]
			if len(im.Pages) > 0 || (cs == nil && im.ID == nil) {
				continue
			}
			where := "carries /ID"
			if cs != nil {
				where = "is in image set " + cs.Ref.String()
			}
			a.add("WC-IMAGE-UNUSED", im.Ref, "", "image %s %s, but no page uses it, directly or through a pattern, a form or an annotation", im.Ref, where)
		}
	}
	for _, f := range a.d.IDForms {
		id := "that is not a string"
		if f.ID != nil {
			id = "<" + f.ID.Hex() + ">"
		}
		a.add("WC-FORM-ID", f.Ref, "/ID", "Form XObject %s has /ID %s; only pages and image XObjects carry their content set's identifier", f.Ref, id)
	}
}

// via says how an image is drawn: "a tiling pattern or a Form XObject".
func via(hows []string) string {
	names := map[string]string{
		"form":        "a Form XObject",
		"pattern":     "a tiling pattern",
		"annotation":  "an annotation's appearance",
		"mask":        "another image's mask",
		"soft mask":   "a soft mask",
		"Type 3 font": "a Type 3 font",
		"thumbnail":   "a page thumbnail",
	}
	out := make([]string, len(hows))
	for i, h := range hows {
		if out[i] = names[h]; out[i] == "" {
			out[i] = h
		}
	}
	return strings.Join(out, " or ")
}

// pageList names pages: "page 2", "pages 1, 2 and 5" (the first ten).
func pageList(nums []int) string {
	if len(nums) == 1 {
		return fmt.Sprintf("page %d", nums[0])
	}
	parts := make([]string, 0, 10)
	for i, n := range nums {
		if i == 10 {
			parts = append(parts, fmt.Sprintf("%d more", len(nums)-10))
			break
		}
		parts = append(parts, fmt.Sprint(n))
	}
	last := len(parts) - 1
	return "pages " + strings.Join(parts[:last], ", ") + " and " + parts[last]
}

// count says how many pages, and which: "no page", "2 pages (pages 1 and 3)".
func count(n int, nums []int) string {
	switch n {
	case 0:
		return "no page"
	case 1:
		return "1 page (" + pageList(nums) + ")"
	}
	return fmt.Sprintf("%d pages (%s)", n, pageList(nums))
}
