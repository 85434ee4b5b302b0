package htmlreport

import (
	"github.com/webcap/webcap/internal/htmlsafe"
	"html/template"
)

// style is the report's only style sheet, inline: the Content-Security-
// Policy allows it by its hash and nothing else (no script at all, images
// only as data: URIs). It has no comments, which html/template would drop
// and so change the hash.
const style = `
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1b1b1b;background:#fff;margin:0 auto;max-width:1200px;padding:0 1rem 3rem}
h1{font-size:1.6rem;margin:1rem 0 .25rem}
h2{font-size:1.3rem;border-bottom:2px solid #ccc;margin-top:2rem}
h3{font-size:1.1rem;margin:1.5rem 0 .25rem;overflow-wrap:anywhere}
h4{font-size:1rem;margin:.75rem 0 .25rem}
a{color:#0b4f9c}
a:focus,[tabindex]:focus{outline:3px solid #c25400;outline-offset:2px}
nav ul{list-style:none;padding:0;display:flex;flex-wrap:wrap;gap:.25rem 1rem}
.note{color:#444}
table{border-collapse:collapse;margin:.5rem 0 1rem}
th,td{border:1px solid #bbb;padding:.2rem .4rem;text-align:left;vertical-align:top}
th{background:#eee}
td.n{text-align:right;font-variant-numeric:tabular-nums}
.sets{width:100%;table-layout:fixed}
.sets td{overflow-wrap:anywhere}
.sets .c-thumb{width:172px}.sets .c-n{width:2.5rem}.sets .c-date{width:7.5rem}.sets .c-id{width:10rem}.sets .c-kind{width:6.5rem}
.sets td.thumb{width:170px;text-align:center}
.sets img{border:1px solid #999;background:#fff}
code,.id{font-family:ui-monospace,"DejaVu Sans Mono",monospace;font-size:.9em;overflow-wrap:anywhere}
.chain{margin:.1rem 0 0 1rem;font-size:.9em}
.charts{display:grid;grid-template-columns:repeat(auto-fit,minmax(min(100%,560px),1fr));gap:1rem}
svg{max-width:100%;height:auto}
figure{margin:0}
figcaption{font-weight:600;margin:.5rem 0}
svg text{font-size:12px;fill:#1b1b1b}
.ok{fill:#1a7f37}.bad{fill:#b35900}.worst{fill:#b00020}.none{fill:#6e6e6e}
.sev-error{fill:#b00020}.sev-warning{fill:#b35900}.sev-info{fill:#0b4f9c}.date{fill:#5a3d99}.version{fill:#2d6a7a}
.status{display:inline-block;padding:0 .4rem;border-radius:3px;color:#fff}
span.ok{background:#1a7f37}span.bad{background:#8f4700}span.worst{background:#b00020}span.none{background:#595959}
.findings li{margin:.2rem 0;overflow-wrap:anywhere}
.findings .sev{font-weight:600}
.findings .error{color:#b00020}.findings .warning{color:#8f4700}.findings .info{color:#0b4f9c}
.v-verified{color:#1a7f37}.v-mismatch{color:#b00020}.v-missing,.v-incomplete{color:#8f4700}
dl.rules dt{font-weight:600;margin-top:.6rem}
dl.rules dd{margin-left:1.5rem}
.pager{margin:1rem 0}
`

// csp is the report's Content-Security-Policy: nothing may load or run
// but its own style sheet and its data: images; no form, no base URL.
func csp() string { return htmlsafe.CSP(style, true) }

const pageTemplate = `
{{define "head"}}<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{{.CSP}}">
<meta name="referrer" content="no-referrer">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="{{.Generator}}">
<title>{{.Title}}</title>
<style>` + style + `</style>
</head>
<body>
<header>
<h1>{{.Heading}}</h1>
<p class="note">{{.Generator}}{{if .Time}}, {{.Time}}{{end}}. {{.Counts}}</p>
<nav aria-label="Report"><ul>{{range .Nav}}<li><a href="{{.Href}}">{{.Text}}</a></li>{{end}}</ul></nav>
</header>
<main>
{{end}}

{{define "summary"}}<section id="summary" aria-labelledby="summary-h">
<h2 id="summary-h">Summary</h2>
<p>{{.Totals}}</p>
{{if .Thumbs}}<p class="note" id="thumbnails">{{.Thumbs}}</p>{{end}}
<div class="charts">
{{range .Charts}}<figure aria-labelledby="{{.ID}}-c">
<figcaption id="{{.ID}}-c">{{.Title}}</figcaption>
{{if .Bars}}<svg role="img" aria-labelledby="{{.ID}}-t" width="{{.Width}}" height="{{.Height}}" viewBox="0 0 {{.Width}} {{.Height}}" xmlns="http://www.w3.org/2000/svg">
<title id="{{.ID}}-t">{{.Title}}: {{range $i, $b := .Bars}}{{if $i}}; {{end}}{{$b.Desc}}{{end}}</title>
{{range .Bars}}<text x="252" y="{{.TextY}}" text-anchor="end">{{.Label}}</text><rect x="260" y="{{.Y}}" width="{{.Length}}" height="16" class="{{.Class}}"></rect><text x="{{.Length | plus 266}}" y="{{.TextY}}">{{.Value | thousands}}</text>
{{end}}</svg>
{{if not .NoTable}}<table>
<caption>{{.Title}} (the chart's numbers)</caption>
<thead><tr><th scope="col">{{.Label}}</th><th scope="col">{{.Unit}}s</th></tr></thead>
<tbody>{{range .Bars}}<tr><td>{{.Label}}</td><td class="n">{{.Value | thousands}}</td></tr>{{end}}</tbody>
</table>{{end}}
{{else}}<p>{{.Empty}}</p>{{end}}
{{if .Caption}}<p class="note">{{.Caption}}</p>{{end}}
</figure>
{{end}}</div>
{{if .RuleCounts}}<table>
<caption>Findings by rule and severity (the numbers of the chart above, and the files they are in)</caption>
<thead><tr><th scope="col">Rule</th><th scope="col">Severity</th><th scope="col">Findings</th><th scope="col">Files</th></tr></thead>
<tbody>{{range .RuleCounts}}<tr><td><a href="{{$.Rules}}#rule-{{.Rule}}">{{.Rule}}</a></td><td>{{.Severity}}</td><td class="n">{{.Findings | thousands}}</td><td class="n">{{.Files | thousands}}</td></tr>{{end}}</tbody>
</table>{{end}}
</section>
{{end}}

{{define "index"}}<section id="files-index" aria-labelledby="index-h">
<h2 id="index-h">{{.Heading}}</h2>
{{template "pager" .Pager}}
<table class="index">
<caption>{{.Caption}}</caption>
<thead><tr><th scope="col">#</th><th scope="col">File</th><th scope="col">Status</th><th scope="col">Errors</th><th scope="col">Warnings</th><th scope="col">Notes</th><th scope="col">Content sets</th></tr></thead>
<tbody>
{{range .Rows}}<tr><td class="n">{{.N}}</td><td><a href="{{.Page}}#{{.Anchor}}">{{.Input}}</a></td><td><span class="status {{.Class}}">{{.Status}}</span>{{if .Error}} ({{.Kind}}){{end}}</td><td class="n">{{.Errors}}</td><td class="n">{{.Warnings}}</td><td class="n">{{.Notes}}</td><td class="n">{{if .Recorded}}{{.SetCount | thousands}}{{else}}–{{end}}</td></tr>
{{end}}</tbody>
</table>
{{template "pager" .Pager.Bottom}}
</section>
{{end}}

{{define "pager"}}{{if .}}<nav class="pager" aria-label="{{.Label}}"><ul>{{range .Links}}<li>{{if .Href}}<a href="{{.Href}}">{{.Text}}</a>{{else}}<span aria-current="page">{{.Text}}</span>{{end}}</li>{{end}}</ul></nav>{{end}}{{end}}

{{define "files-start"}}<section id="files" aria-labelledby="files-h">
<h2 id="files-h">{{.}}</h2>
{{end}}

{{define "file"}}<article class="file" id="{{.Anchor}}" aria-labelledby="{{.Anchor}}-h">
<h3 id="{{.Anchor}}-h">{{.N}}. {{.Input}}</h3>
<p><span class="status {{.Class}}">{{.Status}}</span>{{if .Size}} · {{.Size}}{{end}}{{if .Modified}} · modified {{.Modified}}{{end}}{{if .Version}} · SpiderInfo /V {{.Version}}{{end}}{{if .SHA256}} · SHA-256 <code>{{.SHA256}}</code>{{end}}</p>
{{if .Error}}<p>Not read ({{.Kind}}): {{.Error}}</p>{{end}}
{{if .Recorded}}{{if .Sets}}<table class="sets">
<caption>Content sets of {{.Input}}{{if .MoreSets}} (the first {{len .Sets}}; {{.MoreSets}} more: webcap info lists them){{end}}</caption>
<colgroup><col class="c-thumb"><col class="c-n"><col><col><col class="c-date"><col class="c-id"><col class="c-date"><col class="c-kind"></colgroup>
<thead><tr><th scope="col">First page</th><th scope="col">#</th><th scope="col">Title</th><th scope="col">URLs (with the redirect chains of URL aliases)</th><th scope="col">Captured</th><th scope="col">ID</th><th scope="col">ID verified</th><th scope="col">Kind, objects</th></tr></thead>
<tbody>
{{range .Sets}}<tr class="set"><td class="thumb">{{if .Thumb}}<img src="{{.Thumb}}" alt="{{.ThumbAlt}}">{{else}}<span class="note">{{.NoThumb}}</span>{{end}}</td><td class="n">{{.N}}</td><td>{{.Set.Title}}</td><td>{{range .Sources}}<div>{{template "link" .URL}}</div>{{range .Chains}}<div class="chain">redirected from: {{range $i, $u := .}}{{if $i}} → {{end}}{{template "link" $u}}{{end}}</div>{{end}}{{end}}</td><td>{{.Set.Created}}</td><td><span class="id">{{.Set.ID}}</span></td><td class="{{.VClass}}">{{.Verified}}</td><td>{{.Set.Kind}}, {{.Set.Objects}}{{if .Set.Page}} (page {{.Set.Page}}){{end}}</td></tr>
{{end}}</tbody>
</table>
{{if .NoThumbs}}<p class="note">{{.NoThumbs}}</p>{{end}}
{{if .Stopped}}<p class="note">{{.Stopped}}</p>{{end}}
{{else}}<p>No content sets.</p>{{end}}
{{else if not .Error}}<p class="note">Content sets not recorded: the results were made without audit --sets.</p>{{end}}
{{if .Findings}}<h4>Findings: {{plural .Errors "error"}}, {{plural .Warnings "warning"}}, {{plural .Notes "note"}}</h4>
<ol class="findings">
{{range .Findings}}<li class="finding" id="{{.ID}}">{{if .Href}}<a class="rule" href="{{.Href}}">{{.Rule}}</a>{{else}}<span class="rule" tabindex="0">{{.Rule}}</span>{{end}} <span class="sev {{.Severity}}">{{.Severity}}</span> {{.Where}}: {{.Message}} <cite>({{.Spec}})</cite></li>
{{end}}</ol>
{{if .MoreFindings}}<p class="note">{{plural .MoreFindings "more finding"}} not shown: audit --json lists every one.</p>{{end}}
{{else if not .Error}}<p>No findings.</p>{{end}}
</article>
{{end}}

{{define "link"}}{{if .Href}}<a href="{{.Href}}" rel="noopener noreferrer nofollow">{{.Text}}</a>{{else}}<span class="url">{{.Text}}</span>{{end}}{{end}}

{{define "files-end"}}</section>
{{end}}

{{define "rules"}}<section id="rules" aria-labelledby="rules-h">
<h2 id="rules-h">Rules</h2>
<p>Every rule webcap audit checks (docs/rules.md; webcap rules). An error means the structure is broken or a lookup gives a wrong or no answer; a warning is a departure Acrobat itself makes or that breaks no lookup; info is worth knowing and not wrong.</p>
<dl class="rules">
{{range .}}<dt id="{{.Anchor}}"><code>{{.ID}}</code> ({{.Severity}})</dt><dd>{{.Summary}} <cite>({{.Spec}})</cite></dd>
{{end}}</dl>
</section>
{{end}}

{{define "foot"}}</main>
</body>
</html>
{{end}}
`

func newTemplate() *template.Template {
	return template.Must(template.New("report").Funcs(template.FuncMap{
		"thousands": thousands,
		"plural":    plural,
		"plus":      func(a, b int) int { return a + b },
	}).Parse(pageTemplate))
}
