package jsonstrict

import (
	"bytes"
	"testing"
)

func TestUnique(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // "" for none
	}{
		{`{"a": 1, "b": 2}`, ""},
		{`{"a": 1, "a": 2}`, `1:10: a: "a" is given twice in one object (JSON keeps only one)`},
		{"{\"x\": [{\"u\": 1},\n {\"u\": 1, \"u\": 2}]}", `2:11: x[1].u: "u" is given twice in one object (JSON keeps only one)`},
		{`{"a": {"b": 1}, "c": {"b": 1}}`, ""}, // the same name in two objects
		{`[{"k": 1}, {"k": 1}]`, ""},
		{`not json`, ""}, // left to the decoder
		{`{"a": 1,`, ""},
		{`{"a\u0062": 1, "ab": 2}`, `1:16: ab: "ab" is given twice in one object (JSON keeps only one)`}, // escapes are decoded
	} {
		err := Unique([]byte(tc.in))
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("Unique(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// Unique parses data where it is (a bytes.Buffer's bytes) and writes
// nothing to it: every value, token and error of these documents leaves
// it as it was.
func TestUniqueLeavesData(t *testing.T) {
	for _, in := range []string{`{"a": [1, true, null, "s", {"b": {}}], "c": -1.5e3}`, `{"a": 1, "a": 2}`, `[{"k": "v"}, {"k": "v", "k": "w"}]`,
		`{"a": "\u00e9\n"} x`, `{"a": 1,`, `not json`, "{\"a\": \"\xff\"}"} {
		data := []byte(in)
		Unique(data)
		if !bytes.Equal(data, []byte(in)) {
			t.Errorf("Unique(%q) left %q", in, data)
		}
	}
}

func TestPosition(t *testing.T) {
	data := []byte("ab\ncd\n")
	for _, tc := range []struct {
		off       int64
		line, col int
	}{{0, 1, 1}, {1, 1, 2}, {3, 2, 1}, {4, 2, 2}, {6, 3, 1}, {-5, 1, 1}, {99, 3, 1}} {
		if l, c := Position(data, tc.off); l != tc.line || c != tc.col {
			t.Errorf("Position(%d) = %d:%d, want %d:%d", tc.off, l, c, tc.line, tc.col)
		}
	}
}

func TestField(t *testing.T) {
	for _, tc := range []struct {
		tokens []string
		want   string
	}{
		{nil, ""},
		{[]string{"input"}, "input"},
		{[]string{"pageSets", "0", "url"}, "pageSets[0].url"},
		{[]string{"0", "a"}, "[0].a"},
		{[]string{"a", ""}, "a."},
	} {
		if got := Field(tc.tokens); got != tc.want {
			t.Errorf("Field(%q) = %q, want %q", tc.tokens, got, tc.want)
		}
	}
}
