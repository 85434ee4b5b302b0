package pdfio

import (
	"bytes"
	"compress/zlib"
	"crypto/md5"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/webcap/webcap/internal/limits"
	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// memAttachment is an attachment of data held in memory.
func memAttachment(name string, data []byte) Attachment {
	return Attachment{Name: name, MediaType: WARCMediaType, Relationship: "Source", Description: "the web archive",
		ModDate: time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC), Size: int64(len(data)), MD5: md5.Sum(data),
		Open: func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(data)), nil }}
}

// attachData is bytes a naive reader would stop early in: "endstream",
// "%%EOF" and binary.
func attachData(n int) []byte {
	r := rand.New(rand.NewPCG(1, 2))
	b := []byte("WARC/1.1\r\nendstream\nendobj\n%%EOF\n")
	for len(b) < n {
		b = append(b, byte(r.UintN(256)))
	}
	return b[:n]
}

func attach(t *testing.T, orig []byte, as ...Attachment) []byte {
	t.Helper()
	u, err := NewUpdate(orig, "orig.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range as {
		if err := u.Attach(a); err != nil {
			t.Fatal(err)
		}
	}
	var out bytes.Buffer
	n, err := u.WriteTo(&out)
	if err != nil {
		t.Fatal(err)
	}
	if n != int64(out.Len()) {
		t.Errorf("WriteTo = %d, wrote %d bytes", n, out.Len())
	}
	if !bytes.HasPrefix(out.Bytes(), orig) {
		t.Fatal("the original bytes are not a prefix of the output")
	}
	return out.Bytes()
}

// An attachment is written as a document-level associated file that reads
// back whole, beside the capture's trees, in both cross-reference flavours;
// a second one keeps the first (/AF and /EmbeddedFiles), its key made
// unique; qpdf finds the file sound, and pdfdetach extracts the bytes.
func TestAttach(t *testing.T) {
	keys := []string{"0123456789abcdef", "fedcba9876543210", "ABCDEFGHIJKLMNOP"}
	for _, v := range []variant{variants[0], variants[4]} {
		t.Run(v.name, func(t *testing.T) {
			data := attachData(200 << 10)
			orig := capture(v, keys, 2)
			out := attach(t, orig, memAttachment("site.warc.gz", data))
			out2 := attach(t, out, memAttachment("site.warc.gz", data[:1000]))
			two := read(t, attach(t, orig, memAttachment("a.warc", data[:10]), memAttachment("a.warc", data[:20])), Options{})
			if len(two.Attachments) != 2 || two.Attachments[1].Key != "a.warc (2)" || two.Attachments[1].Size != 20 {
				t.Errorf("two attachments in one update: %+v", two.Attachments)
			}
			d := read(t, out2, Options{})
			noDefects(t, d)
			if d.IDS == nil || len(d.IDS.Entries) != len(keys) || d.URLS == nil || len(d.URLS.Entries) != len(keys) {
				t.Fatalf("trees lost: %+v %+v", d.IDS, d.URLS)
			}
			if len(d.Attachments) != 2 {
				t.Fatalf("%d attachments, want 2", len(d.Attachments))
			}
			for i, want := range []struct {
				key  string
				data []byte
			}{{"site.warc.gz", data}, {"site.warc.gz (2)", data[:1000]}} {
				a := d.Attachments[i]
				sum := md5.Sum(want.data)
				if a.Key != want.key || a.Name != "site.warc.gz" || !a.InAF || a.Relationship != "Source" || a.MediaType != WARCMediaType ||
					a.Size != int64(len(want.data)) || !bytes.Equal(a.CheckSum, sum[:]) || a.Description != "the web archive" ||
					a.ModDate == nil || !a.ModDate.Valid || len(a.Filters) != 0 || a.Stream.IsZero() {
					t.Errorf("attachment %d: %+v", i, a)
				}
				rc, err := a.Open(1 << 30)
				if err != nil {
					t.Fatal(err)
				}
				got, _ := io.ReadAll(rc)
				if !bytes.Equal(got, want.data) {
					t.Errorf("attachment %d: %d bytes read back, not the %d written", i, len(got), len(want.data))
				}
			}
			if !bytes.Contains(out, []byte("/Subtype /application#2Fwarc")) {
				t.Error("the media type is not the name /application#2Fwarc")
			}
			checkQPDF(t, out2, len(keys))
			checkDetach(t, out2, "site.warc.gz", data)
		})
	}
}

// checkDetach lists the file's attachments with pdfdetach and saves the
// first: its bytes are data.
func checkDetach(t *testing.T, file []byte, name string, data []byte) {
	t.Helper()
	pdfdetach, err := exec.LookPath("pdfdetach")
	if err != nil {
		return
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "in.pdf")
	os.WriteFile(p, file, 0o644)
	out, err := exec.Command(pdfdetach, "-list", p).CombinedOutput()
	if err != nil || !strings.Contains(string(out), name) {
		t.Errorf("pdfdetach -list: %v\n%s", err, out)
	}
	x := filepath.Join(dir, "x")
	if out, err := exec.Command(pdfdetach, "-save", "1", "-o", x, p).CombinedOutput(); err != nil {
		t.Fatalf("pdfdetach -save: %v\n%s", err, out)
	}
	if got, _ := os.ReadFile(x); !bytes.Equal(got, data) {
		t.Errorf("pdfdetach -save: %d bytes, not the %d embedded", len(got), len(data))
	}
}

// A file older than 1.7 gets a catalog /Version 1.7; a 1.7 file keeps its
// catalog as it was but for /AF and /Names.
func TestAttachVersion(t *testing.T) {
	for _, tc := range []struct{ header, want string }{{"1.4", "1.7"}, {"1.7", ""}} {
		orig := plainVersion(tc.header)
		d := read(t, attach(t, orig, memAttachment("a.warc", []byte("x"))), Options{})
		if d.Catalog != tc.want || d.Version != tc.header {
			t.Errorf("header %s: header %s, catalog /Version %q, want %q", tc.header, d.Version, d.Catalog, tc.want)
		}
	}
}

// The bytes written are the bytes measured, or the write fails.
func TestAttachChangedFile(t *testing.T) {
	data := []byte("0123456789")
	for _, tc := range []struct {
		name string
		now  []byte
		want string
	}{
		{"shorter", data[:5], "5 bytes, not the 10"},
		{"longer", append(append([]byte{}, data...), 'x'), "more than the 10 bytes"},
		{"other", []byte("9876543210"), "MD5"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := memAttachment("a.warc", data)
			a.Open = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(tc.now)), nil }
			u, err := NewUpdate(plain(1, false), "orig.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Attach(a); err != nil {
				t.Fatal(err)
			}
			if _, err := u.WriteTo(io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("WriteTo = %v, want %q", err, tc.want)
			}
		})
	}
}

func TestAttachRefuses(t *testing.T) {
	u, err := NewUpdate(plain(1, false), "orig.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Attachment{
		{Size: 1, Open: memAttachment("", nil).Open},
		{Name: "a", Size: -1, Open: memAttachment("", nil).Open},
		{Name: "a"},
		{Name: "a", Relationship: "Evidence", Open: memAttachment("", nil).Open},
	} {
		if err := u.Attach(a); err == nil {
			t.Errorf("Attach(%+v) = nil, want an error", a)
		}
	}
}

// Open inflates /FlateDecode within its cap: a bomb stops at max.
func TestAttachedFileOpenCap(t *testing.T) {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	f := &AttachedFile{Filters: []string{"FlateDecode"}, raw: z.Bytes()}
	rc, err := f.Open(1000)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(io.Discard, rc)
	var se *limits.SizeError
	if !errors.As(err, &se) || n != 1000 {
		t.Errorf("read %d bytes, %v; want 1000 and a *limits.SizeError", n, err)
	}
	rc, _ = f.Open(1 << 20)
	if n, err := io.Copy(io.Discard, rc); n != 1<<20 || err != nil {
		t.Errorf("read %d bytes, %v; want all", n, err)
	}
	f = &AttachedFile{raw: make([]byte, 10)}
	if _, err := f.Open(9); !errors.As(err, &se) {
		t.Errorf("Open(9) of 10 bytes = %v, want a *limits.SizeError", err)
	}
	f = &AttachedFile{Filters: []string{"LZWDecode"}, raw: make([]byte, 10)}
	if _, err := f.Open(100); err == nil {
		t.Error("Open of an LZW stream: no error")
	}
}

// plainVersion is plain(1, false) with the header's version.
func plainVersion(v string) []byte {
	b := pb.New()
	b.Version = v
	pagesRoot, _ := b.PageTree(1, nil)
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
	return b.Bytes()
}

// A file qpdf attached a file to keeps it when we attach another: both
// are in /Names /EmbeddedFiles (qpdf's alone not in /AF), and pdfdetach
// lists both.
func TestAttachKeepsOthers(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	dir := t.TempDir()
	in, other, withOther := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "other.txt"), filepath.Join(dir, "other.pdf")
	os.WriteFile(in, plain(1, false), 0o644)
	os.WriteFile(other, []byte("another file"), 0o644)
	if out, err := exec.Command(qpdf, in, "--add-attachment", other, "--key=other.txt", "--", withOther).CombinedOutput(); err != nil {
		t.Fatalf("qpdf --add-attachment: %v\n%s", err, out)
	}
	orig, _ := os.ReadFile(withOther)
	out := attach(t, orig, memAttachment("site.warc", []byte("WARC/1.1\r\n")))
	d := read(t, out, Options{})
	if len(d.Attachments) != 2 {
		t.Fatalf("%d attachments, want 2: %+v", len(d.Attachments), d.Attachments)
	}
	got := map[string]bool{}
	for _, a := range d.Attachments {
		got[a.Key] = a.InAF
	}
	if inAF, ok := got["other.txt"]; !ok || inAF {
		t.Errorf("qpdf's attachment: %v", got)
	}
	if inAF := got["site.warc"]; !inAF {
		t.Errorf("ours: %v", got)
	}
	checkQPDF(t, out, 1)
	if pdfdetach, err := exec.LookPath("pdfdetach"); err == nil {
		p := filepath.Join(dir, "out.pdf")
		os.WriteFile(p, out, 0o644)
		list, _ := exec.Command(pdfdetach, "-list", p).CombinedOutput()
		if !strings.Contains(string(list), "2 embedded files") {
			t.Errorf("pdfdetach -list:\n%s", list)
		}
	}
}
