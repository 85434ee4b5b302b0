package webcapture

import "testing"

func TestFormat(t *testing.T) {
	for _, tc := range []struct {
		in   Object
		want string
	}{
		{nil, "null"},
		{true, "true"},
		{int64(-3), "-3"},
		{1.25, "1.25"},
		{Name("CP"), "/CP"},
		{Name("a b#/"), "/a#20b#23#2F"},
		{String("a(b)\\"), `(a\(b\)\\)`},
		{String("\xFE\xFF\x00A"), "<FEFF0041>"},
		{Ref{Num: 12}, "12 0 R"},
		{[]Object{int64(1), Name("X"), nil}, "[1 /X null]"},
		{Dict{"PS": true, "CP": int64(1)}, "<< /CP 1 /PS true >>"},
		{Dict{}, "<< >>"},
		{&Stream{Dict: Dict{"Length": int64(4)}, Length: 4}, "<< /Length 4 >> stream (4 bytes)"},
	} {
		if got := Format(tc.in); got != tc.want {
			t.Errorf("Format(%#v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
