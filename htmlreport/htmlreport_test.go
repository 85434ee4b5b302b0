package htmlreport_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/htmlreport"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// markupFile writes pdfbuild.Markup under a name that is markup too, and
// returns its audit as the report reads it.
func markupFile(t *testing.T) htmlreport.File {
	t.Helper()
	path := filepath.Join(t.TempDir(), `<img src=x onerror=alert('name')>.pdf`)
	if err := os.WriteFile(path, pdfbuild.Markup(), 0o644); err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.Open(path, pdfio.Options{})
	if err != nil {
		t.Fatalf("pdfio.Open(%q): %v", path, err)
	}
	findings := audit.Check(d, audit.Options{})
	// A finding whose every string is markup, as a crafted shard could say.
	findings = append(findings, audit.Finding{Rule: "<b>WC-NOPE</b>", Severity: audit.Serious, Object: webcapture.Ref{Num: 3},
		Key: "/<script>alert('key')</script>", Message: "</script><script>alert('message')</script>", Spec: "<i>spec</i>"})
	return htmlreport.File{Result: audit.FileResult{Input: path, Findings: findings}, Capture: htmlreport.Describe(d, findings, false)}
}

func writeReport(t *testing.T, files htmlreport.Slice, opts htmlreport.Options) (string, []byte) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "report.html")
	if _, err := htmlreport.Write(context.Background(), out, files, opts); err != nil {
		t.Fatalf("Write: %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return out, b
}

// TestMarkupStaysText: what a file says (its name, title, URLs, keys,
// finding text) is text in the report: no script element, no event
// handler attribute, no element the report does not make, no link but
// http, https and the report's own, no data: URI but the PNGs.
func TestMarkupStaysText(t *testing.T) {
	f := markupFile(t)
	if len(f.Capture.Sets) != 2 {
		t.Fatalf("Describe found %d sets, want 2", len(f.Capture.Sets))
	}
	opts := htmlreport.Options{NoThumbnails: "off"}
	if r, err := htmlreport.FindRenderer(); err == nil {
		opts = htmlreport.Options{Renderer: r}
	}
	_, b := writeReport(t, htmlreport.Slice{f}, opts)
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	allowed := map[string]bool{}
	for _, e := range strings.Fields(`html head meta title style body header h1 h2 h3 h4 p nav ul ol li a main section div figure figcaption
		svg text rect table caption colgroup col thead tbody tr th td span article code cite img dl dt dd`) {
		allowed[e] = true
	}
	var links, texts int
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if !allowed[n.Data] {
				t.Errorf("element <%s> in the report", n.Data)
			}
			for _, a := range n.Attr {
				switch {
				case strings.HasPrefix(strings.ToLower(a.Key), "on"):
					t.Errorf("<%s %s=%q>: an event handler", n.Data, a.Key, a.Val)
				case a.Key == "href":
					links++
					u, err := url.Parse(a.Val)
					if err != nil || (u.Scheme != "" && u.Scheme != "http" && u.Scheme != "https") {
						t.Errorf("<a href=%q>: a link to neither http, https nor the report", a.Val)
					}
				case a.Key == "src" && !strings.HasPrefix(a.Val, "data:image/png;base64,"):
					t.Errorf("<%s src=%q>: not a PNG of webcap's", n.Data, a.Val)
				}
			}
		}
		if n.Type == html.TextNode && strings.Contains(n.Data, "alert(") {
			texts++
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if links == 0 || texts < 6 {
		t.Errorf("%d links and %d texts with alert( in the report: the hostile strings are not shown as text", links, texts)
	}
	for _, s := range []string{"alert('title')", "javascript:alert('url')", "alert('chain')", "alert('key')", "alert('message')", "alert('name')"} {
		if !strings.Contains(html.UnescapeString(string(b)), s) {
			t.Errorf("the report does not show %q", s)
		}
	}
	if bytes.Contains(b, []byte(`href="javascript`)) || bytes.Contains(b, []byte(`href="data`)) {
		t.Error("a javascript: or data: URL is a link")
	}
}

// TestCSP: the policy allows the report's style sheet, by its hash, and
// nothing else to load or run.
func TestCSP(t *testing.T) {
	_, b := writeReport(t, htmlreport.Slice{{Result: audit.FileResult{Input: "a.pdf"}}}, htmlreport.Options{})
	doc, err := html.Parse(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	var policy string
	var styles []string
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "meta" && attr(n, "http-equiv") == "Content-Security-Policy" {
			policy = attr(n, "content")
		}
		if n.Type == html.ElementNode && n.Data == "style" && n.FirstChild != nil {
			styles = append(styles, n.FirstChild.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	if len(styles) != 1 {
		t.Fatalf("%d style elements, want 1", len(styles))
	}
	sum := sha256.Sum256([]byte(styles[0]))
	want := "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'; img-src data:; base-uri 'none'; form-action 'none'"
	if policy != want {
		t.Errorf("Content-Security-Policy = %q, want %q", policy, want)
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// synthetic makes n results: every third file has two sets, every fifth
// a finding.
func synthetic(n int) htmlreport.Slice {
	out := make(htmlreport.Slice, n)
	for i := range out {
		r := audit.FileResult{Input: fmt.Sprintf("dir/file-%06d.pdf", i)}
		if i%5 == 0 {
			r.Findings = []audit.Finding{{Rule: "WC-TREE-ORDER", Severity: audit.Serious, Object: webcapture.Ref{Num: 4}, Message: "keys out of order", Spec: "PDF 1.7 §3.8.5"}}
		}
		out[i].Result = r
		if i%3 == 0 {
			out[i].Capture = &htmlreport.Capture{Version: "1.25", Sets: []htmlreport.Set{
				{Object: "4 0 R", Kind: "page", Title: "page", Page: 1, Objects: 1, Verified: "unchecked", Sources: []htmlreport.Source{{URL: "http://example.com/"}}},
				{Object: "5 0 R", Kind: "image", Objects: 1, Verified: "no-id", Created: "2001-02-03T04:05:06Z", Sources: []htmlreport.Source{}},
			}}
		}
	}
	return out
}

// TestDirectoryReport: more than MaxSingle files make a directory whose
// every link reaches a page and an element of it, and whose pages hold
// every file once.
func TestDirectoryReport(t *testing.T) {
	files := synthetic(2345)
	dir := filepath.Join(t.TempDir(), "report")
	st, err := htmlreport.Write(context.Background(), dir, files, htmlreport.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// 3 index pages, 24 pages of details, the rules.
	if !st.Dir || st.Pages != 3+24+1 {
		t.Fatalf("Write = %+v, want a directory of 28 pages", st)
	}
	ids := map[string]map[string]bool{}
	hrefs := map[string][]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var articles int
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := html.Parse(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		ids[e.Name()] = map[string]bool{}
		var walk func(n *html.Node)
		walk = func(n *html.Node) {
			if n.Type == html.ElementNode {
				if id := attr(n, "id"); id != "" {
					ids[e.Name()][id] = true
				}
				if h := attr(n, "href"); h != "" {
					hrefs[e.Name()] = append(hrefs[e.Name()], h)
				}
				if n.Data == "article" {
					articles++
				}
			}
			for c := n.FirstChild; c != nil; c = c.NextSibling {
				walk(c)
			}
		}
		walk(doc)
	}
	if len(entries) != st.Pages || articles != len(files) {
		t.Errorf("%d files in the directory and %d articles; want %d and %d", len(entries), articles, st.Pages, len(files))
	}
	for page, hs := range hrefs {
		for _, h := range hs {
			if strings.HasPrefix(h, "http://example.com/") {
				continue // a source URL
			}
			name, frag, _ := strings.Cut(h, "#")
			if name == "" {
				name = page
			}
			got, ok := ids[name]
			if !ok || (frag != "" && !got[frag]) {
				t.Errorf("%s links to %q, which is not there", page, h)
			}
		}
	}
	// The index says each file's sets, also of the files whose details
	// were written before it.
	index2, err := os.ReadFile(filepath.Join(dir, "index-2.html"))
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(index2, []byte(`<td class="n">2</td></tr>`)); n != 333 { // files 1,002 to 2,000 whose number is 0 mod 3
		t.Errorf("index-2.html gives %d files two content sets, want 333", n)
	}
	if !ids["index.html"]["summary"] || !ids["files-24.html"]["f2345"] || !ids["rules.html"]["rule-WC-TREE-ORDER"] {
		t.Error("index.html has no summary, or files-24.html not the last file, or rules.html not the rules")
	}
}

// TestReplace: what is at the path is replaced only when allowed, a
// directory only when it is a report.
func TestReplace(t *testing.T) {
	ctx := context.Background()
	tmp := t.TempDir()
	one, many := synthetic(3), synthetic(12)
	small := htmlreport.Options{MaxSingle: 10}
	file := filepath.Join(tmp, "r.html")
	os.WriteFile(file, []byte("old"), 0o644)
	if _, err := htmlreport.Write(ctx, file, one, small); !errors.Is(err, fs.ErrExist) {
		t.Errorf("Write over a file without Replace: %v, want fs.ErrExist", err)
	}
	if b, _ := os.ReadFile(file); string(b) != "old" {
		t.Error("the file was changed")
	}
	small.Replace = true
	if _, err := htmlreport.Write(ctx, file, many, small); err != nil {
		t.Errorf("a directory report over a file, with Replace: %v", err)
	}
	if _, err := os.Stat(filepath.Join(file, "index.html")); err != nil {
		t.Errorf("no directory report: %v", err)
	}
	if _, err := htmlreport.Write(ctx, file, one, small); err != nil {
		t.Errorf("a one-file report over a directory report, with Replace: %v", err)
	}
	if fi, err := os.Stat(file); err != nil || !fi.Mode().IsRegular() {
		t.Errorf("no one-file report: %v", err)
	}
	other := filepath.Join(tmp, "notes")
	os.MkdirAll(other, 0o755)
	os.WriteFile(filepath.Join(other, "keep.txt"), []byte("mine"), 0o644)
	if _, err := htmlreport.Write(ctx, other, many, small); !errors.Is(err, htmlreport.ErrNotReport) {
		t.Errorf("Write over a directory that is not a report: %v, want ErrNotReport", err)
	}
	if leftovers, _ := filepath.Glob(filepath.Join(tmp, ".*")); len(leftovers) > 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// TestSameResultsSameBytes: the report is a function of the results (and
// Options.Time).
func TestSameResultsSameBytes(t *testing.T) {
	opts := htmlreport.Options{Time: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), Generator: "webcap test"}
	_, a := writeReport(t, synthetic(40), opts)
	_, b := writeReport(t, synthetic(40), opts)
	if !bytes.Equal(a, b) {
		t.Error("two reports of the same results differ")
	}
	if !bytes.Contains(a, []byte("2026-01-02 03:04:05 UTC")) {
		t.Error("the report does not say its time")
	}
}

// fakeRenderer is a Renderer whose pdftoppm is a shell script.
func fakeRenderer(t *testing.T, script string) *htmlreport.Renderer {
	t.Helper()
	p := filepath.Join(t.TempDir(), "pdftoppm")
	if err := os.WriteFile(p, []byte("#!/bin/sh\n"+script+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return &htmlreport.Renderer{Path: p, Size: 160, Timeout: 30 * time.Second, MaxMemory: 256 << 20, MaxOutput: 4096}
}

// TestRenderBounds: the renderer runs under its memory and CPU limits, is
// stopped when it writes too much or takes too long, and must write a PNG.
func TestRenderBounds(t *testing.T) {
	ctx := context.Background()
	r := fakeRenderer(t, `echo "v=$(ulimit -v) t=$(ulimit -t)" >&2; exit 1`)
	_, err := r.Render(ctx, "x.pdf", 1)
	if err == nil || !strings.Contains(err.Error(), "v=262144 t=30") {
		t.Errorf("Render = %v, want the child's limits (v=262144 t=30) in its error", err)
	}
	r = fakeRenderer(t, `head -c 100000 /dev/zero; sleep 600`)
	if _, err := r.Render(ctx, "x.pdf", 1); err == nil || !strings.Contains(err.Error(), "more than 4096 bytes") {
		t.Errorf("Render of a renderer that writes too much = %v", err)
	}
	r = fakeRenderer(t, `exec sleep 600`)
	ctx, cancel := context.WithCancel(ctx)
	cancel() // the run stopped: the child is killed, not waited for
	if _, err := r.Render(ctx, "x.pdf", 1); err == nil {
		t.Error("Render of a renderer that hangs, the run stopped: no error")
	}
	r = fakeRenderer(t, `echo '<svg onload=alert(1)>'`)
	if _, err := r.Render(context.Background(), "x.pdf", 1); err == nil || !strings.Contains(err.Error(), "no PNG") {
		t.Errorf("Render of a renderer that writes no PNG = %v", err)
	}
	r = fakeRenderer(t, `for a; do last=$a; done; test "$last" = ./-x.pdf && printf '\211PNG\r\n\032\n'`)
	if _, err := r.Render(context.Background(), "-x.pdf", 1); err != nil {
		t.Errorf("Render of -x.pdf: %v (want it passed as ./-x.pdf)", err)
	}
}

// TestRenderReal draws a page with poppler's pdftoppm, when there is one.
func TestRenderReal(t *testing.T) {
	r, err := htmlreport.FindRenderer()
	if err != nil {
		t.Skip(err)
	}
	png, err := r.Render(context.Background(), filepath.Join("..", "testdata", "capture.pdf"), 1)
	if err != nil || !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("Render(capture.pdf, 1) = %d bytes, %v", len(png), err)
	}
	if _, err := r.Render(context.Background(), filepath.Join("..", "testdata", "capture.pdf"), 99); err == nil {
		t.Error("Render of page 99 of 3: no error")
	}
}

// TestDescribePasswords: Describe records a file's URLs without their
// passwords (a result line holds none), says it left them out, and the
// report notes it on those URLs.
func TestDescribePasswords(t *testing.T) {
	d, err := pdfio.ReadBytes(pdfbuild.Credentials("t"), "credentials.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	c := htmlreport.Describe(d, nil, false)
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("s3cret")) || !bytes.Contains(b, []byte(`"url":"http://alice@www.example.com/"`)) || !c.Sets[0].Sources[0].Passwords {
		t.Errorf("Describe(credentials.pdf) = %s; want its URLs without their passwords, and passwords: true", b)
	}
	_, r := writeReport(t, htmlreport.Slice{{Result: audit.FileResult{Input: "credentials.pdf"}, Capture: c}}, htmlreport.Options{})
	for _, want := range []string{">http://alice@www.example.com/ (password not shown)</a>", `&#34;http://bob@old.example.com/\u202egpj.exe&#34; (password not shown)`, ">http://www.example.com/x</a>"} {
		if !bytes.Contains(r, []byte(want)) {
			t.Errorf("the report does not show %s", want)
		}
	}
}

// TestShownText: the report shows a URL without its password (as audit's
// WC-URL-PASSWORD does), a bidirectional override or control character
// escaped (as the command line does), and cuts a long string.
func TestShownText(t *testing.T) {
	c := &htmlreport.Capture{Sets: []htmlreport.Set{{Kind: "page", Objects: 1, Verified: "unchecked",
		Title:   "Evil \u202eexe.txt\x01\x1b[31m red",
		Sources: []htmlreport.Source{{URL: "http://alice:s3cret@www.example.com/", Chains: [][]string{{"https://bob:hunter2@old.example.com/a"}}}}},
		{Kind: "page", Objects: 1, Verified: "unchecked", Title: strings.Repeat("<", 10<<20)},
	}}
	files := htmlreport.Slice{{Result: audit.FileResult{Input: "na\u202eme.pdf", Findings: []audit.Finding{{Rule: "WC-X", Message: "a \u202e message\n"}}}, Capture: c}}
	_, b := writeReport(t, files, htmlreport.Options{})
	for _, bad := range []string{"s3cret", "hunter2", "\u202e", "\x01", "\x1b"} {
		if bytes.Contains(b, []byte(bad)) {
			t.Errorf("the report holds %q as it is", bad)
		}
	}
	for _, want := range []string{
		`<a href="http://alice@www.example.com/" rel="noopener noreferrer nofollow">http://alice@www.example.com/ (password not shown)</a>`,
		`https://bob@old.example.com/a (password not shown)`,
		`&#34;Evil \u202eexe.txt\x01\x1b[31m red&#34;`,
		`&#34;na\u202eme.pdf&#34;`,
		`&#34;a \u202e message\n&#34;`,
		strings.Repeat("&lt;", htmlreport.MaxText) + "… (cut: 10,485,760 characters, the first 2,000 shown)</td>",
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the report does not show %s", want)
		}
	}
	if len(b) > 1<<20 {
		t.Errorf("the report is %d bytes", len(b))
	}
}
