package pdfio

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// tricky keys: every byte a string decoder is tempted to change.
var trickyKeys = []string{
	"\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f",
	"()\\\\()\\\\()\\\\()\\\\",
	"\xFE\xFF\x00\x41\xD8\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01", // FE FF, lone surrogate
	"\xFE\xFF\x00T\x00e\x00x\x00t\x00!\x00!\x00!",                      // FE FF, valid UTF-16
	"\xEF\xBB\xBF\x80\x81\x82\x83\x84\x85\x86\x87\x88\x89\x8a\x8b\x8c",
	"\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0",
	"\\n\\123\\z\r\n\r\x5c\x5c\x28\x29abcd",
	"\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c\x5c",
}

type variant struct {
	name   string
	xs, os bool
	key    func(string) any
}

var variants = []variant{
	{"classic/literal", false, false, pb.LitKey},
	{"classic/escaped", false, false, pb.EscKey},
	{"classic/hex", false, false, pb.HexKey},
	{"xrefstream/hex", true, false, pb.HexKey},
	{"objstm/literal", true, true, pb.LitKey},
	{"objstm/escaped", true, true, pb.EscKey},
}

// capture builds a document with one page set per key (page i in set i,
// page /ID = key), an IDS tree of the given leaf size and a URLS tree.
func capture(v variant, keys []string, leaf int) []byte {
	b := pb.New()
	b.XRefStream, b.ObjectStreams = v.xs, v.os
	pagesRoot, pages := b.PageTree(len(keys), func(i int) pb.Dict { return pb.D("ID", v.key(keys[i]), "PZ", 1.5) })
	var ids, urls []pb.KV
	for i, k := range keys {
		u := fmt.Sprintf("http://example.com/%02d", i)
		cs := b.Add(pb.D("S", pb.Name("SPS"), "ID", v.key(k), "O", pb.Array{pages[i]},
			"SI", pb.D("AU", pb.Lit(u), "TS", pb.Lit("D:20150402085105Z")), "CT", pb.Lit("text/html"),
			"TS", pb.Lit("D:20150402085105Z"), "T", pb.Lit(fmt.Sprintf("page %d", i))))
		ids = append(ids, pb.KV{Key: k, Value: cs})
		urls = append(urls, pb.KV{Key: u, Value: cs})
	}
	names := b.Add(pb.D("IDS", b.NameTree(ids, leaf, 2, v.key), "URLS", b.NameTree(urls, leaf, 2, pb.LitKey)))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", pb.D("V", 1.25)))
	return b.Bytes()
}

func read(t *testing.T, file []byte, opts Options) *Document {
	t.Helper()
	d, err := ReadBytes(file, "test.pdf", opts)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func noDefects(t *testing.T, d *Document) {
	t.Helper()
	for _, df := range d.Defects {
		t.Errorf("unexpected defect: %s %s: %s", df.Kind, df.Path, df.Message)
	}
}

// Keys, content-set IDs and page IDs read back byte for byte, in every
// variant of the file, in flat and multi-level trees.
func TestByteExactKeys(t *testing.T) {
	for _, v := range variants {
		for _, leaf := range []int{100, 2, 1} {
			t.Run(fmt.Sprintf("%s/leaf%d", v.name, leaf), func(t *testing.T) {
				d := read(t, capture(v, trickyKeys, leaf), Options{})
				noDefects(t, d)
				if d.IDS == nil || len(d.IDS.Entries) != len(trickyKeys) {
					t.Fatalf("IDS = %+v, want %d entries", d.IDS, len(trickyKeys))
				}
				got := map[string]bool{}
				for _, e := range d.IDS.Entries {
					got[e.Key] = true
					if len(e.Sets) != 1 || e.Sets[0].ID == nil || string(*e.Sets[0].ID) != e.Key {
						t.Errorf("IDS key %X: set ID does not equal the key", e.Key)
					}
				}
				for i, k := range trickyKeys {
					if !got[k] {
						t.Errorf("key %d % X was not read back", i, k)
					}
					p := d.Pages[i]
					if p.ID == nil || string(*p.ID) != k || p.Number != i+1 || p.PZ == nil || *p.PZ != 1.5 {
						t.Errorf("page %d: ID % X, PZ %v", i+1, p.ID, p.PZ)
					}
				}
				wantDepth := 1
				if leaf < len(trickyKeys) {
					wantDepth = 3
				}
				if d.IDS.Depth < wantDepth {
					t.Errorf("IDS depth %d, want at least %d", d.IDS.Depth, wantDepth)
				}
				if len(d.URLS.Entries) != len(trickyKeys) || len(d.Sets) != len(trickyKeys) {
					t.Errorf("URLS %d entries, %d sets", len(d.URLS.Entries), len(d.Sets))
				}
				for _, cs := range d.Sets {
					if len(cs.IDSKeys) != 1 || len(cs.URLSKeys) != 1 || cs.Orphan {
						t.Errorf("set %s: IDS keys %d, URLS keys %d, orphan %v", cs.Ref, len(cs.IDSKeys), len(cs.URLSKeys), cs.Orphan)
					}
					if nums := d.PageNumbers(cs); len(nums) != 1 || nums[0] == 0 {
						t.Errorf("set %s pages %v", cs.Ref, nums)
					}
				}
			})
		}
	}
}

func TestUnescapeLiteral(t *testing.T) {
	rows := []struct{ in, want string }{
		{`plain`, "plain"},
		{`a\nb\rc\td\be\ff`, "a\nb\rc\td\be\ff"},
		{`\(\)\\`, `()\`},
		{`\0\00\000\1234`, "\x00\x00\x00\x534"},
		{`\777`, "\xff"},   // high-order overflow ignored
		{`\8\z\q`, "8zq"},  // unknown escape: the byte
		{"a\\\nb", "ab"},   // continuation, LF
		{"a\\\r\nb", "ab"}, // continuation, CR LF
		{"a\\\rb", "ab"},   // continuation, CR
		{"a\r\nb\rc\nd", "a\nb\nc\nd"},
		{"end\\", "end"},
		{"\x00\xff\\\x00", "\x00\xff\x00"},
	}
	for _, r := range rows {
		if got := unescapeLiteral(r.in); got != r.want {
			t.Errorf("unescapeLiteral(%q) = %q, want %q", r.in, got, r.want)
		}
	}
}

// defectOf returns the defects of kind k.
func defectsOf(d *Document, k DefectKind) []Defect {
	var out []Defect
	for _, df := range d.Defects {
		if df.Kind == k {
			out = append(out, df)
		}
	}
	return out
}

// tree builds a file whose IDS tree root is made by mk.
func tree(mk func(b *pb.Builder, cs pb.Ref) pb.Ref) []byte {
	b := pb.New()
	pagesRoot, pages := b.PageTree(1, nil)
	cs := b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex("0123456789abcdef"), "O", pb.Array{pages[0]}, "SI", pb.D("AU", pb.Lit("http://a/"))))
	names := b.Add(pb.D("IDS", mk(b, cs)))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names))
	return b.Bytes()
}

func TestTreeDefects(t *testing.T) {
	leaf := func(b *pb.Builder, lo, hi string, kv ...any) pb.Ref {
		return b.Add(pb.D("Limits", pb.Array{pb.Lit(lo), pb.Lit(hi)}, "Names", pb.Array(kv)))
	}
	rows := []struct {
		name    string
		mk      func(b *pb.Builder, cs pb.Ref) pb.Ref
		kind    DefectKind
		entries int
	}{
		{"unsorted", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Lit("b"), cs, pb.Lit("a"), cs}))
		}, TreeUnsorted, 2},
		{"unsorted across leaves", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{leaf(b, "c", "d", pb.Lit("c"), cs, pb.Lit("d"), cs), leaf(b, "a", "b", pb.Lit("a"), cs, pb.Lit("b"), cs)}))
		}, TreeUnsorted, 4},
		{"duplicate", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Lit("a"), cs, pb.Lit("a"), cs}))
		}, TreeDuplicate, 2},
		{"duplicate hex and literal", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Lit("a"), cs, pb.Hex("a"), cs}))
		}, TreeDuplicate, 2},
		{"wrong limits", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{leaf(b, "a", "c", pb.Lit("a"), cs, pb.Lit("b"), cs)}))
		}, TreeLimits, 2},
		{"missing limits", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{b.Add(pb.D("Names", pb.Array{pb.Lit("a"), cs}))}))
		}, TreeLimits, 1},
		{"limits not strings", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{b.Add(pb.D("Limits", pb.Array{1, 2}, "Names", pb.Array{pb.Lit("a"), cs}))}))
		}, TreeLimits, 1},
		{"root limits", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Limits", pb.Array{pb.Lit("a"), pb.Lit("a")}, "Names", pb.Array{pb.Lit("a"), cs}))
		}, TreeRootLimits, 1},
		{"odd names", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Lit("a"), cs, pb.Lit("b")}))
		}, TreeOddNames, 1},
		{"key not a string", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Name("a"), cs, pb.Lit("b"), cs}))
		}, TreeKeyType, 1},
		{"dangling kid", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{pb.Ref(999), leaf(b, "a", "a", pb.Lit("a"), cs)}))
		}, Dangling, 1},
		{"dangling value", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Lit("a"), pb.Ref(999)}))
		}, Dangling, 1},
		{"cycle", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			root := b.Reserve()
			mid := b.Add(pb.D("Limits", pb.Array{pb.Lit("a"), pb.Lit("a")}, "Kids", pb.Array{root, leaf(b, "a", "a", pb.Lit("a"), cs)}))
			b.Set(root, pb.D("Kids", pb.Array{mid}))
			return root
		}, Cycle, 1},
		{"self cycle", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			self := b.Reserve()
			b.Set(self, pb.D("Limits", pb.Array{pb.Lit("a"), pb.Lit("a")}, "Kids", pb.Array{self}))
			return b.Add(pb.D("Kids", pb.Array{self}))
		}, Cycle, 0},
		{"shared node", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			l := leaf(b, "a", "a", pb.Lit("a"), cs)
			return b.Add(pb.D("Kids", pb.Array{l, l}))
		}, TreeShared, 1},
		{"kids not array", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", 42))
		}, TreeNode, 0},
		{"kids and names", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{leaf(b, "a", "a", pb.Lit("a"), cs)}, "Names", pb.Array{pb.Lit("z"), cs}))
		}, TreeNode, 1},
		{"empty inner node", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Kids", pb.Array{b.Add(pb.D("Limits", pb.Array{pb.Lit("a"), pb.Lit("a")}))}))
		}, TreeNode, 0},
		{"root not a dict", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.Array{})
		}, TreeNode, 0},
		{"value not a set", func(b *pb.Builder, cs pb.Ref) pb.Ref {
			return b.Add(pb.D("Names", pb.Array{pb.Lit("a"), 42, pb.Lit("b"), pb.Array{cs, pb.Lit("x")}}))
		}, TreeValue, 2},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			d := read(t, tree(r.mk), Options{})
			if len(defectsOf(d, r.kind)) == 0 {
				t.Errorf("no %s defect; defects: %+v", r.kind, d.Defects)
			}
			if d.IDS == nil || len(d.IDS.Entries) != r.entries {
				t.Errorf("IDS entries = %v, want %d", d.IDS, r.entries)
			}
			for _, df := range d.Defects {
				if df.Message == "" || df.Path == "" {
					t.Errorf("defect without message or path: %+v", df)
				}
			}
		})
	}
}

// The residue Acrobat leaves: empty << >> trees, no defect.
func TestEmptyTrees(t *testing.T) {
	d := read(t, tree(func(b *pb.Builder, cs pb.Ref) pb.Ref { return b.Add(pb.D()) }), Options{})
	noDefects(t, d)
	if d.IDS == nil || len(d.IDS.Entries) != 0 {
		t.Errorf("IDS = %+v", d.IDS)
	}
	// The set is still found, as an orphan.
	if len(d.Sets) != 1 || !d.Sets[0].Orphan {
		t.Errorf("sets = %+v, want one orphan", d.Sets)
	}
}

func TestBounds(t *testing.T) {
	deep := func(n int) func(b *pb.Builder, cs pb.Ref) pb.Ref {
		return func(b *pb.Builder, cs pb.Ref) pb.Ref {
			node := b.Add(pb.D("Limits", pb.Array{pb.Lit("a"), pb.Lit("a")}, "Names", pb.Array{pb.Lit("a"), cs}))
			for range n {
				node = b.Add(pb.D("Limits", pb.Array{pb.Lit("a"), pb.Lit("a")}, "Kids", pb.Array{node}))
			}
			return b.Add(pb.D("Kids", pb.Array{node}))
		}
	}
	d := read(t, tree(deep(100)), Options{MaxTreeDepth: 10})
	if len(defectsOf(d, TooDeep)) != 1 {
		t.Errorf("depth 100 with a bound of 10: defects %+v", d.Defects)
	}
	d = read(t, tree(deep(30)), Options{MaxTreeNodes: 5})
	if len(defectsOf(d, TooMany)) != 1 {
		t.Errorf("31 nodes with a bound of 5: defects %+v", d.Defects)
	}
	d = read(t, tree(deep(30)), Options{})
	noDefects(t, d)
	if d.IDS.Depth != 32 || len(d.IDS.Entries) != 1 {
		t.Errorf("depth %d, %d entries", d.IDS.Depth, len(d.IDS.Entries))
	}
}

func TestErrorsNameTheFile(t *testing.T) {
	dir := t.TempDir()
	good := capture(variants[0], trickyKeys[:2], 10)
	cases := map[string][]byte{
		"empty.pdf":   {},
		"garbage.pdf": []byte("this is not a PDF at all\n"),
		"header.pdf":  []byte("%PDF-1.7\n"),
	}
	for name, data := range cases {
		p := filepath.Join(dir, name)
		os.WriteFile(p, data, 0o644)
		_, err := Open(p, Options{})
		var pe *Error
		if !errors.As(err, &pe) || pe.File != p || !strings.Contains(err.Error(), p) {
			t.Errorf("Open(%s) = %v, want an *Error naming the file", name, err)
		}
	}
	if _, err := Open(filepath.Join(dir, "missing.pdf"), Options{}); err == nil || !strings.HasSuffix(err.Error(), "missing.pdf: no such file or directory") {
		t.Errorf("Open(missing) = %v", err)
	}
	if _, err := ReadBytes(good, "big.pdf", Options{MaxFileSize: 100}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MaxFileSize: %v", err)
	} else if !invalid(err) {
		t.Errorf("MaxFileSize: Invalid() = false, want true (a limit is a finding about the file)")
	}
}

// An unreadable file's message is its real cause, "FILE: what is wrong",
// the operation not repeated; a file that is no PDF is ErrNotPDF, one that
// is a PDF but does not parse is not. Both are Invalid (a finding about the
// file, exit 4); a directory is not (it could not be read, exit 3).
func TestUnreadableCause(t *testing.T) {
	dir := t.TempDir()
	for _, tc := range []struct {
		name string
		data []byte // nil: a directory
		want string
		not  bool // errors.Is(err, ErrNotPDF)
		bad  bool // Error.Invalid
	}{
		{"empty.pdf", []byte{}, "not a PDF: the file is empty", true, true},
		{"text.pdf", []byte("hello\n"), "not a PDF: no %PDF- header", true, true},
		{"late.pdf", append(make([]byte, 1100), "%PDF-1.7\n"...), "not a PDF: no %PDF- header", true, true},
		{"header.pdf", []byte("%PDF-1.7"), "not a PDF: a malformed %PDF- header", true, true},
		{"broken.pdf", []byte("%PDF-1.7\n1 0 obj\n<<>>\nendobj\n"), "cannot be parsed: ", false, true},
		{"dir.pdf", nil, "is a directory", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(dir, tc.name)
			if tc.data == nil {
				os.Mkdir(p, 0o755)
			} else {
				os.WriteFile(p, tc.data, 0o644)
			}
			_, err := Open(p, Options{})
			var pe *Error
			if !errors.As(err, &pe) || !pe.Unreadable() || !strings.HasPrefix(err.Error(), p+": "+tc.want) {
				t.Fatalf("Open(%s) = %v, want %q", tc.name, err, p+": "+tc.want)
			}
			if errors.Is(err, ErrNotPDF) != tc.not {
				t.Errorf("Open(%s): errors.Is(ErrNotPDF) = %v", tc.name, !tc.not)
			}
			if invalid(err) != tc.bad {
				t.Errorf("Open(%s): Invalid() = %v, want %v", tc.name, !tc.bad, tc.bad)
			}
		})
	}
}

// invalid reports whether err is an *Error that is Invalid.
func invalid(err error) bool {
	var pe *Error
	return errors.As(err, &pe) && pe.Invalid()
}

// Crafted files never crash or hang the reader.
func TestCraftedFiles(t *testing.T) {
	good := capture(variants[0], trickyKeys[:3], 2)
	huge := func() []byte {
		b := pb.New()
		pagesRoot, _ := b.PageTree(1, nil)
		b.Add(&pb.Stream{Dict: pb.D("Length", int64(99999999999)), Data: []byte("x")})
		b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
		return b.Bytes()
	}()
	nested := func() []byte {
		b := pb.New()
		pagesRoot, _ := b.PageTree(1, nil)
		b.Add(pb.Raw(strings.Repeat("<</A ", 5000) + strings.Repeat(">>", 5000)))
		b.Add(pb.Raw(strings.Repeat("<</A ", 40))) // malformed: never closed
		b.Add(pb.Raw(strings.Repeat("[", 100000))) // malformed
		b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
		return b.Bytes()
	}()
	cyclicPages := func() []byte {
		b := pb.New()
		root := b.Reserve()
		b.Set(root, pb.D("Type", pb.Name("Pages"), "Kids", pb.Array{root}, "Count", 1))
		b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
		return b.Bytes()
	}()
	refLoop := func() []byte {
		b := pb.New()
		pagesRoot, _ := b.PageTree(1, nil)
		a := b.Reserve()
		c := b.Add(a)
		b.Set(a, c)
		b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", a))
		return b.Bytes()
	}()
	files := map[string][]byte{
		"truncated half":    good[:len(good)/2],
		"truncated tail":    good[:len(good)-30],
		"no xref":           good[:strings.Index(string(good), "xref")],
		"huge length":       huge,
		"nested and broken": nested,
		"cyclic page tree":  cyclicPages,
		"reference loop":    refLoop,
	}
	for name, data := range files {
		t.Run(name, func(t *testing.T) {
			d, err := ReadBytes(data, name, Options{Timeout: 20e9})
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) {
					t.Errorf("error %v is not an *Error", err)
				}
				return
			}
			if name == "cyclic page tree" && len(defectsOf(d, Cycle)) == 0 {
				t.Errorf("no cycle defect: %+v", d.Defects)
			}
			if name == "reference loop" && d.Info != nil {
				t.Errorf("SpiderInfo read through a reference loop: %+v", d.Info)
			}
		})
	}
}

// Reading never modifies the file.
func TestOpenDoesNotModify(t *testing.T) {
	p := filepath.Join(t.TempDir(), "capture.pdf")
	data, _ := pb.Sample("capture")
	if err := os.WriteFile(p, data, 0o444); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(p)
	if _, err := Open(p, Options{}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(p)
	got, _ := os.ReadFile(p)
	if string(got) != string(data) || !after.ModTime().Equal(before.ModTime()) || after.Mode() != before.Mode() {
		t.Error("Open changed the file")
	}
}

// A kid that is the root itself is one cycle, not a second walk.
func TestRootCycle(t *testing.T) {
	d := read(t, tree(func(b *pb.Builder, cs pb.Ref) pb.Ref {
		root := b.Reserve()
		leaf := b.Add(pb.D("Limits", pb.Array{pb.Lit("a"), pb.Lit("a")}, "Names", pb.Array{pb.Lit("a"), cs}))
		b.Set(root, pb.D("Kids", pb.Array{leaf, root}))
		return root
	}), Options{})
	if len(defectsOf(d, Cycle)) != 1 || len(d.Defects) != 1 || len(d.IDS.Entries) != 1 {
		t.Errorf("defects %+v, %d entries", d.Defects, len(d.IDS.Entries))
	}
}

// Settings that reach a cyclic graph with fan-out (here, the page tree
// through /Parent) are copied once, bounded: no path explosion.
func TestSettingsGraphIsBounded(t *testing.T) {
	b := pb.New()
	pagesRoot, _ := b.PageTree(8, nil)
	cmd := b.Add(pb.D("URL", pb.Lit("http://a/"), "S", pb.D("G", pb.D("Pages", pagesRoot))))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "SpiderInfo", pb.D("V", 1.0, "C", pb.Array{cmd})))
	start := time.Now()
	d := read(t, b.Bytes(), Options{})
	if took := time.Since(start); took > 2*time.Second {
		t.Errorf("reading took %v", took)
	}
	if n := len(defectsOf(d, TooDeep)); n > 1 {
		t.Errorf("%d too-deep defects, want at most one", n)
	}
	if len(defectsOf(d, SharedSettings)) == 0 {
		t.Error("the page tree under the settings is referred to from the catalog: want a shared-settings defect")
	}
}
