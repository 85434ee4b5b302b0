package pdfio

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/webcapture"
)

// Update.Result reads what a parse of the update's output reads, on every
// sample, hostile and real file an update can be made on: an update that
// sets a page's /ID (a replaced object), adds a command whose posted data
// is a stream (a new stream) and sets /SpiderInfo (the catalog replaced).
// Damaged files, xref streams, object streams and signed files are among
// them; for damaged ones Result falls back to the parse.
func TestResultIsAParse(t *testing.T) {
	files := map[string][]byte{}
	for _, n := range pdfbuild.Samples() {
		b, err := pdfbuild.Sample(n)
		if err != nil {
			t.Fatal(err)
		}
		files["sample "+n] = b
	}
	for _, n := range pdfbuild.HostileSamples() {
		b, err := pdfbuild.Hostile(n)
		if err != nil {
			t.Fatal(err)
		}
		files["hostile "+n] = b
	}
	files["web, xref table"], files["web, xref stream"] = pdfbuild.Web(false), pdfbuild.Web(true)
	real, readable := sharedtest.RealWorld(t)
	isReal := map[string]bool{}
	for _, f := range real {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		files[filepath.Base(f)] = b
		isReal[filepath.Base(f)] = true
	}
	updated, realUpdated, realRefused := 0, 0, 0
	for name, orig := range files {
		t.Run(name, func(t *testing.T) {
			if isReal[name] {
				// Every readable real file is updated; an encrypted one
				// is refused as such. Any other error fails.
				sharedtest.Unreadable(t, name)
				if pw, ok := sharedtest.RealWorldPasswords[name]; ok {
					if _, err := NewUpdate(orig, name, Options{Password: pw}); !errors.Is(err, ErrEncryptedWrite) {
						t.Fatalf("NewUpdate of an encrypted file: %v, want ErrEncryptedWrite", err)
					}
					realRefused++
					return
				}
			}
			skipf := t.Skipf
			if isReal[name] {
				skipf = t.Fatalf
			}
			u, err := NewUpdate(orig, name, Options{AllowCertified: true})
			if err != nil {
				skipf("no update: %v", err)
			}
			doc, err := u.Document()
			if err != nil {
				t.Fatal(err)
			}
			if len(doc.Pages) > 0 {
				if err := u.SetID(doc.Pages[0].Ref, webcapture.RawID("0123456789abcdef")); err != nil {
					t.Fatal(err)
				}
			}
			post := []byte("q=a+b&r=(c)")
			c := &webcapture.Command{URL: "http://www.example.com/form", PostData: &post, PostStream: true}
			if _, err := u.AddCommand(c); err != nil {
				t.Fatal(err)
			}
			if err := u.SetSpiderInfo(&webcapture.Info{Version: &webcapture.Number{Value: 1}, Commands: []*webcapture.Command{c}}); err != nil {
				skipf("no SpiderInfo: %v", err)
			}
			out, err := u.Bytes()
			if err != nil {
				skipf("no update: %v", err)
			}
			parsed, err := ReadBytes(out, "out.pdf", Options{})
			if err != nil {
				t.Fatalf("the output does not read: %v", err)
			}
			got, err := u.Result(out, "out.pdf")
			if err != nil {
				t.Fatalf("Result: %v", err)
			}
			if !reflect.DeepEqual(got, parsed) {
				t.Errorf("Result differs from a parse:\n got %s\nwant %s", docSummary(got), docSummary(parsed))
			}
			updated++
			if isReal[name] {
				realUpdated++
			}
		})
	}
	if updated < len(files)/2 {
		t.Errorf("updated %d of %d files", updated, len(files))
	}
	if realUpdated+realRefused != readable {
		t.Errorf("%d of the %d readable real files updated, %d refused as encrypted: every one must be", realUpdated, readable, realRefused)
	}
}

func docSummary(d *Document) string {
	return fmt.Sprintf("%d pages, %d sets, %d images, %d defects %v, %d damage %v, info %+v", len(d.Pages), len(d.Sets), len(d.Images), len(d.Defects), d.Defects, len(d.Damage), d.Damage, d.Info)
}
