package webcapture_test

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

const hundredMB = 100 << 20

// bigInput returns 100 MB of image-like bytes, made on first use (not for
// every "go test").
var bigInput = sync.OnceValue(func() []byte {
	b := make([]byte, hundredMB)
	for i := range b {
		b[i] = byte(i*7 + i>>11)
	}
	return b
})

// BenchmarkMD5 is the ceiling: crypto/md5 over 100 MB in memory.
func BenchmarkMD5(b *testing.B) {
	b.SetBytes(hundredMB)
	big := bigInput()
	b.ResetTimer()
	for b.Loop() {
		md5.Sum(big)
	}
}

// BenchmarkImageSetID streams the same 100 MB (target: at least 90% of
// BenchmarkMD5's throughput). PDFSourceID is the same computation.
func BenchmarkImageSetID(b *testing.B) {
	big := bigInput()
	b.SetBytes(hundredMB)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := webcapture.ImageSetID(bytes.NewReader(big)); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPDFSourceID(b *testing.B) {
	big := bigInput()
	b.SetBytes(hundredMB)
	for b.Loop() {
		if _, err := webcapture.PDFSourceID(bytes.NewReader(big)); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkPageSetID: a 1 MB HTML page with 500 image references (400
// distinct files of 20 KB, from memory).
func BenchmarkPageSetID(b *testing.B) {
	src := webcapture.MapSource{}
	var page strings.Builder
	page.WriteString("<html><head><title>big</title></head><body>\n")
	for i := 0; i < 500; i++ {
		n := i % 400
		src[fmt.Sprintf("http://www.example.com/img/p%03d.gif", n)] = bytes.Repeat([]byte{byte(n)}, 20<<10)
		fmt.Fprintf(&page, `<p>Paragraph %d of the captured page.</p><img src="img/p%03d.gif" alt="picture %d">`+"\n", i, n, i)
	}
	filler := strings.Repeat("<p>Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor.</p>\n", (1<<20-page.Len())/90)
	doc := []byte(page.String() + filler + "</body></html>")
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		res, err := webcapture.PageSetID(doc, webcapture.PageSetOptions{URL: "http://www.example.com/", Aux: src})
		if err != nil || !res.Complete || len(res.Aux) != 400 {
			b.Fatalf("%v %+v", err, res)
		}
	}
}

// BenchmarkSourceIDPage: a build's small page (build10k's sources), with
// its text identifier, as record asks for it.
func BenchmarkSourceIDPage(b *testing.B) {
	page := []byte(`<!DOCTYPE html>
<html>
<head>
<meta charset="utf-8">
<title>Story 5467: the quick brown fox jumps over the lazy dog</title>
<link rel="stylesheet" href="/static/site.css">
</head>
<body>
<h1>Story 5467: the quick brown fox jumps over the lazy dog</h1>
<p>Captured from docs.example.com for the build benchmark. The quick brown fox jumps over the lazy dog.</p>
</body>
</html>
`)
	opts := webcapture.SourceOptions{ContentType: "text/html; charset=utf-8", URL: "https://docs.example.com/section-116/article/005467/", Aux: webcapture.MapSource{}, Text: true}
	b.SetBytes(int64(len(page)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := webcapture.SourceID(page, opts); err != nil {
			b.Fatal(err)
		}
	}
}
