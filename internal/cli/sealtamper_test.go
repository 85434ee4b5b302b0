package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfcheck"
	"github.com/webcap/webcap/internal/sealoracle"
	"github.com/webcap/webcap/internal/testpki"
	"github.com/webcap/webcap/pdfio"
)

// Issue 28's tamper cases, on a capture sealed as evidence (webcap seal
// --embed-warc W --sign-cert … --timestamp-url … --ltv: its WARC, a PAdES
// B-LTA signature, a document timestamp): one byte changed inside a page's
// content stream, inside the embedded WARC, inside a signed range (the
// header's binary comment), and a page appended after the seals. Each
// audit exits 1 with exactly the error findings that name the change, and
// the oracles agree: openssl no longer verifies the seals over their
// ranges (or, for the page appended, over the whole file), pdfsig no
// longer calls the signature valid over the whole document. The sealed
// file itself is clean, and the oracles say so.
func TestSealTamper(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed (apt-get install qpdf): it finds the page's content stream")
	}
	dir := t.TempDir()
	p, f := testpki.Start(t, dir)
	pdf, archive := builtCapture(t, dir, true, nil)
	in, warcPath, sealed := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "site.warc.gz"), filepath.Join(dir, "sealed.pdf")
	os.WriteFile(in, pdf, 0o644)
	os.WriteFile(warcPath, archive, 0o644)
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"seal", in, "--embed-warc", warcPath, "--sign-cert", f.Chain, "--sign-key", f.Key,
		"--timestamp-url", p.TSAURL(), "--ltv", "-o", sealed}, ios); code != 0 {
		t.Fatalf("seal: exit %d\n%s%s", code, stdout, stderr)
	}
	good, _ := os.ReadFile(sealed)

	// Where the bytes to change are: page 1's content stream (qpdf says
	// which object and where it is), the embedded WARC's data.
	contentAt := func() int {
		js, err := exec.Command(qpdf, "--json", "--json-key=pages", in).Output()
		if err != nil {
			t.Fatal(err)
		}
		var pages struct {
			Pages []struct{ Contents []string } `json:"pages"`
		}
		if err := json.Unmarshal(js, &pages); err != nil || len(pages.Pages) == 0 || len(pages.Pages[0].Contents) == 0 {
			t.Fatalf("qpdf --json: %v", err)
		}
		num, _, _ := strings.Cut(pages.Pages[0].Contents[0], " ")
		xref, _ := exec.Command(qpdf, "--show-xref", in).Output()
		m := regexp.MustCompile(`(?m)^` + num + `/0: uncompressed; offset = (\d+)`).FindSubmatch(xref)
		if m == nil {
			t.Fatalf("qpdf --show-xref: no offset for object %s", num)
		}
		off, _ := strconv.Atoi(string(m[1]))
		i := bytes.Index(good[off:], []byte("stream"))
		return off + i + len("stream\n") + 2
	}()
	warcAt := bytes.Index(good, archive[:64]) + len(archive)/2
	if warcAt < len(archive)/2 {
		t.Fatal("the embedded WARC's bytes are not in the sealed file")
	}
	flip := func(at int) func([]byte) []byte {
		return func(b []byte) []byte { b = bytes.Clone(b); b[at] ^= 0x20; return b }
	}
	appended, err := pdfcheck.AppendPage(good)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		tamper func([]byte) []byte
		errors []string // the error findings, each rule once
		names  string   // a regexp the findings match: what they name
		whole  bool     // the seals still verify over their ranges, not over the whole file
	}{
		{"sealed", func(b []byte) []byte { return b }, nil, `WC-SEAL-VERIFIED .*signature.*\n(?s:.*)WC-SEAL-VERIFIED .*document timestamp`, false},
		{"page-content", flip(contentAt), []string{"WC-SEAL-DIGEST"}, `error WC-SEAL-DIGEST .*signature`, false},
		{"embedded-warc", flip(warcAt), []string{"WC-EMBED-CHECKSUM", "WC-EMBED-UNREADABLE", "WC-SEAL-DIGEST"}, `error WC-EMBED-CHECKSUM .*site\.warc\.gz`, false},
		{"signed-range", flip(12), []string{"WC-SEAL-DIGEST"}, `error WC-SEAL-DIGEST .*document timestamp`, false},
		{"page-appended", func([]byte) []byte { return appended }, []string{"WC-SEAL-AFTER"}, `error WC-SEAL-AFTER .*; pages 4, 5, 6 `, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.tamper(good)
			path := filepath.Join(t.TempDir(), tc.name+".pdf")
			if err := os.WriteFile(path, file, 0o644); err != nil {
				t.Fatal(err)
			}
			ios, _, stdout, stderr := Test()
			code := Main(context.Background(), []string{"audit", "--in-process", "--trust", f.CA, path}, ios)
			report := stdout.String() + stderr.String()
			var got []string
			for _, m := range regexp.MustCompile(`(?m): error (WC-[A-Z0-9-]+) `).FindAllStringSubmatch(report, -1) {
				if !slices.Contains(got, m[1]) {
					got = append(got, m[1])
				}
			}
			slices.Sort(got)
			want := slices.Clone(tc.errors)
			slices.Sort(want)
			wantCode := exitOK
			if len(want) > 0 {
				wantCode = exitFailed
			}
			if code != wantCode || !slices.Equal(got, want) || !regexp.MustCompile(tc.names).MatchString(report) {
				t.Errorf("audit: exit %d, error findings %q; want exit %d, %q, matching %s:\n%s", code, got, wantCode, want, tc.names, report)
			}
			// The oracles: openssl over each seal's range, and over the
			// whole file but its /Contents; pdfsig.
			d, err := pdfio.ReadBytes(file, path, pdfio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Seals) != 2 {
				t.Fatalf("%d seals read, want 2", len(d.Seals))
			}
			for _, s := range d.Seals {
				ok := verifies(t, file, s, s.ByteRange, f)
				whole := []int64{0, s.ContentsAt, s.ContentsAt + s.ContentsLen, int64(len(file)) - s.ContentsAt - s.ContentsLen}
				okWhole := verifies(t, file, s, whole, f)
				switch {
				case tc.name == "sealed" && !ok:
					t.Errorf("openssl does not verify the %s seal of the sealed file", s.Type)
				case tc.name != "sealed" && !tc.whole && ok:
					t.Errorf("openssl still verifies the %s seal over its range after the change", s.Type)
				case tc.whole && (!ok || okWhole) && s.ByteRange[2]+s.ByteRange[3] < int64(len(good)):
					// (an earlier seal's range ends before the later ones)
				case tc.whole && (!ok || okWhole):
					t.Errorf("openssl on the %s seal: over its range %v, over the whole file %v; want true, false", s.Type, ok, okWhole)
				}
			}
			valid, out, err := sealoracle.Pdfsig(path)
			if errors.Is(err, sealoracle.ErrNoTool) {
				return
			}
			whole := strings.Contains(out, "Total document signed")
			if tc.name == "sealed" {
				if valid != 1 {
					t.Errorf("pdfsig: want the signature valid:\n%s", out)
				}
			} else if tc.whole {
				if !strings.Contains(out, "Not total document signed") {
					t.Errorf("pdfsig: want the signature not to cover the whole document:\n%s", out)
				}
			} else if valid != 0 && whole {
				t.Errorf("pdfsig: the signature is still valid over the whole document:\n%s", out)
			}
		})
	}
}

// verifies asks openssl whether seal s of file verifies over ranges.
func verifies(t *testing.T, file []byte, s *pdfio.Seal, ranges []int64, f testpki.Files) bool {
	t.Helper()
	data := sealoracle.Covered(file, ranges)
	if data == nil {
		return false
	}
	v, err := sealoracle.Seal(data, s.Contents, s.SubFilter, f.CA, f.TSA)
	if errors.Is(err, sealoracle.ErrNoTool) {
		t.Skip("openssl is not installed")
	}
	if err != nil {
		t.Fatal(err)
	}
	return v.OK
}
