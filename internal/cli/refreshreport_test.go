package cli

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/base64"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/htmlsafe"
	"golang.org/x/net/html"
)

// --report's file: an extension that names no format, stdout, the input
// and the PDF's -o are usage errors that name it, before anything runs.
func TestRefreshReportFlag(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "in.pdf")
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "out.pdf")
	inHTML := filepath.Join(dir, "in.html") // a PDF named so
	if err := os.WriteFile(inHTML, b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"refresh", "--report", "r.txt", in, "-o", out}, `--report r.txt: the extension ".txt" names no report format: use .html or .json`},
		{[]string{"refresh", "--report", "report", "--dry-run", in}, `--report report: the extension "" names no report format`},
		{[]string{"refresh", "--report", "-", "--dry-run", in}, "--report -: give the report a file name"},
		{[]string{"refresh", "--report", inHTML, "--dry-run", inHTML}, "is an input of this run"},
		{[]string{"refresh", "--report", filepath.Join(dir, "same.json"), in, "-o", filepath.Join(dir, "same.json")}, "are one file"},
	} {
		ios, _, _, stderr := Test()
		if code := Main(context.Background(), tc.args, ios); code != 2 || !strings.Contains(stderr.String(), tc.want) {
			t.Errorf("webcap %q: exit %d, %s; want 2 and %q", tc.args, code, stderr, tc.want)
		}
	}
	for _, p := range []string{"r.JSON", "r.html", "r.htm"} {
		if checkReportFlag("refresh", p) != nil {
			t.Errorf("--report %s refused", p)
		}
	}
}

// hostileReport is a report whose every string from a page or a file is
// markup or a script.
func hostileReport() *capture.RefreshReport {
	return &capture.RefreshReport{ComparedBy: "ID", Text: capture.ReportText, Pages: []capture.PageChange{
		{URL: "http://a.test/<script>alert(1)</script>", Change: capture.ChangeText,
			Old:   &capture.SetIDs{ID: "00AA", TID: "11BB", Title: `Old </title><script>alert("t")</script>`, Pages: 1},
			New:   &capture.SetIDs{ID: "22CC", TID: "33DD", Title: `New "><img src=x onerror=alert(2)>`},
			Diff:  []capture.DiffRun{{Op: "equal", Text: strings.Repeat("same ", 40) + "words"}, {Op: "delete", Text: "</script><script>alert(3)</script>"}, {Op: "insert", Text: "<b>bold</b> & more"}, {Op: "equal", Text: "end"}},
			Words: &capture.DiffCounts{Old: 45, New: 46, Inserted: 3, Deleted: 1}},
		{URL: "javascript:alert(4)", Change: capture.StatusNew, New: &capture.SetIDs{ID: "44EE", Title: "x"}},
		{URL: "data:text/html,<script>alert(5)</script>", Change: capture.StatusGone, Reason: "<i>404</i>", Old: &capture.SetIDs{ID: "55FF"}},
		{URL: "https://a.test/same", Change: capture.StatusUnchanged, Old: &capture.SetIDs{ID: "66"}, New: &capture.SetIDs{ID: "66"}},
	}}
}

// The HTML report: hostile titles, URLs and text stay text; no script,
// no request (a CSP that allows nothing but the report's style, by its
// hash); javascript: and data: URLs are no links; the diff is <del> and
// <ins> with words that say so (not colour only); a long unchanged run
// is cut to its context.
func TestRefreshReportHTML(t *testing.T) {
	var buf bytes.Buffer
	if err := refreshReportHTML(&buf, newRefreshReportJSON(hostileReport(), "in <b>.pdf", "", true)); err != nil {
		t.Fatal(err)
	}
	doc, err := html.Parse(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	var (
		text         strings.Builder
		csp, style   string
		hrefs        []string
		ins, del     []string
		elementCount = map[string]int{}
	)
	var walk func(n *html.Node, in string)
	walk = func(n *html.Node, in string) {
		switch n.Type {
		case html.TextNode:
			text.WriteString(n.Data)
			switch in {
			case "ins":
				ins = append(ins, n.Data)
			case "del":
				del = append(del, n.Data)
			case "style":
				style = n.Data
			}
		case html.ElementNode:
			elementCount[n.Data]++
			for _, a := range n.Attr {
				switch {
				case n.Data == "meta" && a.Key == "http-equiv" && a.Val == "Content-Security-Policy":
					for _, b := range n.Attr {
						if b.Key == "content" {
							csp = b.Val
						}
					}
				case a.Key == "href":
					hrefs = append(hrefs, a.Val)
				case a.Key == "src" || strings.HasPrefix(a.Key, "on"):
					t.Errorf("<%s %s=%q>: from the report's data", n.Data, a.Key, a.Val)
				}
			}
			if n.Data == "ins" || n.Data == "del" || n.Data == "style" {
				in = n.Data
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, in)
		}
	}
	walk(doc, "")
	for _, el := range []string{"script", "img", "iframe", "object", "embed", "link", "b", "i", "title"} {
		if n := elementCount[el]; n > 0 && !(el == "title" && n == 1) {
			t.Errorf("%d <%s> elements in the report", n, el)
		}
	}
	h := sha256.Sum256([]byte(style))
	if want := "default-src 'none'; style-src 'sha256-" + base64.StdEncoding.EncodeToString(h[:]) + "'"; !strings.HasPrefix(csp, want) {
		t.Errorf("CSP %q, want it to start %q", csp, want)
	}
	for _, s := range []string{`Old </title><script>alert("t")</script>`, `New "><img src=x onerror=alert(2)>`, "javascript:alert(4)",
		"data:text/html,<script>alert(5)</script>", "<i>404</i>", "http://a.test/<script>alert(1)</script>", "in <b>.pdf"} {
		if !strings.Contains(text.String(), s) {
			t.Errorf("the report's text lacks %q", s)
		}
	}
	for _, h := range hrefs {
		if !strings.HasPrefix(h, "#diff-") && !strings.HasPrefix(h, "http://") && !strings.HasPrefix(h, "https://") {
			t.Errorf("link %q", h)
		}
	}
	if got := strings.Join(del, ""); got != "[deleted: </script><script>alert(3)</script>]" {
		t.Errorf("<del> text %q", got)
	}
	if got := strings.Join(ins, ""); got != "[inserted: <b>bold</b> & more]" {
		t.Errorf("<ins> text %q", got)
	}
	if !strings.Contains(text.String(), "[… 29 words unchanged …]") || !strings.Contains(text.String(), strings.TrimSpace(strings.Repeat("same ", 11))+" words") {
		t.Errorf("the long unchanged run is not cut to its context:\n%s", text.String())
	}
}

// A report where nothing changed says so, and shows no diff.
func TestRefreshReportHTMLNothingChanged(t *testing.T) {
	var buf bytes.Buffer
	rep := &capture.RefreshReport{ComparedBy: "TID", Text: capture.ReportText, Pages: []capture.PageChange{
		{URL: "https://a.test/", Change: capture.StatusUnchanged, Old: &capture.SetIDs{ID: "66", TID: "77"}, New: &capture.SetIDs{ID: "66", TID: "77"}}}}
	if err := refreshReportHTML(&buf, newRefreshReportJSON(rep, "in.pdf", "out.pdf", false)); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"No page set changed.", "The refreshed capture is out.pdf.", "their text identifiers (TID)"} {
		if !strings.Contains(buf.String(), s) {
			t.Errorf("report lacks %q", s)
		}
	}
	if strings.Contains(buf.String(), "<section") {
		t.Error("a diff section where nothing changed")
	}
}

// The JSON report validates against the schema webcap ships.
func TestRefreshReportJSON(t *testing.T) {
	path := filepath.Join(t.TempDir(), "r.json")
	if err := writeRefreshReport("refresh", path, false, hostileReport(), "in.pdf", "out.pdf", false); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	checkSchema(t, b)
	if !bytes.Contains(b, []byte(`"schema": "webcap.refresh-report/1"`)) || !bytes.Contains(b, []byte(`"text-changed": 1`)) {
		t.Errorf("report:\n%s", b)
	}
}

// The HTML report shows the strings from pages and the file as the audit
// report does (htmlsafe.Text, Link): a bidirectional override or control
// character escaped, a 1 MB title cut after 2,000 characters with how
// long it was, a URL without its password (in the JSON too).
func TestRefreshReportShownText(t *testing.T) {
	evil := "Evil \u202eexe.txt\x01\x1b[31m red"
	rep := &capture.RefreshReport{ComparedBy: "ID", Text: capture.ReportText, Pages: []capture.PageChange{
		{URL: "http://alice:s3cret@a.test/\u202ex", Change: capture.ChangeText,
			Old:   &capture.SetIDs{ID: "00AA", Title: strings.Repeat("<", 1<<20)},
			New:   &capture.SetIDs{ID: "22CC", Title: evil},
			Diff:  []capture.DiffRun{{Op: "equal", Text: "same"}, {Op: "delete", Text: "gone\x07"}, {Op: "insert", Text: strings.Repeat("w", 1<<20)}, {Op: "equal", Text: "\u202eend"}},
			Words: &capture.DiffCounts{Old: 3, New: 3, Inserted: 1, Deleted: 1}},
		{URL: "https://bob:hunter2@b.test/", Change: capture.StatusGone, Reason: "gone \x1b[2J", Old: &capture.SetIDs{ID: "55FF", Title: evil}},
	}}
	var buf bytes.Buffer
	if err := refreshReportHTML(&buf, newRefreshReportJSON(rep, "in\u202e.pdf", "", true)); err != nil {
		t.Fatal(err)
	}
	b := buf.Bytes()
	for _, bad := range []string{"s3cret", "hunter2", "\u202e", "\x01", "\x07", "\x1b"} {
		if bytes.Contains(b, []byte(bad)) {
			t.Errorf("the report holds %q as it is", bad)
		}
	}
	for _, want := range []string{
		`&#34;Evil \u202eexe.txt\x01\x1b[31m red&#34;`,
		`&#34;http://alice@a.test/\u202ex&#34;`,
		`<a href="https://bob@b.test/" rel="noreferrer">https://bob@b.test/</a>`,
		`&#34;gone \x1b[2J&#34;`,
		`&#34;gone\a&#34;`,
		`&#34;in\u202e.pdf&#34;`,
		strings.Repeat("&lt;", htmlsafe.MaxText) + "… (cut: 1,048,576 characters, the first 2,000 shown)",
		strings.Repeat("w", htmlsafe.MaxText) + "… (cut: 1,048,576 characters, the first 2,000 shown)",
	} {
		if !bytes.Contains(b, []byte(want)) {
			t.Errorf("the report does not show %s", want)
		}
	}
	if len(b) > 100<<10 {
		t.Errorf("the report is %d bytes", len(b))
	}
	path := filepath.Join(t.TempDir(), "r.json")
	if err := writeRefreshReport("refresh", path, false, rep, "in.pdf", "", true); err != nil {
		t.Fatal(err)
	}
	if j, err := os.ReadFile(path); err != nil || bytes.Contains(j, []byte("s3cret")) || bytes.Contains(j, []byte("hunter2")) {
		t.Errorf("the JSON report (%v) shows a password:\n%.500s", err, j)
	}
}

// refresh's own lines and JSON show its commands' and pages' URLs
// without their passwords, escaped.
func TestRefreshOutputPasswords(t *testing.T) {
	res := &capture.RefreshResult{
		Commands: []capture.Replay{{URL: "http://alice:s3cret@a.test/", Method: "GET", Levels: 1, Replayed: true}},
		Changes:  []capture.Change{{URL: "http://bob:hunter2@a.test/\u202ex", Status: capture.StatusChanged}},
	}
	for _, json := range []bool{false, true} {
		ios, _, stdout, _ := Test()
		opts := &refreshOptions{IO: ios, File: "in.pdf", DryRun: true, JSON: json}
		var err error
		if json {
			err = refreshJSON(opts, res, false, audit.Summary{}, nil)
		} else {
			err = refreshText(opts, res, false, audit.Summary{}, map[string]int{capture.StatusChanged: 1})
		}
		out := stdout.String()
		if err != nil || strings.Contains(out, "s3cret") || strings.Contains(out, "hunter2") || !json && strings.Contains(out, "\u202e") || !strings.Contains(out, "alice@a.test") {
			t.Errorf("refresh (json %v) = %v:\n%s\nwant the URLs without their passwords, escaped", json, err, out)
		}
	}
}

// The requests a page's scripts made that refresh did not send are named
// in its lines, its JSON and its report, each (method, URL and page)
// without a password, and the ones past the bound counted.
func TestRefreshOutputUnsent(t *testing.T) {
	res := &capture.RefreshResult{
		Changes:    []capture.Change{{URL: "http://a.test/", Status: capture.StatusUnchanged}},
		Unsent:     []capture.Unsent{{Page: "http://a.test/", Method: "POST", URL: "http://carol:s3cret@a.test/api/subscribe"}},
		UnsentMore: 9900,
	}
	for _, tc := range []struct {
		json, dryRun bool
		want         []string
	}{
		{false, false, []string{"not sent    POST http://carol@a.test/api/subscribe (by http://a.test/): a page's request, sent only with --resubmit\n", "not sent    9900 more, not listed\n"}},
		{false, true, []string{"not sent    POST http://carol@a.test/api/subscribe (by http://a.test/): a page's request: a dry run sends only GET and HEAD\n"}},
		{true, false, []string{`"method": "POST",`, `"url": "http://carol@a.test/api/subscribe"`, `"unsentMore": 9900`}},
	} {
		ios, _, stdout, _ := Test()
		opts := &refreshOptions{IO: ios, File: "in.pdf", DryRun: tc.dryRun, JSON: tc.json}
		var err error
		if tc.json {
			err = refreshJSON(opts, res, false, audit.Summary{}, nil)
		} else {
			err = refreshText(opts, res, false, audit.Summary{}, map[string]int{capture.StatusUnchanged: 1})
		}
		out := stdout.String()
		for _, w := range tc.want {
			if err != nil || !strings.Contains(out, w) || strings.Contains(out, "s3cret") {
				t.Errorf("refresh (json %v, dry run %v) = %v:\n%s\nwant %q, no password", tc.json, tc.dryRun, err, out, w)
			}
		}
	}
	rep := &capture.RefreshReport{ComparedBy: "ID", Unsent: res.Unsent, UnsentMore: res.UnsentMore}
	var buf bytes.Buffer
	if err := refreshReportHTML(&buf, newRefreshReportJSON(rep, "in.pdf", "out.pdf", false)); err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{`<h2 id="unsent">Requests not sent</h2>`, "9900 more not listed", "<td>POST</td><td>http://carol@a.test/api/subscribe</td>", "only with --resubmit"} {
		if !strings.Contains(buf.String(), w) || strings.Contains(buf.String(), "s3cret") {
			t.Errorf("the HTML report does not show %q, or shows the password:\n%s", w, buf.String())
		}
	}
}
