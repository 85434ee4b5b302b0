package pdfio

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// readBoth reads b with lazyParse and with pdfcpu alone, and fails when
// the two Documents (or errors) differ; lazy says whether lazyParse read it.
func readBoth(t testing.TB, b []byte, name string) (lazy bool) {
	t.Helper()
	opts := Options{}.withDefaults()
	_, lerr := lazyParse(b, opts)
	lazy = lerr == nil
	got, gerr := ReadBytes(b, name, opts)
	opts.eager = true
	want, werr := ReadBytes(b, name, opts)
	if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
		t.Fatalf("%s: lazy read error %v, pdfcpu's %v", name, gerr, werr)
	}
	if gerr != nil {
		return lazy
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("%s (lazy %v, %v): the Documents differ:\n%s", name, lazy, lerr, docDiff(got, want))
	}
	return lazy
}

// docDiff names the first fields of two Documents that differ.
func docDiff(a, b *Document) string {
	va, vb := reflect.ValueOf(a).Elem(), reflect.ValueOf(b).Elem()
	s := ""
	for i := range va.NumField() {
		f := va.Type().Field(i)
		if !f.IsExported() {
			continue
		}
		if !reflect.DeepEqual(va.Field(i).Interface(), vb.Field(i).Interface()) {
			s += f.Name + " differs\n"
		}
	}
	if s == "" {
		s = "unexported fields differ"
	}
	return s
}

var _ = errors.Is
var _ = os.ReadFile
var _ = filepath.Join
