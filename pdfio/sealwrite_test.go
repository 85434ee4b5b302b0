package pdfio

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

var sealRE = regexp.MustCompile(`/ByteRange \[0 (\d+) (\d+) (\d+) *\]/Contents <([0-9A-F]+)>`)

// sealsIn returns each seal's byte range and /Contents found in file.
func sealsIn(t *testing.T, file []byte) (ranges [][3]int64, contents [][]byte) {
	t.Helper()
	for _, m := range sealRE.FindAllSubmatch(file, -1) {
		var r [3]int64
		for i := range r {
			r[i], _ = strconv.ParseInt(string(m[i+1]), 10, 64)
		}
		c, err := hex.DecodeString(string(m[4]))
		if err != nil {
			t.Fatal(err)
		}
		ranges, contents = append(ranges, r), append(contents, c)
	}
	return ranges, contents
}

// fakeSign returns the SHA-256 of the covered bytes: what a signer would sign.
func fakeSign(covered io.Reader) ([]byte, error) {
	h := sha256.New()
	if _, err := io.Copy(h, covered); err != nil {
		return nil, err
	}
	return h.Sum(nil), nil
}

func TestAddSeal(t *testing.T) {
	capture, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		file []byte
	}{
		{"xref-table", pdfbuild.Web(false)},
		{"xref-stream", pdfbuild.Web(true)},
		{"capture", capture},
	} {
		t.Run(tc.name, func(t *testing.T) {
			file := tc.file
			kinds := []SealField{
				{Type: SealSig, Name: "Ünïcode signer", Reason: "evidence", M: time.Date(2026, 11, 28, 16, 0, 0, 0, time.UTC), Size: 64},
				{Type: SealDocTimeStamp, Size: 64},
			}
			for i, f := range kinds {
				u, err := NewUpdate(file, tc.name, Options{})
				if err != nil {
					t.Fatal(err)
				}
				if err := u.AddSeal(f); err != nil {
					t.Fatal(err)
				}
				if i == 1 {
					if err := u.AddDSS(DSS{Certs: [][]byte{[]byte("cert"), []byte("cert")}, OCSPs: [][]byte{[]byte("ocsp")}}); err != nil {
						t.Fatal(err)
					}
				}
				out, err := u.SealedBytes(fakeSign)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.HasPrefix(out, file) {
					t.Fatal("the update changed the original bytes")
				}
				file = out
			}
			ranges, contents := sealsIn(t, file)
			if len(ranges) != 2 {
				t.Fatalf("%d seals found, want 2", len(ranges))
			}
			for i, r := range ranges {
				a, b, c := r[0], r[1], r[2]
				end := int64(len(file))
				if i == 0 {
					end = int64(bytes.Index(file[b:], []byte("%%EOF"))) + b + 6
				}
				if file[a] != '<' || file[b-1] != '>' || b+c != end {
					t.Errorf("seal %d: ByteRange [0 %d %d %d] in a revision of %d bytes", i, a, b, c, end)
				}
				sum := sha256.Sum256(append(append([]byte{}, file[:a]...), file[b:b+c]...))
				if !bytes.Equal(contents[i][:32], sum[:]) {
					t.Errorf("seal %d: /Contents %x, want %x", i, contents[i][:32], sum)
				}
			}
			doc, err := ReadBytes(file, tc.name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			_ = doc
			for _, want := range []string{"/FT /Sig", "/T (Signature1)", "/T (Timestamp1)", "/SigFlags 3", "/Type /DocTimeStamp", "/SubFilter /ETSI.RFC3161", "/SubFilter /ETSI.CAdES.detached", "/M (D:20261128160000+00'00')", "/F 132", "/Type /DSS", "/ESIC <</BaseVersion /1.7/ExtensionLevel 5>>"} {
				if !bytes.Contains(file, []byte(want)) {
					t.Errorf("no %q in the file", want)
				}
			}
			// The store extended: what it holds is not written again.
			u, err := NewUpdate(file, tc.name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := u.AddDSS(DSS{Certs: [][]byte{[]byte("cert"), []byte("cert2")}}); err != nil {
				t.Fatal(err)
			}
			if file, err = u.Bytes(); err != nil {
				t.Fatal(err)
			}
			if n := bytes.Count(file, []byte("stream\ncert2\nendstream")); n != 1 {
				t.Errorf("the new certificate is written %d times, want 1", n)
			}
			if !bytes.Contains(file, []byte("/Version /1.7")) {
				t.Error("no /Version /1.7 in the catalog of a PDF 1.6 file with /ESIC")
			}
			if n := bytes.Count(file, []byte("stream\ncert\nendstream")); n != 1 {
				t.Errorf("the certificate is written %d times, want 1", n)
			}
			qpdfCheck(t, file)
		})
	}
}

func qpdfCheck(t *testing.T, file []byte) {
	t.Helper()
	if _, err := exec.LookPath("qpdf"); err != nil {
		return
	}
	p := filepath.Join(t.TempDir(), "f.pdf")
	if err := os.WriteFile(p, file, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("qpdf", "--check", p).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("No syntax or stream encoding errors")) {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
}

func TestSealErrors(t *testing.T) {
	file := pdfbuild.Web(false)
	for _, tc := range []struct {
		name string
		f    SealField
		sign SealSign
		want error
	}{
		{"too-small", SealField{Type: SealSig, Size: 16}, fakeSign, ErrSealContents},
		{"sign-fails", SealField{Type: SealDocTimeStamp, Size: 64}, func(io.Reader) ([]byte, error) { return nil, io.ErrUnexpectedEOF }, io.ErrUnexpectedEOF},
	} {
		t.Run(tc.name, func(t *testing.T) {
			u, err := NewUpdate(file, "web.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := u.AddSeal(tc.f); err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			out := filepath.Join(dir, "out.pdf")
			w, err := CreateOutput(out, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			err = u.WriteSealed(w, tc.sign)
			w.Close()
			if !errors.Is(err, tc.want) {
				t.Errorf("WriteSealed = %v, want %v", err, tc.want)
			}
			if ents, _ := os.ReadDir(dir); len(ents) != 0 {
				t.Errorf("left %v", ents)
			}
		})
	}
	for _, f := range []SealField{{Type: "Cert", Size: 10}, {Type: SealSig}, {Type: SealSig, Size: MaxSealContents + 1}} {
		u, _ := NewUpdate(file, "web.pdf", Options{})
		if err := u.AddSeal(f); err == nil {
			t.Errorf("AddSeal(%+v) = nil", f)
		}
	}
}

func TestWriteSealed(t *testing.T) {
	file := pdfbuild.Web(true)
	u, err := NewUpdate(file, "web.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := u.AddSeal(SealField{Type: SealDocTimeStamp, Size: 40}); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(t.TempDir(), "out.pdf")
	w, err := CreateOutput(out, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	w.Write([]byte("discarded"))
	if err := u.WriteSealed(w, fakeSign); err != nil {
		t.Fatal(err)
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(got, file) {
		t.Fatal("the original bytes are not kept")
	}
	r, c := sealsIn(t, got)
	if len(r) != 1 || r[0][1]+r[0][2] != int64(len(got)) {
		t.Fatalf("ranges %v in %d bytes", r, len(got))
	}
	sum := sha256.Sum256(append(append([]byte{}, got[:r[0][0]]...), got[r[0][1]:]...))
	if !bytes.Equal(c[0][:32], sum[:]) {
		t.Errorf("/Contents %x, want %x", c[0][:32], sum)
	}
	qpdfCheck(t, got)
}
