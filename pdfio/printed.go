package pdfio

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A Printed is what webcap needs of a PDF file a browser printed: its
// page count and its named destinations.
type Printed struct {
	Pages int
	Dests []PrintedDest // sorted by name
	// Article is the structure element of class SpdrArt the pages were
	// tagged under when an update copied them (zero when they were not);
	// Untagged says why they were not.
	Article  webcapture.Ref
	Untagged string
}

// A PrintedDest is a named destination of a printed file: a place on one
// of its pages.
type PrintedDest struct {
	Name string // the name's bytes (#xx escapes decoded)
	Page int    // 0-based
	View View
}

// A View is where a destination shows a page: the whole page (Fit), or
// the point (Left, Top) in default user space, zoom unchanged (XYZ).
type View struct {
	XYZ       bool
	Left, Top float64
}

// A Dest is a destination to write: a page and a view of it.
type Dest struct {
	Page webcapture.Ref
	View View
}

// ReadPrinted reads a printed file's pages and the named destinations of
// its catalog's /Dests dictionary (where Chromium puts them).
func ReadPrinted(pdf []byte, name string, opts Options) (*Printed, error) {
	ctx, err := parse(pdf, opts.withDefaults())
	if err != nil {
		return nil, &Error{File: name, Op: "parse", Err: parseError(pdf, err)}
	}
	c := &pageCopier{src: ctx, dec: newDecoder(ctx.XRefTable, opts.withDefaults()), skip: map[int]bool{}}
	pages, err := c.srcPages()
	if err != nil {
		return nil, &Error{File: name, Op: "read", Err: err}
	}
	pr, err := c.printed(pages)
	if err != nil {
		return nil, &Error{File: name, Op: "read", Err: err}
	}
	return pr, nil
}

// printed reads what Printed holds from a parsed file with these pages.
func (c *pageCopier) printed(pages []srcPage) (*Printed, error) {
	index := map[int]int{}
	for i, p := range pages {
		index[p.num] = i
	}
	out := &Printed{Pages: len(pages)}
	cat, err := c.dict(*c.src.XRefTable.Root)
	if err != nil {
		return nil, err
	}
	dests := cat["Dests"]
	if r, ok := dests.(types.IndirectRef); ok {
		if dests, err = c.lookup(r.ObjectNumber.Value()); err != nil {
			return nil, err
		}
	}
	dd, _ := dests.(types.Dict)
	for k, v := range dd {
		if r, ok := v.(types.IndirectRef); ok {
			v, _ = c.lookup(r.ObjectNumber.Value())
		}
		if d, ok := v.(types.Dict); ok {
			v = d["D"]
		}
		a, _ := v.(types.Array)
		if len(a) < 2 {
			continue
		}
		pr, ok := a[0].(types.IndirectRef)
		if !ok {
			continue
		}
		page, ok := index[pr.ObjectNumber.Value()]
		if !ok {
			continue
		}
		pd := PrintedDest{Name: decodeName(k), Page: page}
		if kind, _ := a[1].(types.Name); kind == "XYZ" && len(a) >= 4 {
			pd.View = View{XYZ: true, Left: number(a[2]), Top: number(a[3])}
		}
		out.Dests = append(out.Dests, pd)
	}
	sort.Slice(out.Dests, func(i, j int) bool { return out.Dests[i].Name < out.Dests[j].Name })
	return out, nil
}

func number(o types.Object) float64 {
	switch v := o.(type) {
	case types.Integer:
		return float64(v)
	case types.Float:
		return float64(v)
	}
	return 0
}

// decodeName decodes a name's #xx escapes, if pdfcpu left them.
func decodeName(n string) string {
	if !bytes.Contains([]byte(n), []byte("#")) {
		return n
	}
	var b []byte
	for i := 0; i < len(n); i++ {
		if n[i] == '#' && i+2 < len(n) && isHex(n[i+1]) && isHex(n[i+2]) {
			b = append(b, unhex(n[i+1])<<4|unhex(n[i+2]))
			i += 2
			continue
		}
		b = append(b, n[i])
	}
	return string(b)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// A LinkDest is a link annotation that goes to a named destination (its
// /Dest, or a GoTo action's /D, a name or a string).
type LinkDest struct {
	Annot webcapture.Ref
	Name  string
}

// LinkDests returns a page's link annotations that go to named
// destinations, in /Annots order (direct annotations left out).
func (u *Update) LinkDests(page webcapture.Ref) ([]LinkDest, error) {
	var out []LinkDest
	err := u.eachLink(page, func(r types.IndirectRef, ad types.Dict) {
		d := ad["Dest"]
		if d == nil {
			if act, _ := u.dictAt(ad["A"]); act != nil {
				if s, _ := act["S"].(types.Name); s == "GoTo" {
					d = act["D"]
				}
			}
		}
		switch v := d.(type) {
		case types.Name:
			out = append(out, LinkDest{refOf(r), decodeName(string(v))})
		case types.StringLiteral, types.HexLiteral:
			if s, ok := rawString(v); ok {
				out = append(out, LinkDest{refOf(r), s})
			}
		}
	})
	return out, err
}

// SetLinkDest makes a link annotation go to the named destination name
// (written as a string, the form for the /Names /Dests tree).
func (u *Update) SetLinkDest(annot webcapture.Ref, name string) error {
	d, err := u.dictAt(indirect(annot))
	if err != nil || d == nil {
		return fmt.Errorf("object %s is not an annotation", annot)
	}
	d = copyDict(d)
	if _, ok := d["Dest"]; ok {
		d["Dest"] = literalString(name)
	} else {
		d["A"] = types.Dict{"S": types.Name("GoTo"), "D": literalString(name)}
	}
	u.replace(indirect(annot), d)
	return nil
}
