package record

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Building onto real files (Acrobat captures, signed, linearized): a new
// page set for the last page and a new command join what is there. Every
// set, key and command the file had is kept, its bytes are the output's
// prefix, and the audit finds no error it did not find before.
func TestBuildOnRealFiles(t *testing.T) {
	dir := sharedtest.Dir(t, "realworld")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	notes, _ := filepath.Abs("../testdata/build/site/www.example.com/docs/notes.txt")
	logo, _ := filepath.Abs("../testdata/build/site/www.example.com/logo.gif")
	built, merged := 0, 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			orig, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			before, err := pdfio.ReadBytes(orig, f, pdfio.Options{})
			if err != nil || before.Encrypted || len(before.Pages) == 0 {
				t.Skipf("not buildable here: %v", err)
			}
			claimed := map[int]bool{}
			for _, cs := range before.Sets {
				for _, n := range before.PageNumbers(cs) {
					claimed[n] = true
				}
			}
			last := 0
			for _, p := range before.Pages {
				if !claimed[p.Number] {
					last = p.Number
				}
			}
			m := &Manifest{name: "rw.json", dir: ".", Input: f,
				Commands: []Command{{Name: "c", URL: "http://www.example.com/docs/notes.txt"}}}
			if last > 0 {
				m.PageSets = []PageSet{{Pages: strconv.Itoa(last), URL: "http://www.example.com/docs/notes.txt", Source: notes, Command: "c"}}
			} else {
				// Every page is in a set: add an image set for an image no set holds.
				inSet := map[webcapture.Ref]bool{}
				for _, cs := range before.Sets {
					for _, o := range cs.Objects {
						inSet[o] = true
					}
				}
				for _, im := range before.Images {
					if !inSet[im.Ref] && im.Ref.Gen == 0 {
						m.ImageSets = []ImageSet{{URL: "http://www.example.com/logo.gif", Source: logo, Images: []Image{{Object: im.Ref.Num}}}}
						break
					}
				}
				if m.ImageSets == nil {
					t.Skip("every page and image is in a content set already")
				}
			}
			res, err := Apply(m, Options{ReadBack: true, AllowOutside: true})
			if before.Certification != nil {
				// A certified file: refused, unless asked for knowingly.
				if !errors.Is(err, pdfio.ErrCertified) {
					t.Fatalf("a file certified with /P %d: %v, want pdfio.ErrCertified", before.Certification.Permission, err)
				}
				res, err = Apply(m, Options{AllowCertified: true, ReadBack: true, AllowOutside: true})
			}
			if err != nil {
				if strings.Contains(err.Error(), "direct") || errors.Is(err, pdfio.ErrEncryptedWrite) {
					t.Skipf("refused, with a reason: %v", err)
				}
				t.Fatal(err)
			}
			built++
			if before.IDS != nil || before.URLS != nil {
				merged++
			}
			if !bytes.HasPrefix(res.Output, orig) {
				t.Fatal("the input's bytes are not a prefix of the output")
			}
			after := readBack(t, res)
			if len(after.Sets) != len(before.Sets)+1 {
				t.Errorf("%d sets, want %d", len(after.Sets), len(before.Sets)+1)
			}
			for _, tr := range []struct{ b, a *pdfio.Tree }{{before.IDS, after.IDS}, {before.URLS, after.URLS}} {
				if tr.b == nil {
					continue
				}
				have := map[string]bool{}
				for _, e := range tr.a.Entries {
					have[e.Key] = true
				}
				for _, e := range tr.b.Entries {
					if !have[e.Key] {
						t.Errorf("%s key %q lost", tr.b.Name, e.Key)
					}
				}
			}
			if before.Info != nil && len(after.Info.Commands) != len(before.Info.Commands)+1 {
				t.Errorf("%d commands, want %d", len(after.Info.Commands), len(before.Info.Commands)+1)
			}
			was := errorRules(before)
			for r, n := range errorRules(after) {
				if n > was[r] {
					t.Errorf("audit: %d %s errors after the build, %d before", n, r, was[r])
				}
			}
		})
	}
	t.Logf("built onto %d of %d real files, %d of them with IDS or URLS trees to merge with", built, len(files), merged)
}

func errorRules(d *pdfio.Document) map[string]int {
	out := map[string]int{}
	for _, f := range audit.Check(d, audit.Options{}) {
		if f.Severity == audit.Serious {
			out[f.Rule]++
		}
	}
	return out
}
