package pdfbuild

// Certified builds a two-page document certified with DocMDP permission p
// (1 no changes, 2 forms and signing, 3 also annotations; 0: not
// certified): a /Perms /DocMDP signature dictionary whose /ByteRange
// covers the whole file. It is not a real signature (no /Contents): it is
// what a writer must respect, for tests.
func Certified(p int) []byte {
	build := func(signed int) []byte {
		b := New()
		root, _ := b.PageTree(2, nil)
		cat := D("Type", Name("Catalog"), "Pages", root)
		if p > 0 {
			sig := b.Add(D("Type", Name("Sig"), "ByteRange", Array{0, 1, 1, signed - 1},
				"Reference", Array{D("Type", Name("SigRef"), "TransformMethod", Name("DocMDP"),
					"TransformParams", D("Type", Name("TransformParams"), "V", Name("1.2"), "P", p))}))
			cat.Set("Perms", D("DocMDP", sig))
		}
		b.Root = b.Add(cat)
		return b.Bytes()
	}
	f := build(0)
	for range 3 { // the length settles once its own digits are in
		f = build(len(f))
	}
	return f
}
