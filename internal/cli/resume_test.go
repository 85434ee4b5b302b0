package cli

import (
	"errors"
	"io"
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
			if l.Len() != tc.inputs {
				t.Errorf("%d inputs read, want %d", l.Len(), tc.inputs)
			}
			io.WriteString(l.Writer(), b) // appended where the good lines end
			if got, _ := os.ReadFile(p); string(got) != tc.keep+b {
				t.Errorf("after an append the file is %q, want %q", got, tc.keep+b)
			}
		})
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
