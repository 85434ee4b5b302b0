package hostile

import (
	"crypto/md5"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's CPU (second part): a page or an image whose /ID a
// build sets is written with the edit made as it is serialized, not
// copied and changed first (pdfio's appendEdited); an update's objects
// are kept in 1 MiB chunks (pdfio's objectBuf), so one object may span
// chunks; the cross-reference table's lines are made without fmt; a
// manifest is read into one buffer of its size; a page set's pages are
// claimed without a message made for each. The bytes written and the
// verdicts are the session-start binary's.

// strayIDPDF is Web's three pages and logo, each of them already holding
// an /ID no content set gave it (and the third page a key named by the
// empty name, "/"), for a build to set or replace.
func strayIDPDF() []byte {
	b := pdfbuild.New()
	b.Version = "1.6"
	logo := b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Type", pdfbuild.Name("XObject"), "Subtype", pdfbuild.Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", pdfbuild.Name("DeviceGray"), "BitsPerComponent", 8, "ID", pdfbuild.Hex("0123456789ABCDEF0123456789ABCDEF")), Data: []byte{0x80}})
	pagesRoot, _ := b.PageTree(3, func(i int) pdfbuild.Dict {
		d := pdfbuild.D("ID", pdfbuild.Hex(fmt.Sprintf("%032X", i+1)))
		if i < 2 {
			d.Set("Resources", pdfbuild.D("XObject", pdfbuild.D("Im0", logo)))
		} else {
			d.Set("", 7)
		}
		return d
	})
	b.ID = [2]string{"webcap-web-00002", "webcap-web-00002"}
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", pagesRoot))
	return b.Bytes()
}

// strayIDManifest builds two page sets and an image set over strayIDPDF,
// each source a file; title is the first page set's title.
func strayIDManifest(title string) string {
	return `{"input": "web.pdf", "pageSets": [
  {"pages": "1-2", "url": "http://www.example.com/", "contentType": "text/html", "captured": "2026-11-21T10:30:00Z", "source": "index.html", "title": "` + title + `"},
  {"pages": "3", "url": "http://www.example.com/notes.txt", "contentType": "text/plain", "captured": "2026-11-21T10:30:02Z", "source": "notes.txt"}],
 "imageSets": [{"url": "http://www.example.com/logo.gif", "captured": "2026-11-21T10:30:01Z", "source": "logo.gif", "images": [{"page": 1, "name": "Im0"}]}]}`
}

// strayIDFiles are the files of a build over strayIDPDF.
func strayIDFiles(title string) map[string]string {
	return map[string]string{"m/manifest.json": strayIDManifest(title), "m/web.pdf": string(strayIDPDF()),
		"m/index.html": `<html><head><title>Example</title></head><body><p>Hello</p></body></html>`,
		"m/notes.txt":  "Notes.\n", "m/logo.gif": "GIF89a\x01\x00\x01\x00\x00\x00\x00;"}
}

// sameMD5 is a Check that name's bytes have the MD5 want (hex, lower
// case): the session-start binary's output, measured.
func sameMD5(name, want string) func(dir string) error {
	return func(dir string) error {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if got := fmt.Sprintf("%x", md5.Sum(b)); got != want {
			return fmt.Errorf("%s: MD5 %s (%d bytes), want %s, the session-start binary's", name, got, len(b), want)
		}
		return nil
	}
}

func init() {
	Register(
		// Pages and an image that already hold an /ID (and a key named
		// "/"): each is rewritten with its new /ID, every other key as it
		// was, byte for byte as before.
		Case{
			Name: "build-stray-ids-edited", Part: Inputs,
			Setup:  confine(strayIDFiles("Example"), "build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`^m/web\.pdf: 3 content sets and 0 commands written to out\.pdf`},
			Check:  sameMD5("out.pdf", "ee674c500e66e79e4fc7095171e33015"),
			Before: "exit 0, 0.02 s CPU, 65 MB: out.pdf of 3,506 bytes, MD5 ee674c50…, the same bytes",
		},
		// A page set whose title is 3 MiB: its content set is one object
		// written across 1 MiB chunks, in the bytes it was written as.
		Case{
			Name: "build-object-across-chunks", Part: Bounds,
			Setup: func(dir string) ([]string, func(), error) { // (3 MiB: made when the case runs, not at init)
				big := strings.Repeat("A long title, ", 3<<20/14) // one object over three chunks
				return confine(strayIDFiles(big), "build", "m/manifest.json", "-o", "out.pdf")(dir)
			},
			Exit:   0,
			Check:  sameMD5("out.pdf", "468869f7637870051fc70d4384f7c7d3"),
			MaxCPU: 5 * time.Second,
			Before: "exit 0, 0.10 s CPU, 69 MB: out.pdf of 3,149,218 bytes, MD5 468869f7…, the same bytes",
		},
		// A manifest of 65 MiB, past the 64 MiB a manifest may be: refused
		// by its size, before any parse (it was parsed cut at the limit,
		// and refused for its JSON, ending early, at 381 MB).
		Case{
			Name: "build-manifest-over-limit", Part: Bounds,
			Setup: func(dir string) ([]string, func(), error) { // (the 65 MiB made when the case runs, not at init: every process of the test binary inits this package)
				return confine(map[string]string{"m/manifest.json": `{"input": "web.pdf", "pageSets": [` + strings.Repeat(" ", 65<<20) +
					`{"pages": "1", "url": "http://www.example.com/", "source": "index.html"}]}`}, "build", "m/manifest.json", "-o", "out.pdf")(dir)
			},
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: larger than 64 MiB, the most a manifest may be$`},
			Check:  nothingWritten(),
			MaxRSS: 350 << 20, // (263 MB as the test measures it, which holds the 65 MiB text too)
			Before: "exit 1 after 0.6-0.8 s CPU and 381 MB run alone: \"m/manifest.json:1:67108865: the manifest ends early\" (parsed cut at the limit); now 153 MB alone",
		},
		// Two page sets claiming page 2: refused, the page named, as before
		// (the message is made only when a claim fails).
		Case{
			Name: "build-page-claimed-twice", Part: Inputs,
			Setup: confine(map[string]string{"m/manifest.json": strings.Replace(strayIDManifest("Example"), `"pages": "3"`, `"pages": "2-3"`, 1),
				"m/web.pdf": string(strayIDPDF()), "m/index.html": "<p>Hello</p>", "m/notes.txt": "Notes.\n", "m/logo.gif": "GIF89a"},
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[1\]\.pages: page 2 already belongs to pageSets\[0\]\.pages$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 68 MB: the same refusal",
		},
	)
}
