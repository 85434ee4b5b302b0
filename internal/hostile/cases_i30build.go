package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's CPU: a mirror's files are opened by one openat2 from
// the directory held open when their path has no link on its way
// (mirror.Dir.Open's fast path), and an ASCII page that declares no
// encoding is not prescanned for one (webcapture.ToUTF8). A link anywhere
// on a file's way still goes to os.Root (refused when it leads out, read
// when it stays in), and an ASCII page that declares an encoding by a
// <META> in capitals is still decoded by it: the verdicts and identifiers
// are the session-start binary's.

// deepManifest is a build manifest whose page set's source is in the
// mirror site/, two directories down.
const deepManifest = `{"input": "web.pdf", "sources": "site", "pageSets": [{"pages": "3",
  "url": "http://www.example.com/a/b/notes.txt", "contentType": "text/plain", "captured": "2026-11-21T10:30:02Z"}]}`

// metaManifest is a build manifest of an HTML page from the mirror site/.
const metaManifest = `{"input": "web.pdf", "sources": "site", "pageSets": [{"pages": "3",
  "url": "http://www.example.com/page.html", "contentType": "text/html", "captured": "2026-11-21T10:30:02Z"}]}`

// buildSets is a Setup writing internal/pdfbuild's generated capture of
// n page sets (bench/cmd/genbuild) and building it.
func buildSets(n int) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		if err := pdfbuild.BuildCase(n, dir); err != nil {
			return nil, nil, err
		}
		return []string{"build", "manifest.json", "-o", "out.pdf"}, nil, nil
	}
}

// written is a Check that out.pdf was written.
func written(name string) func(dir string) error {
	return func(dir string) error {
		if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Size() == 0 {
			return fmt.Errorf("%s was not written: %v", name, err)
		}
		return nil
	}
}

func init() {
	Register(
		// A directory link deep in the mirror that leads out: the fast path
		// refuses every link, os.Root refuses this one as before.
		Case{
			Name: "build-mirror-deep-dir-link-out", Part: Confine,
			Setup: confine(map[string]string{"m/manifest.json": deepManifest, "m/web.pdf": string(webPDF()),
				"m/site/www.example.com/a": "-> ../../../outside/a", "outside/a/b/notes.txt": "Notes, outside.\n"},
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.source: http://www\.example\.com/a/b/notes\.txt: m/site/www\.example\.com/a/b/notes\.txt: leads to .*/outside/a/b/notes\.txt, outside m/site` + refused + `$`},
			Check:  nothingWritten(),
			Before: "exit 4, 0.02 s CPU, 61-63 MB: the same refusal (the fast path leaves every link to os.Root)",
		},
		// A directory link that stays inside: read through it, as before.
		Case{
			Name: "build-mirror-deep-dir-link-in", Part: Confine,
			Setup: confine(map[string]string{"m/manifest.json": deepManifest, "m/web.pdf": string(webPDF()),
				"m/site/www.example.com/a": "-> real", "m/site/www.example.com/real/b/notes.txt": "Notes, captured.\n"},
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`^page set +\d+ 0 R +pages 3 +ID 5CCAFA28EB9342CE80A11AB98E3A893A +http://www\.example\.com/a/b/notes\.txt$`},
			Check:  written("out.pdf"),
			Before: "exit 0, 0.02-0.04 s CPU, 61-69 MB: the same ID",
		},
		// An ASCII page whose <META> (capitals) says ISO-2022-JP: decoded by
		// it (its escapes are Japanese text: its TID changes), not taken as
		// it is.
		Case{
			Name: "build-ascii-page-meta-iso2022jp", Part: Inputs,
			Setup: confine(map[string]string{"m/manifest.json": metaManifest, "m/web.pdf": string(webPDF()),
				"m/site/www.example.com/page.html": "<HTML><META CHARSET=\"ISO-2022-JP\"><BODY><P>\x1b$B$3$s$K$A$O\x1b(B</P></BODY></HTML>"},
				"build", "--json", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`"id": "585751B2F2DBF3C14A837D740B62CEB9"`, `"tid": "C0E89A293BD36C7A768E4E9D2C5475A8"`},
			Check:  written("out.pdf"),
			Before: "exit 0, 0.02 s CPU, 59-61 MB: the same ID and TID (decoded as ISO-2022-JP)",
		},
		// An ASCII page whose <meta> names ISO-2022-KR through a character
		// reference: the replacement encoding (its text is U+FFFD), not
		// taken as it is.
		Case{
			Name: "build-ascii-page-meta-reference", Part: Inputs,
			Setup: confine(map[string]string{"m/manifest.json": metaManifest, "m/web.pdf": string(webPDF()),
				"m/site/www.example.com/page.html": `<html><meta charset="iso-&#50;022-kr"><body><p>Hello, world</p></body></html>`},
				"build", "--json", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`"id": "DE8E6FED79382D062222ECA9288714BA"`, `"tid": "9B759040321A408A5C7768B4511287A6"`},
			Check:  written("out.pdf"),
			Before: "exit 0, 0.02 s CPU, 62 MB: the same ID and TID (decoded by the replacement encoding)",
		},
		// 2,000 page sets from a mirror: the CPU a build takes.
		Case{
			Name: "build-mirror-2000-sets-cpu", Part: Bounds,
			Setup:  buildSets(2000),
			Exit:   0,
			Stdout: []string{`^input\.pdf: 2008 content sets and 4 commands written to out\.pdf`},
			Check:  written("out.pdf"),
			MaxCPU: 2 * time.Second,
			Before: "exit 0, 0.23-0.25 s CPU, 61-62 MB",
		},
	)
}
