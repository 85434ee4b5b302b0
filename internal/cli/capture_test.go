package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/record"
	"github.com/webcap/webcap/webcapture"
)

func TestCaptureCommand(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "site.pdf")
	exists := filepath.Join(dir, "exists.pdf")
	os.WriteFile(exists, []byte("%PDF-1.7\n"), 0o644)
	for _, tc := range []struct {
		args []string
		want int
		msg  string
	}{
		{[]string{"capture", "http://a/"}, 2, "say where to write"},
		{[]string{"capture", "--levels", "0", "http://a/", "-o", out}, 2, "--levels 0"},
		{[]string{"capture", "--profile", "x", "http://a/", "-o", out}, 2, "--profile"},
		{[]string{"capture", "--chromium", "/nonexistent/chromium", "http://a/", "-o", out}, 3, "/nonexistent/chromium"},
		{[]string{"append", "site.pdf"}, 2, "append: want at least 2 arguments (FILE URL... -o OUT.pdf), got 1"},
		{[]string{"append", out, "http://a/", "-o", out}, 2, "is an input of this run (" + out + "): give another file, or --in-place to replace it"},
		{[]string{"append", "/nonexistent/site.pdf", "http://a/", "-o", out}, 3, "/nonexistent/site.pdf"},
		// The output is checked before anything is fetched (here: before
		// Chromium would be looked for).
		{[]string{"capture", "--chromium", "/nonexistent/chromium", "http://a/", "-o", "/nonexistent/dir/x.pdf"}, 3, "the directory /nonexistent/dir does not exist"},
		{[]string{"capture", "--chromium", "/nonexistent/chromium", "http://a/", "-o", exists}, 2, "exists: choose another -o, or --force"},
		{[]string{"capture", "--chromium", "/nonexistent/chromium", "http://a/", "-o", dir}, 2, "is a directory"},
		{[]string{"refresh", "--chromium", "/nonexistent/chromium", exists, "-o", "/nonexistent/dir/x.pdf"}, 3, "does not exist"},
		{[]string{"refresh", exists, "-o", exists}, 2, "is an input of this run (" + exists + "): give another file, or --in-place"},
		{[]string{"capture", "--media", "tv", "http://a/", "-o", out}, 2, "--media"},
		{[]string{"capture", "--wait-idle", "0s", "http://a/", "-o", out}, 2, "--wait-idle"},
	} {
		ios, _, stdout, stderr := Test()
		if code := Main(context.Background(), tc.args, ios); code != tc.want || !strings.Contains(stderr.String(), tc.msg) {
			t.Errorf("webcap %q: exit %d, want %d; stderr %q stdout %q", tc.args, code, tc.want, stderr, stdout)
		}
	}

}

// TestCaptureCommands captures, appends, submits a form and refreshes
// through the commands, on a small local site.
func TestCaptureCommands(t *testing.T) {
	browserSuite(t)
	out := filepath.Join(t.TempDir(), "site.pdf")
	var two atomic.Value
	two.Store(`<title>Two</title><a href="/">one</a>`)
	mux := http.NewServeMux()
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/":
			w.Write([]byte(`<title>One</title><a href="/two">two</a>`))
		case "/two":
			w.Write([]byte(two.Load().(string)))
		case "/form":
			if r.Method == http.MethodPost {
				r.ParseForm()
				w.Write([]byte(`<title>Posted</title>` + r.PostForm.Get("q")))
				return
			}
			http.Error(w, "POST only", http.StatusMethodNotAllowed)
		case "/three":
			w.Write([]byte(`<title>Three</title><a href="/two">two</a>`))
		default:
			http.NotFound(w, r)
		}
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"capture", "--levels", "2", "--same-site", srv.URL + "/", "-o", out}, ios); code != 0 {
		t.Fatalf("capture: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{"ID ", srv.URL + "/two", "2 pages captured", "2 links made internal", "audits with no error"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("stdout lacks %q:\n%s", want, stdout)
		}
	}
	if !strings.Contains(stderr.String(), "capture: 2 done, 0 queued, ") {
		t.Errorf("no progress on stderr:\n%s", stderr)
	}
	ios, _, stdout, _ = Test()
	if code := Main(context.Background(), []string{"audit", "--in-process", out}, ios); code != 0 {
		t.Errorf("audit of the capture: exit %d\n%s", code, stdout)
	}

	// append: /three is new, /two (its link) is in the file already.
	out2 := filepath.Join(t.TempDir(), "more.pdf")
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"append", "--levels", "2", out, srv.URL + "/three", "-o", out2}, ios); code != 0 {
		t.Fatalf("append: exit %d\n%s%s", code, stdout, stderr)
	}
	for _, want := range []string{srv.URL + "/three", "skipped   " + srv.URL + "/two: already in " + out,
		"1 page captured and added after the 2 pages of " + out + " (3 PDF pages now), 1 link made internal", "audits with no error"} {
		if !strings.Contains(stdout.String(), want) {
			t.Errorf("append: stdout lacks %q:\n%s", want, stdout)
		}
	}

	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"append", out, srv.URL + "/two", "-o", filepath.Join(t.TempDir(), "none.pdf")}, ios); code != 1 ||
		!strings.Contains(stderr.String(), "append: no page could be captured (1 skipped); "+srv.URL+"/two: already in "+out) {
		t.Errorf("append of a page the file has: exit %d\n%s%s", code, stdout, stderr)
	}

	// The same with --json: one document, valid against append's schema;
	// the failure too.
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"append", "--json", "--levels", "2", out, srv.URL + "/three", "-o", filepath.Join(t.TempDir(), "more.pdf")}, ios); code != 0 ||
		!strings.Contains(stdout.String(), `"schema": "webcap.append/1"`) || !strings.Contains(stdout.String(), `"input": "`+out+`"`) {
		t.Errorf("append --json: exit %d\n%s%s", code, stdout, stderr)
	}
	checkSchema(t, stdout.Bytes())
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"append", "--json", out, srv.URL + "/two", "-o", filepath.Join(t.TempDir(), "none.pdf")}, ios); code != 1 ||
		!strings.Contains(stdout.String(), `"kind": "failed"`) {
		t.Errorf("append --json of a page the file has: exit %d\n%s%s", code, stdout, stderr)
	}
	checkSchema(t, stdout.Bytes())

	// a form submitted by POST.
	ios, _, stdout, stderr = Test()
	posted := filepath.Join(t.TempDir(), "posted.pdf")
	if code := Main(context.Background(), []string{"capture", "--json", "--post", "q=hello", srv.URL + "/form", "-o", posted}, ios); code != 0 ||
		!strings.Contains(stdout.String(), `"title": "Posted"`) {
		t.Errorf("capture --post: exit %d\n%s%s", code, stdout, stderr)
	}
	checkSchema(t, stdout.Bytes())
	ios, _, stdout, _ = Test()
	if code := Main(context.Background(), []string{"info", posted}, ios); code != 0 || !strings.Contains(stdout.String(), "POST (7 bytes, application/x-www-form-urlencoded)") || !strings.Contains(stdout.String(), "submission POST") {
		t.Errorf("info of the form capture: exit %d\n%s", code, stdout)
	}

	// refresh: nothing changed; then the server's second page changes.
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"refresh", out}, ios); code != 2 || !strings.Contains(stderr.String(), "say where to write") {
		t.Errorf("refresh without -o: exit %d, %s", code, stderr)
	}
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"refresh", "--dry-run", "--allow-private", out}, ios); code != 0 || !strings.Contains(stdout.String(), "2 pages compared (by ID): 2 unchanged (dry run") {
		t.Errorf("refresh: exit %d\n%s%s", code, stdout, stderr)
	}
	two.Store(`<title>Two</title><a href="/">one</a> and more`)
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"refresh", "--dry-run", "--text-only", "--allow-private", out}, ios); code != 1 || !strings.Contains(stdout.String(), "changed     "+srv.URL+"/two") {
		t.Errorf("refresh after a change: exit %d\n%s%s", code, stdout, stderr)
	}
	refreshed := filepath.Join(t.TempDir(), "refreshed.pdf")
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"refresh", "--allow-private", out, "-o", refreshed}, ios); code != 0 ||
		!strings.Contains(stdout.String(), "2 pages compared (by ID): 1 replaced, 1 unchanged (checked); 1 link made internal") ||
		!strings.Contains(stdout.String(), "audits with no error") {
		t.Errorf("refresh writing: exit %d\n%s%s", code, stdout, stderr)
	}
	ios, _, stdout, stderr = Test()
	if code := Main(context.Background(), []string{"refresh", "--dry-run", "--allow-private", refreshed}, ios); code != 0 || !strings.Contains(stdout.String(), "2 pages compared (by ID): 2 unchanged (dry run") {
		t.Errorf("refresh of the refreshed file: exit %d\n%s%s", code, stdout, stderr)
	}
}

func TestByteSize(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want int64
		str  string
	}{
		// IEC units are powers of 1024, SI units of 1000 (2^20 is 1.0 MiB,
		// not "MB"); the flag prints IEC.
		{"1048576", 1 << 20, "1.0 MiB"}, {"500KiB", 500 << 10, "500 KiB"}, {"100MiB", 100 << 20, "100 MiB"}, {"2GiB", 2 << 30, "2.0 GiB"},
		{"100 MiB", 100 << 20, "100 MiB"}, {"1.5GiB", 3 << 29, "1.5 GiB"}, {"100MB", 100e6, "95 MiB"}, {"100M", 100e6, "95 MiB"},
		{"500k", 500e3, "488 KiB"}, {"1500", 1500, "1.5 KiB"}, {"512", 512, "512 B"}, {"5T", 5e12, "4.5 TiB"},
		{"", 0, ""}, {"0", 0, ""}, {"-5M", 0, ""}, {"ten", 0, ""}, {"9999999999G", 0, ""},
	} {
		var s byteSize
		err := s.Set(tc.in)
		if tc.want == 0 {
			if err == nil {
				t.Errorf("%q: %d, want an error", tc.in, s)
			}
			continue
		}
		if err != nil || int64(s) != tc.want || s.String() != tc.str {
			t.Errorf("%q: %d %q %v, want %d %q", tc.in, s, s.String(), err, tc.want, tc.str)
		}
	}
}

// Skipped URLs are summarised by reason: a line per reason with the count
// and the first URLs; every URL with verbose.
func TestWriteSkips(t *testing.T) {
	var skips []capture.Skip
	for i := range 40 {
		skips = append(skips, capture.Skip{URL: fmt.Sprintf("http://h/p%d", i), Reason: "level 3: the command follows 2", Kind: capture.SkipLevel})
	}
	skips = append(skips, capture.Skip{URL: "http://h/old", Reason: "the server answered 404 Not Found", Kind: "http", Status: 404})
	var w strings.Builder
	writeSkips(&w, skips, false)
	want := "skipped   40 URLs: level 3: the command follows 2: http://h/p0, http://h/p1, http://h/p2 and 37 more\n" +
		"skipped   http://h/old: the server answered 404 Not Found\n" +
		"          (--verbose or --json lists every skipped URL)\n"
	if w.String() != want {
		t.Errorf("summary:\n%s\nwant:\n%s", w.String(), want)
	}
	w.Reset()
	writeSkips(&w, skips, true)
	if n := strings.Count(w.String(), "\n"); n != 41 {
		t.Errorf("verbose: %d lines, want 41", n)
	}
}

// A crawl's lines show no URL's password, whether or not the PDF keeps
// it (--keep-credentials): not a set's key or alias, a skipped URL, a
// reason quoting one, a note, nor a page's JSON.
func TestCaptureLinesHidePasswords(t *testing.T) {
	skips := []capture.Skip{
		{URL: "http://u:s3cret@h/b", Reason: "level 2: the command follows 1", Kind: capture.SkipLevel},
		{URL: "http://u:s3cret@h/r", Reason: "redirects to http://v:s3cret@other/, outside the command's scope", Kind: capture.SkipLevel},
	}
	var w strings.Builder
	for _, verbose := range []bool{false, true} {
		writeSkips(&w, skips, verbose)
	}
	writeSets(&w, []record.Set{{Kind: webcapture.PageSet, Key: "http://u:s3cret@h/", Aliases: []string{"http://u:s3cret@h/old"}}})
	writeNotes(&w, []string{"http://u:s3cret@h/x: appended untagged"})
	b, err := json.Marshal(capturedPage{URL: shownURL("http://u:s3cret@h/"), Chains: shownChains([][]string{{"http://u:s3cret@h/old"}}), Missing: shownSkips(skips)})
	if err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{w.String(), string(b)} {
		if strings.Contains(out, "s3cret") {
			t.Errorf("a password is shown:\n%s", out)
		}
		if !strings.Contains(out, "http://u@h/") {
			t.Errorf("the URLs are not shown without their password:\n%s", out)
		}
	}
}

// Sizes are printed in IEC units: 2^20 bytes is 1.0 MiB, not "MB".
func TestSizeOf(t *testing.T) {
	for _, tc := range []struct {
		n    int64
		want string
	}{{0, "0 B"}, {512, "512 B"}, {1536, "1.5 KiB"}, {1 << 20, "1.0 MiB"}, {5 << 30, "5.0 GiB"}, {-1, "0 B"}} {
		if got := sizeOf(tc.n); got != tc.want {
			t.Errorf("sizeOf(%d) = %q, want %q", tc.n, got, tc.want)
		}
	}
}
