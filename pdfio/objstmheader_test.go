package pdfio

import (
	"bytes"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHeaderFieldsAsBytesFields: headerFields splits as pdfcpu's
// parseObjectStream, bytes.Fields of the header with NUL for a space.
func TestHeaderFieldsAsBytesFields(t *testing.T) {
	want := func(h []byte) []string {
		var out []string
		for _, f := range bytes.Fields(bytes.ReplaceAll(h, []byte{0}, []byte{' '})) {
			out = append(out, string(f))
		}
		return out
	}
	got := func(h []byte) []string {
		var out []string
		n := headerFields(h, func(i int, f []byte) bool {
			if i != len(out) {
				t.Fatalf("headerFields(%q) gave index %d after %d fields", h, i, len(out))
			}
			out = append(out, string(f))
			return true
		})
		if n != len(out) {
			t.Fatalf("headerFields(%q) = %d, gave %d fields", h, n, len(out))
		}
		return out
	}
	cases := []string{
		"", " ", "1 0 2 15", "\x001\x000\x00", "1\t0\r\n2\f15\v", " 1  0 ",
		"1\u00a00 2 3", "1\u20280", "1\xa00", "\xc2", "7 0\u3000", "+1 -0",
	}
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := []byte("0123456789 \t\n\r\f\v\x00\xc2\xa0\x85\xe2\x80\xa8%")
	for range 2000 {
		b := make([]byte, r.IntN(24))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		cases = append(cases, string(b))
	}
	for _, c := range cases {
		if g, w := got([]byte(c)), want([]byte(c)); !slices.Equal(g, w) {
			t.Errorf("headerFields(%q) = %q, want %q", c, g, w)
		}
	}
	// Stopping early still counts every field.
	if n := headerFields([]byte("1 0 2 5 3 9"), func(i int, _ []byte) bool { return i < 1 }); n != 6 {
		t.Errorf("headerFields stopped at the second field = %d, want 6", n)
	}
}

// TestObjectStarts: a header's offsets from /First, or why not.
func TestObjectStarts(t *testing.T) {
	cases := []struct {
		name, data string
		first      int
		want       []int
		err        string
	}{
		{"two", "1 0 2 3 <<>>[1]", 8, []int{8, 11}, ""},
		{"comment", "1 0%2 3\n <<>>", 9, []int{9}, ""},
		{"odd", "1 0 2 <<>>", 6, nil, "corrupt"},
		{"past", "1 0 2 90 <<>>", 9, nil, `object 1 the offset "90"`},
		{"decreasing", "1 3 2 0 <<>><<>>", 8, nil, `object 1 the offset "0"`},
		{"not a number", "1 x <<>>", 4, nil, `object 0 the offset "x"`},
		{"first outside", "1 0", 9, nil, "outside"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := objectStarts([]byte(tc.data), tc.first)
			if tc.err != "" {
				if err == nil || !bytes.Contains([]byte(err.Error()), []byte(tc.err)) {
					t.Fatalf("objectStarts(%q, %d) = %v, %v, want an error with %q", tc.data, tc.first, got, err, tc.err)
				}
				return
			}
			if err != nil || !slices.Equal(got, tc.want) {
				t.Fatalf("objectStarts(%q, %d) = %v, %v, want %v", tc.data, tc.first, got, err, tc.want)
			}
		})
	}
}
