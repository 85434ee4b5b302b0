package pdfio

import (
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A LinkURI is a link annotation whose action opens a URI.
type LinkURI struct {
	Annot webcapture.Ref
	URI   string
}

// LinkURIs returns a page's link annotations with URI actions, in /Annots
// order. Direct annotations are left out (they cannot be replaced alone).
func (u *Update) LinkURIs(page webcapture.Ref) ([]LinkURI, error) {
	d, err := u.pageDict(page)
	if err != nil {
		return nil, err
	}
	annots := d["Annots"]
	if r, ok := annots.(types.IndirectRef); ok {
		if annots, err = u.Lookup(r); err != nil {
			return nil, err
		}
	}
	arr, _ := annots.(types.Array)
	var out []LinkURI
	for _, a := range arr {
		r, ok := a.(types.IndirectRef)
		if !ok {
			continue
		}
		ad, err := u.dictAt(r)
		if err != nil || ad == nil {
			continue
		}
		if st, _ := ad["Subtype"].(types.Name); st != "Link" {
			continue
		}
		act, _ := u.dictAt(ad["A"])
		if s, _ := act["S"].(types.Name); s != "URI" {
			continue
		}
		uo := act["URI"]
		if r, ok := uo.(types.IndirectRef); ok {
			uo, _ = u.Lookup(r)
		}
		uri, ok := rawString(uo)
		if !ok {
			continue
		}
		out = append(out, LinkURI{Annot: refOf(r), URI: uri})
	}
	return out, nil
}

// SetLinkGoTo makes a link annotation go to the named destination dest,
// keeping its previous action in /PA (PDF 1.7 Table 8.24: the URI it was
// made from, for Web Capture).
func (u *Update) SetLinkGoTo(annot webcapture.Ref, dest string) error {
	o, err := u.Lookup(indirect(annot))
	if err != nil {
		return err
	}
	d, ok := o.(types.Dict)
	if !ok {
		return fmt.Errorf("object %s is not an annotation", annot)
	}
	d = copyDict(d)
	if a, ok := d["A"]; ok {
		d["PA"] = a
	}
	d["A"] = types.Dict{"S": types.Name("GoTo"), "D": LiteralString(dest)}
	u.Replace(indirect(annot), d)
	return nil
}

// SetDests installs a /Dests name tree: each name goes to the top of a page
// (a /Fit destination). It replaces the tree that was there.
func (u *Update) SetDests(dests map[string]webcapture.Ref) error {
	entries := make([]NameEntry, 0, len(dests))
	for name, page := range dests {
		d := u.Add(types.Array{indirect(page), types.Name("Fit")})
		entries = append(entries, NameEntry{Key: name, Sets: []webcapture.Ref{refOf(d)}})
	}
	return u.SetNameTree("Dests", entries, TreeShape{})
}
