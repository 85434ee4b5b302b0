package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// htmlInputs writes the files the HTML report tests audit: a capture, a
// capture whose strings are markup (under a name that is markup), a file
// that is not a PDF, and the name of one that does not exist.
func htmlInputs(t *testing.T) []string {
	t.Helper()
	dir := t.TempDir()
	capture, err := os.ReadFile(filepath.Join("..", "..", "testdata", "capture.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]byte{
		"capture.pdf":                      capture,
		`<img src=x onerror=alert(1)>.pdf`: pdfbuild.Markup(),
		"not-a-pdf.pdf":                    []byte("<script>alert(2)</script>"),
	}
	var paths []string
	for _, name := range []string{"capture.pdf", `<img src=x onerror=alert(1)>.pdf`, "not-a-pdf.pdf"} {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, files[name], 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	return append(paths, filepath.Join(dir, "missing.pdf"))
}

// generated is the line of a report that says when it was made.
var generated = regexp.MustCompile(`, \d{4}-\d\d-\d\d \d\d:\d\d:\d\d UTC\. `)

func readReport(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return generated.ReplaceAllString(string(b), ", TIME. ")
}

// TestAuditHTMLEqualsReportHTML: the report made from audit --jsonl
// --sets shards (--ordered: in the same order) is the one audit --html
// makes of the same files, and
// audit --html prints its usual output too.
func TestAuditHTMLEqualsReportHTML(t *testing.T) {
	inputs := htmlInputs(t)
	out := t.TempDir()
	direct := filepath.Join(out, "audit.html")
	ios, _, stdout, stderr := Test()
	code := Main(context.Background(), append([]string{"audit", "--in-process", "--html", direct}, inputs...), ios)
	if code != 3 || !strings.Contains(stdout.String(), "4 files audited") || !strings.Contains(stderr.String(), "--html: wrote "+direct) {
		t.Fatalf("audit --html = exit %d (want 3: a file is missing), stdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	shard := filepath.Join(out, "shard.jsonl")
	ios, _, stdout, _ = Test()
	Main(context.Background(), append([]string{"audit", "--in-process", "--jsonl", "--ordered", "--sets"}, inputs...), ios)
	if !strings.Contains(stdout.String(), `"capture":{"version":"1.25","sets":[`) {
		t.Fatalf("audit --jsonl --sets holds no capture object:\n%s", stdout)
	}
	checkSchema(t, stdout.Bytes()) // the capture objects as webcap.audit-file/1 documents them
	os.WriteFile(shard, stdout.Bytes(), 0o644)
	ios, _, stdout, _ = Test()
	Main(context.Background(), append([]string{"audit", "--in-process", "--json", "--sets"}, inputs...), ios)
	checkSchema(t, stdout.Bytes())
	merged := filepath.Join(out, "report.html")
	ios, _, _, stderr = Test()
	if code := Main(context.Background(), []string{"report", "--html", merged, shard}, ios); code != 3 {
		t.Fatalf("report --html = exit %d, want 3 (as audit's); stderr:\n%s", code, stderr)
	}
	a, b := readReport(t, direct), readReport(t, merged)
	if a != b {
		t.Errorf("report --html of the shards differs from audit --html (%d and %d bytes)", len(b), len(a))

	}
	for _, want := range []string{`class="set"`, "notes.txt", "Not checked", "Not well-formed", "&lt;img src=x onerror=alert(1)&gt;.pdf"} {
		if !strings.Contains(a, want) {
			t.Errorf("the report does not hold %q", want)
		}
	}
	// Without --sets, the shards' files say their sets were not recorded.
	ios, _, stdout, _ = Test()
	Main(context.Background(), append([]string{"audit", "--in-process", "--jsonl"}, inputs...), ios)
	os.WriteFile(shard, stdout.Bytes(), 0o644)
	ios, _, _, _ = Test()
	Main(context.Background(), []string{"report", "--html", merged, "--force", shard}, ios)
	if c := readReport(t, merged); !strings.Contains(c, "without audit --sets") || strings.Contains(c, `class="set"`) {
		t.Error("a report of shards without --sets does not say the sets were not recorded")
	}
}

// TestHTMLFlags: the report's flags are checked before any work, and an
// existing report is replaced only with --force.
func TestHTMLFlags(t *testing.T) {
	capture := filepath.Join("..", "..", "testdata", "capture.pdf")
	dir := t.TempDir()
	existing := filepath.Join(dir, "old.html")
	os.WriteFile(existing, []byte("old"), 0o644)
	notReport := filepath.Join(dir, "notes")
	os.Mkdir(notReport, 0o755)
	rows := []struct {
		name string
		args []string
		code int
		err  string
	}{
		{"exists", []string{"audit", "--in-process", "--html", existing, capture}, 2, "exists"},
		{"force without html", []string{"audit", "--in-process", "--force", capture}, 2, "--force replaces --html's report"},
		{"resume", []string{"audit", "--in-process", "--html", filepath.Join(dir, "r.html"), "--resume", filepath.Join(dir, "r.jsonl"), capture}, 2, "webcap report --html"},
		{"thumbnails", []string{"audit", "--in-process", "--html", filepath.Join(dir, "r.html"), "--thumbnails", "some", capture}, 2, "want auto or none"},
		{"not a report", []string{"audit", "--in-process", "--html", notReport, "--force", capture}, 2, "not an HTML report"},
		{"stdout", []string{"audit", "--in-process", "--html", "-", capture}, 2, "not stdout"},
		{"report exists", []string{"report", "--html", existing, "x.jsonl"}, 2, "exists"},
		{"replaced", []string{"audit", "--in-process", "--html", existing, "--force", "--thumbnails", "none", capture}, 0, ""},
	}
	for _, r := range rows {
		t.Run(r.name, func(t *testing.T) {
			ios, _, _, stderr := Test()
			if code := Main(context.Background(), r.args, ios); code != r.code || !strings.Contains(stderr.String(), r.err) {
				t.Errorf("webcap %q = exit %d, stderr %q; want exit %d and %q", r.args, code, stderr, r.code, r.err)
			}
		})
	}
	if b, _ := os.ReadFile(existing); !bytes.Contains(b, []byte("Thumbnails are off (--thumbnails none)")) {
		t.Error("--force did not replace the report, or --thumbnails none is not said")
	}
}

// TestHTMLNoRenderer: without pdftoppm on PATH, stderr and the report say
// so once, and the report has no thumbnail.
func TestHTMLNoRenderer(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	out := filepath.Join(t.TempDir(), "r.html")
	ios, _, _, stderr := Test()
	capture := filepath.Join("..", "..", "testdata", "capture.pdf")
	if code := Main(context.Background(), []string{"audit", "--in-process", "--html", out, capture, capture}, ios); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	if n := strings.Count(stderr.String(), "no renderer found"); n != 1 {
		t.Errorf("stderr says %d times that no renderer was found, want once:\n%s", n, stderr)
	}
	c := readReport(t, out)
	if n := strings.Count(c, "no renderer found"); n != 1 || strings.Contains(c, "<img") {
		t.Errorf("the report says %d times that no renderer was found (want once), or has an image", n)
	}
}

// TestHTMLVerified: with --sources, each set says whether its ID was
// verified against them; a source changed since is a mismatch.
func TestHTMLVerified(t *testing.T) {
	dir := t.TempDir()
	built := filepath.Join(dir, "captured.pdf")
	ios, _, _, stderr := Test()
	if code := Main(context.Background(), []string{"build", filepath.Join("..", "..", "testdata", "build", "manifest.json"), "-o", built}, ios); code != 0 {
		t.Fatalf("build: exit %d: %s", code, stderr)
	}
	site := filepath.Join(dir, "site")
	if err := os.CopyFS(site, os.DirFS(filepath.Join("..", "..", "testdata", "build", "site"))); err != nil {
		t.Fatal(err)
	}
	verdicts := func() string {
		ios, _, stdout, _ := Test()
		Main(context.Background(), []string{"audit", "--in-process", "--jsonl", "--sets", "--sources", site, built}, ios)
		var l fileLineJSON
		if err := json.Unmarshal(stdout.Bytes(), &l); err != nil || l.Capture == nil {
			t.Fatalf("audit --jsonl --sets: %v\n%s", err, stdout)
		}
		var v []string
		for _, s := range l.Capture.Sets {
			v = append(v, s.Verified)
		}
		return strings.Join(v, " ")
	}
	if got := verdicts(); strings.Trim(strings.ReplaceAll(got, "verified", ""), " ") != "" {
		t.Errorf("sets verified against the sources they were built from: %q, want every one verified", got)
	}
	notes := filepath.Join(site, "www.example.com", "docs", "notes.txt")
	if err := os.WriteFile(notes, []byte("changed since\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if got := verdicts(); !strings.Contains(got, "mismatch") {
		t.Errorf("a source changed since: %q, want a mismatch", got)
	}
}
