package pdfio

import (
	"bytes"
	"fmt"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/api"
)

// Merge joins freshly made PDF files (pages a browser printed) into one,
// in order. It rewrites them with pdfcpu: use it only on files that hold
// no Web Capture structure yet, never on a user's capture (use an Update).
func Merge(files [][]byte) ([]byte, error) {
	switch len(files) {
	case 0:
		return nil, fmt.Errorf("pdfio: nothing to merge")
	case 1:
		return files[0], nil
	}
	rs := make([]io.ReadSeeker, len(files))
	for i, f := range files {
		rs[i] = bytes.NewReader(f)
	}
	var out bytes.Buffer
	conf := config(Options{}.withDefaults())
	if err := func() (err error) {
		defer func() {
			if p := recover(); p != nil {
				err = fmt.Errorf("pdfcpu panicked: %v", p)
			}
		}()
		return api.MergeRaw(rs, &out, false, conf)
	}(); err != nil {
		return nil, &Error{File: "the printed pages", Op: "merge", Err: err}
	}
	return out.Bytes(), nil
}
