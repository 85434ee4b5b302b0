package cli

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/webcap/webcap/capture"
)

// The refresh change report through Chromium: a site of four pages is
// captured; one page changes some words; refresh --report (dry run, JSON;
// then writing, HTML) shows exactly that page text-changed, its diff
// exactly those words, and every other page unchanged.
func TestRefreshReportEndToEnd(t *testing.T) {
	browserSuite(t)
	var mu sync.Mutex
	page := func(title, body string) string {
		return `<!doctype html><html lang="en"><head><title>` + title + `</title></head><body><h1>` + title + `</h1>` + body + `</body></html>`
	}
	site := map[string]string{
		"/":        page("Library", `<p>Welcome to the library.</p><a href="/hours">Hours</a> <a href="/events">Events</a> <a href="/contact">Contact</a>`),
		"/hours":   page("Opening hours", `<p>The library opens at nine in the morning and closes at five.</p><p>On Sundays it is closed.</p>`),
		"/events":  page("Events", `<p>A reading on Tuesday, a film on Friday.</p>`),
		"/contact": page("Contact", `<p>Write to the front desk.</p>`),
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		body, ok := site[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, body)
	}))
	defer srv.Close()
	dir := t.TempDir()
	file := filepath.Join(dir, "library.pdf")
	var sum struct{}
	if code := runJSON(t, &sum, "capture", "--json", "--ignore-robots", "--wait-idle", "50ms", "--levels", "2", srv.URL+"/", "-o", file); code != 0 {
		t.Fatalf("capture: exit %d", code)
	}
	mu.Lock()
	site["/hours"] = strings.NewReplacer("opens at nine", "opens at ten", "closes at five.", "closes at six in the evening.").Replace(site["/hours"])
	mu.Unlock()

	refresh := []string{"refresh", "--json", "--ignore-robots", "--wait-idle", "50ms", "--allow-private"}
	rj := filepath.Join(dir, "report.json")
	var out struct{}
	if code := runJSON(t, &out, append(refresh, "--dry-run", "--report", rj, file)...); code != 1 {
		t.Errorf("refresh --dry-run --report: exit %d, want 1 (a page changed)", code)
	}
	b, err := os.ReadFile(rj)
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, b)
	var rep refreshReportJSON
	if err := json.Unmarshal(b, &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.DryRun || rep.Output != "" || rep.ComparedBy != "ID" || len(rep.Changes) != 4 || rep.Counts[capture.ChangeText] != 1 || rep.Counts[capture.StatusUnchanged] != 3 {
		t.Fatalf("report: %s", b)
	}
	for _, c := range rep.Changes {
		path := strings.TrimPrefix(c.URL, srv.URL)
		if path != "/hours" {
			if c.Change != capture.StatusUnchanged || c.Diff != nil || c.Old == nil || c.New == nil || c.Old.ID != c.New.ID || c.Old.TID != c.New.TID {
				t.Errorf("%s: %+v, want unchanged with equal identifiers and no diff", path, c)
			}
			continue
		}
		var changes []string
		for _, d := range c.Diff {
			if d.Op != "equal" {
				changes = append(changes, map[string]string{"insert": "+", "delete": "-"}[d.Op]+d.Text)
			}
		}
		want := "-nine +ten -five. +six in the evening."
		if c.Change != capture.ChangeText || strings.Join(changes, " ") != want || c.Words.Inserted != 5 || c.Words.Deleted != 2 {
			t.Errorf("/hours: %s, changes %q, %+v; want text-changed, %q", c.Change, changes, c.Words, want)
		}
		if c.Old.ID == c.New.ID || c.Old.TID == c.New.TID || c.Old.Title != "Opening hours" || c.New.Title != "Opening hours" {
			t.Errorf("/hours identifiers: old %+v, new %+v", c.Old, c.New)
		}
	}

	// Writing, with the HTML report.
	rh := filepath.Join(dir, "report.html")
	refreshed := filepath.Join(dir, "refreshed.pdf")
	if code := runJSON(t, &out, append(refresh, "--report", rh, file, "-o", refreshed)...); code != 0 {
		t.Errorf("refresh -o --report: exit %d", code)
	}
	h, err := os.ReadFile(rh)
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"The refreshed capture is " + refreshed, `<del><span class="vh">[deleted: </span>nine<span class="vh">]</span></del>`,
		`<ins><span class="vh">[inserted: </span>ten<span class="vh">]</span></ins>`, "5 words inserted, 2 deleted", "Content-Security-Policy"} {
		if !strings.Contains(string(h), s) {
			t.Errorf("report.html lacks %q", s)
		}
	}
	if strings.Count(string(h), "<del>") != 2 || strings.Count(string(h), "<ins>") != 2 || strings.Contains(string(h), "<script") {
		t.Errorf("report.html: %d <del>, %d <ins>", strings.Count(string(h), "<del>"), strings.Count(string(h), "<ins>"))
	}
}
