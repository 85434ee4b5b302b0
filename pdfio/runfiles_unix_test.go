//go:build unix

package pdfio

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// runDir makes, in a temporary directory that is the working directory:
// a.pdf, b.pdf, hard (a hard link to a.pdf), sym (a link to a.pdf), chain
// (a link to sym), dangling (a link to new.json, which does not exist),
// d/ and dl (a link to d), m/ holding m/s/page.html, rep/ holding
// rep/index.html and rep/x.pdf, and in.pdf (a link to rep/x.pdf).
func runDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	t.Chdir(dir)
	for _, f := range []string{"a.pdf", "b.pdf", "m/s/page.html", "rep/index.html", "rep/x.pdf"} {
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir("d", 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Link("a.pdf", "hard"); err != nil {
		t.Fatal(err)
	}
	for link, target := range map[string]string{"sym": "a.pdf", "chain": "sym", "dangling": "new.json", "dl": "d", "in.pdf": "rep/x.pdf"} {
		if err := os.Symlink(target, link); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestSameFile(t *testing.T) {
	dir := runDir(t)
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"a.pdf", "a.pdf", true},
		{"a.pdf", "./a.pdf", true},
		{"a.pdf", "d/../a.pdf", true},
		{"a.pdf", filepath.Join(dir, "a.pdf"), true},
		{"a.pdf", "sym", true},   // a symbolic link
		{"a.pdf", "chain", true}, // a link to a link
		{"a.pdf", "hard", true},  // a hard link: one inode
		{"sym", "hard", true},
		{"a.pdf", "b.pdf", false},
		{"a.pdf", "new.json", false}, // a file and a path that does not exist
		// Paths that do not exist yet: by their directory and name.
		{"new.json", "new.json", true},
		{"new.json", "./new.json", true},
		{"new.json", "d/../new.json", true},
		{"new.json", filepath.Join(dir, "new.json"), true},
		{"new.json", "dangling", true}, // a link to it, followed by its text
		{"d/new.json", "dl/new.json", true},
		{"d/new.json", "dl/../d/new.json", true},
		{"new.json", "d/new.json", false},
		{"new.json", "new.JSON", false},
		// Nor does its directory: by the absolute path.
		{"no/such/x", "no/such/../such/x", true},
		{"no/such/x", "no/such/y", false},
	} {
		if got := SameFile(tc.a, tc.b); got != tc.want {
			t.Errorf("SameFile(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
		if got := SameFile(tc.b, tc.a); got != tc.want {
			t.Errorf("SameFile(%q, %q) = %v, want %v", tc.b, tc.a, got, tc.want)
		}
	}
}

func TestCheckRun(t *testing.T) {
	runDir(t)
	stdin, err := os.Stat("b.pdf") // stdin redirected from b.pdf
	if err != nil {
		t.Fatal(err)
	}
	in := func(path string) RunFile { return RunFile{Path: path} }
	out := func(flag, path string) RunFile { return RunFile{Flag: flag, Path: path} }
	type want struct {
		output, other string // the paths; "" for no error
		input         bool
		how           Overlap
	}
	for _, tc := range []struct {
		name    string
		in, out []RunFile
		want    want
	}{
		{"none", []RunFile{in("a.pdf")}, nil, want{}},
		{"new output", []RunFile{in("a.pdf")}, []RunFile{out("--html", "r.html")}, want{}},
		{"the input", []RunFile{in("b.pdf"), in("a.pdf")}, []RunFile{out("--html", "a.pdf")}, want{"a.pdf", "a.pdf", true, Same}},
		{"through a link", []RunFile{in("a.pdf")}, []RunFile{out("--html", "sym")}, want{"sym", "a.pdf", true, Same}},
		{"a hard link", []RunFile{in("hard")}, []RunFile{out("-o", "a.pdf")}, want{"a.pdf", "hard", true, Same}},
		{"dot-dot", []RunFile{in("d/../a.pdf")}, []RunFile{out("-o", "./a.pdf")}, want{"./a.pdf", "d/../a.pdf", true, Same}},
		{"stdin", []RunFile{{Path: "stdin", Info: stdin}}, []RunFile{out("-o", "b.pdf")}, want{"b.pdf", "stdin", true, Same}},
		{"stdin elsewhere", []RunFile{{Path: "stdin", Info: stdin}}, []RunFile{out("-o", "a.pdf")}, want{}},
		{"two outputs", []RunFile{in("b.pdf")}, []RunFile{out("-o", "x.pdf"), out("--warc", "./x.pdf")}, want{"./x.pdf", "x.pdf", false, Same}},
		{"two outputs, a dangling link", nil, []RunFile{out("-o", "new.json"), out("--report", "dangling")}, want{"dangling", "new.json", false, Same}},
		{"two outputs apart", nil, []RunFile{out("-o", "x.pdf"), out("--warc", "x.warc")}, want{}},
		{"a file of a sources directory", []RunFile{{Flag: "--sources", Path: "m", Dir: true}}, []RunFile{out("--html", "m/s/page.html")},
			want{"m/s/page.html", "m", true, InDir}},
		{"a new path in a sources directory", []RunFile{{Flag: "--sources", Path: "m", Dir: true}}, []RunFile{out("--html", "m/s/new.html")}, want{}},
		{"a directory walked, not all inputs", []RunFile{in("m")}, []RunFile{out("--html", "m/s/page.html")}, want{}},
		{"the directory itself", []RunFile{in("d")}, []RunFile{out("--html", "dl")}, want{"dl", "d", true, Same}},
		{"a directory output holding an input", []RunFile{in("a.pdf"), in("rep/x.pdf")}, []RunFile{out("--html", "rep")}, want{"rep", "rep/x.pdf", true, HoldsIt}},
		{"holding it through a link", []RunFile{in("in.pdf")}, []RunFile{out("--html", "rep")}, want{"rep", "in.pdf", true, HoldsIt}},
		{"a directory output, inputs elsewhere", []RunFile{in("a.pdf"), in("m/s/page.html")}, []RunFile{out("--html", "rep")}, want{}},
		{"a directory output holding an output", nil, []RunFile{out("--resume", "rep/r.jsonl"), out("--html", "rep")}, want{"rep", "rep/r.jsonl", false, HoldsIt}},
		{"an output in a directory output", nil, []RunFile{out("--html", "rep"), out("--resume", "rep/r.jsonl")}, want{"rep", "rep/r.jsonl", false, HoldsIt}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckRun(tc.in, tc.out)
			if tc.want.output == "" {
				if err != nil {
					t.Fatalf("CheckRun = %v, want nil", err)
				}
				return
			}
			var oe *OverlapError
			if !errors.As(err, &oe) || !errors.Is(err, ErrOverlap) {
				t.Fatalf("CheckRun = %v, want an *OverlapError", err)
			}
			got := want{oe.Output.Path, oe.Other.Path, oe.Input, oe.How}
			if got != tc.want {
				t.Errorf("CheckRun = %+v (%v), want %+v", got, err, tc.want)
			}
		})
	}
}
