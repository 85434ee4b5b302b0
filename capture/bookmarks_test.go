package capture

import (
	"testing"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Sets are filed under their site's item, sites in the order their first
// set comes; an untitled page is filed by its URL; a refresh item says why.
func TestSiteItems(t *testing.T) {
	p := func(n int) webcapture.Ref { return webcapture.Ref{Num: n} }
	items := siteItems([]filed{
		{url: "https://www.example.com/", title: "Home", page: p(1), article: p(100)},
		{url: "https://news.bbc.co.uk/a", title: "Ελληνικά", page: p(2)},
		{url: "https://example.com/b", page: p(3), article: p(101)},
		{url: "file:///C|/a.txt", title: "a.txt", page: p(4)},
	})
	dump := func(items []*pdfio.OutlineItem) []string {
		var out []string
		for _, it := range items {
			out = append(out, it.Title.String())
			for _, k := range it.Kids {
				out = append(out, "  "+k.Title.String()+" "+k.Page.String()+" "+k.SE.String())
			}
		}
		return out
	}
	want := []string{"example.com", "  Home 1 0 R 100 0 R", "  https://example.com/b 3 0 R 101 0 R",
		"bbc.co.uk", "  Ελληνικά 2 0 R direct", webcapture.LocalDisk, "  a.txt 4 0 R direct"}
	got := dump(items)
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("item %d: %q, want %q", i, got[i], want[i])
		}
	}
	if it := itemOf(filed{url: "https://a.example/", title: "A", page: p(5), reason: "changed"}); it.Title.String() != "A (changed)" {
		t.Errorf("refresh item: %q", it.Title.String())
	}
	if enc := items[1].Kids[0].Title.Encoding(); enc != "UTF-16BE" {
		t.Errorf("a Greek title is %s, want UTF-16BE", enc)
	}
}
