package pdfio

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/webcap/webcap/webcapture"
)

// TestAlongside: what the reader finds alongside is put in the document as
// if found first, and a panic there becomes the reader's internal error,
// with the stack of the goroutine where it happened.
func TestAlongside(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		r := &reader{doc: &Document{}, parallel: parallel}
		r.defect(webcapture.Ref{}, "a", BadValue, "before")
		join := r.alongside(func(fr *reader) {
			fr.defect(webcapture.Ref{}, "b", BadValue, "alongside")
			fr.page(nil, webcapture.Ref{Num: 7}, false)
			fr.indexPages()
		})
		r.defect(webcapture.Ref{}, "c", BadValue, "after")
		join()
		var got []string
		for _, d := range r.doc.Defects {
			got = append(got, d.Message)
		}
		if s := strings.Join(got, ","); s != "before,alongside,after" {
			t.Errorf("parallel %v: defects %s, want before,alongside,after", parallel, s)
		}
		if len(r.doc.Pages) != 1 || r.doc.PageOf(webcapture.Ref{Num: 7}) != r.doc.Pages[0] {
			t.Errorf("parallel %v: pages %v, want the one page found alongside", parallel, r.doc.Pages)
		}
	}

	r := &reader{doc: &Document{}, parallel: true}
	join := r.alongside(func(*reader) { panicAlongside() })
	err := func() (err *Error) {
		defer func() { err = internalError("x.pdf", recover()) }()
		join()
		return nil
	}()
	if !strings.Contains(err.Error(), "internal error: boom") || !strings.Contains(string(err.Stack), "panicAlongside") {
		t.Errorf("a panic alongside: %v, stack:\n%s\nwant the internal error, with panicAlongside in the stack", err, err.Stack)
	}
}

func panicAlongside() { panic("boom") }

// TestObjectNumbers: the table's numbers in order, and entry as pdfcpu's
// FindTableEntry, whether the numbers are dense (a slice) or not (the map).
func TestObjectNumbers(t *testing.T) {
	for _, tc := range []struct {
		name string
		nums []int
	}{
		{"empty", nil},
		{"dense", []int{0, 1, 2, 5, 3}},
		{"sparse", []int{0, 1, 1 << 30}},
		{"negative", []int{-1, 0, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			table := map[int]*model.XRefTableEntry{}
			for _, n := range tc.nums {
				table[n] = &model.XRefTableEntry{}
			}
			table[4] = nil // a number without an entry
			xt := &model.XRefTable{Table: table}
			r := &reader{xt: xt}
			// (A number without an entry may be left out: every loop
			// over the numbers skips it.)
			withEntry := func(ns []int) []int {
				return slices.DeleteFunc(slices.Clone(ns), func(n int) bool { return table[n] == nil })
			}
			var nums []int
			for i, n := range r.objectNumbers() {
				if i != len(nums) {
					t.Errorf("objectNumbers() gives %d the place %d, want %d", n, i, len(nums))
				}
				nums = append(nums, n)
			}
			if len(nums) != r.numberCount() {
				t.Errorf("numberCount() = %d, want %d", r.numberCount(), len(nums))
			}
			got, want := withEntry(nums), withEntry(slices.Sorted(maps.Keys(table)))
			if !slices.Equal(got, want) {
				t.Errorf("objectNumbers() = %v, want %v", got, want)
			}
			for _, n := range []int{-2, -1, 0, 1, 2, 3, 4, 5, 6, 1 << 30, 1<<30 + 1} {
				want, _ := xt.FindTableEntry(n, 0)
				if e := r.entry(n); e.p != want || e.c != nil {
					t.Errorf("entry(%d) = %p, want %p", n, e.p, want)
				}
			}
		})
	}
}
