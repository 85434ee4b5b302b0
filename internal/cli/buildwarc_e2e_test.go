package cli

import (
	"context"
	"crypto/md5"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/warc"
)

// TestBuildWARC is issue 16's first "done when": a local site crawled by
// GNU wget --warc-file, a PDF's content sets built from the WARC alone
// (build --warc, no mirror), audited clean against the same WARC. The
// identifiers are MD5 computed here over the bytes the server sent, the
// alias chain holds the redirects wget followed, and the capture times are
// the WARC-Date of the response records.
func TestBuildWARC(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget is not installed (apt-get install wget): build --warc is not checked end to end")
	}
	logo := gifBytes + "/logo.gif"
	sent := map[string]string{ // what the server sends, by path
		"/":          `<html><body><img src="logo.gif"><a href="older">a</a> <a href="notes.txt">notes</a></body></html>`,
		"/a.html":    `<html><body><p>moved here</p><img src="/logo.gif"></body></html>`,
		"/notes.txt": "plain notes\n",
		"/logo.gif":  logo,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/older":
			http.Redirect(w, r, "/old", http.StatusMovedPermanently)
		case p == "/old":
			http.Redirect(w, r, "/a.html", http.StatusFound)
		case sent[p] != "":
			ct := map[string]string{".gif": "image/gif", ".txt": "text/plain"}[filepath.Ext(p)]
			if ct == "" {
				ct = "text/html"
			}
			w.Header().Set("Content-Type", ct)
			io.WriteString(w, sent[p])
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	wgetWARC(t, wget, dir, "mirror", true, srv.URL+"/")
	os.RemoveAll(filepath.Join(dir, "mirror")) // the WARC alone
	archive := filepath.Join(dir, "site.warc.gz")
	if err := os.WriteFile(filepath.Join(dir, "pages.pdf"), pb.Web(false), 0o644); err != nil {
		t.Fatal(err)
	}
	// The manifest says which URL makes which pages, and nothing else.
	type obj = map[string]any
	m := obj{"input": "pages.pdf",
		"pageSets": []obj{
			{"pages": "1", "url": srv.URL + "/"},
			{"pages": "2", "url": srv.URL + "/a.html"},
			{"pages": "3", "url": srv.URL + "/notes.txt"},
		},
		"imageSets": []obj{{"url": srv.URL + "/logo.gif", "images": []obj{{"page": 1, "name": "Im0"}}}},
	}
	mb, _ := json.Marshal(m)
	manifest := filepath.Join(dir, "manifest.json")
	os.WriteFile(manifest, mb, 0o644)
	built := filepath.Join(dir, "built.pdf")
	var sum buildSummary
	if code := runJSON(t, &sum, "build", "--json", "--warc", archive, manifest, "-o", built); code != 0 || len(sum.Sets) != 4 {
		t.Fatalf("build --warc: exit %d, %d sets, want 4: %+v", code, len(sum.Sets), sum)
	}

	// The identifiers, over what the server sent (ISO 32000-1 §14.10.3.1:
	// a page's MD5 covers its bytes, then each auxiliary file's identifier,
	// raw).
	md := func(parts ...string) string { return fmt.Sprintf("%X", md5.Sum([]byte(strings.Join(parts, "")))) }
	logoID := md5.Sum([]byte(logo))
	wantID := map[string]string{
		srv.URL + "/":          md(sent["/"], string(logoID[:])),
		srv.URL + "/a.html":    md(sent["/a.html"], string(logoID[:])),
		srv.URL + "/notes.txt": md(sent["/notes.txt"]),
		srv.URL + "/logo.gif":  md(logo),
	}
	for _, s := range sum.Sets {
		if s.ID != wantID[s.URL] {
			t.Errorf("%s %s: ID %s, want MD5 over the sent bytes %s", s.Subtype, s.URL, s.ID, wantID[s.URL])
		}
	}

	// The WARC-Date of each URL's response record, read from the archive.
	dates := map[string]time.Time{}
	f, err := os.Open(archive)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	for rd := warc.NewReader(f); ; {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		} else if err != nil {
			t.Fatal(err)
		}
		if rec.Type() == warc.TypeResponse {
			d, _ := rec.Date()
			dates[rec.TargetURI()] = d
		}
	}

	// What the PDF says, through info --json.
	var info struct {
		ContentSets []struct {
			Subtype string
			ID      string
			Created *struct{ Time string }
			Sources []struct {
				URL     string
				Chains  [][]string
				Updated *struct{ Time string }
			}
		}
	}
	if code := runJSON(t, &info, "info", "--json", built); code != 0 || len(info.ContentSets) != 4 {
		t.Fatalf("info --json: exit %d, %d sets, want 4", code, len(info.ContentSets))
	}
	for _, cs := range info.ContentSets {
		s := cs.Sources[0]
		d, ok := dates[s.URL]
		if !ok {
			t.Errorf("%s: no response record in the WARC", s.URL)
			continue
		}
		want := d.UTC().Format(time.RFC3339)
		if s.Updated == nil || s.Updated.Time != want {
			t.Errorf("%s: source TS %+v, want the WARC-Date %s", s.URL, s.Updated, want)
		}
		if cs.Subtype == "SPS" && (cs.Created == nil || cs.Created.Time != want) {
			t.Errorf("%s: set CT %+v, want the WARC-Date %s", s.URL, cs.Created, want)
		}
		wantChains := [][]string(nil)
		if s.URL == srv.URL+"/a.html" {
			wantChains = [][]string{{srv.URL + "/older", srv.URL + "/old", srv.URL + "/a.html"}}
		}
		if fmt.Sprint(s.Chains) != fmt.Sprint(wantChains) {
			t.Errorf("%s: chains %q, want %q", s.URL, s.Chains, wantChains)
		}
	}
	if i := slices.IndexFunc(sum.Sets, func(s buildSet) bool { return s.URL == srv.URL+"/a.html" }); i < 0 || len(sum.Sets[i].Aliases) != 2 {
		t.Errorf("a.html: build's aliases %+v, want /older and /old", sum.Sets)
	}

	// The result audits clean against the WARC, and qpdf finds the file good.
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", "--sources", archive, built}, ios); code != 0 || strings.Contains(stdout.String(), "WC-SOURCE") {
		t.Errorf("audit --sources %s: exit %d\n%s%s", archive, code, stdout, stderr)
	}
	if qpdf, err := exec.LookPath("qpdf"); err != nil {
		t.Log("qpdf is not installed: the written PDF is not checked by qpdf")
	} else if out, err := exec.Command(qpdf, "--check", built).CombinedOutput(); err != nil {
		t.Errorf("qpdf --check %s: %v\n%s", built, err, out)
	}
}
