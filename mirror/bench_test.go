package mirror_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/webcapture"
)

// BenchmarkDirOpen opens and reads 1,000 small pages of a mirror, as a
// build reads its sources (a build of 100,000 page sets reads 100,000).
func BenchmarkDirOpen(b *testing.B) {
	src, urls := benchMirror(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range urls {
			rc, err := src.Open(u)
			if err != nil {
				b.Fatal(err)
			}
			rc.Close()
		}
	}
}

// BenchmarkDirReadFast is BenchmarkDirOpen as a build reads its pages:
// ReadFast into one buffer.
func BenchmarkDirReadFast(b *testing.B) {
	src, urls := benchMirror(b)
	d := src.(mirror.Dir)
	if _, ok := d.ReadFast(nil, urls[0]); !ok {
		b.Skip("no fast path here")
	}
	var buf []byte
	b.ReportAllocs()
	for b.Loop() {
		for _, u := range urls {
			data, ok := d.ReadFast(buf, u)
			if !ok {
				b.Fatal(u)
			}
			buf = data[:0]
		}
	}
}

// benchMirror writes 1,000 small pages of a mirror.
func benchMirror(b *testing.B) (webcapture.AuxSource, []string) {
	root := b.TempDir()
	urls := make([]string, 1000)
	for i := range urls {
		rel := fmt.Sprintf("www.example.com/section-%03d/story-%06d-the-quick-brown-fox.html", i/40, i)
		p := filepath.Join(root, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(fmt.Sprintf("<p>page %d</p>\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		urls[i] = "https://" + rel
	}
	src, err := mirror.Load(root, mirror.Options{MaxFileSize: 1 << 20})
	if err != nil {
		b.Fatal(err)
	}
	return src, urls
}
