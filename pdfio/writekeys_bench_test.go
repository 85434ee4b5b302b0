package pdfio

import (
	"fmt"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

// BenchmarkAddContentSet writes 10,000 page sets shaped as a build's (a
// title, a content type, a date, a source with a redirect chain, a
// command and a SHA-256), and checks each is kept for Result as written
// (as its plan: Result's reader takes the set from its model, and makes
// no dictionary of it).
func BenchmarkAddContentSet(b *testing.B) {
	orig := plain(2, false)
	sets := make([]*webcapture.ContentSet, 10000)
	for i := range sets {
		id := webcapture.RawID(fmt.Sprintf("%016d", i))
		ct, title, tid := "text/html", webcapture.Text(fmt.Sprintf("Story %d: the quick brown fox", i)), webcapture.RawID(fmt.Sprintf("%016x", i))
		ts := webcapture.Date{Raw: "D:20261121103000Z"}
		url := fmt.Sprintf("https://www.example.com/section-%03d/story-%06d.html", i/40, i)
		sum := webcapture.RawID(fmt.Sprintf("%032d", i))
		si := &webcapture.SourceInfo{URLs: webcapture.AliasedURLs{URL: url}, Updated: &ts, Command: &webcapture.Ref{Num: 3}, SHA256: &sum}
		if i%5 == 0 {
			si.URLs.Alias, si.URLs.Chains = true, [][]string{{"http://www.example.com/go", url}}
		}
		sets[i] = &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: []webcapture.Ref{{Num: 3 + i}},
			Sources: []*webcapture.SourceInfo{si}, ContentType: &ct, Created: &ts, Title: &title, TextID: &tid}
	}
	b.ReportAllocs()
	for b.Loop() {
		u, err := NewUpdate(orig, "b.pdf", Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, cs := range sets {
			if _, err := u.AddContentSet(cs); err != nil {
				b.Fatal(err)
			}
		}
		for _, o := range u.objs.offs {
			if _, ok := o.val.(*setPlan); !ok {
				b.Fatal("not kept")
			}
		}
	}
}
