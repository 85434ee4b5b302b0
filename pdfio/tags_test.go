package pdfio

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

// taggedPrinted is two pages as Chromium prints and tags them: a
// /Document element (with /Lang) whose kids are a heading and a paragraph
// on page 1 and a link on page 2 (its text an MCID, its annotation an
// OBJR kid), a /ParentTree with a key per page and one for the link's
// annotation (/StructParent), and each word drawn inside its marked
// content, so that poppler's pdfinfo -struct-text prints it.
func taggedPrinted(lang, heading, para, link string) []byte {
	b := pb.New()
	root := b.Reserve()
	font := b.Add(pb.D("Type", pb.Name("Font"), "Subtype", pb.Name("Type1"), "BaseFont", pb.Name("Helvetica")))
	res := pb.D("Font", pb.D("F1", font))
	c1 := b.Add(&pb.Stream{Data: []byte(fmt.Sprintf("/H1 <</MCID 0>> BDC BT /F1 24 Tf 72 700 Td (%s) Tj ET EMC /P <</MCID 1>> BDC BT /F1 12 Tf 72 650 Td (%s) Tj ET EMC", heading, para))})
	c2 := b.Add(&pb.Stream{Data: []byte(fmt.Sprintf("/Link <</MCID 0>> BDC BT /F1 12 Tf 72 700 Td (%s) Tj ET EMC", link))})
	p1 := b.Add(pb.D("Type", pb.Name("Page"), "Parent", root, "Resources", res, "Contents", c1, "StructParents", 0))
	p2 := b.Reserve()
	annot := b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Link"), "Rect", pb.Array{72, 690, 200, 712}, "StructParent", 2,
		"A", pb.D("S", pb.Name("URI"), "URI", pb.Lit("https://example.com/"))))
	b.Set(p2, pb.D("Type", pb.Name("Page"), "Parent", root, "Resources", res, "Contents", c2, "Annots", pb.Array{annot}, "StructParents", 1))
	b.Set(root, pb.D("Type", pb.Name("Pages"), "Kids", pb.Array{p1, p2}, "Count", 2, "MediaBox", pb.Array{0, 0, 612, 792}))
	str, doc := b.Reserve(), b.Reserve()
	h1 := b.Add(pb.D("Type", pb.Name("StructElem"), "S", pb.Name("H1"), "P", doc, "Pg", p1, "K", 0))
	p := b.Add(pb.D("Type", pb.Name("StructElem"), "S", pb.Name("P"), "P", doc, "Pg", p1, "K", pb.Array{1}))
	ln := b.Add(pb.D("Type", pb.Name("StructElem"), "S", pb.Name("Link"), "P", doc, "Pg", p2,
		"K", pb.Array{0, pb.D("Type", pb.Name("OBJR"), "Obj", annot, "Pg", p2)}))
	b.Set(doc, pb.D("Type", pb.Name("StructElem"), "S", pb.Name("Document"), "P", str, "Lang", pb.Lit(lang), "K", pb.Array{h1, p, ln}))
	pt := b.Add(pb.D("Nums", pb.Array{0, pb.Array{h1, p}, 1, pb.Array{ln}, 2, ln}))
	b.Set(str, pb.D("Type", pb.Name("StructTreeRoot"), "K", doc, "ParentTree", pt, "ParentTreeNextKey", 3))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root, "StructTreeRoot", str, "Lang", pb.Lit(lang),
		"MarkInfo", pb.D("Marked", true)))
	b.Info = b.Add(pb.D("Title", pb.Lit(heading), "Creator", pb.Lit("HeadlessChrome")))
	return b.Bytes()
}

// structOf reads a file's tags as poppler prints them (pdfinfo
// -struct-text), "" when poppler is not installed.
func structOf(t *testing.T, file []byte) string {
	t.Helper()
	pdfinfo, err := exec.LookPath("pdfinfo")
	if err != nil {
		return ""
	}
	p := filepath.Join(t.TempDir(), "tags.pdf")
	os.WriteFile(p, file, 0o644)
	out, err := exec.Command(pdfinfo, "-struct-text", p).Output()
	if err != nil {
		t.Fatalf("pdfinfo -struct-text: %v", err)
	}
	return string(out)
}

// qpdfOutline reads a file's outline with qpdf --json=2: each item as
// "title -> page" (1-based, 0 for none), indented by level.
func qpdfOutline(t *testing.T, file []byte) []string {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		return nil
	}
	p := filepath.Join(t.TempDir(), "outline.pdf")
	os.WriteFile(p, file, 0o644)
	out, err := exec.Command(qpdf, "--json=2", "--json-key=outlines", p).Output()
	if err != nil {
		t.Fatalf("qpdf --json: %v", err)
	}
	type item struct {
		Title string  `json:"title"`
		Page  *int    `json:"destpageposfrom1"`
		Kids  []*item `json:"kids"`
	}
	var j struct {
		Outlines []*item `json:"outlines"`
	}
	if err := json.Unmarshal(out, &j); err != nil {
		t.Fatal(err)
	}
	var lines []string
	var walk func([]*item, string)
	walk = func(items []*item, indent string) {
		for _, it := range items {
			pg := 0
			if it.Page != nil {
				pg = *it.Page
			}
			lines = append(lines, fmt.Sprintf("%s%s -> %d", indent, it.Title, pg))
			walk(it.Kids, indent+"  ")
		}
	}
	walk(j.Outlines, "")
	return lines
}

// checkTags checks what every tagged file must be: each page's key its
// own, each /ParentTree entry resolving, no defect.
func checkTags(t *testing.T, d *Document) {
	t.Helper()
	for _, df := range d.Defects {
		t.Errorf("defect: %v", df)
	}
	seen := map[int64]int{}
	for _, p := range d.Pages {
		if p.StructParents == nil {
			t.Errorf("page %d has no /StructParents", p.Number)
			continue
		}
		k := *p.StructParents
		if q, dup := seen[k]; dup {
			t.Errorf("pages %d and %d share /StructParents %d", q, p.Number, k)
		}
		seen[k] = p.Number
		if e := d.ParentTree.Entries[k]; e == nil || !e.Resolves {
			t.Errorf("page %d: /ParentTree entry %d does not resolve", p.Number, k)
		}
	}
}

func TestAppendPagesTags(t *testing.T) {
	a := taggedPrinted("en", "Alpha heading", "Alpha text", "Alpha link")
	b := taggedPrinted("fr", "Bravo titre", "Bravo texte", "Bravo lien")
	u, err := NewFileUpdate(a, "new.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var arts []webcapture.Ref
	for _, f := range [][]byte{a, b, printedFile()} {
		_, pr, err := u.AppendPages(f, "printed.pdf")
		if err != nil {
			t.Fatal(err)
		}
		if pr.Article.IsZero() || pr.Untagged != "" {
			t.Fatalf("not tagged: %q", pr.Untagged)
		}
		arts = append(arts, pr.Article)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	checkQPDF(t, out, 6)
	d := read(t, out, Options{})
	checkTags(t, d)
	want := [][]int{{1, 2}, {3, 4}, {5, 6}}
	if len(d.Articles) != 3 {
		t.Fatalf("%d Articles, want 3", len(d.Articles))
	}
	for i, art := range d.Articles {
		if art.Ref != arts[i] || !slices.Equal(art.Pages, want[i]) {
			t.Errorf("Article %d: %s on pages %v, want %s on %v", i, art.Ref, art.Pages, arts[i], want[i])
		}
	}
	if n := d.ParentTree.NextKey; n == nil || *n != 3+3+2 {
		t.Errorf("/ParentTreeNextKey %v, want 8 (3 keys, 3 keys, 2 pages wrapped)", n)
	}
	// The printed files' keys moved up past each other: the links'
	// annotations too, and the link element still owns its annotation.
	u2, _ := NewUpdate(out, "out.pdf", Options{})
	for _, p := range []int{2, 4} {
		pd, _ := u2.pageDict(d.Pages[p-1].Ref)
		annots, _ := arrayOf(pd["Annots"], u2.lookup)
		ad, _ := dictOf(annots[0], u2.lookup)
		k := structKey(ad, "StructParent")
		if e := d.ParentTree.Entries[int64(k)]; k < 0 || e == nil || len(e.Elems) != 1 {
			t.Errorf("page %d's link: /StructParent %d, entry %+v", p, k, e)
		}
	}
	// poppler reads every page's tags, each page set's under its Article.
	if s := structOf(t, out); s != "" {
		for _, w := range []string{"Alpha heading", "Alpha text", "Alpha link", "Bravo titre", "Bravo texte", "Bravo lien", "one", "two"} {
			if !strings.Contains(s, w) {
				t.Errorf("pdfinfo -struct-text lacks %q:\n%s", w, s)
			}
		}
		if n := strings.Count(s, "\n  Art\n"); n != 3 || strings.Contains(s, "Syntax Error") {
			t.Errorf("%d Articles under the Document, want 3:\n%s", n, s)
		}
		if i, j := strings.Index(s, "Alpha heading"), strings.Index(s, "Bravo titre"); i > j {
			t.Errorf("the sets' tags are not in page order:\n%s", s)
		}
	}
	// The document says it is tagged, in the first page's language.
	cat, _ := u2.dictAt(u2.root())
	if fmt.Sprint(cat["Lang"]) != "(en)" || fmt.Sprint(cat["MarkInfo"]) == "" {
		t.Errorf("catalog: %v", cat)
	}
}

// Pages appended to a file with a tree join it (its keys kept, its
// Articles first); a file without one gets one, and then untagged pages
// of its own keep /MarkInfo off.
func TestAppendPagesTagsExisting(t *testing.T) {
	first := joinNew(t, taggedPrinted("en", "One", "one text", "one link"))
	u, err := NewUpdate(first, "first.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := u.AppendPages(taggedPrinted("de", "Zwei", "zwei Text", "zwei Link"), "p.pdf"); err != nil {
		t.Fatal(err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	checkQPDF(t, out, 4)
	d := read(t, out, Options{})
	checkTags(t, d)
	if len(d.Articles) != 2 || !slices.Equal(d.Articles[1].Pages, []int{3, 4}) {
		t.Errorf("Articles: %s", dumpArticles(d.Articles))
	}

	untagged := plain(2, false)
	u, _ = NewUpdate(untagged, "plain.pdf", Options{})
	if _, _, err := u.AppendPages(taggedPrinted("en", "New", "new text", "new link"), "p.pdf"); err != nil {
		t.Fatal(err)
	}
	out, _ = u.Bytes()
	checkQPDF(t, out, 4)
	d = read(t, out, Options{})
	if len(d.Articles) != 1 || !slices.Equal(d.Articles[0].Pages, []int{3, 4}) {
		t.Errorf("Articles: %s", dumpArticles(d.Articles))
	}
	if strings.Contains(string(out[len(untagged):]), "/MarkInfo") {
		t.Error("/MarkInfo set while the file's own pages are not tagged")
	}
}

// A file whose structure tree cannot be extended gets pages without
// tags, and says why: never keys that collide with the tree's.
func TestAppendPagesUntaggable(t *testing.T) {
	u, err := NewUpdate(pb.Untaggable(), "loop.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	refs, pr, err := u.AppendPages(taggedPrinted("en", "A", "b", "c"), "p.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if !pr.Article.IsZero() || !strings.Contains(pr.Untagged, "cannot be extended") {
		t.Errorf("Article %s, Untagged %q", pr.Article, pr.Untagged)
	}
	if err := u.AddBookmarks([]*OutlineItem{{Title: "A", Page: refs[0]}}); err == nil || !strings.Contains(err.Error(), "twice") {
		t.Errorf("AddBookmarks to a looping outline: %v", err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	checkQPDF(t, out, 3)
	u2, _ := NewUpdate(out, "out.pdf", Options{})
	for _, r := range refs {
		if d, _ := u2.pageDict(r); structKey(d, "StructParents") >= 0 {
			t.Errorf("page %s keeps /StructParents", r)
		}
	}
}

// ReplacePages puts the new set's Article where the old one was and takes
// the old pages' keys out of the /ParentTree.
func TestReplacePagesTags(t *testing.T) {
	file := joinNew(t, taggedPrinted("en", "A", "a", "a"), taggedPrinted("en", "B", "b", "b"), taggedPrinted("en", "C", "c", "c"))
	d := read(t, file, Options{})
	old := []webcapture.Ref{d.Pages[2].Ref, d.Pages[3].Ref}
	oldKeys := []int64{*d.Pages[2].StructParents, *d.Pages[3].StructParents}
	u, _ := NewUpdate(file, "three.pdf", Options{})
	_, pr, err := u.ReplacePages(old, taggedPrinted("en", "B2 heading", "b2", "b2"), "p.pdf")
	if err != nil {
		t.Fatal(err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	checkQPDF(t, out, 6)
	d = read(t, out, Options{})
	checkTags(t, d)
	if len(d.Articles) != 3 || d.Articles[1].Ref != pr.Article || !slices.Equal(d.Articles[1].Pages, []int{3, 4}) {
		t.Errorf("Articles: %s, want the new one (%s) second, on pages 3-4", dumpArticles(d.Articles), pr.Article)
	}
	for _, k := range oldKeys {
		if d.ParentTree.Entries[k] != nil {
			t.Errorf("the replaced page's key %d is still in the /ParentTree", k)
		}
	}
	if s := structOf(t, out); s != "" && (strings.Contains(s, "(B)") || !strings.Contains(s, "B2 heading")) {
		t.Errorf("pdfinfo -struct-text:\n%s", s)
	}
}

// Bookmarks extend the outline: sites merge by title, "New and Changed
// Pages" is replaced, a moved set's item follows it; poppler's and
// qpdf's readings agree with ours.
func TestBookmarks(t *testing.T) {
	a, b := taggedPrinted("en", "A", "a", "a"), taggedPrinted("el", "B", "b", "b")
	u, _ := NewFileUpdate(a, "new.pdf", Options{})
	r1, p1, _ := u.AppendPages(a, "a.pdf")
	r2, p2, _ := u.AppendPages(b, "b.pdf")
	if err := u.AddBookmarks([]*OutlineItem{{Title: "example.com", Kids: []*OutlineItem{
		{Title: webcapture.EncodeText("Café"), Page: r1[0], SE: p1.Article},
		{Title: webcapture.EncodeText("Ελληνικά (set)"), Page: r2[0], SE: p2.Article},
	}}}); err != nil {
		t.Fatal(err)
	}
	u.SetPageMode("UseOutlines")
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	checkQPDF(t, out, 4)
	want := []string{"example.com -> 0", "  Café -> 1", "  Ελληνικά (set) -> 3"}
	if got := qpdfOutline(t, out); got != nil && !slices.Equal(got, want) {
		t.Errorf("qpdf reads the outline as %q, want %q", got, want)
	}
	d := read(t, out, Options{})
	if len(d.Outline) != 1 || len(d.Outline[0].Kids) != 2 || d.Outline[0].Kids[1].SEArticle == nil || d.Outline[0].Kids[1].SE != p2.Article {
		t.Fatalf("outline: %s", dumpOutline(d.Outline))
	}

	// An update: a page of the same site goes under its item, a new site
	// after it; "New and Changed Pages" twice leaves the last.
	u, _ = NewUpdate(out, "out.pdf", Options{})
	r3, p3, _ := u.AppendPages(a, "c.pdf")
	if err := u.AddBookmarks([]*OutlineItem{
		{Title: "example.com", Kids: []*OutlineItem{{Title: "C", Page: r3[0], SE: p3.Article}}},
		{Title: "other.org", Kids: []*OutlineItem{{Title: "D", Page: r3[1]}}},
	}); err != nil {
		t.Fatal(err)
	}
	// A second call in the same update files under the item the first made.
	if err := u.AddBookmarks([]*OutlineItem{{Title: "other.org", Kids: []*OutlineItem{{Title: "E", Page: r3[0]}}}}); err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"first", "second"} {
		if err := u.SetBookmark(&OutlineItem{Title: "New and Changed Pages", Kids: []*OutlineItem{{Title: webcapture.Text(title), Page: r3[0]}}}); err != nil {
			t.Fatal(err)
		}
	}
	if err := u.MoveBookmarks([]webcapture.Ref{r1[0]}, r3[1], webcapture.Ref{}, webcapture.EncodeText("Café again")); err != nil {
		t.Fatal(err)
	}
	out, err = u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	checkQPDF(t, out, 6)
	want = []string{"example.com -> 0", "  Café again -> 6", "  Ελληνικά (set) -> 3", "  C -> 5", "other.org -> 0", "  D -> 6", "  E -> 5",
		"New and Changed Pages -> 0", "  second -> 5"}
	if got := qpdfOutline(t, out); got != nil && !slices.Equal(got, want) {
		t.Errorf("qpdf reads the outline as %q, want %q", got, want)
	}
	d = read(t, out, Options{})
	if len(d.Outline) != 3 || len(d.Outline[0].Kids) != 3 || len(d.Outline[1].Kids) != 2 {
		t.Errorf("outline: %s", dumpOutline(d.Outline))
	}
	// The root's /Count is every item shown (all open): 3 + 3 + 2 + 1.
	u2, _ := NewUpdate(out, "out.pdf", Options{})
	cat, _ := u2.dictAt(u2.root())
	root, _ := dictOf(cat["Outlines"], u2.lookup)
	if fmt.Sprint(root["Count"]) != "9" || fmt.Sprint(cat["PageMode"]) != "UseOutlines" {
		t.Errorf("root %v, catalog %v", root, cat)
	}
}

// BenchmarkJoinTagged makes a new file of 60 printed files of 2 tagged
// pages each, as a 60-page capture joins its pages: tags and all.
func BenchmarkJoinTagged(b *testing.B) {
	files := make([][]byte, 60)
	for i := range files {
		files[i] = taggedPrinted("en", fmt.Sprintf("Heading %d", i), strings.Repeat("Some text of the page. ", 50), "link")
	}
	b.ReportAllocs()
	for b.Loop() {
		u, err := NewFileUpdate(files[0], "new.pdf", Options{})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range files {
			if _, _, err := u.AppendPages(f, "printed.pdf"); err != nil {
				b.Fatal(err)
			}
		}
		if _, err := u.Bytes(); err != nil {
			b.Fatal(err)
		}
	}
}
