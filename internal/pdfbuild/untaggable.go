package pdfbuild

// Untaggable is a one-page file whose structure tree and outline cannot be
// extended: its /ParentTree is a node that is its own kid, and its
// outline's /Next chain loops. Its page has /StructParents 0, the key a
// browser's printed page has too.
func Untaggable() []byte {
	b := New()
	root := b.Reserve()
	p1 := b.Add(D("Type", Name("Page"), "Parent", root, "StructParents", 0))
	b.Set(root, D("Type", Name("Pages"), "Kids", Array{p1}, "Count", 1, "MediaBox", Array{0, 0, 612, 792}))
	loop := b.Reserve()
	b.Set(loop, D("Kids", Array{loop}))
	str := b.Add(D("Type", Name("StructTreeRoot"), "ParentTree", loop))
	ol, a, c := b.Reserve(), b.Reserve(), b.Reserve()
	b.Set(a, D("Title", Lit("A"), "Parent", ol, "Next", c))
	b.Set(c, D("Title", Lit("C"), "Parent", ol, "Next", a))
	b.Set(ol, D("Type", Name("Outlines"), "First", a, "Last", c, "Count", 2))
	b.Root = b.Add(D("Type", Name("Catalog"), "Pages", root, "StructTreeRoot", str, "Outlines", ol))
	return b.Bytes()
}
