package hostile

import (
	"fmt"
	"strings"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's CPU (the result read back, round 3): the document
// build audits after writing takes the name trees it built and the
// content sets it wrote from what it gave the update (pdfio's
// result_model.go), not from a walk of the written objects. Trees of
// several levels, merged with the input's own sets, keys and SpiderInfo,
// say in the audit the build prints what an audit of the written file
// says, object numbers and tree paths alike.

// plannedPages is how many pages plannedInputPDF has, and plannedSets how
// many page sets plannedFiles' manifest adds (one a page): more than a
// leaf of 64, so that both rebuilt trees have /Kids.
const plannedPages, plannedSets = 90, 80

// plannedInputPDF is mergedInputPDF's structures over plannedPages pages:
// a page claimed by two sets (the last), a URLS key that is not
// canonical ("HTTP://Example.com/a"), a set whose URL the build names
// again ("http://example.com/z"), SpiderInfo with a command.
func plannedInputPDF() []byte {
	b := pb.New()
	b.Version = "1.7"
	id1, id2 := strings.Repeat("\xA1", 16), strings.Repeat("\xA2", 16)
	idRef := b.Add(pb.Hex(id1))
	last := plannedPages - 1
	pagesRoot, pages := b.PageTree(plannedPages, func(i int) pb.Dict {
		if i == last {
			return pb.D("ID", idRef)
		}
		return pb.D()
	})
	cmd := b.Add(pb.D("URL", pb.Lit("HTTP://Example.com/"), "L", 2, "F", 1))
	set1 := b.Add(pb.D("Type", pb.Name("SpiderContentSet"), "S", pb.Name("SPS"), "ID", idRef, "O", pb.Array{pages[last]},
		"SI", pb.D("AU", pb.Lit("HTTP://Example.com/a"), "TS", pb.Lit("D:20150402085105Z"), "C", cmd), "CT", pb.Lit("text/html"), "T", pb.Lit("Old (a) page")))
	set2 := b.Add(pb.D("Type", pb.Name("SpiderContentSet"), "S", pb.Name("SPS"), "ID", pb.Hex(id2), "O", pb.Array{pages[last]},
		"SI", pb.D("AU", pb.Lit("http://example.com/z"), "TS", pb.Lit("D:20150402085106Z")), "CT", pb.Lit("text/html")))
	idsRoot := b.NameTree([]pb.KV{{Key: id1, Value: set1}, {Key: id2, Value: set2}}, 64, 64, pb.HexKey)
	urlsRoot := b.NameTree([]pb.KV{{Key: "HTTP://Example.com/a", Value: set1}, {Key: "http://example.com/z", Value: set2}}, 64, 64, pb.LitKey)
	names := b.Add(pb.D("IDS", idsRoot, "URLS", urlsRoot))
	info := pb.D("V", 1.25, "C", pb.Array{cmd})
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", info))
	return b.Bytes()
}

// plannedFiles are a build over plannedInputPDF: plannedSets page sets,
// one a page, each its own HTML source; the first's URL is the canonical
// form of the input's odd key, the second's the URL of the input's
// second set (its URLS entry becomes an array of two sets); and a
// command of its own. Made when the case runs (not at init).
func plannedFiles() map[string]string {
	files := map[string]string{"m/in.pdf": string(plannedInputPDF())}
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
