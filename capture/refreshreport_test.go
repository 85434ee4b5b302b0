package capture

import (
	"crypto/md5"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

func TestWordDiff(t *testing.T) {
	tests := []struct {
		name, old, new string
		want           string // the runs, as =equal +insert -delete, by " | "
		ins, del       int
	}{
		{"same", "a b c", "a b c", "=a b c", 0, 0},
		{"spacing and lines are no change", "a  b\nc", "a b c", "=a b c", 0, 0},
		{"a word replaced", "opens at nine in the morning", "opens at ten in the morning", "=opens at | -nine | +ten | =in the morning", 1, 1},
		{"words added", "closes at five.", "closes at six in the evening.", "=closes at | -five. | +six in the evening.", 4, 1},
		{"from nothing", "", "all new", "+all new", 2, 0},
		{"to nothing", "all gone", "", "-all gone", 0, 2},
		{"markup stays text", "<b>x</b> y", "</script> y", "-<b>x</b> | +</script> | =y", 1, 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			runs, counts, why := WordDiff(tc.old, tc.new)
			if why != "" {
				t.Fatalf("WordDiff: no diff: %s", why)
			}
			if got := show(runs); got != tc.want {
				t.Errorf("WordDiff(%q, %q) = %s, want %s", tc.old, tc.new, got, tc.want)
			}
			if counts.Inserted != tc.ins || counts.Deleted != tc.del {
				t.Errorf("WordDiff(%q, %q): %d inserted, %d deleted; want %d, %d", tc.old, tc.new, counts.Inserted, counts.Deleted, tc.ins, tc.del)
			}
		})
	}
}

// Two texts at the bound, one word changed at the end (the runes of
// 10,001 distinct words); one word more is no diff, and says why.
func TestWordDiffLarge(t *testing.T) {
	var a []string
	for i := range maxDiffWords {
		a = append(a, "w"+strconv.Itoa(i))
	}
	b := append([]string{}, a...)
	b[len(b)-1] = "changed"
	runs, counts, why := WordDiff(strings.Join(a, " "), strings.Join(b, " "))
	if why != "" || counts.Inserted != 1 || counts.Deleted != 1 || len(runs) != 3 || runs[1].Text != a[len(a)-1] || runs[2].Text != "changed" {
		t.Errorf("WordDiff at the bound: %d runs, %+v, %q", len(runs), counts, why)
	}
	if _, _, why := WordDiff(strings.Repeat("x ", maxDiffWords+1), "x"); !strings.Contains(why, "too long") || !strings.Contains(why, "10001 and 1 words") {
		t.Errorf("WordDiff past the bound: %q, want too long", why)
	}
}

func show(runs []DiffRun) string {
	var parts []string
	for _, r := range runs {
		parts = append(parts, map[string]string{"equal": "=", "insert": "+", "delete": "-"}[r.Op]+r.Text)
	}
	return strings.Join(parts, " | ")
}

// fakeRefresh is a plan and a result as Run would make them, without a
// browser: the input's first page is the set of "/old"; each page is
// captured now with the PDF and text given.
type fakePage struct {
	url, change    string
	oldTID, newTID string // the TIDs' texts; "" for none
	newPDF         []byte
	title          string
}

func fakeRefresh(t *testing.T, input []byte, pages []fakePage) (*RefreshPlan, *RefreshResult) {
	t.Helper()
	d, err := pdfio.ReadBytes(input, "old.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	res := &RefreshResult{held: map[string]*held{}, found: map[string]found{}}
	for _, p := range pages {
		title := webcapture.Text("Old " + p.title)
		cs := &pdfio.ContentSet{ContentSet: &webcapture.ContentSet{Subtype: webcapture.PageSet, Objects: []webcapture.Ref{d.Pages[0].Ref}, Title: &title}}
		h := &held{set: cs, id: md5sum("old id " + p.url), cmd: 0}
		if p.oldTID != "" {
			h.tid = md5sum(p.oldTID)
		}
		if p.change != StatusNew {
			res.held[p.url] = h
		}
		if p.newPDF != nil {
			res.found[p.url] = found{id: md5sum("new id " + p.url), tid: md5sum(p.newTID), page: len(res.Pages)}
			res.Pages = append(res.Pages, &Page{URL: p.url, Title: p.title, PDF: p.newPDF})
		}
		c := Change{URL: p.url, Status: p.change}
		if p.change == StatusGone {
			c.Reason, c.Kind = "the server answers 404 Not Found", "http"
		}
		res.Changes = append(res.Changes, c)
	}
	return &RefreshPlan{file: input, name: "old.pdf"}, res
}

func md5sum(s string) []byte { m := md5.Sum([]byte(s)); return m[:] }

func TestRefreshReport(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	old, now := read("report-old.pdf"), read("report-new.pdf")
	plan, res := fakeRefresh(t, old, []fakePage{
		{url: "http://a.test/changed", change: StatusChanged, oldTID: "nine", newTID: "ten", newPDF: now, title: "Opening hours"},
		{url: "http://a.test/markup", change: StatusChanged, oldTID: "same", newTID: "same", newPDF: old, title: "Markup"},
		{url: "http://a.test/no-tid", change: StatusChanged, newTID: "x", newPDF: now},
		{url: "http://a.test/unreadable", change: StatusChanged, oldTID: "a", newTID: "b", newPDF: []byte("%PDF-1.7 not really")},
		{url: "http://a.test/same", change: StatusUnchanged, oldTID: "s", newTID: "s", newPDF: old},
		{url: "http://a.test/new", change: StatusNew, newTID: "n", newPDF: now},
		{url: "http://a.test/gone", change: StatusGone, oldTID: "g"},
	})
	rep, err := plan.Report(res)
	if err != nil {
		t.Fatal(err)
	}
	if rep.ComparedBy != "ID" || rep.Text != ReportText || len(rep.Pages) != 7 {
		t.Fatalf("report: by %s, %d pages", rep.ComparedBy, len(rep.Pages))
	}
	by := map[string]PageChange{}
	for _, p := range rep.Pages {
		by[strings.TrimPrefix(p.URL, "http://a.test/")] = p
	}
	c := by["changed"]
	wantDiff := "=Opening hours The library opens at | -nine | +ten | =in the morning and closes at | -five. | +six in the evening. | =On Sundays it is | -closed. | +open too."
	if c.Change != ChangeText || show(c.Diff) != wantDiff || c.Words.Inserted != 7 || c.Words.Deleted != 3 {
		t.Errorf("changed page: %s, diff %s, %+v; want text-changed, %s", c.Change, show(c.Diff), c.Words, wantDiff)
	}
	if c.Old.ID != hexOf(md5sum("old id http://a.test/changed")) || c.Old.TID != hexOf(md5sum("nine")) || c.New.TID != hexOf(md5sum("ten")) || c.Old.Title != "Old Opening hours" || c.New.Title != "Opening hours" || c.Old.Pages != 1 {
		t.Errorf("changed page's identifiers: old %+v, new %+v", c.Old, c.New)
	}
	if m := by["markup"]; m.Change != StatusChanged || m.Words.Inserted+m.Words.Deleted != 0 || len(m.Diff) != 1 || m.Diff[0].Op != "equal" {
		t.Errorf("page whose markup changed: %s, %s", m.Change, show(m.Diff))
	}
	if n := by["no-tid"]; n.Change != ChangeText || n.Old.TID != "" {
		t.Errorf("set without a TID whose words changed: %s, old %+v", n.Change, n.Old)
	}
	if u := by["unreadable"]; u.Change != ChangeText || u.Diff != nil || !strings.Contains(u.DiffError, "the new pages' text") || !strings.Contains(u.DiffError, "the browser's PDF of http://a.test/unreadable") {
		t.Errorf("page whose new PDF cannot be read: %s, %q", u.Change, u.DiffError)
	}
	if s := by["same"]; s.Change != StatusUnchanged || s.Diff != nil || s.Old == nil || s.New == nil || s.Old.TID != s.New.TID {
		t.Errorf("unchanged page: %+v", s)
	}
	if n := by["new"]; n.Change != StatusNew || n.Old != nil || n.New == nil || n.Diff != nil {
		t.Errorf("new page: %+v", n)
	}
	if g := by["gone"]; g.Change != StatusGone || g.New != nil || g.Old == nil || g.Reason == "" || g.Kind != "http" {
		t.Errorf("gone page: %+v", g)
	}
	plan.opts.TextOnly = true
	if rep, _ := plan.Report(res); rep.ComparedBy != "TID" {
		t.Errorf("text only: compared by %s", rep.ComparedBy)
	}
}
