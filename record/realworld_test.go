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
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/pdfcheck"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Building onto real files (Acrobat captures, signed, linearized): a new
// page set for the last page and a new command join what is there. Every
// set, key and command the file had is kept, its bytes are the output's
// prefix, and the audit finds no error it did not find before.
func TestBuildOnRealFiles(t *testing.T) {
	files, readable := sharedtest.RealWorld(t)
	notes, _ := filepath.Abs("../testdata/build/site/www.example.com/docs/notes.txt")
	logo, _ := filepath.Abs("../testdata/build/site/www.example.com/logo.gif")
	built, merged, refused, extended := 0, 0, 0, 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			sharedtest.Unreadable(t, f)
			if pw, ok := sharedtest.RealWorldPasswords[filepath.Base(f)]; ok {
				// Encrypted: refused as such, naming why.
				m := &Manifest{name: "rw.json", dir: ".", Input: f,
					PageSets: []PageSet{{Pages: "1", URL: "http://www.example.com/docs/notes.txt", Source: notes}}}
				if _, err := Apply(m, Options{Password: pw, AllowOutside: true}); !errors.Is(err, pdfio.ErrEncryptedWrite) {
					t.Fatalf("a build onto an encrypted file: %v, want pdfio.ErrEncryptedWrite", err)
				}
				refused++
				return
			}
			orig, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			before, err := pdfio.ReadBytes(orig, f, pdfio.Options{})
			if err != nil || before.Encrypted || len(before.Pages) == 0 {
				t.Fatalf("a readable file that does not read: %v (encrypted %v, %d pages)", err, before != nil && before.Encrypted, len(before.Pages))
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
					// Every page and image is in a content set already:
					// build onto the file with two pages appended (an
					// update of its own, as capture's append makes).
					orig, before = appendTwoPages(t, f, orig, before)
					m.Input = filepath.Join(t.TempDir(), "extended.pdf")
					if err := os.WriteFile(m.Input, orig, 0o600); err != nil {
						t.Fatal(err)
					}
					m.PageSets = []PageSet{{Pages: strconv.Itoa(len(before.Pages)), URL: "http://www.example.com/docs/notes.txt", Source: notes, Command: "c"}}
					extended++
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
			// The URLS and IDS trees the build merged with the file's,
			// walked by qpdf (the file's other trees are its own).
			if trees, problems, ok := pdfcheck.NameTrees(t, res.Output); ok {
				for _, p := range problems {
					if strings.HasPrefix(p, "/URLS ") || strings.HasPrefix(p, "/IDS ") {
						t.Errorf("qpdf's view of the name trees: %s", p)
					}
				}
				for _, tr := range []*pdfio.Tree{after.IDS, after.URLS} {
					if w := trees[tr.Name]; w == nil || len(w.Keys) != len(tr.Entries) {
						t.Errorf("%s: qpdf's walk %+v, pdfio reads %d keys", tr.Name, w, len(tr.Entries))
					}
				}
			}
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
	t.Logf("built onto %d of %d readable real files (%d with two pages appended first), %d of them with IDS or URLS trees to merge with; %d refused as encrypted",
		built, readable, extended, merged, refused)
	if built+refused != readable {
		t.Errorf("built onto %d of the %d readable real files, %d refused as encrypted: every one must be", built, readable, refused)
	}
}

// appendTwoPages adds two pages (internal/pdfbuild's web page print) after
// the file's own, as an incremental update, and reads the result: the
// input of a build when every page of the file is in a content set.
func appendTwoPages(t *testing.T, f string, orig []byte, before *pdfio.Document) ([]byte, *pdfio.Document) {
	t.Helper()
	opts := pdfio.Options{AllowCertified: before.Certification != nil}
	u, err := pdfio.NewUpdate(orig, f, opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := u.AppendPages(pdfbuild.Web(false), "web.pdf"); err != nil {
		t.Fatalf("AppendPages: %v", err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.ReadBytes(out, f, pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return out, d
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
