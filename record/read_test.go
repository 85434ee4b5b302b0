package record

import (
	"bytes"
	"reflect"
	"strconv"
	"testing"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// readBack reads res's output as the build command does (Options.ReadBack
// and Result.Read: no second parse) and checks it against a parse of the bytes
// (pdfio.ReadBytes): the same document, the same audit. It returns the
// parsed one.
func readBack(t *testing.T, res *Result) *pdfio.Document {
	t.Helper()
	if res.u == nil {
		t.Fatal("Apply without Options.ReadBack: Read would parse")
	}
	parsed, err := pdfio.ReadBytes(res.Output, "out.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	reused, err := res.Read("out.pdf")
	if err != nil {
		t.Fatalf("Result.Read: %v", err)
	}
	if !reflect.DeepEqual(reused, parsed) {
		t.Errorf("Result.Read's document differs from a parse of the output:\n%s", firstDiff(reflect.ValueOf(reused), reflect.ValueOf(parsed), "doc", 0))
	}
	a, b := audit.Check(reused, audit.Options{}), audit.Check(parsed, audit.Options{})
	if !reflect.DeepEqual(a, b) {
		t.Errorf("Result.Read's audit differs from the parse's:\n%v\n%v", a, b)
	}
	return parsed
}

// firstDiff names the first place where a and b differ.
func firstDiff(a, b reflect.Value, path string, depth int) string {
	if depth > 30 {
		return path + ": too deep"
	}
	if a.IsValid() != b.IsValid() || a.IsValid() && a.Type() != b.Type() {
		return path + ": types differ"
	}
	if !a.IsValid() {
		return ""
	}
	switch a.Kind() {
	case reflect.Pointer, reflect.Interface:
		if a.IsNil() || b.IsNil() {
			if a.IsNil() != b.IsNil() {
				return path + ": one is nil"
			}
			return ""
		}
		return firstDiff(a.Elem(), b.Elem(), path, depth+1)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := firstDiff(a.Field(i), b.Field(i), path+"."+a.Type().Field(i).Name, depth+1); d != "" {
				return d
			}
		}
		return ""
	case reflect.Slice, reflect.Array:
		if a.Len() != b.Len() {
			return path + ": lengths differ"
		}
		for i := range a.Len() {
			if d := firstDiff(a.Index(i), b.Index(i), path+"["+itoa(i)+"]", depth+1); d != "" {
				return d
			}
		}
		return ""
	case reflect.Map:
		if a.Len() != b.Len() {
			return path + ": map sizes differ"
		}
		return ""
	}
	if a.CanInterface() && b.CanInterface() && !reflect.DeepEqual(a.Interface(), b.Interface()) {
		return path + ": values differ"
	}
	return ""
}

func itoa(i int) string { return strconv.Itoa(i) }

// Apply on an update handed over (Options.Update, as a capture hands the
// one its pages were merged with) writes what Apply writes when it parses
// the input itself, and the update Result.Continue makes of its output
// continues to the same bytes a parse of the output would.
func TestApplyOnUpdate(t *testing.T) {
	const n = 30
	dir := t.TempDir()
	input := pdfbuild.BigPlain(n)
	manifest := func() *Manifest {
		m := &Manifest{name: "m.json", dir: dir, Input: "in.pdf", InputData: input}
		for i := range n {
			m.PageSets = append(m.PageSets, PageSet{Pages: strconv.Itoa(i + 1), URL: "http://www.example.com/p" + strconv.Itoa(i) + ".txt",
				Data: []byte("page " + strconv.Itoa(i)), ContentType: "text/plain", Captured: "2026-11-21T10:30:00Z"})
		}
		return m
	}
	want, err := Apply(manifest(), Options{ReadBack: true})
	if err != nil {
		t.Fatal(err)
	}
	u, err := pdfio.NewUpdate(input, "in.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := Apply(manifest(), Options{Update: u, ReadBack: true})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got.Output, want.Output) {
		t.Fatalf("Apply on an update wrote %d bytes, Apply on the input %d: not the same", len(got.Output), len(want.Output))
	}
	readBack(t, want)
	next, err := got.Continue(pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := pdfio.NewUpdate(got.Output, "in.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, u := range []*pdfio.Update{next, fresh} {
		d, err := u.Document()
		if err != nil {
			t.Fatal(err)
		}
		if err := u.SetID(d.Pages[0].Ref, webcapture.RawID("0123456789abcdef")); err != nil {
			t.Fatal(err)
		}
	}
	a, err := next.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	b, err := fresh.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a, b) {
		t.Errorf("the continued update wrote %d bytes, a parse's update %d: not the same", len(a), len(b))
	}
}
