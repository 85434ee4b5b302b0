package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/webcap/webcap/htmlreport"
	"github.com/webcap/webcap/internal/browsertest"
	"github.com/webcap/webcap/internal/sharedtest"
)

// The HTML report in a real browser (the browser suite,
// WEBCAP_BROWSER_TESTS=1): opened from file://, it makes no request and
// logs no error, shows as many files, sets and findings as the JSON
// results hold, lets the keyboard reach every finding, passes axe-core
// with no serious or critical violation ($WEBCAP_AXE_JS: axe.min.js, as
// CI installs it with npm), and leaves a full-page screenshot in the
// test's artifact directory (go test -artifacts).

// axeEnv names the variable that gives axe-core's axe.min.js.
const axeEnv = "WEBCAP_AXE_JS"

// shown is what a page shows, and what the results say it should.
type shown struct{ Files, Sets, Findings int }

// wantCounts counts the files, sets and findings of audit --json --sets
// results (at most htmlreport.MaxFindings findings of a file are shown).
func wantCounts(t *testing.T, doc []byte) shown {
	t.Helper()
	var r auditReport
	if err := json.Unmarshal(doc, &r); err != nil {
		t.Fatalf("audit --json: %v", err)
	}
	var c shown
	for _, f := range r.Files {
		c.Files++
		if f.Capture != nil {
			c.Sets += len(f.Capture.Sets)
		}
		c.Findings += min(len(f.Findings), htmlreport.MaxFindings)
	}
	return c
}

// browser starts a headless Chromium for the test.
func browser(t *testing.T) context.Context {
	t.Helper()
	exe := browsertest.Chromium(t)
	axe := os.Getenv(axeEnv)
	if axe == "" {
		t.Fatalf("%s=1 but $%s does not name axe-core's axe.min.js (CI: npm install axe-core; see .ci/run)", browsertest.Env, axeEnv)
	}
	if _, err := os.Stat(axe); err != nil {
		t.Fatalf("$%s: %v", axeEnv, err)
	}
	opts := []chromedp.ExecAllocatorOption{chromedp.ExecPath(exe), chromedp.Headless, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck, chromedp.WindowSize(1280, 1024),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-dev-shm-usage", true)}
	if os.Geteuid() == 0 {
		opts = append(opts, chromedp.NoSandbox) // Chromium refuses its sandbox to root
	}
	actx, acancel := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(acancel)
	ctx, cancel := chromedp.NewContext(actx)
	t.Cleanup(cancel)
	ctx, tcancel := context.WithTimeout(ctx, 5*time.Minute)
	t.Cleanup(tcancel)
	return ctx
}

// pageCheck opens a report page from disk and checks it; shot names the
// screenshot.
func pageCheck(t *testing.T, bctx context.Context, path string, want shown, keyboard bool, shot string) {
	t.Helper()
	ctx, cancel := chromedp.NewContext(bctx) // a tab of its own
	defer cancel()
	abs, _ := filepath.Abs(path)
	u := (&url.URL{Scheme: "file", Path: abs}).String()
	var mu sync.Mutex
	var requests, problems []string
	lerr := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if e.Request.URL != u && !strings.HasPrefix(e.Request.URL, "data:") {
				requests = append(requests, e.Request.URL)
			}
		case *runtime.EventConsoleAPICalled:
			if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning {
				problems = append(problems, fmt.Sprintf("console.%s", e.Type))
			}
		case *runtime.EventExceptionThrown:
			problems = append(problems, "exception: "+e.ExceptionDetails.Text)
		case *log.EventEntryAdded:
			if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
				problems = append(problems, fmt.Sprintf("%s %s: %s", e.Entry.Source, e.Entry.Level, e.Entry.Text))
			}
		case *page.EventJavascriptDialogOpening:
			problems = append(problems, "a dialog: "+e.Message)
			go chromedp.Do(ctx, dismissDialog)
		}
	})
	if lerr != nil {
		t.Fatalf("a tab for %s: %v", path, lerr)
	}
	var got shown
	var extra []string
	err := chromedp.Do(ctx, enable, chromedp.Navigate(u))
	if err == nil {
		got, err = chromedp.Run(ctx, chromedp.Evaluate[shown](`({Files: document.querySelectorAll("article.file").length, Sets: document.querySelectorAll("tr.set").length, Findings: document.querySelectorAll("li.finding").length})`))
	}
	if err == nil {
		extra, err = chromedp.Run(ctx, chromedp.Evaluate[[]string](`Array.from(document.querySelectorAll("*")).filter(e =>
			["SCRIPT", "IFRAME", "OBJECT", "EMBED", "FORM", "BASE", "LINK"].includes(e.tagName) ||
			Array.from(e.attributes).some(a => a.name.startsWith("on")) ||
			(e.tagName == "IMG" && !e.getAttribute("src").startsWith("data:image/png;base64,")) ||
			(e.tagName == "A" && !/^(https?:|#|[a-z0-9-]+\.html(#|$))/.test(e.getAttribute("href")))
		).map(e => e.outerHTML.slice(0, 200))`))
	}
	if got != want {
		t.Errorf("%s shows %+v, the JSON results %+v", path, got, want)
	}
	for _, e := range extra {
		t.Errorf("%s: an element the report does not make: %s", path, e)
	}
	if keyboard {
		tabThroughFindings(t, ctx, want.Findings)
	}
	axeCheck(t, ctx, path)
	if shot != "" {
		if png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100)); err != nil {
			t.Errorf("screenshot: %v", err)
		} else {
			p := filepath.Join(t.ArtifactDir(), shot)
			if err := os.WriteFile(p, png, 0o644); err != nil {
				t.Error(err)
			}
			t.Logf("screenshot of %s: %s", path, p)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(requests) > 0 {
		t.Errorf("%s made %d requests: %q", path, len(requests), requests[:min(len(requests), 5)])
	}
	if len(problems) > 0 {
		t.Errorf("%s: %d console errors or warnings: %q", path, len(problems), problems[:min(len(problems), 5)])
	}
}

// enable turns on the events pageCheck listens to.
func enable(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
	if _, err := cdp.Call(ctx, t, network.Enable, network.EnableParams{}); err != nil {
		return chromedp.Void{}, err
	}
	if _, err := cdp.Call(ctx, t, page.Enable, page.EnableParams{}); err != nil {
		return chromedp.Void{}, err
	}
	if _, err := cdp.Call(ctx, t, log.Enable, cdp.Empty{}); err != nil {
		return chromedp.Void{}, err
	}
	_, err := cdp.Call(ctx, t, runtime.Enable, cdp.Empty{})
	return chromedp.Void{}, err
}

// dismissDialog closes a dialog the page opened (there must be none).
func dismissDialog(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
	_, err := cdp.Call(ctx, t, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
	return chromedp.Void{}, err
}

// tabThroughFindings presses Tab from the top of the page until focus has
// been on every finding, in order.
func tabThroughFindings(t *testing.T, ctx context.Context, n int) {
	t.Helper()
	var reached []string
	for range 4000 {
		err := chromedp.Do(ctx, chromedp.KeyEvent(kb.Tab))
		var id string
		if err == nil {
			id, err = chromedp.Run(ctx, chromedp.Evaluate[string](`(document.activeElement.closest("li.finding") || {}).id || ""`))
		}
		if err != nil {
			t.Fatalf("Tab: %v", err)
		}
		if id != "" && (len(reached) == 0 || reached[len(reached)-1] != id) {
			reached = append(reached, id)
		}
		if len(reached) == n {
			break
		}
	}
	if len(reached) != n {
		t.Errorf("Tab reached %d of %d findings", len(reached), n)
	}
	seen := map[string]bool{}
	for _, id := range reached {
		if seen[id] {
			t.Errorf("Tab came back to finding %s", id)
		}
		seen[id] = true
	}
}

// axeCheck runs axe-core on the page: no serious or critical violation.
func axeCheck(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	src, err := os.ReadFile(os.Getenv(axeEnv))
	if err != nil {
		t.Fatal(err)
	}
	type violation struct {
		ID, Impact, Help string
		Nodes            []any
	}
	_, err = chromedp.Run(ctx, chromedp.Evaluate[any](string(src)+"\n;0"))
	var violations []violation
	if err == nil {
		violations, err = chromedp.Run(ctx, chromedp.Evaluate[[]violation](`axe.run(document, {resultTypes: ["violations"]}).then(r => r.violations.map(v => ({ID: v.id, Impact: v.impact, Help: v.help, Nodes: v.nodes.map(n => n.target)})))`, chromedp.EvalAwaitPromise))
	}
	if err != nil {
		t.Fatalf("axe-core on %s: %v", path, err)
	}
	for _, v := range violations {
		if v.Impact == "serious" || v.Impact == "critical" {
			t.Errorf("axe-core on %s: %s %s (%s) on %d elements: %v", path, v.Impact, v.ID, v.Help, len(v.Nodes), v.Nodes[:min(len(v.Nodes), 3)])
		} else {
			t.Logf("axe-core on %s: %s %s (%s) on %d elements", path, v.Impact, v.ID, v.Help, len(v.Nodes))
		}
	}
}

// auditBoth runs audit --json --sets and audit --html on inputs, and
// returns the report's path and the counts the JSON results give.
func auditBoth(t *testing.T, inputs []string, extra ...string) (string, shown) {
	t.Helper()
	report := filepath.Join(t.TempDir(), "report.html")
	ios, _, stdout, stderr := Test()
	Main(context.Background(), append(append([]string{"audit", "--json", "--sets", "--html", report}, extra...), inputs...), ios)
	if !strings.Contains(stderr.String(), "--html: wrote") {
		t.Fatalf("audit --html wrote no report:\n%s", stderr)
	}
	t.Log(strings.TrimSpace(stderr.String()))
	return report, wantCounts(t, stdout.Bytes())
}

// TestHTMLReportInBrowser: the report of the crafted files (markup,
// javascript: URLs, </script> in titles, URLs, keys and the file's name).
func TestHTMLReportInBrowser(t *testing.T) {
	ctx := browser(t)
	report, want := auditBoth(t, htmlInputs(t), "--in-process")
	if want.Files != 4 || want.Sets != 5 || want.Findings == 0 {
		t.Fatalf("the JSON results count %+v", want)
	}
	pageCheck(t, ctx, report, want, true, "crafted.png")
}

// TestHTMLReportInBrowserRealWorld: the report of the real-world corpus.
func TestHTMLReportInBrowserRealWorld(t *testing.T) {
	ctx := browser(t)
	dir := sharedtest.Dir(t, "realworld")
	report, want := auditBoth(t, []string{dir}, "--recursive", "--in-process")
	pageCheck(t, ctx, report, want, false, "realworld.png")
}

// TestHTMLReportInBrowserDirectory: a report of more than 1,000 files (a
// directory) from shards: its first index page and a page of details.
// $WEBCAP_HTML_SHARDS (a glob) gives the shards (audit --jsonl --sets
// outputs) instead of 1,050 lines made here of files that do not exist.
func TestHTMLReportInBrowserDirectory(t *testing.T) {
	ctx := browser(t)
	shards, _ := filepath.Glob(os.Getenv("WEBCAP_HTML_SHARDS"))
	if len(shards) == 0 {
		p := filepath.Join(t.TempDir(), "shard.jsonl")
		var b strings.Builder
		for i := range 1050 {
			fmt.Fprintf(&b, `{"schema":"webcap.audit-file/1","input":"gone/%04d.pdf","findings":[{"rule":"WC-TREE-ORDER","severity":"error","message":"keys out of order","object":"4 0 R","spec":"PDF 1.7 §3.8.5"}],"capture":{"version":"1.25","sets":[{"object":"5 0 R","kind":"page","title":"Page %d","sources":[{"url":"http://example.com/%d"}],"page":1,"objects":1,"verified":"unchecked"}]}}`+"\n", i, i, i)
		}
		os.WriteFile(p, []byte(b.String()), 0o644)
		shards = []string{p}
	}
	report := filepath.Join(t.TempDir(), "report.html")
	ios, _, stdout, stderr := Test()
	start := time.Now()
	Main(context.Background(), append([]string{"report", "--format", "json", "--html", report}, shards...), ios)
	t.Logf("report --html of %d shards: %v; %s", len(shards), time.Since(start), strings.TrimSpace(stderr.String()))
	var r auditReport
	if err := json.Unmarshal(stdout.Bytes(), &r); err != nil {
		t.Fatalf("report --format json: %v\n%s", err, stderr)
	}
	if len(r.Files) <= htmlreport.MaxSingle {
		t.Fatalf("%d files: not a directory report", len(r.Files))
	}
	// files-1.html: the first 100 files' details.
	first := wantCounts(t, must(json.Marshal(auditReport{Files: r.Files[:100]})))
	pageCheck(t, ctx, filepath.Join(report, "files-1.html"), first, false, "directory-files-1.png")
	pageCheck(t, ctx, filepath.Join(report, "index.html"), shown{}, false, "directory-index.png")
	err := chromedp.Do(ctx, chromedp.Navigate("file://"+filepath.Join(report, "index.html")))
	var rows int
	if err == nil {
		rows, err = chromedp.Run(ctx, chromedp.Evaluate[int](`document.querySelectorAll("table.index tbody tr").length`))
	}
	if err != nil || rows != htmlreport.MaxSingle {
		t.Errorf("index.html lists %d files (%v), want %d", rows, err, htmlreport.MaxSingle)
	}
}

func must(b []byte, err error) []byte {
	if err != nil {
		panic(err)
	}
	return b
}
