package hostile

import (
	"encoding/json"
	"strings"
	"time"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's CPU (the writer, round 3): a content set's dictionary
// is serialized in the order of its key tables' names, sorted once per
// table, not its map walked and sorted for each set (pdfio's dictShape);
// a dictionary's entries are taken from its map once; hex strings are
// upper-cased without copies. The bytes written are the session-start
// binary's, whatever the strings hold and however odd the pages edited.

// oddPagePDF is two pages and an image whose dictionaries are odd: each
// already holds an /ID (the first a lower-case hex string), keys and
// values with #xx escapes, comments between tokens, a literal string with
// nested and escaped parentheses, a real number, a null, an empty array
// and dictionary: a build sets each /ID, and every other entry is written
// again as it reads.
func oddPagePDF() []byte {
	b := pb.New()
	b.Version = "1.6"
	logo := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", pb.Name("DeviceGray"), "BitsPerComponent", 8, "ID", pb.Raw("<0123456789abcdef0123456789abcdef> % a comment\n"),
		"A#28b", pb.Raw("/N#20ame")), Data: []byte{0x80}})
	pagesRoot, _ := b.PageTree(2, func(i int) pb.Dict {
		d := pb.D("ID", pb.Raw("<00112233445566778899aabbccddeeff>"), "Resources", pb.D("XObject", pb.D("Im0", logo)),
			"Odd#2Fkey", pb.Raw("% a comment\n(a(b)c\\)d\\\\) % another\n"), "Real", pb.Raw("1.50"), "Nothing", pb.Raw("null"),
			"Empty", pb.Raw("[ ]"), "EmptyDict", pb.Raw("<< >>"), "Escaped", pb.Raw("/A#42#43"))
		if i == 1 {
			d.Set("ID", pb.Raw("(\\(old\\) id)"))
		}
		return d
	})
	b.ID = [2]string{"webcap-odd-00001", "webcap-odd-00001"}
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
	return b.Bytes()
}

// everyByte is the text of every character U+0001 to U+00FF, with
// parentheses and backslashes unbalanced, n times (a manifest's strings
// are JSON text: each byte a webcap string may hold, as a character).
func everyByte(n int) string {
	var s strings.Builder
	for c := 1; c < 256; c++ {
		s.WriteRune(rune(c))
	}
	s.WriteString(")(\\((\\")
	return strings.Repeat(s.String(), n)
}

// oddStringFiles are a build over oddPagePDF whose title, URL and content
// type hold every byte: title is everyByte(titleRepeat).
func oddStringFiles(titleRepeat int) map[string]string {
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	manifest := `{"input": "odd.pdf", "pageSets": [
  {"pages": "1", "url": "http://www.example.com/a(b)c%28%29/~?q=(x)\\y", "contentType": ` + q("text/html; x=\"(a)\\\\b\"") +
		`, "captured": "2026-11-21T10:30:00Z", "source": "index.html", "title": ` + q(everyByte(titleRepeat)) + `},
  {"pages": "2", "url": "http://www.example.com/notes.txt", "contentType": "text/plain", "captured": "2026-11-21T10:30:02Z", "source": "notes.txt", "title": ` + q(everyByte(1)[100:]) + `}],
 "imageSets": [{"url": "http://www.example.com/logo.gif", "captured": "2026-11-21T10:30:01Z", "source": "logo.gif", "images": [{"page": 1, "name": "Im0"}]}]}`
	return map[string]string{"m/manifest.json": manifest, "m/odd.pdf": string(oddPagePDF()),
		"m/index.html": "<html><head><title>(odd\\)</title></head><body><p>\x00\xff(</p></body></html>",
		"m/notes.txt":  "Notes.\n", "m/logo.gif": "GIF89a\x01\x00\x01\x00\x00\x00\x00;"}
}

func init() {
	Register(
		// Strings of every byte, parentheses and backslashes unbalanced
		// (a title, a URL, a content type), built onto pages and an image
		// whose dictionaries are odd: the bytes the session-start binary
		// wrote, sound for qpdf and for webcap audit.
		Case{
			Name: "build-odd-strings-odd-pages", Part: Inputs,
			Setup:  confine(oddStringFiles(1), "build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`^m/odd\.pdf: 3 content sets and 0 commands written to out\.pdf \(3234 bytes appended`},
			Check: All(sameMD5("out.pdf", "fc71817c8ac00d9dbecc19f1486cd027"), qpdfClean("out.pdf"),
				auditSays("out.pdf", `^out\.pdf: Well-Formed and valid$`)),
			Needs:  []string{"qpdf"},
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 4,402 bytes, MD5 fc71817c…, the same bytes; qpdf --check and audit clean",
		},
		// The same with a title of 1 MiB of every byte (4,112 times):
		// one content set of 2 MiB written in table order across chunks.
		Case{
			Name: "build-every-byte-1mib-title", Part: Bounds,
			Setup: func(dir string) ([]string, func(), error) { // (1 MiB: made when the case runs, not at init)
				return confine(oddStringFiles(4112), "build", "m/manifest.json", "-o", "out.pdf")(dir)
			},
			Exit:   0,
			Stdout: []string{`^m/odd\.pdf: 3 content sets and 0 commands written to out\.pdf \(2190289 bytes appended`},
			Check: All(sameMD5("out.pdf", "3d144dcea37906c5961f9034a1ac48b2"), qpdfClean("out.pdf"),
				auditSays("out.pdf", `^out\.pdf: Well-Formed and valid$`)),
			Needs:  []string{"qpdf"},
			MaxCPU: 5 * time.Second,
			Before: "exit 0, 0.13 s CPU, 46 MB: out.pdf of 2,191,457 bytes, MD5 3d144dce…, the same bytes; qpdf --check and audit clean",
		},
	)
}
