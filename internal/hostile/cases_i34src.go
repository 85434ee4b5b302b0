//go:build unix

package hostile

import (
	"strings"
)

// Issue 30, build's inputs (round 3): SourceID scans an ordinary page
// with a scanner of webcapture's own (scanFast) and leaves to x/net/html's
// Tokenizer every page it is not sure of. Pages hostile to a hand scanner
// (markup never closed, a megabyte of comment openers, NUL bytes, a
// script that holds an end tag or an escape, CDATA, deep nesting, a
// charset label past byte 1024) must get the identifiers and texts the
// Tokenizer gives: the bytes written are the session-start binary's
// (sameMD5), whose scan is the Tokenizer's. And a mirror read by
// Dir.Open's fast path keeps its guards: a FIFO and a link out among a
// page's auxiliary files, a page at the size limit.

// scanPage is mirrorFiles' first page, index.html, as page; its
// auxiliary file logo.gif is in the mirror.
func scanPage(page string) map[string]string { return mirrorFiles(page) }

func init() {
	build := []string{"build", "m/manifest.json", "-o", "out.pdf"}
	Register(
		Case{
			Name: "build-scan-title-never-closed", Part: Inputs,
			Setup:  confine(scanPage(`<html><head><title>never closed <img src=logo.gif> &amp; <p>text`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "1e521ee66cf61889212ee5f215d3c495"),
			Before: "exit 0, 0.02 s CPU, 24 MB: out.pdf of 3,402 bytes, MD5 1e521ee6… (x/net/html's scan)",
		},
		Case{
			Name: "build-scan-mib-of-comment-opens", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) { // (1 MiB: made when the case runs)
				return confine(scanPage(`<p>before <img src=logo.gif>`+strings.Repeat("<!--", 1<<18)+` after <img src=logo.gif background=logo.gif>`), build...)(dir)
			},
			Exit:   0,
			Check:  sameMD5("out.pdf", "53b39e821a7279620dc41b3e4941a6fd"),
			Before: "exit 0, 0.05 s CPU, 27 MB: out.pdf of 3,402 bytes, MD5 53b39e82… (x/net/html's scan)",
		},
		Case{
			Name: "build-scan-charset-past-1024", Part: Inputs,
			Setup:  confine(scanPage(`<html><head><title>caf`+"\xe9"+`</title></head><body><p>`+strings.Repeat("word ", 205)+`<meta charset="utf-8"><p>caf`+"\xc3\xa9"+` <img src=logo.gif></p></body></html>`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "4c76af548e1a7c250f3d9523022cbd4b"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,402 bytes, MD5 4c76af54… (x/net/html's scan)",
		},
		Case{
			Name: "build-scan-nul-bytes", Part: Inputs,
			Setup:  confine(scanPage("<p>a\x00b <im\x00g src=logo.gif> <img s\x00rc=logo.gif> <img alt=lo\x00go src=logo.gif> <img src=logo.gif>\x00</p>"), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "85273217d5ab3acb131b9c89c80372d8"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,402 bytes, MD5 85273217… (x/net/html's scan)",
		},
		Case{
			Name: "build-scan-script-end-tags", Part: Inputs,
			Setup: confine(scanPage(`<title>t</title><script>var s = "</title><img src=no.gif>";</script><p>a</p>`+
				`<script><!-- <script> </script> <img src=no2.gif> --></script><p>b <img src=logo.gif></p><style></STYLE >c</style>d`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "b1665cf94f85f898bb2d6bccf69755c2"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,402 bytes, MD5 b1665cf9… (x/net/html's scan)",
		},
		Case{
			Name: "build-scan-cdata", Part: Inputs,
			Setup:  confine(scanPage(`<svg><![CDATA[ <img src=no.gif> ]]> x ]]></svg><p>text <img src=logo.gif></p>`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "31e2559e7029e77d3b5ab003dde0d669"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,402 bytes, MD5 31e2559e… (x/net/html's scan)",
		},
		Case{
			Name: "build-scan-deep-nesting", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) {
				return confine(scanPage(strings.Repeat(`<div class=a><span>w `, 100000)+`<img src=logo.gif>`+strings.Repeat(`</span></div>`, 100000)), build...)(dir)
			},
			Exit:   0,
			Check:  sameMD5("out.pdf", "5588aafdec2ee9c12a6efbdc9de3aee1"),
			Before: "exit 0, 0.12 s CPU, 30 MB: out.pdf of 3,402 bytes, MD5 5588aafd… (x/net/html's scan)",
		},
		// The fast path's guards: a FIFO and a link out among the page's
		// auxiliary files are not read (nor waited on), a page at the size
		// limit is read.
		Case{
			Name: "build-mirror-fifo-and-link-aux", Part: Confine,
			Setup: func(dir string) ([]string, func(), error) {
				files := scanPage(limitPage)
				files["m/site/www.example.com/out.gif"] = "-> ../../../secret"
				if err := layout(dir, files); err != nil {
					return nil, nil, err
				}
				if err := fifo(dir, "m/site/www.example.com/fifo.gif"); err != nil {
					return nil, nil, err
				}
				l, err := listing(dir) // (for nothingWritten: the FIFO in it)
				listings.Store(dir, l)
				return []string{"build", "--max-file-size", "20000", "m/manifest.json", "-o", "out.pdf"}, nil, err
			},
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.source: 2 of the 3 auxiliary files of http://www\.example\.com/ are missing from the sources \(fifo\.gif, out\.gif\): its identifier would be wrong$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 23 MB: the same refusal, the FIFO not waited on, DIR/secret not read",
		},
	)
}

// limitPage is a page of 20,000 bytes, --max-file-size 20000, whose
// auxiliary files are a FIFO, a link out and a GIF.
var limitPage = func() string {
	refs := `<img src=fifo.gif><img src=out.gif><img src=logo.gif>`
	return "<p>" + strings.Repeat("x", 20000-len("<p>")-len(refs)) + refs
}()
