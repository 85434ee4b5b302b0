package hostile

import (
	"fmt"
	"strings"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's CPU (the writer, round 4): a page's new /ID is
// written by the writer from the parsed page, in its key order, whatever
// the page's own bytes. A copy of the page's bytes where they are
// already the writer's, each value checked against the parse, was tried
// (35% less CPU per page warm, none in a 100,000-page build, where the
// cost is reaching the parsed page, not writing it) and left out; this
// case holds such a splice, if one comes, to the bytes the session-start
// binary wrote: pages whose bytes are the writer's and pages whose are
// not (a real number, a name with # escapes, other spacing, keys out of
// order within a value, a key twice).

// rawPages are the page dictionaries of rawPagePDF, as their bytes: some
// already the writer's, some not. %d is the contents stream, %[2]d the
// page tree, %[3]d the resources object.
var rawPages = []string{
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/Resources <</Font <</F1 %[3]d 0 R>>>>>>",              // the bench's shape
	"<<\n/Type /Page\r\n/Parent   %[2]d 0 R /MediaBox [0 0 612 792]\t/Contents %[1]d 0 R/Resources %[3]d 0 R/Rotate 90\n>>",         // indirect resources, white space
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/Rotate 90.0>>",                                        // a real rotation
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612.000 792]/Contents %[1]d 0 R>>",                                                // a real in the box
	"<</Type /Pa#67e/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/Od#64 /A#20B>>",                                     // escaped names
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [ 0 0 612 792 ]/Contents %[1]d 0 R>>",                                                  // array spacing
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/ID <00112233445566778899AABBCCDDEEFF>>>",              // an /ID already
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/ID <00112233445566778899aabbccddeeff>>>",              // a lower-case /ID
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/Resources <</XObject <<>>/Font <</F1 %[3]d 0 R>>>>>>", // nested keys out of order
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/Rotate 0/Rotate 90>>",                                 // a key twice
	"<</Type /Page/Parent %[2]d 0 R/MediaBox [0 0 612 792]/Contents %[1]d 0 R/T (a (page) \\) x)/N null/B true>>",                   // a string, a null
	"<</Type/Page/Parent %[2]d 0 R/MediaBox[0 0 612 792]/Contents %[1]d 0 R/UserUnit 1>>",                                           // Acrobat's spacing
}

// rawPagePDF is a file of the rawPages, each page's bytes as they are.
func rawPagePDF() []byte {
	b := pb.New()
	b.Version = "1.6"
	font := b.Add(pb.D("Type", pb.Name("Font"), "Subtype", pb.Name("Type1"), "BaseFont", pb.Name("Helvetica")))
	res := b.Add(pb.D("Font", pb.D("F1", font)))
	content := b.Add(&pb.Stream{Dict: pb.D(), Data: []byte("BT /F1 12 Tf 72 720 Td (x) Tj ET")})
	tree := b.Reserve()
	kids := make(pb.Array, len(rawPages))
	for i, p := range rawPages {
		kids[i] = b.Add(pb.Raw(fmt.Sprintf(p, content, tree, res)))
	}
	b.Set(tree, pb.D("Type", pb.Name("Pages"), "Kids", kids, "Count", len(rawPages)))
	b.ID = [2]string{"webcap-raw-00001", "webcap-raw-00001"}
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", tree))
	return b.Bytes()
}

// rawPageFiles are a build of a page set onto each of rawPagePDF's pages.
func rawPageFiles() map[string]string {
	var sets strings.Builder
	for i := range rawPages {
		if i > 0 {
			sets.WriteString(",\n")
		}
		fmt.Fprintf(&sets, `  {"pages": "%d", "url": "http://www.example.com/p%02d.html", "contentType": "text/html", "captured": "2026-11-29T12:00:%02dZ", "source": "p%02d.html"}`, i+1, i, i, i)
	}
	files := map[string]string{"m/manifest.json": `{"input": "raw.pdf", "pageSets": [` + "\n" + sets.String() + "]}", "m/raw.pdf": string(rawPagePDF())}
	for i := range rawPages {
		files[fmt.Sprintf("m/p%02d.html", i)] = fmt.Sprintf("<html><head><title>Page %d</title></head><body>%d</body></html>", i, i)
	}
	return files
}

func init() {
	Register(
		// A page set built onto each of twelve pages whose bytes are odd
		// or not: each page's /ID set, the bytes the session-start
		// binary wrote, sound for qpdf and for webcap audit.
		Case{
			Name: "build-page-bytes-copied-or-written", Part: Inputs,
			Setup:  confine(rawPageFiles(), "build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`^m/raw\.pdf: 12 content sets and 0 commands written to out\.pdf`},
			Check: All(sameMD5("out.pdf", "558f0be9af14dc324f07643f1f384ee8"), qpdfClean("out.pdf"),
				auditSays("out.pdf", `^out\.pdf: Well-Formed and valid`)),
			Needs:  []string{"qpdf"},
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 9,270 bytes (7,122 appended), MD5 558f0be9…, the same bytes; qpdf --check and audit clean",
		},
	)
}
