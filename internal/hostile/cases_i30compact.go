package hostile

import (
	"bytes"
	"fmt"
	"time"
)

// Issue 30, a read that lets go of what it parsed (pdfio's repack): a
// page's and a content set's dictionaries, parsed from an object stream,
// are set back to unparsed once read, keeping only what a later visit
// reads of them (a page's /Resources, /Parent, /Thumb and /Annots for the
// images it uses; a set's /SI for its commands and alias chains). An
// object that is both a page and a content set, a page whose resources
// are inherited, a set's source information naming a command and an
// empty alias chain, and a set no tree reaches each read as before.

// repackObjects are the objects of repackFileOf, by number; those in
// repackStreams are written as streams of the file, the rest go in one
// object stream.
var repackObjects = []string{
	1:  "<< /Type /Catalog /Pages 2 0 R /Names << /IDS 8 0 R /URLS 9 0 R >> >>",
	2:  "<< /Type /Pages /Kids [4 0 R 5 0 R] /Count 2 /Resources << /XObject << /Im1 3 0 R >> >> >>",
	4:  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /S /SPS /ID <A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1> /O [4 0 R] /SI << /AU << /U (http://a.example/) /C [] >> /TS (D:20150402085105Z) >> /CT (text/html) /TS (D:20150402085105Z) /T (Both) >>",
	5:  "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2> /PZ 1.5 >>",
	6:  "<< /S /SPS /ID <B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2> /O [5 0 R] /SI << /AU (http://b.example/) /C 7 0 R /TS (D:20150402085105Z) >> /CT (text/html) /TS (D:20150402085105Z) /T (Second) >>",
	7:  "<< /URL (http://b.example/) /L 1 /F 2 >>",
	8:  "<< /Names [<A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1> 4 0 R <B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2> 6 0 R] >>",
	9:  "<< /Names [(http://a.example/) 4 0 R (http://b.example/) 6 0 R] >>",
	10: "<< /S /SIS /ID <C3C3C3C3C3C3C3C3C3C3C3C3C3C3C3C3> /O [] /SI << /AU (http://c.example/img.png) /TS (D:20150402085105Z) >> /CT (image/png) /TS (D:20150402085105Z) >>",
}

var repackStreams = map[int]string{
	3: "<< /Type /XObject /Subtype /Image /Width 1 /Height 1 /ColorSpace /DeviceGray /BitsPerComponent 8 /ID <C3C3C3C3C3C3C3C3C3C3C3C3C3C3C3C3> /Length 1 >>\nstream\n\x00\nendstream",
}

// repackSelfObjects are repackObjects where the IDS leaf holds itself
// as a value, and the catalog is the page tree's second page: a
// dictionary met before, held by the walk above while read again as a
// set or a page, must not be emptied for the next object (decoder.fresh).
var repackSelfObjects = func() []string {
	o := append([]string(nil), repackObjects...)
	o[2] = "<< /Type /Pages /Kids [4 0 R 1 0 R] /Count 2 /Resources << /XObject << /Im1 3 0 R >> >> >>"
	o[8] = "<< /Names [<A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1A1> 4 0 R <B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2B2> 6 0 R <C4C4C4C4C4C4C4C4C4C4C4C4C4C4C4C4> 8 0 R] >>"
	return o
}()

// repackFileOf writes repackObjects (or objects numbered as they are)
// and repackStreams: object 11 is the object stream, 12 the
// cross-reference stream.
func repackFileOf(repackObjects []string) []byte {
	const stm, xrefNum = 11, 12
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	offs := map[int]int{}
	for n := 1; n < len(repackObjects); n++ {
		if s, ok := repackStreams[n]; ok {
			offs[n] = b.Len()
			fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", n, s)
		}
	}
	var head, body bytes.Buffer
	ind := map[int]int{}
	for n, o := range repackObjects {
		if o == "" {
			continue
		}
		ind[n] = len(ind)
		fmt.Fprintf(&head, "%d %d ", n, body.Len())
		body.WriteString(o)
		body.WriteString("\n")
	}
	offs[stm] = b.Len()
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Length %d >>\nstream\n%s%s\nendstream\nendobj\n",
		stm, len(ind), head.Len(), head.Len()+body.Len(), head.Bytes(), body.Bytes())
	offs[xrefNum] = b.Len()
	var e xrefRows
	e.add(0, 0, 65535)
	for n := 1; n <= xrefNum; n++ {
		if i, ok := ind[n]; ok {
			e.add(2, stm, uint16(i))
		} else {
			e.add(1, uint32(offs[n]), 0)
		}
	}
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", xrefNum, xrefNum+1, e.Len())
	b.Write(e.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", offs[xrefNum])
	return b.Bytes()
}

// lateEOL is FuzzLazyParse's input ee9fd08c28a44143: "%PDF-1.0" and
// objects on one line, its first end of line 345 bytes in.
const lateEOL = "%PDF-1.000000001 0 obj A000000000000000000000000000000000000000000002 0 obj A000000000000000000000000000000000000003 0 obj A00000000000000000000000000000000000000000000000000000000000000000000000004 0 obj A0000000000000000000000000000005 0 obj A000000000000000000000000000000000000000000000000000000000000000000000000xref\n0 6\n0000000000 00000 f \n0000000010 00000 n \n0000000060 00000 n \n0000000110 00000 n \n0000000190 00000 n \n0000000230 00000 n \ntrailer<</Size 0/Root 0 0 R>>startxref0317 %"

// repackCases are the four repacked cases of one flavour of file, named
// FLAVOUR-repacked-*: file writes repackObjects (page-set), or self, the
// objects whose leaf or catalog the walk above holds (held-dict). Both
// flavours give the page-set verdicts; heldInfo and heldAudit bring a
// flavour's held-dict verdicts (Stdout, NotStdout, Before): the leaf is
// object 8 here and 11 in the classic objects, whose IDS tree is two
// levels deep.
func repackCases(flavour string, file func(objs []string) []byte, self []string, heldInfo, heldAudit Case) []Case {
	repack := func() []byte { return file(repackObjects) }
	held := func() []byte { return file(self) }
	heldInfo.Name, heldInfo.Exit = flavour+"-repacked-held-dict-info", 0
	heldInfo.Setup = lazyFile("self.pdf", held, "info", "--json", "self.pdf")
	heldAudit.Name, heldAudit.Exit = flavour+"-repacked-held-dict-audit", 1
	heldAudit.Setup = lazyFile("self.pdf", held, "audit", "--in-process", "self.pdf")
	heldAudit.Stdout = append(heldAudit.Stdout, `^self\.pdf: warning WC-ALIAS-EMPTY object 4 0 R /C:`, `^1 file audited: 8 errors, 2 warnings, 0 notes, 0 unreadable$`)
	cs := []Case{
		{
			Name:  flavour + "-repacked-page-set-info",
			Setup: lazyFile("repack.pdf", repack, "info", "--json", "repack.pdf"),
			Exit:  0,
			// As before (the output is byte-identical to webcap-old's):
			// object 4 is page 1 and the first set, object 10 a set no
			// tree reaches, each set's /SI read.
			Stdout: []string{
				`"contentSets":\[\{"index":1,"object":"4 0 R","subtype":"SPS",.*"title":"Both","objects":\["4 0 R"\],"pages":\[1\]\}`,
				`\{"index":2,"object":"6 0 R",.*"command":"7 0 R"\}\],.*"title":"Second","objects":\["5 0 R"\],"pages":\[2\]\}`,
				`\{"index":3,"object":"10 0 R","subtype":"SIS",.*"orphan":true,`,
				`"counts":\{"contentSets":3,"pageSets":2,"imageSets":1,"orphans":1,"pages":2,"pagesWithID":2,"images":1,"imagesWithID":1,"defects":0\}`,
			},
			Before: "exit 0, 3 sets (4 0 R page 1 and set, 10 0 R an orphan), no defect, in 0.01 s CPU, 21 MB (/work/webcap-old info --json repack.pdf)",
		},
		{
			Name:  flavour + "-repacked-page-set-audit",
			Setup: lazyFile("repack.pdf", repack, "audit", "--in-process", "repack.pdf"),
			Exit:  1,
			// As before: the empty alias chain is found through the /SI
			// kept of object 4, once its dictionary was let go of.
			Stdout: []string{
				`^repack\.pdf: warning WC-ALIAS-EMPTY object 4 0 R /C: the URL alias /C at object 4/SI/AU/C holds no redirect chain`,
				`^repack\.pdf: warning WC-CS-ORPHAN object 10 0 R: no IDS or URLS key reaches this content set`,
				`^repack\.pdf: error WC-CS-TYPE object 4 0 R /Type: /Type is /Page`,
				`^1 file audited: 3 errors, 2 warnings, 0 notes, 0 unreadable$`,
			},
			Before: "exit 1, 3 errors (WC-CS-TYPE, WC-R, WC-PARENT) and 2 warnings (WC-CS-ORPHAN, WC-ALIAS-EMPTY object 4 0 R /C) in 0.01 s CPU, 21 MB (/work/webcap-old audit --in-process repack.pdf)",
		},
		heldInfo,
		heldAudit,
	}
	for i := range cs {
		cs[i].Part, cs[i].MaxCPU, cs[i].MaxRSS = Bounds, 2*time.Second, 200<<20
	}
	return cs
}

func init() {
	Register(repackCases("objstm", repackFileOf, repackSelfObjects,
		Case{
			// As before: the catalog, read as page 2, and the leaf, read
			// as its own third set, stay whole for the walks that hold
			// them (emptied for the next object, the trees were lost:
			// "ids":null, every set an orphan).
			Stdout: []string{
				`"ids":\{"object":"8 0 R","entries":3,"nodes":1,"depth":1,`,
				`\{"index":3,"object":"8 0 R","subtype":"","id":null,"idsKeys":\["C4C4C4C4C4C4C4C4C4C4C4C4C4C4C4C4"\]`,
				`"counts":\{"contentSets":4,"pageSets":2,"imageSets":1,"orphans":1,"pages":2,"pagesWithID":1,`,
			},
			Before: "exit 0, IDS of 3 keys, 4 sets (8 0 R the leaf itself, 10 0 R the one orphan), in 0.01 s CPU, 21 MB (/work/webcap-old info --json self.pdf)",
		},
		Case{
			Stdout: []string{`^self\.pdf: error WC-CS-S object 8 0 R /S: the content set has no /S`},
			Before: "exit 1, 8 errors (WC-CS-S, -ID, -O, -SI of the leaf 8 0 R read as a set) and 2 warnings, in 0.01 s CPU, 21 MB (/work/webcap-old audit --in-process self.pdf)",
		})...)
	Register(
		Case{
			Name: "header-eol-past-100-info",
			Part: Bounds,
			// The header's line ends 345 bytes in (FuzzLazyParse):
			// pdfcpu reads the header from the first 100 bytes, finds no
			// end of line, and refuses the file; the lazy reader looked
			// in the first 1024 and read it.
			Setup: lazyFile("late-eol.pdf", func() []byte {
				return []byte(lateEOL)
			}, "info", "late-eol.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: info: late-eol\.pdf: not a PDF: a malformed %PDF- header$`},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 0, \"PDF 1.0, 0 pages\" and the defect \"the trailer's /Root is not a dictionary\" in 0.01 s CPU, 21 MB (/work/webcap-old info late-eol.pdf)",
		},
	)
}
