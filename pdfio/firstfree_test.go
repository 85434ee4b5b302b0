package pdfio

import "testing"

// TestFirstFreeFromParsedRefs holds firstFree, given the references an
// update's lazy parse counted (parsedRefs), to its walk of every object
// without them: a reference a dictionary's repeated key dropped, or a
// null kept from, a stream's dictionary, a nested array.
func TestFirstFreeFromParsedRefs(t *testing.T) {
	for _, tc := range []struct {
		name    string
		extra   []string
		want    int
		counted bool // object 5 was counted (not walked again)
	}{
		{"plain", []string{"<< /A 6 0 R >>", "<< /B [1 0 R [40 0 R]] >>"}, 41, true},
		{"a repeated key drops a reference", []string{"<< /A 90 0 R /A 1 >>"}, 6, false},
		{"a null keeps the earlier value", []string{"<< /B 80 0 R /B null >>"}, 81, true},
		{"a stream's dictionary", []string{streamObj("/X 70 0 R", "q")}, 71, true},
		{"nested", []string{"<< /C << /D [<< /E 55 0 R >>] >> >>"}, 56, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := textPDF("BT ET", "<< >>", tc.extra...)
			opts := Options{}.withDefaults()
			ctx, _, refs, err := lazyParseRefs(b, opts, nil)
			if err != nil {
				t.Fatal(err)
			}
			prev, err := lastStartXRef(b)
			if err != nil {
				t.Fatal(err)
			}
			walked := firstFree(b, newDecoder(ctx.XRefTable, opts), ctx, prev, nil)
			got := firstFree(b, newDecoder(ctx.XRefTable, opts), ctx, prev, refs)
			if got != walked || got != tc.want {
				t.Errorf("firstFree %d from the parse's references, %d walked, want %d", got, walked, tc.want)
			}
			if refs.counted.has(5) != tc.counted {
				t.Errorf("object 5 counted: %v, want %v", refs.counted.has(5), tc.counted)
			}
		})
	}
}
