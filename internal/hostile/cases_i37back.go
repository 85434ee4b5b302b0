package hostile

import (
	"bytes"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"time"
)

// Session 37, the read-back's and the update parse's shortcuts: an
// update numbers its new objects above every number the file refers to
// (pdfio's firstFree), and takes that number, for the objects the lazy
// reader parsed with its fast parser, from what the parse saw instead
// of walking every object again. A dictionary that gives a key twice
// keeps the last value only: a reference in the value it dropped is not
// one the file makes, and the object is walked as before.

// backFile is a Setup writing updObjects with page 7 given extra keys as
// in.pdf, notes.txt and updManifest, then running webcap with args.
func backFile(page7 string, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		objs := maps.Clone(updObjects)
		objs[7] = "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] " + page7 + " >>"
		if err := Write(dir, "in.pdf", lazyClassic(objs, nil, nil)); err != nil {
			return nil, nil, err
		}
		if err := Write(dir, "notes.txt", []byte("notes\n")); err != nil {
			return nil, nil, err
		}
		return args, nil, Write(dir, "m.json", []byte(updManifest))
	}
}

// firstNew is a Check that the first object out.pdf adds to in.pdf is
// numbered want.
func firstNew(want int) func(dir string) error {
	return func(dir string) error {
		in, err := os.ReadFile(filepath.Join(dir, "in.pdf"))
		if err != nil {
			return err
		}
		out, err := os.ReadFile(filepath.Join(dir, "out.pdf"))
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(out, in) {
			return fmt.Errorf("out.pdf is not an update of in.pdf")
		}
		m := regexp.MustCompile(`(?m)^(\d+) 0 obj`).FindSubmatch(out[len(in):])
		if m == nil {
			return fmt.Errorf("out.pdf adds no object")
		}
		if n, _ := strconv.Atoi(string(m[1])); n != want {
			return fmt.Errorf("out.pdf's first new object is %d, want %d", n, want)
		}
		return nil
	}
}

func init() {
	lim := func(c Case) Case {
		c.Part, c.MaxCPU, c.MaxRSS = Bounds, 2*time.Second, 200<<20
		return c
	}
	Register(
		lim(Case{
			Name:   "update-key-twice-drops-reference-build",
			Setup:  backFile("/Extra 90 0 R /Extra 1", "build", "m.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`content sets? .*written to out\.pdf`},
			Check:  firstNew(9),
			Before: "exit 0, a page set for page 3 written, the new objects numbered from 9 (the dropped 90 0 R is no reference of the file's) in 0.02 s CPU, 26 MB (session-start source, the hostile harness); as before now",
		}),
		lim(Case{
			Name:   "update-dangling-reference-above-all-build",
			Setup:  backFile("/Extra [1 0 R << /Deep [60 0 R] >>]", "build", "m.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`content sets? .*written to out\.pdf`},
			Check:  firstNew(61),
			Before: "exit 0, a page set for page 3 written, the new objects numbered from 61 (above the dangling 60 0 R) in 0.02 s CPU, 26 MB (session-start source, the hostile harness); as before now",
		}),
	)
}
