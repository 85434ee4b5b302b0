package pdfcheck

import (
	"encoding/json"
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
// must be: each page has a /StructParents key no other page has, poppler
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
	var objs map[string]struct {
		Value any `json:"value"`
	}
	json.Unmarshal(doc.Qpdf[1], &objs)
	obj := func(ref string) map[string]any {
		m, _ := objs["obj:"+ref].Value.(map[string]any)
		return m
	}
	keys := map[float64]int{}
	for i, p := range doc.Pages {
		k, ok := obj(p.Object)["/StructParents"].(float64)
		if !ok {
			t.Errorf("page %d (%s) has no /StructParents", i+1, p.Object)
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
