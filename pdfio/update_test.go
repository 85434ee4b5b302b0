package pdfio

import (
	"bytes"
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
	"github.com/webcap/webcap/webcapture"
)

// plain builds a PDF with n pages and no Web Capture structure.
func plain(n int, xrefStream bool) []byte {
	b := pb.New()
	b.XRefStream, b.ObjectStreams = xrefStream, xrefStream
	pagesRoot, _ := b.PageTree(n, nil)
	b.Info = b.Add(pb.D("Producer", pb.Lit("original")))
	b.ID = [2]string{"0123456789abcdef", "fedcba9876543210"}
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
	return b.Bytes()
}

// addCapture adds a page set per page with the given IDs, and IDS and URLS
// trees, to orig as an incremental update.
func addCapture(t *testing.T, orig []byte, ids []string, shape TreeShape) []byte {
	t.Helper()
	u, err := NewUpdate(orig, "orig.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	root := u.root()
	cat, _ := u.lookup(root)
	catalog := types.Dict{}
	for k, v := range cat.(types.Dict) {
		catalog[k] = v
	}
	d, _ := ReadBytes(orig, "orig.pdf", Options{})
	var idsE, urlsE []treeEntry
	for i, p := range d.Pages {
		id := ids[i]
		ref := *types.NewIndirectRef(p.Ref.Num, p.Ref.Gen)
		po, _ := u.lookup(ref)
		page := types.Dict{}
		for k, v := range po.(types.Dict) {
			page[k] = v
		}
		page["ID"] = hexString(id)
		u.replace(ref, page)
		url := fmt.Sprintf("http://www.example.com/p%04d.html", i)
		cs := u.add(types.Dict{"S": types.Name("SPS"), "ID": hexString(id), "O": types.Array{ref},
			"SI": types.Dict{"AU": literalString(url)}})
		idsE = append(idsE, treeEntry{Key: id, Value: cs})
		urlsE = append(urlsE, treeEntry{Key: url, Value: cs})
	}
	shape.Hex = true
	idsRoot, err := buildNameTree(idsE, shape, u.alloc)
	if err != nil {
		t.Fatal(err)
	}
	shape.Hex = false
	urlsRoot, _ := buildNameTree(urlsE, shape, u.alloc)
	catalog["Names"] = u.add(types.Dict{"IDS": idsRoot, "URLS": urlsRoot})
	catalog["SpiderInfo"] = types.Dict{"V": types.Float(1.0)}
	u.replace(root, catalog)
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestUpdateRoundTrip(t *testing.T) {
	for _, xs := range []bool{false, true} {
		for _, shape := range []TreeShape{{}, {Leaf: 2, Fan: 2}, {Leaf: 1, Fan: 3}} {
			t.Run(fmt.Sprintf("xrefstream=%v/leaf=%d", xs, shape.Leaf), func(t *testing.T) {
				keys := append([]string{}, trickyKeys...)
				orig := plain(len(keys), xs)
				out := addCapture(t, orig, keys, shape)
				if !bytes.HasPrefix(out, orig) {
					t.Fatal("the original bytes are not a prefix of the output")
				}
				d := read(t, out, Options{})
				noDefects(t, d)
				if d.IDS == nil || len(d.IDS.Entries) != len(keys) || d.URLS == nil || len(d.URLS.Entries) != len(keys) {
					t.Fatalf("trees: %+v %+v", d.IDS, d.URLS)
				}
				for i, p := range d.Pages {
					if p.ID == nil || string(*p.ID) != keys[i] {
						t.Errorf("page %d ID % X, want % X", p.Number, p.ID, keys[i])
					}
				}
				got := map[string]bool{}
				for _, e := range d.IDS.Entries {
					got[e.Key] = true
					if len(e.Sets) != 1 || string(*e.Sets[0].ID) != e.Key {
						t.Errorf("key % X: set %+v", e.Key, e.Sets)
					}
				}
				for _, k := range keys {
					if !got[k] {
						t.Errorf("key % X lost", k)
					}
				}
				checkQPDF(t, out, len(keys))
			})
		}
	}
}

func checkQPDF(t *testing.T, file []byte, pages int) {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		return
	}
	p := filepath.Join(t.TempDir(), "out.pdf")
	os.WriteFile(p, file, 0o644)
	out, err := exec.Command(qpdf, "--check", p).CombinedOutput()
	if err != nil || !bytes.Contains(out, []byte("No syntax or stream encoding errors")) || bytes.Contains(out, []byte("WARNING")) {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
	if pdfinfo, err := exec.LookPath("pdfinfo"); err == nil {
		out, err := exec.Command(pdfinfo, p).CombinedOutput()
		if err != nil || !regexp.MustCompile(fmt.Sprintf(`(?m)^Pages:\s+%d$`, pages)).Match(out) {
			t.Errorf("pdfinfo: %v\n%s", err, out)
		}
	}
}

func TestBuildNameTreeShape(t *testing.T) {
	for _, n := range []int{0, 1, 64, 65, 1000, 4097} {
		var es []treeEntry
		for i := range n {
			es = append(es, treeEntry{Key: fmt.Sprintf("k%06d", i), Value: types.Integer(i)})
		}
		var nodes []types.Dict
		root, err := buildNameTree(es, TreeShape{}, func(d types.Dict) types.IndirectRef {
			nodes = append(nodes, d)
			return *types.NewIndirectRef(len(nodes), 0)
		})
		if err != nil {
			t.Fatal(err)
		}
		if int(root.ObjectNumber) != len(nodes) {
			t.Errorf("n=%d: the root is not allocated last", n)
		}
		leaves, min, max := 0, 1<<30, 0
		for _, d := range nodes {
			if a, ok := d["Names"].(types.Array); ok {
				leaves++
				min, max = minInt(min, len(a)/2), maxInt(max, len(a)/2)
			}
		}
		if n > 64 && (max > 64 || max-min > 1) {
			t.Errorf("n=%d: leaves of %d to %d entries", n, min, max)
		}
		if want := (n + 63) / 64; n > 0 && leaves != want {
			t.Errorf("n=%d: %d leaves, want %d", n, leaves, want)
		}
	}
	if _, err := buildNameTree([]treeEntry{{Key: "a"}, {Key: "a"}}, TreeShape{}, func(types.Dict) types.IndirectRef { return types.IndirectRef{} }); err == nil {
		t.Error("duplicate keys built")
	}
}

func minInt(a, b int) int {
	if a < b {
		return a
	}
	return b
}

func maxInt(a, b int) int {
	if a > b {
		return a
	}
	return b
}

func TestUpdateRefusesEncrypted(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "enc.pdf")
	os.WriteFile(in, plain(1, false), 0o644)
	if b, err := exec.Command(qpdf, "--encrypt", "", "owner", "256", "--", in, out).CombinedOutput(); err != nil {
		t.Skipf("qpdf --encrypt: %v %s", err, b)
	}
	enc, _ := os.ReadFile(out)
	if _, err := NewUpdate(enc, "enc.pdf", Options{}); err == nil || !strings.Contains(err.Error(), "encrypted") {
		t.Errorf("NewUpdate of an encrypted file: %v", err)
	}
}

// The appended bytes grow linearly with what is added: bytes per set stay
// within a few percent from 500 to 8,000 sets.
func TestUpdateGrowsLinearly(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 8,000-page files")
	}
	var perSet []float64
	for _, n := range []int{500, 2000, 8000} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("%016d", i)
		}
		orig := plain(n, false)
		out := addCapture(t, orig, keys, TreeShape{})
		perSet = append(perSet, float64(len(out)-len(orig))/float64(n))
	}
	t.Logf("appended bytes per set at 500, 2000, 8000 sets: %.1f %.1f %.1f", perSet[0], perSet[1], perSet[2])
	for _, p := range perSet[1:] {
		if p > perSet[0]*1.05 || p < perSet[0]*0.95 {
			t.Errorf("bytes per set vary: %v", perSet)
		}
	}
}

func TestXRefAt(t *testing.T) {
	long := "<</Type/XRef/Size 9000/W[1 3 1]/Index[" + strings.Repeat("17 1 ", 2000) + "]/Length 0>>"
	for _, tc := range []struct {
		name string
		at   string
		want bool
	}{
		{"table", "xref\n0 1\n0000000000 65535 f \ntrailer\n<<>>", true},
		{"table cut short", "xref\n0 2\n0000000000 65535 f \ntrailer\n<<>>", false},
		{"stream", "5 0 obj\n<</Type/XRef/Size 6/W[1 2 1]/Length 0>>\nstream\n", true},
		// A merged file's dictionary runs far past any fixed window.
		{"stream with a long dictionary", "5 0 obj\n" + long + "\nstream\n", true},
		{"type last, after nested dictionaries", "5 0 obj <</DecodeParms<</Columns 5/Predictor 12>>/ID[<AB> <CD>]/Type /XRef>>stream\n", true},
		{"comment before the dictionary", "5 0 obj % the xref\n<</Type/XRef>>\nstream\n", true},
		{"an ordinary object", "5 0 obj\n<</Type/Page>>\nendobj\n", false},
		{"XRef only in a string", "5 0 obj\n<</Title(/Type/XRef)/Length 0>>\nstream\n", false},
		{"XRef in a string with an escaped paren", "5 0 obj\n<</T(\\) /Type/XRef)/Length 0>>\nstream\n", false},
		{"XRef in a comment", "5 0 obj\n<</Length 0 % /Type/XRef\n>>\nstream\n", false},
		{"no stream", "5 0 obj\n<</Type/XRef/Length 0>>\nendobj\n", false},
		{"unclosed dictionary", "5 0 obj\n<</Type/XRef/Length 0\nstream\n", false},
		{"not an object", "trailer <</Type/XRef>>", false},
		{"deep nesting", "5 0 obj\n" + strings.Repeat("<<", 10000), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := xrefAt([]byte(tc.at)); got != tc.want {
				t.Errorf("xrefAt(%.60q) = %v, want %v", tc.at, got, tc.want)
			}
		})
	}
}

// TestUpdateLongXRefDictionary: a cross-reference stream whose dictionary
// is kilobytes long (a long /Index, as pdfcpu's merge of many printed pages
// writes, or an update of many scattered objects) must be found, and the
// file updated again (a capture of 16 pages or more failed when the check
// read only the object's first 4 KB).
func TestUpdateLongXRefDictionary(t *testing.T) {
	const pages = 1500
	orig := plain(pages, true)
	d, err := ReadBytes(orig, "orig.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewUpdate(orig, "orig.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Every other page changes: the update's /Index has a pair for each.
	for i := 0; i < len(d.Pages); i += 2 {
		ref := *types.NewIndirectRef(d.Pages[i].Ref.Num, d.Pages[i].Ref.Gen)
		o, err := u.lookup(ref)
		if err != nil {
			t.Fatal(err)
		}
		u.replace(ref, o)
	}
	once, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	off, err := lastStartXRef(once)
	if err != nil {
		t.Fatalf("the update's own cross-reference stream is not found: %v", err)
	}
	if i := bytes.Index(once[off:], []byte("stream")); i < 4096 {
		t.Fatalf("the cross-reference dictionary is %d bytes: the test wants one past 4 KB", i)
	}
	u, err = NewUpdate(once, "once.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	cat, err := u.lookup(u.root())
	if err != nil {
		t.Fatal(err)
	}
	u.replace(u.root(), cat)
	twice, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(twice, once) {
		t.Error("the second update changed the first one's bytes")
	}
	checkQPDF(t, twice, pages)
}

// FuzzXRefAt: the cross-reference check never panics, and accepts only
// what starts with a table or an indirect object.
func FuzzXRefAt(f *testing.F) {
	f.Add([]byte("5 0 obj\n<</Type/XRef/W[1 2 1]/T(a\\)b)/D<</A<0F>>>>>\nstream\n"))
	f.Add([]byte("xref\n0 1\n0000000000 65535 f \ntrailer\n<<>>"))
	f.Add([]byte("5 0 obj <<%>>\n/Type/XRef>>stream"))
	f.Fuzz(func(t *testing.T, b []byte) {
		if xrefAt(b) {
			s := bytes.TrimLeft(b, "\x00\t\n\f\r ")
			if !bytes.HasPrefix(s, []byte("xref")) && !regexp.MustCompile(`^\d+\s+\d+\s+obj`).Match(s) {
				t.Errorf("accepted %q", b)
			}
		}
	})
}

// No new object reuses a number, in every builder variant.
func TestNewObjectNumbers(t *testing.T) {
	for _, xs := range []bool{false, true} {
		t.Run(fmt.Sprintf("plain xrefstream=%v", xs), func(t *testing.T) { checkNewNumbers(t, "plain.pdf", plain(3, xs)) })
		t.Run(fmt.Sprintf("capture xrefstream=%v", xs), func(t *testing.T) {
			checkNewNumbers(t, "capture.pdf", addCapture(t, plain(3, xs), []string{"0123456789abcdef", "fedcba9876543210", "0000000000000000"}, TreeShape{}))
		})
	}
	for _, name := range pb.Samples() {
		t.Run(name, func(t *testing.T) {
			orig, err := pb.Sample(name)
			if err != nil {
				t.Fatal(err)
			}
			checkNewNumbers(t, name, orig)
		})
	}
	t.Run("merged", func(t *testing.T) {
		merged := joinNew(t, plain(2, true), plain(1, false), printedFile())
		checkNewNumbers(t, "merged.pdf", merged)
	})
}

// An encrypted file opens with its user or owner password; without one the
// error is ErrEncrypted, with a wrong one ErrWrongPassword (qpdf encrypts).
// Neither is Invalid: the file is not at fault.
func TestPasswords(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.pdf"), filepath.Join(dir, "enc.pdf")
	os.WriteFile(in, plain(1, false), 0o644)
	if b, err := exec.Command(qpdf, "--encrypt", "user", "owner", "256", "--", in, out).CombinedOutput(); err != nil {
		t.Fatalf("qpdf --encrypt: %v %s", err, b)
	}
	for _, tc := range []struct {
		name, password string
		want           error
	}{
		{"user", "user", nil},
		{"owner", "owner", nil},
		{"none", "", ErrEncrypted},
		{"wrong", "nope", ErrWrongPassword},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d, err := Open(out, Options{Password: tc.password})
			switch {
			case tc.want == nil && err != nil:
				t.Errorf("Open(password %q) = %v, want no error", tc.password, err)
			case tc.want == nil && !d.Encrypted:
				t.Errorf("Open(password %q): Encrypted = false", tc.password)
			case tc.want != nil && !errors.Is(err, tc.want):
				t.Errorf("Open(password %q) = %v, want %v", tc.password, err, tc.want)
			case tc.want != nil && invalid(err):
				t.Errorf("Open(password %q): Invalid() = true; a missing password is no finding about the file", tc.password)
			}
		})
	}
}

// Bytes returns the buffer the objects were written to (no copy), and
// what it returned stays as it was: a second call gives the same bytes,
// and objects written after it go to a copy, for both kinds of
// cross-reference section.
func TestBytesStaysAsReturned(t *testing.T) {
	for _, xs := range []bool{false, true} {
		t.Run(fmt.Sprintf("xrefstream=%v", xs), func(t *testing.T) {
			orig := plain(2, xs)
			u, err := NewUpdate(orig, "in.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			d, err := u.Document()
			if err != nil {
				t.Fatal(err)
			}
			if err := u.SetID(d.Pages[0].Ref, webcapture.RawID("0123456789abcdef")); err != nil {
				t.Fatal(err)
			}
			first, err := u.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			kept := bytes.Clone(first)
			if again, err := u.Bytes(); err != nil || !bytes.Equal(again, kept) {
				t.Fatalf("a second Bytes differs (%v)", err)
			}
			if err := u.SetID(d.Pages[1].Ref, webcapture.RawID("fedcba9876543210")); err != nil {
				t.Fatal(err)
			}
			last, err := u.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(first, kept) {
				t.Error("writing after Bytes changed what it returned")
			}
			if !bytes.HasPrefix(last, orig) || len(last) <= len(kept) {
				t.Errorf("the last output (%d bytes) is not the original (%d) and more than the first (%d)", len(last), len(orig), len(kept))
			}
			r := read(t, last, Options{})
			for i, want := range []string{"0123456789abcdef", "fedcba9876543210"} {
				if p := r.Pages[i]; p.ID == nil || string(*p.ID) != want {
					t.Errorf("page %d /ID %v, want %q", i+1, p.ID, want)
				}
			}
		})
	}
}

// TestAppendXRefLine: a cross-reference line is what fmt's
// "%010d %05d n \n" writes, for every width of offset and generation.
func TestAppendXRefLine(t *testing.T) {
	for _, e := range []xrefEntry{
		{off: 0}, {off: 9, gen: 1}, {off: 1234567890, gen: 65535}, {off: 9999999999},
		{off: 12345678901, gen: 123456}, {off: 1 << 40, gen: 7}, {off: -5, gen: -1}, {off: 17, gen: 99999},
	} {
		got := string(appendXRefLine(nil, e))
		want := fmt.Sprintf("%010d %05d n \n", e.off, e.gen)
		if got != want {
			t.Errorf("appendXRefLine(%+v) = %q, want %q", e, got, want)
		}
	}
}

// TestAppendInPlace: an update written in the room after the original's
// bytes (AppendInPlace) is the file Bytes makes without it, byte for
// byte: in that array when it fits (the original ending its last line or
// not), copied when the room is short, never changed by what is written
// after it was returned; Result reads it as it reads the copy.
func TestAppendInPlace(t *testing.T) {
	update := func(orig []byte, inPlace bool, page int) (*Update, []byte) {
		u, err := NewUpdate(orig, "in.pdf", Options{})
		if err != nil {
			t.Fatal(err)
		}
		if inPlace {
			u.AppendInPlace()
		}
		d, err := u.Document()
		if err != nil {
			t.Fatal(err)
		}
		if err := u.SetID(d.Pages[page].Ref, webcapture.RawID("0123456789abcdef")); err != nil {
			t.Fatal(err)
		}
		out, err := u.Bytes()
		if err != nil {
			t.Fatal(err)
		}
		return u, out
	}
	for _, xs := range []bool{false, true} {
		for _, nl := range []bool{true, false} {
			orig := plain(2, xs)
			if !nl {
				orig = bytes.TrimRight(orig, "\r\n")
			}
			_, want := update(orig, false, 0)
			for _, room := range []int{0, 1, 40, len(want) - len(orig), len(want) - len(orig) + 100} {
				t.Run(fmt.Sprintf("xrefstream=%v/newline=%v/room=%d", xs, nl, room), func(t *testing.T) {
					given := append(make([]byte, 0, len(orig)+room), orig...)
					u, out := update(given, true, 0)
					if !bytes.Equal(out, want) {
						t.Fatalf("the output differs from Bytes' without room (%d bytes, want %d)", len(out), len(want))
					}
					fits := room >= len(want)-len(orig)
					if inPlace := &out[0] == &given[:1][0]; inPlace != fits {
						t.Errorf("output in the given array: %v, want %v", inPlace, fits)
					}
					kept := bytes.Clone(out)
					if again, err := u.Bytes(); err != nil || !bytes.Equal(again, kept) {
						t.Fatalf("a second Bytes differs (%v)", err)
					}
					d, err := u.Document()
					if err != nil {
						t.Fatal(err)
					}
					if err := u.SetID(d.Pages[1].Ref, webcapture.RawID("fedcba9876543210")); err != nil {
						t.Fatal(err)
					}
					last, err := u.Bytes()
					if err != nil {
						t.Fatal(err)
					}
					if !bytes.Equal(out, kept) {
						t.Error("writing after Bytes changed what it returned")
					}
					if !bytes.HasPrefix(last, orig) || len(last) <= len(kept) {
						t.Errorf("the last output (%d bytes) is not the original (%d) and more than the first (%d)", len(last), len(orig), len(kept))
					}
					u, out = update(append(make([]byte, 0, len(orig)+room), orig...), true, 1)
					result, err := u.Result(out, "out.pdf")
					if err != nil {
						t.Fatal(err)
					}
					if u.parsedWhole {
						t.Error("Result parsed the output whole")
					}
					if p := result.Pages[1]; p.ID == nil || string(*p.ID) != "0123456789abcdef" {
						t.Errorf("Result: page 2 /ID %v", p.ID)
					}
				})
			}
		}
	}
}
