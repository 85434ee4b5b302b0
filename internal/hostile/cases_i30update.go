package hostile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/webcap/webcap/pdfio"
)

// Issue 30, updates on the lazy reader: build, fix, append and refresh
// parse their input with it where the file is plain (pdfio.OpenUpdate),
// and fall back to pdfcpu's ReadContext and its repairs where it is not.
// A file whose cross-reference data lies must be updated as before: the
// lazy reader gives up on an entry into the middle of another object or
// past the end, and reads an update's newer entry where two sections list
// the same object. Each case's verdict and output are the session-start
// binary's.

// updObjects are a capture of three pages: two in content sets whose IDS
// keys are out of order (fix sorts them), the third in none (build adds a
// set for it).
var updObjects = map[int]string{
	1: "<< /Type /Catalog /Pages 2 0 R /Names << /IDS 4 0 R >> /SpiderInfo << /V 1.25 >> >>",
	2: "<< /Type /Pages /Kids [3 0 R 6 0 R 7 0 R] /Count 3 >>",
	3: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <00112233445566778899AABBCCDDEEFF> >>",
	4: "<< /Names [<FF112233445566778899AABBCCDDEEFF> 8 0 R <00112233445566778899AABBCCDDEEFF> 5 0 R] >>",
	5: "<< /Type /SpiderContentSet /S /SPS /ID <00112233445566778899AABBCCDDEEFF> /O [3 0 R] " +
		"/SI << /AU (http://example.com/) /TS (D:20260101000000Z) >> /CT (text/html) /T (Original title) >>",
	6: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <FF112233445566778899AABBCCDDEEFF> >>",
	7: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	8: "<< /Type /SpiderContentSet /S /SPS /ID <FF112233445566778899AABBCCDDEEFF> /O [6 0 R] " +
		"/SI << /AU (http://example.com/b) /TS (D:20260101000000Z) >> /CT (text/html) /T (Second) >>",
}

// updManifest is a build manifest adding a page set for page 3 of in.pdf.
const updManifest = `{"input": "in.pdf", "pageSets": [{"pages": "3", "url": "http://www.example.com/docs/notes.txt",
  "source": "notes.txt", "contentType": "text/plain", "captured": "2026-11-21T10:30:02Z"}]}`

// updFile is a Setup writing the capture as in.pdf, with the lie at makes
// (nil: none) and the update extra (see lazyClassic), and a build
// manifest, then running webcap with args.
func updFile(at func(offs map[int]int) map[int]int, extra map[int]string, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		if err := Write(dir, "in.pdf", lazyClassic(updObjects, at, extra)); err != nil {
			return nil, nil, err
		}
		if err := Write(dir, "notes.txt", []byte("notes\n")); err != nil {
			return nil, nil, err
		}
		return args, nil, Write(dir, "m.json", []byte(updManifest))
	}
}

// updOut is a Check that out.pdf is an update of in.pdf (its bytes
// first, unchanged) whose IDS tree holds want keys in order, and, when
// page is not 0, whose page page belongs to a content set.
func updOut(want, page int) func(dir string) error {
	return func(dir string) error {
		in, err := os.ReadFile(filepath.Join(dir, "in.pdf"))
		if err != nil {
			return err
		}
		out, err := os.ReadFile(filepath.Join(dir, "out.pdf"))
		if err != nil {
			return err
		}
		if !bytes.HasPrefix(out, in) || len(out) == len(in) {
			return fmt.Errorf("out.pdf is not an update of in.pdf")
		}
		doc, err := pdfio.ReadBytes(out, "out.pdf", pdfio.Options{})
		if err != nil {
			return err
		}
		if doc.IDS == nil || len(doc.IDS.Entries) != want {
			return fmt.Errorf("out.pdf: the IDS tree does not hold %d keys", want)
		}
		for i := 1; i < len(doc.IDS.Entries); i++ {
			if doc.IDS.Entries[i-1].Key >= doc.IDS.Entries[i].Key {
				return fmt.Errorf("out.pdf: the IDS tree's keys are out of order")
			}
		}
		if page == 0 {
			return nil
		}
		for _, cs := range doc.Sets {
			for _, n := range doc.PageNumbers(cs) {
				if n == page {
					return nil
				}
			}
		}
		return fmt.Errorf("out.pdf: page %d is in no content set", page)
	}
}

func init() {
	// The IDS tree's entry points into the page before it; a content
	// set's past the end; an update retitles the second set.
	mid := func(offs map[int]int) map[int]int { offs[4] = offs[3] + 10; return offs }
	past := func(offs map[int]int) map[int]int { offs[8] = 1 << 20; return offs }
	newer := map[int]string{8: "<< /Type /SpiderContentSet /S /SPS /ID <FF112233445566778899AABBCCDDEEFF> /O [6 0 R] " +
		"/SI << /AU (http://example.com/b) /TS (D:20260101000000Z) >> /CT (text/html) /T (Retitled) >>"}
	lim := func(c Case) Case {
		c.Part, c.MaxCPU, c.MaxRSS = Bounds, 2*time.Second, 200<<20
		return c
	}
	Register(
		lim(Case{
			Name:   "lazy-xref-into-object-fix",
			Setup:  updFile(mid, nil, "fix", "in.pdf", "-o", "out.pdf"),
			Exit:   1,
			Stdout: []string{`the IDS tree is rebuilt: 2 keys`, `WC-PDF-OFFSET`},
			Check:  updOut(2, 0),
			Before: "exit 1, \"the IDS tree is rebuilt: 2 keys\", WC-PDF-OFFSET left, out.pdf written in 0.01 s CPU, 22 MB (/work/webcap-old fix in.pdf -o out.pdf)",
		}),
		lim(Case{
			Name:   "lazy-offset-past-end-build",
			Setup:  updFile(past, nil, "build", "m.json", "-o", "out.pdf"),
			Exit:   1,
			Stdout: []string{`content sets? .*written to out\.pdf`},
			Check:  updOut(3, 3),
			Before: "exit 1, \"errors remain: WC-PDF-OFFSET\", a page set for page 3 written in 0.02 s CPU, 22 MB (/work/webcap-old build m.json -o out.pdf)",
		}),
		lim(Case{
			Name:   "lazy-object-in-two-sections-fix",
			Setup:  updFile(nil, newer, "fix", "in.pdf", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`the IDS tree is rebuilt: 2 keys`},
			Check:  updOut(2, 0),
			Before: "exit 0, \"the IDS tree is rebuilt: 2 keys\" on the newest section's object 8 in 0.01 s CPU, 22 MB (/work/webcap-old fix in.pdf -o out.pdf)",
		}),
	)
}
