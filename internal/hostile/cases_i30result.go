package hostile

import (
	"fmt"
	"os/exec"
	"regexp"
	"strings"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's CPU (the result read back): the document build, fix,
// append and refresh audit after writing is made from the update's parse
// and the values the update wrote, not from their bytes parsed again
// (pdfio's Update.Result, keptValue). Whatever the input holds already,
// the audit after the build says what an audit of the written file says.

// mergedInputPDF is pages pages (four for i30result's case) of which the
// last belongs to two content sets already (the second set claims it again), whose SpiderInfo (/V
// 1.25, a literal-string /V left aside) lists a command, and whose URLS
// tree holds a key that is not canonical ("HTTP://Example.com/a"): a
// build over it merges its sets into these trees and this SpiderInfo.
func mergedInputPDF(pages int) []byte {
	b := pb.New()
	b.Version = "1.7"
	id1, id2 := strings.Repeat("\xA1", 16), strings.Repeat("\xA2", 16)
	idRef := b.Add(pb.Hex(id1))
	last := pages - 1
	pagesRoot, page := b.PageTree(pages, func(i int) pb.Dict {
		if i == last {
			return pb.D("ID", idRef)
		}
		return pb.D()
	})
	cmd := b.Add(pb.D("URL", pb.Lit("HTTP://Example.com/"), "L", 2, "F", 1))
	set1 := b.Add(pb.D("Type", pb.Name("SpiderContentSet"), "S", pb.Name("SPS"), "ID", idRef, "O", pb.Array{page[last]},
		"SI", pb.D("AU", pb.Lit("HTTP://Example.com/a"), "TS", pb.Lit("D:20150402085105Z"), "C", cmd), "CT", pb.Lit("text/html"), "T", pb.Lit("Old (a) page")))
	set2 := b.Add(pb.D("Type", pb.Name("SpiderContentSet"), "S", pb.Name("SPS"), "ID", pb.Hex(id2), "O", pb.Array{page[last]},
		"SI", pb.D("AU", pb.Lit("http://example.com/z"), "TS", pb.Lit("D:20150402085106Z")), "CT", pb.Lit("text/html")))
	idsRoot := b.NameTree([]pb.KV{{Key: id1, Value: set1}, {Key: id2, Value: set2}}, 64, 64, pb.HexKey)
	urlsRoot := b.NameTree([]pb.KV{{Key: "HTTP://Example.com/a", Value: set1}, {Key: "http://example.com/z", Value: set2}}, 64, 64, pb.LitKey)
	names := b.Add(pb.D("IDS", idsRoot, "URLS", urlsRoot))
	info := pb.D("V", 1.25, "C", pb.Array{cmd})
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", info))
	return b.Bytes()
}

// mergedFiles are a build over mergedInputPDF: a page set on pages 1-2
// whose URL is the canonical form of the input's odd key, one on page 3,
// and a command of its own.
func mergedFiles() map[string]string {
	return map[string]string{
		"m/manifest.json": `{"input": "in.pdf",
 "commands": [{"name": "again", "url": "http://example.com/", "levels": 1}],
 "pageSets": [
  {"pages": "1-2", "url": "http://example.com/a", "contentType": "text/html", "captured": "2026-11-21T10:30:00Z", "source": "a.html", "title": "A (new)"},
  {"pages": "3", "url": "http://example.com/notes.txt", "contentType": "text/plain", "captured": "2026-11-21T10:30:02Z", "source": "notes.txt"}]}`,
		"m/in.pdf":    string(mergedInputPDF(4)),
		"m/a.html":    `<html><head><title>A</title></head><body><p>A</p></body></html>`,
		"m/notes.txt": "Notes.\n",
	}
}

// auditSays is a Check that "webcap audit name" (this test's webcap)
// prints lines matching every one of want (multi-line regular
// expressions): what the command's own audit of its result said.
func auditSays(name string, want ...string) func(dir string) error {
	return func(dir string) error {
		c := exec.Command("webcap", "audit", name)
		c.Dir = dir
		out, _ := c.Output() // (its exit status is its verdict's)
		for _, w := range want {
			if !regexp.MustCompile("(?m)" + w).Match(out) {
				return fmt.Errorf("webcap audit %s: no line matching %q in:\n%s", name, w, out)
			}
		}
		return nil
	}
}

// pbSample is pdfbuild's sample name, for lazyFile.
func pbSample(name string) func() []byte {
	return func() []byte {
		b, err := pb.Sample(name)
		if err != nil {
			panic(err) // (a name of this file's: a test's mistake)
		}
		return b
	}
}

func init() {
	Register(
		// A build over a file with Web Capture structures of its own
		// (a page claimed by two sets, a URLS key that is not canonical,
		// SpiderInfo with a command): the audit of the result the build
		// prints (from the update's values) is the audit of the file
		// written.
		Case{
			Name: "build-merged-result-audit", Part: Inputs,
			Setup: confine(mergedFiles(), "build", "m/manifest.json", "-o", "out.pdf"),
			Exit:  1,
			Stdout: []string{`^m/in\.pdf: 2 content sets and 1 command written to out\.pdf`,
				`^out\.pdf: errors remain: WC-MEMBER-TWICE \(1\), WC-URLS-CANONICAL \(1\); see webcap audit$`},
			Check: All(sameMD5("out.pdf", "7a73268d888df351110205815280ce44"), auditSays("out.pdf", `^out\.pdf: error WC-MEMBER-TWICE object 7 0 R: `,
				`^out\.pdf: error WC-URLS-CANONICAL object 19 0 R: URLS key "HTTP://Example\.com/a" `,
				`^1 file audited: 2 errors, 2 warnings, 0 notes, 0 unreadable$`)),
			Before: "exit 1, 0.02 s CPU, 61 MB: the same output, out.pdf of 3,443 bytes, MD5 7a73268d…, the same bytes; its audit the same",
		},
		// Fixed keys that are not text (a Latin-1 byte, a NUL, bytes that
		// are not UTF-8): the rebuilt trees' strings are kept as they were
		// written, and the audit fix prints is the written file's.
		Case{
			Name: "fix-rawbytes-result-audit", Part: Inputs,
			Setup:  lazyFile("in.pdf", pbSample("rawbytes"), "fix", "in.pdf", "-o", "out.pdf"),
			Exit:   1,
			Stdout: []string{`^in\.pdf: 5 repairs written to out\.pdf`, `^out\.pdf: errors remain: WC-VALUE \(1\); see webcap audit$`},
			Check: All(sameMD5("out.pdf", "def8d3a25b50773c77e3fd8f1d97113f"), auditSays("out.pdf", `^out\.pdf: error WC-VALUE `,
				`^1 file audited: 1 error, `)),
			Before: "exit 1, 0.02 s CPU, 62 MB: the same output, out.pdf of 3,049 bytes, MD5 def8d3a2…, the same bytes; its audit the same",
		},
		// A fix of a file that needed repairing to be read: its result is
		// read from the written bytes whole (Result's fallback), and says
		// what the audit of the file says.
		Case{
			Name: "fix-damaged-result-audit", Part: Inputs,
			Setup:  lazyFile("in.pdf", pbSample("damaged"), "fix", "in.pdf", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`^in\.pdf: 10 repairs written to out\.pdf`, `^out\.pdf: audits with no error$`},
			Check: All(sameMD5("out.pdf", "4360dd0f0a115fcb7161a2b2ca2a81cd"), auditSays("out.pdf", `^out\.pdf: warning WC-URLS-SOURCE object 4 0 R `,
				`^1 file audited: 0 errors, 2 warnings, 0 notes, 0 unreadable$`)),
			Before: "exit 0, 0.02 s CPU, 62 MB: the same output, out.pdf of 1,254 bytes, MD5 4360dd0f…, the same bytes; its audit the same",
		},
	)
}
