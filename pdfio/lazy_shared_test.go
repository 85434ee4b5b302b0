package pdfio_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/internal/hostile"
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

// TestLazySlimStreams: a read keeps a stream without a filter whose
// /Length is an integer as a slimStream, and makes it again where used:
// the hostile suite's slim-streams-info file (two images with /ID, one
// that nothing uses, a Form XObject with /ID, a stream whose /Length is
// indirect, an empty one) is read lazily, as ReadContext reads it, and
// its images are found.
func TestLazySlimStreams(t *testing.T) {
	var file []byte
	for _, c := range hostile.Cases() {
		if c.Name == "slim-streams-info" {
			dir := t.TempDir()
			if _, _, err := c.Setup(dir); err != nil {
				t.Fatal(err)
			}
			b, err := os.ReadFile(filepath.Join(dir, "slim.pdf"))
			if err != nil {
				t.Fatal(err)
			}
			file = b
		}
	}
	if file == nil {
		t.Fatal("no hostile case slim-streams-info")
	}
	if !readBoth(t, "slim.pdf", file, pdfio.Options{}) {
		t.Error("slim.pdf is not read lazily")
	}
	if n := pdfio.SlimStreams(file); n != 5 {
		t.Errorf("a read of slim.pdf keeps %d slimStreams, want 5 (two images, the form, two empty streams)", n)
	}
	d, err := pdfio.ReadBytes(file, "slim.pdf", pdfio.Options{})
	if err != nil || len(d.Images) != 2 || len(d.Pages) != 2 || len(d.Defects) != 0 {
		t.Fatalf("slim.pdf: %d images, %d pages, %d defects, error %v; want 2, 2, 0, nil", len(d.Images), len(d.Pages), len(d.Defects), err)
	}
	for _, im := range d.Images {
		if im.ID == nil {
			t.Errorf("image %v has no /ID", im.Ref)
		}
	}
}
