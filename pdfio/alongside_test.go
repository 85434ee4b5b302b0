package pdfio

import (
	"strings"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

// TestAlongside: what the reader finds alongside is put in the document as
// if found first, and a panic there becomes the reader's internal error,
// with the stack of the goroutine where it happened.
func TestAlongside(t *testing.T) {
	for _, parallel := range []bool{false, true} {
		r := &reader{doc: &Document{pageByRef: map[webcapture.Ref]*Page{}}, parallel: parallel}
		r.defect(webcapture.Ref{}, "a", BadValue, "before")
		join := r.alongside(func(fr *reader) {
			fr.defect(webcapture.Ref{}, "b", BadValue, "alongside")
			fr.page(nil, webcapture.Ref{Num: 7})
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
		if len(r.doc.Pages) != 1 || r.doc.pageByRef[webcapture.Ref{Num: 7}] != r.doc.Pages[0] {
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
