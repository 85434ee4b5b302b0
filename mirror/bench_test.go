package mirror_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/webcap/webcap/mirror"
)

// BenchmarkDirOpen opens and reads 1,000 small pages of a mirror, as a
// build reads its sources (a build of 100,000 page sets reads 100,000).
func BenchmarkDirOpen(b *testing.B) {
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
