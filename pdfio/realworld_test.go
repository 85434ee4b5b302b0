package pdfio

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/internal/sharedtest"
)

// Every real Acrobat file of ../shared/realworld reads, and what the reader
// finds matches the corpus README's analysis of each file.
func TestRealWorld(t *testing.T) {
	dir := sharedtest.Dir(t, "realworld")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no files in", dir)
	}
	type want struct {
		pages, sets, ids, urls, imgs, imgIDs, defects int
	}
	// From realworld/README.md: the summary table and per-file details.
	known := map[string]want{
		"dss__DSS-2025.pdf": {1, 1, 1, 1, 0, 0, 0},
		"endesive__pdf-adobe-webcapture-x509.rsa_sha1.pdf": {3, 24, 24, 24, 27, 23, 0},
		"pdfcpu__sample01.pdf":                             {3, 24, 24, 24, 27, 23, 0},
		"format-corpus__webCapture.pdf":                    {3, 1, 1, 1, 96, 0, 0},
		"PdfPig__0000505.pdf":                              {4, 9, 9, 9, 8, 8, 0},
		"pdfbox__PDFBOX-5840-410609.pdf":                   {6, 1, 1, 1, 0, 0, 0},
		"pdfium__feature_linearized_loading.pdf":           {2, 2, 2, 2, 0, 0, 0},
		"pdfium__encrypted.pdf":                            {1, 1, 1, 1, 0, 0, 0},
		"pdfbox__test.unc.pdf":                             {4, 1, 1, 1, 2, 0, 0},
		"tika__testPDF_Version.4.x.pdf":                    {1, 0, 0, 0, 0, 0, 0},
		"OpenPDF__indirect_object_in_rectangle.pdf":        {1, 1, 1, 0, 0, 0, 2},
	}
	read := 0
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			opts := Options{}
			if name == "pdfium__encrypted.pdf" {
				opts.Password = "1234" // the README's user password
			}
			d, err := Open(f, opts)
			if err != nil {
				t.Fatalf("Open: %v", err)
			}
			read++
			if name == "pikepdf__378014596.pdf" { // class D: fuzzed, truncated
				if len(d.Defects) == 0 {
					t.Error("a damaged file read without a defect")
				}
				return
			}
			if d.Info == nil || d.Info.Version == nil {
				t.Errorf("no SpiderInfo /V")
			}
			for _, cs := range d.Sets {
				if cs.ID == nil || len(*cs.ID) != 16 {
					t.Errorf("set %s: ID %v, want 16 bytes", cs.Ref, cs.ID)
				}
				for _, k := range cs.IDSKeys {
					if k != string(*cs.ID) {
						t.Errorf("set %s: IDS key % X differs from its ID", cs.Ref, k)
					}
				}
			}
			for _, p := range d.Pages {
				if p.ID != nil && len(*p.ID) != 16 {
					t.Errorf("page %d: ID of %d bytes", p.Number, len(*p.ID))
				}
			}
			w, ok := known[name]
			if !ok {
				if len(d.Defects) != 0 {
					t.Errorf("defects in an intact file: %+v", d.Defects)
				}
				return
			}
			imgIDs := 0
			for _, im := range d.Images {
				if im.ID != nil {
					imgIDs++
				}
			}
			got := want{len(d.Pages), len(d.Sets), len(d.IDS.Entries), 0, len(d.Images), imgIDs, len(d.Defects)}
			if d.URLS != nil {
				got.urls = len(d.URLS.Entries)
			}
			if got != w {
				t.Errorf("read %+v, the README says %+v; defects %+v", got, w, d.Defects)
			}
		})
	}
	t.Logf("read %d real files", read)
}

// An encrypted file without its password gets ErrEncrypted, naming the file.
func TestRealWorldEncryptedNeedsPassword(t *testing.T) {
	f := filepath.Join(sharedtest.Dir(t, "realworld"), "pdfium__encrypted.pdf")
	if _, err := os.Stat(f); err != nil {
		t.Skip("pdfium__encrypted.pdf is absent")
	}
	_, err := Open(f, Options{})
	if err == nil {
		t.Fatal("opened without its password")
	}
	t.Logf("without a password: %v", err)
}

// Printed pages append to every real file webcap can read: the pages are
// added after the file's own, its bytes are kept, and qpdf accepts the
// result. An encrypted file is refused as such (ErrEncryptedWrite); any
// other error fails, and every readable file must be updated.
func TestRealWorldAppendPages(t *testing.T) {
	files, readable := sharedtest.RealWorld(t)
	printed := printedFile()
	updated, refused := 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			sharedtest.Unreadable(t, f)
			orig, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if pw, ok := sharedtest.RealWorldPasswords[name]; ok {
				if _, err := NewUpdate(orig, name, Options{Password: pw}); !errors.Is(err, ErrEncryptedWrite) {
					t.Fatalf("NewUpdate of an encrypted file: %v, want ErrEncryptedWrite", err)
				}
				refused++
				return
			}
			u, err := NewUpdate(orig, name, Options{})
			if err != nil {
				t.Fatalf("NewUpdate: %v", err)
			}
			before, err := u.Document()
			if err != nil {
				t.Fatal(err)
			}
			added, _, err := u.AppendPages(printed, "printed.pdf")
			if err != nil {
				t.Fatalf("AppendPages: %v", err)
			}
			out, err := u.Bytes()
			if c := before.Certification; c != nil {
				// A certified file: refused, unless asked for knowingly.
				if !errors.Is(err, ErrCertified) {
					t.Fatalf("an update of a file certified with DocMDP /P %d: %v, want ErrCertified", c.Permission, err)
				}
				if u, err = NewUpdate(orig, name, Options{AllowCertified: true}); err != nil {
					t.Fatal(err)
				}
				if added, _, err = u.AppendPages(printed, "printed.pdf"); err != nil {
					t.Fatal(err)
				}
				out, err = u.Bytes()
			}
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(out, orig) {
				t.Fatal("the file's bytes changed")
			}
			d, err := ReadBytes(out, name, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if n := len(before.Pages); len(d.Pages) != n+2 || d.Pages[n].Ref != added[0] || d.Pages[n+1].Ref != added[1] {
				t.Fatalf("%d pages, want %d then the 2 added", len(d.Pages), n)
			}
			checkQPDF(t, out, len(d.Pages))
			updated++
		})
	}
	if updated+refused != readable {
		t.Errorf("%d of the %d readable real files updated, %d refused as encrypted: every one must be", updated, readable, refused)
	}
}

// qpdfObjects returns the object numbers qpdf finds in a file (every
// object, cross-reference streams included), or nil without qpdf.
func qpdfObjects(t *testing.T, file []byte, password string) map[int]bool {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		return nil
	}
	p := filepath.Join(t.TempDir(), "in.pdf")
	os.WriteFile(p, file, 0o644)
	args := []string{"--json=2", "--json-key=qpdf", p}
	if password != "" {
		args = append([]string{"--password=" + password}, args...)
	}
	out, err := exec.Command(qpdf, args...).Output()
	if len(out) == 0 {
		t.Skipf("qpdf cannot read it: %v", err) // pikepdf__378014596.pdf alone
	}
	var doc struct {
		Qpdf []map[string]json.RawMessage `json:"qpdf"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Qpdf) < 2 {
		t.Fatalf("qpdf --json: %v", err)
	}
	nums := map[int]bool{}
	for k := range doc.Qpdf[1] {
		var n, g int
		if _, err := fmt.Sscanf(k, "obj:%d %d R", &n, &g); err == nil {
			nums[n] = true
		}
	}
	return nums
}

// checkNewNumbers adds objects to a file and checks, by qpdf's list of the
// file's objects, that none takes a number the file uses.
func checkNewNumbers(t *testing.T, name string, orig []byte) {
	t.Helper()
	password := ""
	if name == "pdfium__encrypted.pdf" {
		password = "1234"
	}
	used := qpdfObjects(t, orig, password)
	if used == nil {
		t.Skip("qpdf is not installed")
	}
	u, err := NewUpdate(orig, name, Options{Password: password})
	if errors.Is(err, ErrEncryptedWrite) {
		t.Skipf("not writable: %v", err) // webcap refuses to write encrypted files
	}
	if err != nil {
		t.Fatal(err)
	}
	for range 3 {
		ref := u.add(types.Dict{"Type": types.Name("Test")})
		if n := ref.ObjectNumber.Value(); used[n] {
			t.Errorf("a new object took number %d, which the file uses", n)
		}
	}
}

// No new object reuses a number: not that of an object of the file, nor
// of one of its cross-reference streams (in the signed dss__pkcs7.pdf the
// new page once replaced its cross-reference stream, object 59).
func TestRealWorldNewObjectNumbers(t *testing.T) {
	dir := sharedtest.Dir(t, "realworld")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			orig, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			checkNewNumbers(t, filepath.Base(f), orig)
		})
	}
}
