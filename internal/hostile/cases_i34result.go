package hostile

import (
	"fmt"
	"strings"
)

// Issue 30, build's CPU (the result read back, round 3): the document
// build audits after writing takes the name trees it built and the
// content sets it wrote from what it gave the update (pdfio's
// result_model.go), not from a walk of the written objects. Trees of
// several levels, merged with the input's own sets, keys and SpiderInfo,
// say in the audit the build prints what an audit of the written file
// says, object numbers and tree paths alike.

// plannedPages is how many pages the case's input has, and plannedSets
// how many page sets plannedFiles' manifest adds (one a page): more than
// a leaf of 64, so that both rebuilt trees have /Kids.
const plannedPages, plannedSets = 90, 80

// plannedFiles are a build over mergedInputPDF(plannedPages) (the last
// page claimed by two sets, a URLS key that is not canonical, a set whose
// URL the build names again, SpiderInfo with a command): plannedSets page
// sets, one a page, each its own HTML source; the first's URL is the canonical
// form of the input's odd key, the second's the URL of the input's
// second set (its URLS entry becomes an array of two sets); and a
// command of its own. Made when the case runs (not at init).
func plannedFiles() map[string]string {
	files := map[string]string{"m/in.pdf": string(mergedInputPDF(plannedPages))}
	var sets []string
	for i := range plannedSets {
		url := fmt.Sprintf("http://example.com/p%02d", i)
		switch i {
		case 0:
			url = "http://example.com/a"
		case 1:
			url = "http://example.com/z"
		}
		sets = append(sets, fmt.Sprintf(`{"pages": "%d", "url": %q, "contentType": "text/html", "captured": "2026-11-29T10:00:%02dZ", "source": "p%02d.html", "title": "Page (%d)"}`,
			i+1, url, i%60, i, i))
		files[fmt.Sprintf("m/p%02d.html", i)] = fmt.Sprintf("<html><head><title>P%d</title></head><body><p>Page %d.</p></body></html>", i, i)
	}
	files["m/manifest.json"] = `{"input": "in.pdf",
 "commands": [{"name": "again", "url": "http://example.com/", "levels": 1}],
 "pageSets": [` + strings.Join(sets, ",\n  ") + `]}`
	return files
}

func init() {
	Register(
		// A build of 80 sets over a file with Web Capture structures of
		// its own: the trees it rebuilds have two levels, an entry whose
		// value becomes an array (the input's set and the build's under
		// one URL), the input's odd key kept. The audit the build prints
		// (the trees and the new sets taken from what the build gave the
		// update) is the audit of the file written, finding for finding.
		Case{
			Name: "build-planned-result-audit", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) {
				return confine(plannedFiles(), "build", "m/manifest.json", "-o", "out.pdf")(dir)
			},
			Exit: 1,
			Stdout: []string{`^m/in\.pdf: 80 content sets and 1 command written to out\.pdf`,
				`^out\.pdf: errors remain: WC-MEMBER-TWICE \(1\), WC-URLS-CANONICAL \(1\); see webcap audit$`},
			Check: All(sameMD5("out.pdf", "88630b21eaf79bd89fb3738cbe26b857"), auditSays("out.pdf", `^out\.pdf: error WC-MEMBER-TWICE object 93 0 R: page 90 93 0 R is in the /O of 2 content sets \(95 0 R, 96 0 R\)`,
				`^out\.pdf: error WC-URLS-CANONICAL object 185 0 R: URLS key "HTTP://Example\.com/a" `,
				`^1 file audited: 2 errors, 2 warnings, 0 notes, 0 unreadable$`)),
			Before: "exit 1, 0.02 s CPU, 23 MB (/usr/bin/time on /work/webcap-old): the same printed text, out.pdf of 55,607 bytes, MD5 88630b21…, the same bytes; its audit the same (WC-URLS-CANONICAL in the rebuilt URLS tree's leaf 185 0 R)",
		},
	)
}
