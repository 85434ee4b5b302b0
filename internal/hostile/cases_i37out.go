package hostile

import (
	"fmt"
	"strings"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's output: build reads its input with room after it for
// what the manifest is expected to append (record's appendHint: some 900
// bytes a set), and the update writes its objects there, so that the
// output is made with no copy of the input or of the objects. The room's
// edges: a set of 60 pages, counted as 16 (the room is short: the output
// is copied whole, as before), and 20,000 sets that each claim pages one
// to two thousand million of a 3-page input (the room is bounded by four
// times the input's size, whatever the manifest claims). The bytes written
// and the verdicts are the session-start binary's.

// roomManifest is a build manifest of sets page sets over web.pdf, each
// of pages, from notes.txt.
func roomManifest(sets int, pages string) string {
	var b strings.Builder
	b.WriteString(`{"input": "web.pdf", "pageSets": [`)
	for i := range sets {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `{"pages": %q, "url": "http://www.example.com/notes-%d.txt", "contentType": "text/plain", "captured": "2026-11-21T10:30:02Z", "source": "notes.txt"}`, pages, i)
	}
	b.WriteString("]}")
	return b.String()
}

func init() {
	Register(
		Case{
			Name: "build-room-short-60-page-set", Part: Bounds,
			Setup: func(dir string) ([]string, func(), error) {
				return confine(map[string]string{"m/manifest.json": roomManifest(1, "1-60"), "m/web.pdf": string(pdfbuild.BigPlain(60)),
					"m/notes.txt": "Notes.\n"}, "build", "m/manifest.json", "-o", "out.pdf")(dir)
			},
			Exit:   0,
			Stdout: []string{`^m/web\.pdf: 1 content set and 0 commands written to out\.pdf \(\d+ bytes appended; the input's \d+ bytes are unchanged\)$`},
			Check:  sameMD5("out.pdf", "635eb1918881460ac3d9f205b378b1ba"),
			MaxCPU: 5 * time.Second,
			Before: "exit 0, 0.01 s CPU, 23 MB: out.pdf of 23,936 bytes (10,059 appended), MD5 635eb191…, the same bytes (the room, some 4.7 KB, was short: copied whole)",
		},
		Case{
			Name: "build-room-pages-claimed-past-input", Part: Bounds,
			Setup: func(dir string) ([]string, func(), error) { // (2.9 MB: made when the case runs, not at init)
				return confine(map[string]string{"m/manifest.json": roomManifest(20000, "1-2000000000"), "m/web.pdf": string(webPDF()),
					"m/notes.txt": "Notes.\n"}, "build", "m/manifest.json", "-o", "out.pdf")(dir)
			},
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.pages: "1-2000000000": m/web\.pdf has 3 pages$`},
			Check:  nothingWritten(),
			MaxRSS: 200 << 20,
			Before: "exit 1, the same message, 0.13 s CPU, 45 MB (the room: four times the input's size, not the 94 MB the 20,000 sets of 16 pages counted would be)",
		},
	)
}
