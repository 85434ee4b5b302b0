package pdfcheck

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// A Bookmark is an outline item as qpdf reads it.
type Bookmark struct {
	Title string
	Page  int // the page it opens, from 1; 0 for none
	// Article: its /SE is an Article of class SpdrArt whose /Pg is the
	// page it opens (a tagged bookmark as Acrobat made them).
	Article bool
	Kids    []*Bookmark
}

// Tags reads a capture's bookmarks with qpdf's JSON and its tags with
// poppler's pdfinfo -struct-text, and checks what every capture's tags
// must be: qpdf --check finds nothing, poppler reads the outline as qpdf
// does (pdftohtml -xml), each page with marked content has a /StructParents key no other page has, poppler
// reads the tree without a syntax error, and the structure elements are
// the Document's Articles (role-mapped to Art). It returns the outline and
// the structure as poppler prints it (nil and "" without the tools).
func Tags(t testing.TB, pdf []byte) ([]*Bookmark, string) {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Log("qpdf not installed: tags and bookmarks not checked")
		return nil, ""
	}
	in := filepath.Join(t.TempDir(), "tags.pdf")
	os.WriteFile(in, pdf, 0o644)
	if out, err := exec.Command(qpdf, "--check", in).CombinedOutput(); err != nil || strings.Contains(string(out), "WARNING") {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
	js, err := exec.Command(qpdf, "--json=2", in).Output()
	if err != nil {
		t.Fatalf("qpdf --json: %v", err)
	}
	type item struct {
		Object string  `json:"object"`
		Title  string  `json:"title"`
		Page   *int    `json:"destpageposfrom1"`
		Kids   []*item `json:"kids"`
	}
	var doc struct {
		Qpdf  []json.RawMessage `json:"qpdf"`
		Pages []struct {
			Object string `json:"object"`
		} `json:"pages"`
		Outlines []*item `json:"outlines"`
	}
	if err := json.Unmarshal(js, &doc); err != nil || len(doc.Qpdf) < 2 {
		t.Fatalf("qpdf json: %v", err)
	}
	_, obj := objects(doc.Qpdf[1])
	keys := map[float64]int{}
	for i, p := range doc.Pages {
		k, ok := obj(p.Object)["/StructParents"].(float64)
		if !ok {
			// Fine for a page with no marked content (the blank pages
			// of a tall spacer): nothing on it needs an element.
			if marked(t, qpdf, in, obj(p.Object)["/Contents"]) {
				t.Errorf("page %d (%s) has marked content but no /StructParents", i+1, p.Object)
			}
			continue
		}
		if q, dup := keys[k]; dup {
			t.Errorf("pages %d and %d share /StructParents %v", q, i+1, k)
		}
		keys[k] = i + 1
	}
	var conv func([]*item) []*Bookmark
	conv = func(items []*item) []*Bookmark {
		var out []*Bookmark
		for _, it := range items {
			b := &Bookmark{Title: it.Title, Kids: conv(it.Kids)}
			if it.Page != nil {
				b.Page = *it.Page
			}
			if se, ok := obj(it.Object)["/SE"].(string); ok {
				a := obj(se)
				pg, _ := a["/Pg"].(string)
				b.Article = a["/S"] == "/Article" && a["/C"] == "/SpdrArt" && b.Page > 0 && pg == doc.Pages[b.Page-1].Object
			}
			out = append(out, b)
		}
		return out
	}
	outline := conv(doc.Outlines)
	// poppler reads the same titles and pages (pdftohtml -xml's outline).
	if pdftohtml, err := exec.LookPath("pdftohtml"); err == nil {
		x, err := exec.Command(pdftohtml, "-q", "-i", "-stdout", "-xml", in).Output()
		if err != nil {
			t.Errorf("pdftohtml -xml: %v", err)
		} else if got, want := popplerOutline(t, x), outlineLines(outline, ""); got != want {
			t.Errorf("poppler reads the outline as\n%s\nqpdf as\n%s", got, want)
		}
	}
	pdfinfo, err := exec.LookPath("pdfinfo")
	if err != nil {
		return outline, ""
	}
	out, err := exec.Command(pdfinfo, "-struct-text", in).CombinedOutput()
	if err != nil || strings.Contains(string(out), "Syntax Error") {
		t.Errorf("pdfinfo -struct-text: %v\n%.2000s", err, out)
	}
	return outline, string(out)
}

// outlineLines is an outline as "title page" lines, indented by level.
func outlineLines(items []*Bookmark, indent string) string {
	var b strings.Builder
	for _, it := range items {
		fmt.Fprintf(&b, "%s%s %d\n", indent, it.Title, it.Page)
		b.WriteString(outlineLines(it.Kids, indent+"  "))
	}
	return b.String()
}

// popplerOutline reads the <outline> of pdftohtml -xml as outlineLines
// writes one: an <outline> after an <item> holds that item's kids.
func popplerOutline(t testing.TB, x []byte) string {
	t.Helper()
	d := xml.NewDecoder(bytes.NewReader(x))
	d.Strict = false
	var b strings.Builder
	depth := -1
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Errorf("pdftohtml -xml: %v", err)
			break
		}
		switch e := tok.(type) {
		case xml.StartElement:
			switch e.Name.Local {
			case "outline":
				depth++
			case "item":
				page := "0"
				for _, a := range e.Attr {
					if a.Name.Local == "page" {
						page = a.Value
					}
				}
				var title string
				d.DecodeElement(&title, &e)
				fmt.Fprintf(&b, "%s%s %s\n", strings.Repeat("  ", depth), title, page)
			}
		case xml.EndElement:
			if e.Name.Local == "outline" {
				depth--
			}
		}
	}
	return b.String()
}

// marked reports whether a page's content streams (its /Contents, as qpdf's
// JSON gives it) have marked content with an MCID.
func marked(t testing.TB, qpdf, file string, contents any) bool {
	t.Helper()
	var refs []string
	switch c := contents.(type) {
	case string:
		refs = []string{c}
	case []any:
		for _, r := range c {
			if s, ok := r.(string); ok {
				refs = append(refs, s)
			}
		}
	}
	for _, r := range refs {
		num, _, _ := strings.Cut(r, " ")
		out, err := exec.Command(qpdf, "--show-object="+num, "--filtered-stream-data", file).Output()
		if err != nil {
			t.Errorf("qpdf --show-object=%s: %v", num, err)
			continue
		}
		if bytes.Contains(out, []byte("/MCID")) {
			return true
		}
	}
	return false
}
