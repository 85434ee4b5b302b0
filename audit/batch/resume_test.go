package batch

import "testing"

// A result is reused for the same path and size and mtime (or SHA-256);
// an operational failure never.
func TestResumeMatch(t *testing.T) {
	size := func(n int64) *int64 { return &n }
	l := &Log{done: map[string]Prior{
		"a.pdf":   {Meta{Size: size(5), Mtime: "t1", SHA256: "aa"}, Tally{}},
		"io.pdf":  {Meta{Size: size(5), Mtime: "t1"}, Tally{Kind: "io"}},
		"bad.pdf": {Meta{Size: size(5), Mtime: "t1"}, Tally{Kind: "invalid"}},
	}}
	for _, tc := range []struct {
		name, path string
		now        Meta
		byHash     bool
		want       bool
	}{
		{"same", "a.pdf", Meta{Size: size(5), Mtime: "t1"}, false, true},
		{"touched", "a.pdf", Meta{Size: size(5), Mtime: "t2"}, false, false},
		{"grown", "a.pdf", Meta{Size: size(6), Mtime: "t1"}, false, false},
		{"touched, same bytes", "a.pdf", Meta{Size: size(5), Mtime: "t2", SHA256: "aa"}, true, true},
		{"other bytes", "a.pdf", Meta{Size: size(5), Mtime: "t1", SHA256: "bb"}, true, false},
		{"not there", "b.pdf", Meta{Size: size(5), Mtime: "t1"}, false, false},
		{"gone now", "a.pdf", Meta{}, false, false},
		{"io failure: retried", "io.pdf", Meta{Size: size(5), Mtime: "t1"}, false, false},
		{"invalid: a finding, kept", "bad.pdf", Meta{Size: size(5), Mtime: "t1"}, false, true},
	} {
		if _, ok := l.Match(tc.path, &tc.now, tc.byHash); ok != tc.want {
			t.Errorf("%s: match = %v, want %v", tc.name, ok, tc.want)
		}
	}
}
