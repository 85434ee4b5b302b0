package cli

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// What --resume keeps of an earlier results file, and what it refuses.
func TestOpenResume(t *testing.T) {
	const a = `{"schema":"webcap.audit-file/1","input":"a.pdf","size":5,"mtime":"2015-04-02T08:51:05Z","findings":[]}` + "\n"
	const b = `{"schema":"webcap.audit-file/1","input":"b.pdf","size":7,"mtime":"2015-04-02T08:51:05Z","findings":[]}` + "\n"
	for _, tc := range []struct {
		name, text string
		keep       string // the file after: "" when refused
		inputs     int
		err        string
	}{
		{"missing", "\x00", "", 0, ""}, // "\x00": no file before; it is made
		{"empty", "", "", 0, ""},
		{"whole", a + b, a + b, 2, ""},
		{"cut short", a + `{"schema":"webcap.audit-file/1","inp`, a, 1, ""},
		{"cut short early", a + `{"sch`, a, 1, ""},
		{"not results", "hello\n", "", 0, "line 1 is not a webcap.audit-file/1 result"},
		{"text without newline", a + "hello", "", 0, "line 2 is not a webcap.audit-file/1 result"},
		{"other schema", `{"schema":"webcap.info/1","input":"a.pdf"}` + "\n", "", 0, "line 1 is not"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "r.jsonl")
			if tc.text != "\x00" {
				os.WriteFile(p, []byte(tc.text), 0o644)
			}
			l, err := openResume("audit", p)
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("openResume = %v, want an error with %q", err, tc.err)
				}
				if got, _ := os.ReadFile(p); string(got) != tc.text {
					t.Errorf("a refused file was changed: %q", got)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			defer l.Close()
			if len(l.done) != tc.inputs {
				t.Errorf("%d inputs read, want %d", len(l.done), tc.inputs)
			}
			l.f.WriteString(b) // appended where the good lines end
			if got, _ := os.ReadFile(p); string(got) != tc.keep+b {
				t.Errorf("after an append the file is %q, want %q", got, tc.keep+b)
			}
		})
	}
}

// A result is reused for the same path and size and mtime (or SHA-256);
// an operational failure never.
func TestResumeMatch(t *testing.T) {
	size := func(n int64) *int64 { return &n }
	l := &resumeLog{done: map[string]priorResult{
		"a.pdf":   {fileMeta{Size: size(5), Mtime: "t1", SHA256: "aa"}, tally{}},
		"io.pdf":  {fileMeta{Size: size(5), Mtime: "t1"}, tally{kind: "io"}},
		"bad.pdf": {fileMeta{Size: size(5), Mtime: "t1"}, tally{kind: "invalid"}},
	}}
	for _, tc := range []struct {
		name, path string
		now        fileMeta
		byHash     bool
		want       bool
	}{
		{"same", "a.pdf", fileMeta{Size: size(5), Mtime: "t1"}, false, true},
		{"touched", "a.pdf", fileMeta{Size: size(5), Mtime: "t2"}, false, false},
		{"grown", "a.pdf", fileMeta{Size: size(6), Mtime: "t1"}, false, false},
		{"touched, same bytes", "a.pdf", fileMeta{Size: size(5), Mtime: "t2", SHA256: "aa"}, true, true},
		{"other bytes", "a.pdf", fileMeta{Size: size(5), Mtime: "t1", SHA256: "bb"}, true, false},
		{"not there", "b.pdf", fileMeta{Size: size(5), Mtime: "t1"}, false, false},
		{"gone now", "a.pdf", fileMeta{}, false, false},
		{"io failure: retried", "io.pdf", fileMeta{Size: size(5), Mtime: "t1"}, false, false},
		{"invalid: a finding, kept", "bad.pdf", fileMeta{Size: size(5), Mtime: "t1"}, false, true},
	} {
		if _, ok := l.match(tc.path, &tc.now, tc.byHash); ok != tc.want {
			t.Errorf("%s: match = %v, want %v", tc.name, ok, tc.want)
		}
	}
}

// An exit status per kind, and the most urgent of several.
func TestFailures(t *testing.T) {
	for _, tc := range []struct {
		kinds []string
		want  int
	}{
		{nil, exitOK},
		{[]string{"failed"}, exitFailed},
		{[]string{"invalid", "failed"}, exitInvalid},
		{[]string{"failed", "io", "invalid"}, exitIOError},
	} {
		var f failures
		for _, k := range tc.kinds {
			f.addKind(k)
		}
		if got := exitCode(f.err()); got != tc.want {
			t.Errorf("%v: exit %d, want %d", tc.kinds, got, tc.want)
		}
		if err := f.err(); err != nil && !errors.Is(err, errFailed) {
			t.Errorf("%v: %v is not errFailed (said already, not again)", tc.kinds, err)
		}
	}
}
