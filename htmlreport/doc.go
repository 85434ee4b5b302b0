// Package htmlreport writes the HTML audit report (webcap audit --html,
// webcap report --html): what people look at of an audit, where text and
// JSON are what programs read.
//
// A report has a summary (files by status in JHOVE's words, findings by
// rule and severity, content sets by year of capture, files by Web
// Capture version: bar charts in inline SVG, each with role="img", a
// <title> that says its numbers, and the same numbers as a table), an
// index of the files, and each file's details: its content sets as a
// table (URLs with their URL alias redirect chains, title, capture time,
// /ID and whether it was verified against sources, PDF 1.7 §10.9.2-10.9.4)
// beside a thumbnail of each page set's first page, and its findings,
// each linked to its rule's text (audit.Rules) in the report.
//
// Decisions:
//
//   - Self-contained and offline: one HTML file holds up to MaxSingle
//     (1,000) files; a larger report is a directory of static pages
//     (index pages of a thousand files, pages of a hundred files'
//     details, rules.html) linked by relative URLs, so that it opens
//     from disk without a server and no page grows with the number of
//     files. Thumbnails are PNG data: URIs; nothing is fetched.
//   - Hostile content stays text: every string of a file (titles, URLs,
//     keys, messages, the file's own name) goes through html/template's
//     contextual escaping; only http and https URLs become links; the
//     only data: URIs are the PNGs the renderer wrote, checked to be
//     PNGs. A Content-Security-Policy meta forbids everything but the
//     report's own style sheet (by its SHA-256) and data: images: the
//     report has no script.
//   - Thumbnails come from poppler's pdftoppm, a renderer of its own run
//     as a child process under bounds (Renderer.Render: address space, CPU
//     time, wall time, output size), never in the process that parsed
//     the file. Without pdftoppm the report says so once. Their time is
//     bounded by page, by file and by report (Renderer.FileTime, RunTime):
//     a file whose pages take their time gets no more thumbnails, and the
//     report says why, so that one hostile file cannot hold a run.
//   - What a file says is shown as the command line shows it: a URL
//     without its password (audit.WithoutPassword), a string with a
//     control or bidirectional character quoted (htmlsafe.Display), and
//     no string longer than MaxText characters (the rest is cut, and the
//     report says how long it was).
//   - The report shows what the results hold: the same results give the
//     same bytes (given the same Options.Time), whether they come from an
//     audit or from its --jsonl shards (Capture is their "capture"
//     object).
//
// Usage:
//
//	r, err := htmlreport.FindRenderer()
//	opts := htmlreport.Options{Renderer: r, Jobs: 4, Generator: "webcap v1.2.0"}
//	if err != nil {
//		opts.NoThumbnails = err.Error()
//	}
//	stats, err := htmlreport.Write(ctx, "report.html", results, opts)
package htmlreport
