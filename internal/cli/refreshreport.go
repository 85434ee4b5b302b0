package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"html/template"
	"path/filepath"
	"strings"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/htmlsafe"
	"github.com/webcap/webcap/pdfio"
)

// refresh --report FILE.html|FILE.json: the change report capture makes
// (RefreshPlan.Report), written as JSON (schema refresh-report) or as one
// self-contained HTML page. The HTML is made by html/template, whose
// context-aware escaping keeps a page's title, URL and text (all from
// untrusted pages and files) text; its Content-Security-Policy allows no
// script, no request and only the report's own style (by its hash); a URL
// is a live link only when it is http or https. Those strings are shown as
// the audit report shows them (htmlsafe.Text and Link: a control or
// bidirectional character escaped, cut after 2,000 characters), and a
// URL, in both formats, without its password (shownURL).

// reportFormat is the format --report's extension names: "json" or
// "html", or "" for another extension.
func reportFormat(path string) string {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		return "json"
	case ".html", ".htm":
		return "html"
	}
	return ""
}

// checkReportFlag checks --report before anything runs: its extension,
// and that it is not stdout (the command's own output); that it is no
// input, runFiles.check says.
func checkReportFlag(cmd, path string) error {
	switch {
	case path == "":
		return nil
	case path == stdoutName:
		return usagef("%s: --report -: give the report a file name ending in .html or .json (stdout is the command's)", cmd)
	case reportFormat(path) == "":
		return usagef("%s: --report %s: the extension %q names no report format: use .html or .json", cmd, path, filepath.Ext(path))
	}
	return nil
}

// refreshReportJSON is what refresh --report FILE.json writes.
type refreshReportJSON struct {
	Schema     string               `json:"schema"`
	Input      string               `json:"input"`
	Output     string               `json:"output,omitempty"`
	DryRun     bool                 `json:"dryRun"`
	ComparedBy string               `json:"comparedBy" jsonschema:"enum=ID,enum=TID"` // ID, or TID with --text-only
	Text       string               `json:"text"`                                     // which text the diffs compare
	Counts     map[string]int       `json:"counts"`                                   // page sets by change
	Changes    []capture.PageChange `json:"changes"`                                  // by URL
	// Unsent are the requests the pages' scripts made that refresh did
	// not send (without --resubmit), at most 100; UnsentMore counts the
	// others.
	Unsent     []capture.Unsent `json:"unsent,omitempty"`
	UnsentMore int              `json:"unsentMore,omitempty"`
}

func newRefreshReportJSON(rep *capture.RefreshReport, input, output string, dryRun bool) refreshReportJSON {
	out := refreshReportJSON{Schema: schemaName("refresh-report"), Input: input, Output: output, DryRun: dryRun, ComparedBy: rep.ComparedBy,
		Text: rep.Text, Counts: map[string]int{}, Changes: make([]capture.PageChange, len(rep.Pages)),
		Unsent: shownUnsent(rep.Unsent), UnsentMore: rep.UnsentMore}
	for i, p := range rep.Pages {
		out.Counts[p.Change]++
		p.URL = shownURL(p.URL)
		out.Changes[i] = p
	}
	return out
}

// writeRefreshReport writes the report to path, in the format its
// extension names, atomically.
func writeRefreshReport(cmd, path string, force bool, rep *capture.RefreshReport, input, output string, dryRun bool) error {
	doc := newRefreshReportJSON(rep, input, output, dryRun)
	var buf bytes.Buffer
	var err error
	if reportFormat(path) == "json" {
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		err = enc.Encode(doc)
	} else {
		err = refreshReportHTML(&buf, doc)
	}
	if err != nil {
		return fmt.Errorf("%s: --report %s: %w", cmd, path, err)
	}
	if err := pdfio.WriteFile(path, buf.Bytes(), pdfio.WriteOptions{Replace: force}); err != nil {
		return &ioError{fmt.Errorf("%s: --report: %w", cmd, err)}
	}
	return nil
}

// reportContext is how many words of an unchanged run the HTML shows next
// to a change; the rest is counted, and is in the JSON.
const reportContext = 12

// changeOrder is the order of the summary's counts, as refresh --help
// lists them.
var changeOrder = []string{capture.ChangeText, capture.StatusChanged, capture.StatusNew, capture.StatusGone,
	capture.StatusUnreachable, capture.StatusUnchecked, capture.StatusUnchanged}

const reportStyle = `body{font:16px/1.5 system-ui,sans-serif;margin:2em auto;max-width:70em;padding:0 1em;color:#111;background:#fff}
table{border-collapse:collapse;width:100%}th,td{border:1px solid #999;padding:.25em .5em;text-align:left;vertical-align:top}
code,.id{font-family:ui-monospace,monospace;font-size:.85em;word-break:break-all}
.diff{border:1px solid #999;padding:.5em 1em;white-space:normal}
del{background:#fdd;color:#600;text-decoration:line-through}ins{background:#dfd;color:#040;text-decoration:underline}
.skip{color:#555;font-style:italic}.vh{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}`

var refreshReportTemplate = template.Must(template.New("report").Funcs(template.FuncMap{
	"text":  htmlsafe.Text,
	"link":  reportLink,
	"runs":  reportRuns,
	"count": func(c map[string]int, k string) int { return c[k] },
}).Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Refresh report: {{text .R.Input}}</title>
<style>{{.Style}}</style>
</head>
<body>
<main>
<h1>What changed in {{text .R.Input}}</h1>
<p>{{if .R.DryRun}}A dry run: nothing was written.{{else if .R.Output}}The refreshed capture is {{text .R.Output}}.{{else}}Nothing was written.{{end}}
Pages were compared by {{if eq .R.ComparedBy "TID"}}their text identifiers (TID){{else}}their identifiers (ID){{end}}.
The differences shown compare {{.R.Text}}.</p>
<h2 id="summary">Summary</h2>
<table>
<caption>Page sets by change</caption>
<thead><tr><th scope="col">Change</th><th scope="col">Page sets</th></tr></thead>
<tbody>{{range .Order}}{{if count $.R.Counts .}}<tr><td>{{.}}</td><td>{{count $.R.Counts .}}</td></tr>{{end}}{{end}}</tbody>
</table>
{{if not .Changed}}<p>No page set changed.</p>{{end}}
{{range $i, $p := .R.Changes}}{{if $p.Diff}}
<section id="diff-{{$i}}" aria-labelledby="diff-{{$i}}-h">
<h2 id="diff-{{$i}}-h">{{text $p.Change}}: {{text $p.URL}}</h2>
{{with $p.Words}}<p>{{.Inserted}} words inserted, {{.Deleted}} deleted ({{.Old}} words before, {{.New}} after).{{if eq .Inserted 0}}{{if eq .Deleted 0}} The printed words are the same: markup, images or styles changed.{{end}}{{end}}</p>{{end}}
<p class="diff">{{range runs $p.Diff}}{{if eq .Op "insert"}}<ins><span class="vh">[inserted: </span>{{text .Text}}<span class="vh">]</span></ins> {{else if eq .Op "delete"}}<del><span class="vh">[deleted: </span>{{text .Text}}<span class="vh">]</span></del> {{else if .Skipped}}<span class="skip">[… {{.Skipped}} words unchanged …]</span> {{else}}{{text .Text}} {{end}}{{end}}</p>
</section>
{{end}}{{end}}
<h2 id="pages">Page sets</h2>
<table>
<caption>Every page set of the file and every page captured now, by URL</caption>
<thead><tr><th scope="col">URL</th><th scope="col">Change</th><th scope="col">Title</th><th scope="col">Old ID / TID</th><th scope="col">New ID / TID</th></tr></thead>
<tbody>
{{range $i, $p := .R.Changes}}<tr>
<td>{{with link $p.URL}}{{if .Href}}<a href="{{.Href}}" rel="noreferrer">{{.Text}}</a>{{else}}{{.Text}}{{end}}{{end}}</td>
<td>{{if $p.Diff}}<a href="#diff-{{$i}}">{{text $p.Change}}</a>{{else}}{{text $p.Change}}{{end}}{{with $p.Reason}}: {{text .}}{{end}}{{with $p.DiffError}} (no diff: {{text .}}){{end}}</td>
<td>{{with $p.New}}{{text .Title}}{{with $p.Old}}{{if ne .Title $p.New.Title}}{{with .Title}} (before: {{text .}}){{end}}{{end}}{{end}}{{else}}{{with $p.Old}}{{text .Title}}{{end}}{{end}}</td>
<td>{{with $p.Old}}<span class="id">{{.ID}}</span>{{with .TID}}<br><span class="id">{{.}}</span>{{end}}{{else}}none{{end}}</td>
<td>{{with $p.New}}<span class="id">{{.ID}}</span>{{with .TID}}<br><span class="id">{{.}}</span>{{end}}{{else}}none{{end}}</td>
</tr>
{{end}}</tbody>
</table>
{{if .R.Unsent}}<h2 id="unsent">Requests not sent</h2>
<p>{{if .R.DryRun}}A dry run sends only GET and HEAD requests.{{else}}Refresh sends the requests a page's scripts make by other methods (a POST) only with --resubmit.{{end}} Each was answered in the browser, empty (204).</p>
<table>
<caption>What the pages' scripts asked to send{{with .R.UnsentMore}}; {{.}} more not listed{{end}}</caption>
<thead><tr><th scope="col">Method</th><th scope="col">URL</th><th scope="col">Page</th></tr></thead>
<tbody>
{{range .R.Unsent}}<tr><td>{{text .Method}}</td><td>{{text .URL}}</td><td>{{text .Page}}</td></tr>
{{end}}</tbody>
</table>{{end}}
</main>
</body>
</html>
`))

// reportLink is a URL as the HTML shows it (htmlsafe.Link): its text, and
// its href when it may be a live link. The URL comes without its password
// (newRefreshReportJSON).
func reportLink(u string) struct{ Text, Href string } {
	text, href := htmlsafe.Link(u, false)
	return struct{ Text, Href string }{text, href}
}

// reportRun is a diff run as the HTML shows it: an unchanged run longer
// than the context on both sides is cut to reportContext words next to
// each change, the words left out counted (Skipped).
type reportRun struct {
	Op, Text string
	Skipped  int
}

func reportRuns(diff []capture.DiffRun) []reportRun {
	var out []reportRun
	for i, d := range diff {
		words := strings.Fields(d.Text)
		if d.Op != "equal" || len(words) <= 2*reportContext {
			out = append(out, reportRun{Op: d.Op, Text: d.Text})
			continue
		}
		head, tail := reportContext, reportContext
		if i == 0 {
			head = 0
		}
		if i == len(diff)-1 {
			tail = 0
		}
		if head > 0 {
			out = append(out, reportRun{Op: "equal", Text: strings.Join(words[:head], " ")})
		}
		out = append(out, reportRun{Op: "equal", Skipped: len(words) - head - tail})
		if tail > 0 {
			out = append(out, reportRun{Op: "equal", Text: strings.Join(words[len(words)-tail:], " ")})
		}
	}
	return out
}

func refreshReportHTML(buf *bytes.Buffer, doc refreshReportJSON) error {
	return refreshReportTemplate.Execute(buf, struct {
		R     refreshReportJSON
		CSP   string
		Style template.CSS
		Order []string
		// Changed: a page set is changed or text-changed.
		Changed bool
	}{doc, htmlsafe.CSP(reportStyle, false), template.CSS(reportStyle), changeOrder, doc.Counts[capture.ChangeText]+doc.Counts[capture.StatusChanged] > 0})
}
