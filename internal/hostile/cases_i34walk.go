package hostile

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"time"
)

// Issue 30, the reader's walk of name trees in fewer allocations
// (pdfio/reader.go, model.go, objects.go, lazy.go): a tree key is decoded
// into a buffer of the walk's and kept as the equal /ID or URL of its
// content set (a copy only when no set holds it), a decoded string is one
// allocation, a direct /SI dictionary with a string in it goes back to
// the parser's free maps once read, and the first cross-reference stream
// of a file, when its numbers only increase, makes its entries without a
// look-up of each. A leaf whose keys use every odd syntax (hex with white
// space, lower case and an odd digit, literals with escapes, balanced
// parentheses and an end of line, a comment and an escaped name in the
// leaf), unsorted and repeated keys, a key whose value is two sets, a
// value that is the leaf itself, sets whose /SI the share gives to more
// than one, and a cross-reference stream that lists an object twice must
// each read as before.

// walkObjects are the objects of walkCapture, by number.
var walkObjects = map[int]string{
	1: "<< /Type /Catalog /Pages 2 0 R /Names << /IDS 3 0 R /URLS 4 0 R >> >>",
	2: "<< /Type /Pages /Kids [10 0 R 11 0 R 12 0 R 13 0 R] /Count 4 >>",
	3: "<< /Kids [5 0 R 6 0 R] >>",
	4: "<< /Names [(http://a.example/\\(1\\)) 20 0 R (http://b.example/\\101\r\nx) 21 0 R " +
		"(http://c.example/(bal)anced) 22 0 R (http://d.example/) 23 0 R (http://e.example/) 24 0 R] >>",
	// A comment and an escaped name (pdfcpu's parser reads the leaf),
	// hex keys with white space, lower case and an odd digit.
	5: "<< /Lim#69ts [<0011> <ABC>] % a comment\n /Names [<00 1 1> 20 0 R <0a0B> 21 0 R <ABC> 22 0 R] >>",
	// Unsorted and repeated keys, a key of two sets, a key whose value
	// is the leaf itself.
	6:  "<< /Limits [<AB> <FFFF>] /Names [<AB> 23 0 R <AB> 23 0 R <10> 20 0 R <EEEE> 6 0 R <FFFF> [23 0 R 24 0 R]] >>",
	10: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <0011> >>",
	11: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID 31 0 R >>",
	12: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <ABC0> >>",
	13: "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /ID <AB> >>",
	20: "<< /S /SPS /ID <0011> /O [10 0 R] /SI << /AU (http://a.example/\\(1\\)) /TS (D:20150402085105Z) >> /T (one) >>",
	21: "<< /S /SPS /ID 31 0 R /O [11 0 R] /SI << /AU (http://b.example/\\101\\nx) /TS (D:20150402085105Z) >> /T (two) >>",
	22: "<< /S /SPS /ID <ABC0> /O [12 0 R] /SI [<< /AU (http://c.example/(bal)anced) >> << /AU 30 0 R >>] /T (thr\\(ee) >>",
	// Two sets whose /SI the read's share gives one map (no string in
	// it): neither goes back to the free maps.
	23: "<< /S /SPS /ID <AB> /O [13 0 R] /SI << /AU 30 0 R >> /T (four) >>",
	24: "<< /S /SPS /ID <CD> /O [13 0 R] /SI << /AU 30 0 R >> /T (five) >>",
	30: "(http://d.example/)",
	31: "<0A0B>",
	// Reached only through the second listing of object 21 (twice).
	32: "<< /S /SPS /ID 31 0 R /O [11 0 R] /SI << /AU (http://b.example/\\101\\nx) >> /T (impostor) >>",
}

// walkCapture writes walkObjects in two object streams (1-13, 20-32)
// with a cross-reference stream; twice, it lists object 21 a second time
// at its end, as object 32 of the second stream (the first listing is
// the one read).
func walkCapture(twice bool) []byte {
	nums := make([]int, 0, len(walkObjects))
	for n := range walkObjects {
		nums = append(nums, n)
	}
	sort.Ints(nums)
	type where struct{ stm, ind int }
	at := map[int]where{}
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	const stmA, stmB, xrefNum = 40, 41, 42
	offs := map[int]int{}
	for _, s := range []struct {
		num    int
		lo, hi int
	}{{stmA, 1, 19}, {stmB, 20, 39}} {
		var head, body bytes.Buffer
		k := 0
		for _, n := range nums {
			if n < s.lo || n > s.hi {
				continue
			}
			fmt.Fprintf(&head, "%d %d ", n, body.Len())
			body.WriteString(walkObjects[n])
			body.WriteByte('\n')
			at[n] = where{s.num, k}
			k++
		}
		offs[s.num] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n<< /Type /ObjStm /N %d /First %d /Length %d >>\nstream\n%s%s\nendstream\nendobj\n",
			s.num, k, head.Len(), head.Len()+body.Len(), head.String(), body.String())
	}
	xref := b.Len()
	var e xrefRows
	for n := 0; n <= xrefNum; n++ {
		w, packed := at[n]
		switch {
		case packed:
			e.add(2, uint32(w.stm), uint16(w.ind))
		case n == stmA || n == stmB:
			e.add(1, uint32(offs[n]), 0)
		case n == xrefNum:
			e.add(1, uint32(xref), 0)
		default:
			e.add(0, 0, 65535)
		}
	}
	index := ""
	if twice {
		e.add(2, stmB, uint16(at[32].ind))
		index = fmt.Sprintf(" /Index [0 %d 21 1]", xrefNum+1)
	}
	fmt.Fprintf(&b, "%d 0 obj\n<< /Type /XRef /Size %d%s /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", xrefNum, xrefNum+1, index, e.Len())
	b.Write(e.Bytes())
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xref)
	return b.Bytes()
}

// walkInfoOld and walkAuditOld are what /work/webcap-old wrote for
// walkCapture (either form, as odd.pdf): info --json's whole line, and
// audit --jsonl's findings and verdict (after the file's mtime).
const walkInfoOld = `{"schema":"webcap.info/1","input":"odd.pdf","version":"1.7","encrypted":false,"pages":4,"spiderInfo":null,"ids":{"object":"3 0 R","entries":8,"nodes":3,"depth":2,"keys":[{"key":"001010","array":false,"sets":[1]},{"key":"0A0B","array":false,"sets":[2]},{"key":"ABC0","array":false,"sets":[3]},{"key":"AB","array":false,"sets":[4]},{"key":"AB","array":false,"sets":[4]},{"key":"10","array":false,"sets":[1]},{"key":"EEEE","array":false,"sets":[5]},{"key":"FFFF","array":true,"sets":[4,6]}]},"urls":{"object":"4 0 R","entries":5,"nodes":1,"depth":1,"keys":[{"key":"http://a.example/(1)","array":false,"sets":[1]},{"key":"http://b.example/A\nx","array":false,"sets":[2]},{"key":"http://c.example/(bal)anced","array":false,"sets":[3]},{"key":"http://d.example/","array":false,"sets":[4]},{"key":"http://e.example/","array":false,"sets":[6]}]},"contentSets":[{"index":1,"object":"20 0 R","subtype":"SPS","id":"0011","idsKeys":["001010","10"],"urlsKeys":["http://a.example/(1)"],"orphan":false,"sources":[{"url":"http://a.example/(1)","alias":false,"updated":{"raw":"D:20150402085105Z","time":"2015-04-02T08:51:05Z","valid":true},"submission":"none"}],"title":"one","objects":["10 0 R"],"pages":[1]},{"index":2,"object":"21 0 R","subtype":"SPS","id":"0A0B","idsKeys":["0A0B"],"urlsKeys":["http://b.example/A\nx"],"orphan":false,"sources":[{"url":"http://b.example/A\nx","alias":false,"updated":{"raw":"D:20150402085105Z","time":"2015-04-02T08:51:05Z","valid":true},"submission":"none"}],"title":"two","objects":["11 0 R"],"pages":[2]},{"index":3,"object":"22 0 R","subtype":"SPS","id":"ABC0","idsKeys":["ABC0"],"urlsKeys":["http://c.example/(bal)anced"],"orphan":false,"sources":[{"url":"http://c.example/(bal)anced","alias":false,"submission":"none"},{"url":"http://d.example/","alias":false,"submission":"none"}],"title":"thr(ee","objects":["12 0 R"],"pages":[3]},{"index":4,"object":"23 0 R","subtype":"SPS","id":"AB","idsKeys":["AB","AB","FFFF"],"urlsKeys":["http://d.example/"],"orphan":false,"sources":[{"url":"http://d.example/","alias":false,"submission":"none"}],"title":"four","objects":["13 0 R"],"pages":[4]},{"index":5,"object":"6 0 R","subtype":"","id":null,"idsKeys":["EEEE"],"urlsKeys":[],"orphan":false,"sources":[],"objects":[]},{"index":6,"object":"24 0 R","subtype":"SPS","id":"CD","idsKeys":["FFFF"],"urlsKeys":["http://e.example/"],"orphan":false,"sources":[{"url":"http://d.example/","alias":false,"submission":"none"}],"title":"five","objects":["13 0 R"],"pages":[4]},{"index":7,"object":"32 0 R","subtype":"SPS","id":"0A0B","idsKeys":[],"urlsKeys":[],"orphan":true,"sources":[{"url":"http://b.example/A\nx","alias":false,"submission":"none"}],"title":"impostor","objects":["11 0 R"],"pages":[2]}],"defects":[{"kind":"tree-limits","path":"IDS/Kids[0]/Limits","object":"5 0 R","message":"IDS/Kids[0]/Limits is [<0011> <ABC0>], but the keys below run from <001010> to <ABC0>"},{"kind":"tree-unsorted","path":"IDS/Kids[1]/Names[0]","object":"6 0 R","message":"IDS/Kids[1]/Names[0]: key <AB> sorts before the key before it, <ABC0>"},{"kind":"tree-duplicate","path":"IDS/Kids[1]/Names[2]","object":"6 0 R","message":"IDS/Kids[1]/Names[2]: key <AB> appears twice"},{"kind":"tree-unsorted","path":"IDS/Kids[1]/Names[4]","object":"6 0 R","message":"IDS/Kids[1]/Names[4]: key <10> sorts before the key before it, <AB>"}],"counts":{"contentSets":7,"pageSets":6,"imageSets":0,"orphans":1,"pages":4,"pagesWithID":4,"images":0,"imagesWithID":0,"defects":4},"pageZoom":[],"priorActions":[],"embeddedFiles":[]}`

const walkAuditOld = `"findings":[{"rule":"WC-TREE-LIMITS","severity":"error","message":"IDS/Kids[0]/Limits is [<0011> <ABC0>], but the keys below run from <001010> to <ABC0>","object":"5 0 R","key":"/Limits","spec":"PDF 1.7 Table 3.33"},{"rule":"WC-TREE-ORDER","severity":"error","message":"IDS/Kids[1]/Names[0]: key <AB> sorts before the key before it, <ABC0>","object":"6 0 R","spec":"PDF 1.7 §3.8.5"},{"rule":"WC-TREE-DUPLICATE","severity":"error","message":"IDS/Kids[1]/Names[2]: key <AB> appears twice","object":"6 0 R","spec":"PDF 1.7 §3.8.5"},{"rule":"WC-TREE-ORDER","severity":"error","message":"IDS/Kids[1]/Names[4]: key <10> sorts before the key before it, <AB>","object":"6 0 R","spec":"PDF 1.7 §3.8.5"},{"rule":"WC-IDS-KEY","severity":"error","message":"IDS key <001010> holds a content set whose /ID is <0011>","object":"20 0 R","key":"/ID","spec":"PDF 1.7 §10.9.3, Table 10.38; ISO 32000-1 Table 352"},{"rule":"WC-IDS-KEY","severity":"error","message":"IDS key <10> holds a content set whose /ID is <0011>","object":"20 0 R","key":"/ID","spec":"PDF 1.7 §10.9.3, Table 10.38; ISO 32000-1 Table 352"},{"rule":"WC-IDS-KEY","severity":"error","message":"IDS key <FFFF> holds a content set whose /ID is <AB>","object":"23 0 R","key":"/ID","spec":"PDF 1.7 §10.9.3, Table 10.38; ISO 32000-1 Table 352"},{"rule":"WC-IDS-KEY","severity":"error","message":"IDS key <FFFF> holds a content set whose /ID is <CD>","object":"24 0 R","key":"/ID","spec":"PDF 1.7 §10.9.3, Table 10.38; ISO 32000-1 Table 352"},{"rule":"WC-CS-S","severity":"error","message":"the content set has no /S (SPS or SIS, required)","object":"6 0 R","key":"/S","spec":"ISO 32000-1 Table 352"},{"rule":"WC-CS-ID","severity":"error","message":"the content set has no /ID (its digital identifier, required)","object":"6 0 R","key":"/ID","spec":"ISO 32000-1 Table 352"},{"rule":"WC-CS-O","severity":"error","message":"the content set has no /O (its pages or images, required)","object":"6 0 R","key":"/O","spec":"ISO 32000-1 Table 352"},{"rule":"WC-CS-SI","severity":"error","message":"the content set has no /SI (its source information, required)","object":"6 0 R","key":"/SI","spec":"ISO 32000-1 Table 352"},{"rule":"WC-PARENT","severity":"error","message":"page 1 10 0 R has /ID <0011>, which is not an IDS key: its parent content set cannot be found","object":"10 0 R","key":"/ID","spec":"ISO 32000-1 §14.10.6"},{"rule":"WC-MEMBER-TWICE","severity":"error","message":"page 2 11 0 R is in the /O of 2 content sets (21 0 R, 32 0 R): it may belong to one","object":"11 0 R","spec":"ISO 32000-1 §14.10.6"},{"rule":"WC-MEMBER-TWICE","severity":"error","message":"page 4 13 0 R is in the /O of 2 content sets (23 0 R, 24 0 R): it may belong to one","object":"13 0 R","spec":"ISO 32000-1 §14.10.6"},{"rule":"WC-URLS-CANONICAL","severity":"error","message":"URLS key \"http://b.example/A\\nx\" is not canonical (pdf profile): step E (one encoding pass) gives \"http://b.example/A%0Ax\"","object":"4 0 R","spec":"PDF 1.7 §10.9.2 URL Strings"},{"rule":"WC-CS-ID-LENGTH","severity":"warning","message":"/ID <0011> is 2 bytes; an MD5 identifier is 16","object":"20 0 R","key":"/ID","spec":"PDF 1.7 §10.9.2"},{"rule":"WC-CS-ID-LENGTH","severity":"warning","message":"/ID <0A0B> is 2 bytes; an MD5 identifier is 16","object":"21 0 R","key":"/ID","spec":"PDF 1.7 §10.9.2"},{"rule":"WC-CS-ID-LENGTH","severity":"warning","message":"/ID <ABC0> is 2 bytes; an MD5 identifier is 16","object":"22 0 R","key":"/ID","spec":"PDF 1.7 §10.9.2"},{"rule":"WC-CS-ID-LENGTH","severity":"warning","message":"/ID <AB> is 1 bytes; an MD5 identifier is 16","object":"23 0 R","key":"/ID","spec":"PDF 1.7 §10.9.2"},{"rule":"WC-CS-ID-LENGTH","severity":"warning","message":"/ID <CD> is 1 bytes; an MD5 identifier is 16","object":"24 0 R","key":"/ID","spec":"PDF 1.7 §10.9.2"},{"rule":"WC-CS-ID-LENGTH","severity":"warning","message":"/ID <0A0B> is 2 bytes; an MD5 identifier is 16","object":"32 0 R","key":"/ID","spec":"PDF 1.7 §10.9.2"},{"rule":"WC-CS-ORPHAN","severity":"warning","message":"no IDS or URLS key reaches this content set","object":"32 0 R","spec":"ISO 32000-1 §14.10.3.1"},{"rule":"WC-MEMBER-ID","severity":"warning","message":"page 4 13 0 R is in content set 24 0 R (/ID <CD>) but its /ID is <AB>","object":"13 0 R","key":"/ID","spec":"ISO 32000-1 §14.10.6"},{"rule":"WC-URLS-SOURCE","severity":"warning","message":"URLS key \"http://e.example/\" names none of the content set's source URLs (http://d.example/)","object":"24 0 R","key":"/SI","spec":"ISO 32000-1 §14.10.3.1, Table 355"}],"jhoveStatus":"Well-Formed, but not valid"}`

// whole is a pattern for exactly the line s, with the input's name
// odd.pdf made name.
func whole(s, name string) string {
	return "^" + regexp.QuoteMeta(strings.Replace(s, `"input":"odd.pdf"`, `"input":"`+name+`"`, 1)) + "$"
}

func init() {
	Register(
		Case{
			Name:   "walk-odd-tree-keys-info",
			Part:   Bounds,
			Setup:  lazyFile("odd.pdf", func() []byte { return walkCapture(false) }, "info", "--json", "odd.pdf"),
			Exit:   0,
			Stdout: []string{whole(walkInfoOld, "odd.pdf")},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 0 in 0.01 s CPU, 22 MB (/work/webcap-old info --json odd.pdf): the line Stdout holds",
		},
		Case{
			Name: "walk-xref-stream-lists-twice-info",
			Part: Bounds,
			// The first listing of object 21 is read: the set titled
			// "two", object 32 ("impostor") an orphan, as before.
			Setup:  lazyFile("twice.pdf", func() []byte { return walkCapture(true) }, "info", "--json", "twice.pdf"),
			Exit:   0,
			Stdout: []string{whole(walkInfoOld, "twice.pdf")},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 0 in 0.01 s CPU, 22 MB (/work/webcap-old info --json twice.pdf): the line Stdout holds",
		},
		Case{
			Name:   "walk-odd-tree-keys-audit",
			Part:   Bounds,
			Setup:  lazyFile("odd.pdf", func() []byte { return walkCapture(false) }, "audit", "--jsonl", "odd.pdf"),
			Exit:   1,
			Stdout: []string{regexp.QuoteMeta(walkAuditOld) + "$"},
			MaxCPU: 2 * time.Second, MaxRSS: 200 << 20,
			Before: "exit 1 in 0.01 s CPU, 22 MB (/work/webcap-old audit --jsonl odd.pdf): the findings Stdout holds",
		},
	)
}
