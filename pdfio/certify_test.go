package pdfio

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/webcapture"
)

// An update to a certified document is refused, naming the permission it
// breaks, unless asked for (AllowCertified); after it, the reader says the
// Web Capture structures came after the certification.
func TestCertified(t *testing.T) {
	for _, p := range []int{0, 1, 2, 3} {
		t.Run(fmt.Sprintf("P=%d", p), func(t *testing.T) {
			orig := pb.Certified(p)
			d, err := ReadBytes(orig, "certified.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c := d.Certification; (c != nil) != (p > 0) || (c != nil && (c.Permission != int64(p) || c.Signed != int64(len(orig)) || c.WebCaptureAfter)) {
				t.Fatalf("certification %+v, want /P %d over %d bytes", c, p, len(orig))
			}
			capture := func(opts Options) ([]byte, error) {
				u, err := NewUpdate(orig, "certified.pdf", opts)
				if err != nil {
					t.Fatal(err)
				}
				id := webcapture.RawID("0123456789abcdef")
				set, err := u.AddContentSet(&webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: []webcapture.Ref{d.Pages[0].Ref},
					Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a.example/"}}}})
				if err != nil {
					t.Fatal(err)
				}
				if err := u.SetNameTree("IDS", []NameEntry{{Key: string(id), Sets: []webcapture.Ref{set}}}, TreeShape{Hex: true}); err != nil {
					t.Fatal(err)
				}
				return u.Bytes()
			}
			out, err := capture(Options{})
			if p > 0 {
				var ce *CertifiedError
				if !errors.As(err, &ce) || !errors.Is(err, ErrCertified) || !strings.Contains(err.Error(), fmt.Sprintf("DocMDP /P %d", p)) {
					t.Fatalf("update of a certified file: %v, want a CertifiedError naming /P %d", err, p)
				}
				if out, err = capture(Options{AllowCertified: true}); err != nil {
					t.Fatal(err)
				}
			} else if err != nil {
				t.Fatal(err)
			}
			d2, err := ReadBytes(out, "captured.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if c := d2.Certification; p > 0 && (c == nil || !c.WebCaptureAfter) {
				t.Errorf("after the update: %+v, want Web Capture after the certification", c)
			}
			checkQPDF(t, out, 2)
		})
	}
}

// Signatures keep verifying after an update: pdfsig gives every signature
// of each signed real file the same validation before and after pages are
// appended (the signed bytes are kept as they are).
func TestRealWorldSignaturesStillVerify(t *testing.T) {
	pdfsig, err := exec.LookPath("pdfsig")
	if err != nil {
		t.Skip("pdfsig (poppler-utils) is not installed")
	}
	files, _ := sharedtest.RealWorld(t)
	validation := regexp.MustCompile(`(?m)^\s*- Signature Validation: (.*)$`)
	verify := func(t *testing.T, b []byte) []string {
		p := filepath.Join(t.TempDir(), "f.pdf")
		os.WriteFile(p, b, 0o644)
		out, _ := exec.Command(pdfsig, p).CombinedOutput()
		var v []string
		for _, m := range validation.FindAllSubmatch(out, -1) {
			v = append(v, string(m[1]))
		}
		return v
	}
	signed, withSignatures := 0, 0
	for _, f := range files {
		orig, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		before := verify(t, orig)
		if len(before) == 0 {
			continue
		}
		withSignatures++
		t.Run(filepath.Base(f), func(t *testing.T) {
			// Every file with a signature pdfsig validates is updated: an
			// error fails.
			u, err := NewUpdate(orig, filepath.Base(f), Options{AllowCertified: true})
			if err != nil {
				t.Fatalf("NewUpdate: %v", err)
			}
			if _, _, err := u.AppendPages(printedFile(), "printed.pdf"); err != nil {
				t.Fatalf("AppendPages: %v", err)
			}
			u.replace(u.root(), mustCatalog(t, u))
			out, err := u.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			signed++
			if after := verify(t, out); strings.Join(after, "|") != strings.Join(before, "|") {
				t.Errorf("pdfsig before %q, after %q", before, after)
			} else {
				t.Logf("%d signatures: %q", len(after), after)
			}
		})
	}
	if signed == 0 || signed != withSignatures {
		t.Errorf("%d of the %d real files with signatures updated: every one must be", signed, withSignatures)
	}
}

func mustCatalog(t *testing.T, u *Update) types.Dict {
	t.Helper()
	o, err := u.lookup(u.root())
	if err != nil {
		t.Fatal(err)
	}
	return copyDict(o.(types.Dict))
}
