package hostile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30's findings streamed: a file whose URLS tree has millions of
// keys, each a finding (WC-URLS-SOURCE: the keys name none of the one
// content set's source URLs). Before, audit held every finding of a file
// three times over (the audit's list, its JSON in the worker, the line
// decoded in audit): 3.0 GB for 2,000,000 findings, past the default
// --max-memory (24 times the file's 90 MB) and past 1 GiB, so that the
// file was "unreadable" (exit 4). Now the findings past 20,000 are
// spilled to files as they are found (audit/batch.Spool) and written from
// there: the file is audited within the memory its document takes.

// huge writes the capture of n URLS keys, each a finding, as huge.pdf,
// and a directory tmp for TMPDIR.
func huge(n int, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		if err := os.Mkdir(filepath.Join(dir, "tmp"), 0o755); err != nil {
			return nil, nil, err
		}
		return append(args, "huge.pdf"), nil, Write(dir, "huge.pdf", pdfbuild.HugeObject(n))
	}
}

// emptyDir is a Check that dir's directory name holds nothing: no spilled
// finding left behind.
func emptyDir(name string) func(dir string) error {
	return func(dir string) error {
		left, err := os.ReadDir(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if len(left) > 0 {
			return fmt.Errorf("%s holds %d files after the run, first %s", name, len(left), left[0].Name())
		}
		return nil
	}
}

func init() {
	Register(
		Case{
			Name:   "huge-findings-audit",
			Part:   Bounds,
			Setup:  huge(2000000, "audit", "--max-memory", "1GiB", "--timeout", "10m"),
			Env:    []string{"TMPDIR=tmp"},
			Exit:   1,
			Stdout: []string{`^huge\.pdf: warning WC-URLS-SOURCE: 1999990 more not shown`, `^1 file audited: 1 error, 2000002 warnings, 0 notes, 0 unreadable$`},
			Check:  emptyDir("tmp"),
			MaxCPU: 60 * time.Second, MaxRSS: 1 << 30,
			Slow: true,
			Before: "webcap-old, this case (--max-memory 1GiB): exit 4, huge.pdf unreadable (\"took more memory than --max-memory\"), 5.1 s CPU, 904 MB; " +
				"without --max-memory (24 times the file: 2.0 GiB): exit 4 at 1.8 GB; with --max-memory 5GiB: read, 19.6 s CPU, 3.0 GB",
		},
		Case{
			Name:   "many-findings-jsonl-spilled",
			Part:   Bounds,
			Setup:  huge(50000, "audit", "--jsonl"),
			Env:    []string{"TMPDIR=tmp"},
			Exit:   1,
			Stdout: []string{`^\{"schema":"webcap.audit-file/1","input":"huge.pdf",.*"message":"URLS key \\"http://www.example.com/00049999.html\\" names none.*"jhoveStatus":"Well-Formed, but not valid"\}$`},
			Check:  emptyDir("tmp"),
			MaxRSS: 256 << 20,
			Before: "webcap-old, this case: the same 12.6 MB line, 1.3 s CPU, 87 MB (every finding held, three times: 3.0 GB at 2,000,000); " +
				"it passes there too: the case keeps the spilled line byte for byte and the spool's files removed",
		},
	)
}

// Issue 30, the audit's page index: pages are looked up by object number in
// a slice (webcapture.RefIndex), where they were in a map keyed by
// reference. The slice is bounded by the pages the file holds, not by the
// largest number it names: sparse.pdf's pages are objects 4, 9,999,999
// (twice in the tree: a cycle) and 6 generation 1; its page set lists
// them out of order and with the wrong generation too (6 0 R, 9999999
// 1 R), and a second set lists 9999999 0 R under another /ID. The findings, the
// page numbers and the order of /O are the session-start binary's.

// sparseObjects are sparse.pdf's objects, by number and generation.
var sparseObjects = []struct {
	num, gen int
	obj      string
}{
	{1, 0, "<< /Type /Catalog /Pages 2 0 R /Names << /IDS 3 0 R >> /SpiderInfo << /V 1.25 >> >>"},
	{2, 0, "<< /Type /Pages /Kids [9999999 0 R 4 0 R 9999999 0 R 6 1 R] /Count 4 >>"},
	{3, 0, "<< /Names [<00112233445566778899AABBCCDDEEFF> 5 0 R <FF112233445566778899AABBCCDDEEFF> 7 0 R] >>"},
	{4, 0, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <00112233445566778899AABBCCDDEEFF> >>"},
	{5, 0, "<< /Type /SpiderContentSet /S /SPS /ID <00112233445566778899AABBCCDDEEFF> /O [4 0 R 9999999 0 R 6 0 R 9999999 1 R 6 1 R] " +
		"/SI << /AU (http://example.com/) /TS (D:20260101000000Z) >> /CT (text/html) /T (Sparse) >>"},
	{6, 1, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <00112233445566778899AABBCCDDEEFF> >>"},
	{7, 0, "<< /Type /SpiderContentSet /S /SPS /ID <FF112233445566778899AABBCCDDEEFF> /O [9999999 0 R] " +
		"/SI << /AU (http://example.com/b) /TS (D:20260101000000Z) >> /CT (text/html) /T (Second) >>"},
	{9999999, 0, "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <00112233445566778899AABBCCDDEEFF> >>"},
}

// sparsePDF writes sparseObjects with a cross-reference table of one
// subsection per object.
func sparsePDF() []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(sparseObjects))
	for i, o := range sparseObjects {
		offs[i] = b.Len()
		fmt.Fprintf(&b, "%d %d obj\n%s\nendobj\n", o.num, o.gen, o.obj)
	}
	xref := b.Len()
	b.WriteString("xref\n0 1\n0000000000 65535 f \n")
	for i, o := range sparseObjects {
		fmt.Fprintf(&b, "%d 1\n%010d %05d n \n", o.num, offs[i], o.gen)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size 10000000 /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}

func init() {
	Register(
		Case{
			Name:  "sparse-page-numbers-audit",
			Part:  Bounds,
			Setup: lazyFile("sparse.pdf", sparsePDF, "audit", "sparse.pdf"),
			Exit:  1,
			Stdout: []string{
				`^sparse\.pdf: error WC-CS-O-TARGET object 5 0 R /O: O\[2\] is 6 0 R, which is not a page of the page tree`,
				`^sparse\.pdf: error WC-CS-O-TARGET object 5 0 R /O: O\[3\] is 9999999 1 R, which is not a page of the page tree`,
				`^sparse\.pdf: error WC-MEMBER-TWICE object 9999999 0 R: page 1 9999999 0 R is in the /O of 2 content sets \(5 0 R, 7 0 R\)`,
				`^sparse\.pdf: warning WC-MEMBER-ID object 9999999 0 R /ID: page 1 9999999 0 R is in content set 7 0 R `,
				`^sparse\.pdf: info WC-CS-O-ORDER object 5 0 R /O: /O lists page 2 before page 1:`,
				`^1 file audited: 4 errors, 2 warnings, 1 note, 0 unreadable$`,
			},
			MaxCPU: 2 * time.Second, MaxRSS: 256 << 20,
			Before: "exit 1, the same 7 findings (WC-CYCLE, 2 WC-CS-O-TARGET, WC-MEMBER-TWICE, WC-INFO-V-VALUE, WC-MEMBER-ID, WC-CS-O-ORDER) in 0.01 s CPU, 21 MB (/work/webcap-old audit sparse.pdf)",
		},
		Case{
			Name:   "sparse-page-numbers-info",
			Part:   Bounds,
			Setup:  lazyFile("sparse.pdf", sparsePDF, "info", "--json", "sparse.pdf"),
			Exit:   0,
			Stdout: []string{`"objects":\["4 0 R","9999999 0 R","6 0 R","9999999 1 R","6 1 R"\],"pages":\[2,1,0,0,3\]`, `"objects":\["9999999 0 R"\],"pages":\[1\]`},
			MaxCPU: 2 * time.Second, MaxRSS: 256 << 20,
			Before: "exit 0, pages [2,1,0,0,3] and [1] in 0.01 s CPU, 21 MB (/work/webcap-old info --json sparse.pdf)",
		},
	)
}
