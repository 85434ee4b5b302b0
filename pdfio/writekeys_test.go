package pdfio

import (
	"bytes"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// fuzzContentSet makes a content set from a fuzzer's values: s fills
// every string (the title, the URLs, the content type, the dates, the
// identifiers), shape picks which keys are present and how (one source or
// an array, an alias dictionary, chains, image-set counts, a Type, odd
// names), n the numbers.
func fuzzContentSet(s string, shape uint16, n int64) *webcapture.ContentSet {
	has := func(bit uint) bool { return shape&(1<<bit) != 0 }
	str := func(i int) string { // a part of s, different for each field
		if len(s) == 0 {
			return ""
		}
		return s[i%len(s):] + s[:i%len(s)]
	}
	cs := &webcapture.ContentSet{Subtype: webcapture.PageSet}
	if has(0) {
		cs.Subtype = webcapture.Subtype(str(1)) // a name of any bytes: # escapes
	}
	if has(1) {
		t := webcapture.Name("SpiderContentSet")
		if has(2) {
			t = webcapture.Name(str(2))
		}
		cs.Type = &t
	}
	if !has(3) {
		id := webcapture.RawID(str(3))
		cs.ID = &id
	}
	if !has(4) {
		cs.Objects = []webcapture.Ref{{Num: int(n & 0xffffff), Gen: int(n>>24) & 0xffff}, {Num: 1}}
		if has(5) {
			cs.Objects = []webcapture.Ref{} // present, empty
		}
	}
	if !has(6) {
		si := &webcapture.SourceInfo{URLs: webcapture.AliasedURLs{URL: str(4)}}
		if has(7) {
			si.URLs.Alias = true
			si.URLs.Chains = [][]string{{str(5), str(6)}, {}}
		}
		if has(8) {
			ts := webcapture.Date{Raw: str(7)}
			sub, cmd, sum := n, webcapture.Ref{Num: 7}, webcapture.RawID(str(8))
			si.Updated, si.Expires, si.Submission, si.Command, si.SHA256 = &ts, &ts, &sub, &cmd, &sum
		}
		cs.Sources = []*webcapture.SourceInfo{si}
		if has(9) {
			cs.SourceArray = true
			cs.Sources = append(cs.Sources, &webcapture.SourceInfo{URLs: webcapture.AliasedURLs{URL: str(9)}})
		}
	}
	if has(10) {
		ct, ts, t, tid := str(10), webcapture.Date{Raw: str(11)}, webcapture.Text(str(12)), webcapture.RawID(str(13))
		cs.ContentType, cs.Created, cs.Title, cs.TextID = &ct, &ts, &t, &tid
	}
	if has(11) {
		cs.RefCounts, cs.RefArray = []int64{n, -n, 1 << 62}, has(12)
		if has(13) {
			cs.RefCounts = []int64{n}
		}
	}
	if has(14) {
		cs.Sources = append(cs.Sources, &webcapture.SourceInfo{}) // no AU: an error
	}
	return cs
}

// directAndGeneric writes cs's dictionary (writeKeys) both ways: in its
// table's order (appendShaped) and as appendValue writes any dictionary;
// each with its readBack and error.
func directAndGeneric(cs *webcapture.ContentSet) (direct, generic []byte, dx, gx readBack, derr, gerr error) {
	d, err := writeKeys(&writer{&Update{}}, "content set", contentSetKeys, cs)
	if err != nil {
		return nil, nil, dx, gx, err, err
	}
	var db, gb bytes.Buffer
	derr = appendShaped(&db, d, contentSetShape, &dx, 0)
	gerr = appendValue(&gb, d, &gx, 0)
	return db.Bytes(), gb.Bytes(), dx, gx, derr, gerr
}

// FuzzDirectContentSet holds the writer in table order to the generic
// one: the same bytes, the same readBack (every string byte, every name
// byte, empty and huge values).
func FuzzDirectContentSet(f *testing.F) {
	var all strings.Builder
	for c := range 256 {
		all.WriteByte(byte(c))
	}
	for _, s := range []string{"", "a", all.String(), "(", ")", `\`, `a\`, "((x)", "\r\n", "#/ []<>", strings.Repeat("x(", 1000)} {
		for _, shape := range []uint16{0, 0xffff, 0x3fff, 1, 0x0482, 0x2c80, 0x0300} {
			f.Add(s, shape, int64(42))
		}
	}
	f.Add("x", uint16(0x0800), int64(-1<<63))
	f.Fuzz(func(t *testing.T, s string, shape uint16, n int64) {
		cs := fuzzContentSet(s, shape, n)
		direct, generic, dx, gx, derr, gerr := directAndGeneric(cs)
		if (derr == nil) != (gerr == nil) {
			t.Fatalf("direct error %v, generic error %v", derr, gerr)
		}
		if derr != nil {
			if errors.Is(gerr, ErrMissingKey) != errors.Is(derr, ErrMissingKey) {
				t.Fatalf("direct error %v, generic error %v", derr, gerr)
			}
			return
		}
		if !bytes.Equal(direct, generic) {
			t.Fatalf("direct writes\n%q\ngeneric writes\n%q", direct, generic)
		}
		if dx != gx {
			t.Fatalf("direct readBack %+v, generic %+v", dx, gx)
		}
	})
}

// TestDirectContentSetHuge writes a set of 1 MiB strings both ways.
func TestDirectContentSetHuge(t *testing.T) {
	big := strings.Repeat("(a\\b)\r", 1<<20/6)
	for _, shape := range []uint16{0, 0x0680, 0x0e80} {
		direct, generic, dx, gx, derr, gerr := directAndGeneric(fuzzContentSet(big, shape, 7))
		if derr != nil || gerr != nil || !bytes.Equal(direct, generic) || dx != gx {
			t.Errorf("shape %#x: direct (%d bytes, %+v, %v) != generic (%d bytes, %+v, %v)", shape, len(direct), dx, derr, len(generic), gx, gerr)
		}
	}
}

// TestAddContentSetKept: the value Result takes for a set is the
// dictionary writeKeys makes, and a wrong model's error is writeKeys's
// (the first wrong key in the table's order), with nothing written.
func TestAddContentSetKept(t *testing.T) {
	u, err := NewUpdate(plain(2, false), "t.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	cs := fuzzContentSet("Title (1)", 0x0680, 3)
	want, err := writeKeys(&writer{u}, "content set", contentSetKeys, cs)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := u.AddContentSet(cs); err != nil {
		t.Fatal(err)
	}
	got, ok := keptValue(u.objs.offs[len(u.objs.offs)-1].val)
	if !ok || !reflect.DeepEqual(got, want) {
		t.Errorf("kept %v, want %v", got, want)
	}
	n, next := len(u.objs.offs), u.objs.next
	bad := &webcapture.ContentSet{} // no S, no ID, no O, no SI: S is said first
	_, err = u.AddContentSet(bad)
	if err == nil || !strings.Contains(err.Error(), "content set /S:") || !errors.Is(err, ErrMissingKey) {
		t.Errorf("AddContentSet(empty) = %v, want the /S error", err)
	}
	if len(u.objs.offs) != n || u.objs.next != next {
		t.Errorf("a failed AddContentSet wrote an object")
	}
}

// TestAppendShapedOutsideTable: a dictionary with a key its table does
// not have is written as appendDictTo writes it.
func TestAppendShapedOutsideTable(t *testing.T) {
	d := types.Dict{"S": types.Name("SPS"), "Zz": types.Integer(1), "AA": types.Float(1.5)}
	var got, want bytes.Buffer
	var gx, wx readBack
	if err := appendShaped(&got, d, contentSetShape, &gx, 0); err != nil {
		t.Fatal(err)
	}
	_ = appendValue(&want, d, &wx, 0)
	if got.String() != want.String() || gx != wx {
		t.Errorf("appendShaped = %q %+v, want %q %+v", got.String(), gx, want.String(), wx)
	}
}
