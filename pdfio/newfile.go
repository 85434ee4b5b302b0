package pdfio

import (
	"bytes"
	"crypto/md5"
	"fmt"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// NewFileUpdate returns an update of a new file with no page yet, for
// pages to be appended to (AppendPages), so that a new capture is made as
// an append to an existing file is: pages copied with their structure,
// Web Capture's Article per page set, bookmarks. The file's document
// information (title, author, subject, keywords, creator, producer,
// dates) and viewer preferences are like's, a file a browser printed (the
// first page captured); its /ID is made from like's bytes. The file's
// first section is a few hundred bytes; everything else is in the update.
func NewFileUpdate(like []byte, name string, opts Options) (*Update, error) {
	info, prefs := types.Dict{}, types.Dict(nil)
	if ctx, err := parse(like, opts.withDefaults()); err == nil {
		dec := newDecoder(ctx.XRefTable, opts.withDefaults())
		lookup := func(r types.IndirectRef) (types.Object, error) {
			e, ok := ctx.XRefTable.Table[r.ObjectNumber.Value()]
			if !ok || e == nil || e.Free {
				return nil, nil
			}
			return dec.load(pent(e))
		}
		if ctx.XRefTable.Info != nil {
			if d, err := dictOf(*ctx.XRefTable.Info, lookup); err == nil {
				for _, k := range []string{"Title", "Author", "Subject", "Keywords", "Creator", "Producer", "CreationDate", "ModDate"} {
					if s, ok := d[k].(types.StringLiteral); ok {
						info[k] = s
					} else if h, ok := d[k].(types.HexLiteral); ok {
						info[k] = h
					}
				}
			}
		}
		if ctx.XRefTable.Root != nil {
			if cat, err := dictOf(*ctx.XRefTable.Root, lookup); err == nil && cat != nil {
				if vp, ok := cat["ViewerPreferences"].(types.Dict); ok {
					prefs = types.Dict{}
					for k, v := range vp {
						switch v.(type) {
						case types.Boolean, types.Name, types.Integer:
							prefs[k] = v
						}
					}
				}
			}
		}
	}
	cat := types.Dict{"Type": types.Name("Catalog"), "Pages": *types.NewIndirectRef(2, 0)}
	if prefs != nil {
		cat["ViewerPreferences"] = prefs
	}
	objs := []types.Object{cat, types.Dict{"Type": types.Name("Pages"), "Kids": types.Array{}, "Count": types.Integer(0)}, info}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n", i+1)
		if err := appendObject(&b, o); err != nil {
			return nil, &Error{File: name, Op: "create", Err: err}
		}
		b.WriteString("\nendobj\n")
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offs {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	sum := md5.Sum(like)
	id := hexString(string(sum[:]))
	b.WriteString("trailer\n")
	if err := appendDict(&b, types.Dict{"Size": types.Integer(len(objs) + 1), "Root": *types.NewIndirectRef(1, 0),
		"Info": *types.NewIndirectRef(3, 0), "ID": types.Array{id, id}}); err != nil {
		return nil, &Error{File: name, Op: "create", Err: err}
	}
	fmt.Fprintf(&b, "\nstartxref\n%d\n%%%%EOF\n", xref)
	return NewUpdate(b.Bytes(), name, opts)
}
