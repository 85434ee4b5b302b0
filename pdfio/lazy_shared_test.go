package pdfio_test

import (
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// TestLazySharedObjStmNumbers: the entries of a read's cross-reference
// stream share the numbers they point to (an object stream's number, an
// index in it up to 4,096): a stream of 5,000 objects (indexes past the
// shared ones) and objects dealt to many streams in turn (each entry in
// another stream than the one before) are read lazily, and as
// ReadContext reads them.
func TestLazySharedObjStmNumbers(t *testing.T) {
	for _, tc := range []struct {
		name   string
		size   int
		spread bool
	}{
		{"one-stream-of-5000", 5000, false},
		{"dealt-to-27-streams", 300, true},
		{"dealt-to-2-streams-of-5000", 5000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := pb.New()
			b.XRefStream, b.ObjectStreams = true, true
			b.ObjStmSize, b.ObjStmSpread = tc.size, tc.spread
			file := pb.BigOf(b, 2000)
			if !readBoth(t, tc.name, file, pdfio.Options{}) {
				t.Errorf("%s is not read lazily", tc.name)
			}
			d, err := pdfio.ReadBytes(file, tc.name, pdfio.Options{})
			if err != nil || len(d.Sets) != 2000 || len(d.Pages) != 2000 || len(d.Defects) != 0 {
				t.Errorf("%s: %d sets, %d pages, %d defects, error %v; want 2000, 2000, 0, nil", tc.name, len(d.Sets), len(d.Pages), len(d.Defects), err)
			}
		})
	}
}
