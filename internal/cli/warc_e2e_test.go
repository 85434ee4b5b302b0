package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/warc"
)

// TestWARCSources: a local site crawled by GNU wget, which writes a mirror
// and a WARC file in the same run; a PDF built from the mirror audits clean
// against the WARC (audit --sources site.warc.gz), id --warc gives the
// identifiers build recorded, and a WARC whose logo payload was altered
// makes audit report the mismatch.
func TestWARCSources(t *testing.T) {
	wget, err := exec.LookPath("wget")
	if err != nil {
		t.Skip("wget is not installed (apt-get install wget): audit --sources with a WARC file is not checked end to end")
	}
	pages := map[string]string{
		"/":             `<html><body><img src="logo.gif"><a href="a.html">a</a> <a href="old">old</a> <a href="chunked.html">c</a></body></html>`,
		"/a.html":       `<html><body><img src="/logo.gif"><img src="img/photo.gif"></body></html>`,
		"/chunked.html": `<html><body><img src="logo.gif"><p>sent in chunks</p></body></html>`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch p := r.URL.Path; {
		case p == "/logo.gif" || p == "/img/photo.gif":
			w.Header().Set("Content-Type", "image/gif")
			io.WriteString(w, gifBytes+p)
		case p == "/old":
			http.Redirect(w, r, "/a.html", http.StatusFound)
		case p == "/chunked.html":
			w.Header().Set("Content-Type", "text/html")
			half := len(pages[p]) / 2 // no Content-Length, and a flush: chunked
			io.WriteString(w, pages[p][:half])
			w.(http.Flusher).Flush()
			io.WriteString(w, pages[p][half:])
		case pages[p] != "":
			w.Header().Set("Content-Type", "text/html")
			io.WriteString(w, pages[p])
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	dir := t.TempDir()
	wgetWARC(t, wget, dir, "mirror", true, srv.URL+"/")
	if err := os.WriteFile(filepath.Join(dir, "pages.pdf"), pb.Web(false), 0o644); err != nil {
		t.Fatal(err)
	}
	type set = map[string]any
	m := set{"input": "pages.pdf", "sources": "mirror",
		"pageSets": []set{
			{"pages": "1", "url": srv.URL + "/"},
			{"pages": "2", "url": srv.URL + "/a.html", "redirects": [][]string{{srv.URL + "/old"}}},
			{"pages": "3", "url": srv.URL + "/chunked.html"},
		},
		"imageSets": []set{{"url": srv.URL + "/logo.gif", "images": []set{{"page": 1, "name": "Im0"}}}},
	}
	mb, _ := json.Marshal(m)
	os.WriteFile(filepath.Join(dir, "manifest.json"), mb, 0o644)
	built := filepath.Join(dir, "built.pdf")
	var sum buildSummary
	ios, _, stdout, stderr := Test()
	code := Main(context.Background(), []string{"build", "--json", filepath.Join(dir, "manifest.json"), "-o", built}, ios)
	if err := json.Unmarshal(stdout.Bytes(), &sum); err != nil || code != 0 || len(sum.Sets) != 4 {
		t.Fatalf("build: exit %d, %d sets, want 4: %s%s", code, len(sum.Sets), stdout, stderr)
	}

	archive := filepath.Join(dir, "site.warc.gz")
	audit := func(sources string) (int, string) {
		ios, _, stdout, stderr := Test()
		code := Main(context.Background(), []string{"audit", "--in-process", "--sources", sources, built}, ios)
		return code, stdout.String() + stderr.String()
	}
	code, out := audit(archive)
	if code != 0 || strings.Contains(out, "WC-SOURCE") {
		t.Errorf("audit --sources %s: exit %d\n%s", archive, code, out)
	}
	// id --warc gives each set the identifier build computed from the mirror.
	for _, s := range sum.Sets {
		ios, _, stdout, stderr := Test()
		if code := Main(context.Background(), []string{"id", "--warc", archive, s.URL}, ios); code != 0 || !strings.HasPrefix(stdout.String(), fmt.Sprintf("%s  %s  sha256:", s.ID, s.URL)) {
			t.Errorf("id --warc %s: exit %d, %q%s; build recorded %s", s.URL, code, stdout, stderr, s.ID)
		}
	}

	// build --sources takes the WARC file in place of the mirror: the same
	// identifiers.
	var fromWARC buildSummary
	if code := runJSON(t, &fromWARC, "build", "--json", "--sources", archive, filepath.Join(dir, "manifest.json"), "-o", filepath.Join(dir, "fromwarc.pdf")); code != 0 || fmt.Sprint(fromWARC.Sets) != fmt.Sprint(sum.Sets) {
		t.Errorf("build --sources %s: exit %d, sets %+v; from the mirror %+v", archive, code, fromWARC.Sets, sum.Sets)
	}

	// The logo's payload altered (same length, digests left as they were).
	tampered := filepath.Join(dir, "tampered.warc")
	chunked := false
	rewrite(t, archive, tampered, func(r *warc.Record) {
		if strings.HasSuffix(r.TargetURI(), "/chunked.html") && bytes.Contains(r.Block, []byte("Transfer-Encoding: chunked")) {
			chunked = true
		}
		if r.Type() == warc.TypeResponse && strings.HasSuffix(r.TargetURI(), "/logo.gif") {
			i := bytes.LastIndex(r.Block, []byte("/logo.gif"))
			r.Block[i+1] = 'L'
		}
	})
	if !chunked {
		t.Error("chunked.html was not archived with Transfer-Encoding: chunked")
	}
	code, out = audit(tampered)
	if !strings.Contains(out, "WC-SOURCE-MISMATCH") || !strings.Contains(out, "but "+srv.URL+"/logo.gif now has the identifier") {
		t.Errorf("audit --sources tampered.warc: exit %d, no mismatch for the logo:\n%s", code, out)
	}
	if n := strings.Count(out, "WC-SOURCE-MISMATCH"); n != 4 {
		t.Errorf("%d mismatches, want 4 (the logo, and the three pages that show it)\n%s", n, out)
	}
}

// rewrite copies a WARC file, uncompressed, with edit applied to each
// record.
func rewrite(t *testing.T, from, to string, edit func(*warc.Record)) {
	t.Helper()
	in, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	var out bytes.Buffer
	r, w := warc.NewReader(in), warc.NewWriter(&out, false)
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		edit(rec)
		if err := w.WriteRaw(rec); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(to, out.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}
