package hostile

import (
	"bytes"
	"fmt"
	"slices"
	"time"
)

// Issue 30, the memory of reads: a read lets go of pdfcpu's map of the
// cross-reference table once it has its own index by object number
// (pdfio's reader.dropTable), and looks every object up there. The edges
// of that index: a table whose /Size claims two thousand million objects
// for three (nothing may be sized by /Size), numbers far apart (1 and
// 8,000,000: no dense index, the map is kept), the same number in two
// sections with different generations (the newest section's entry wins),
// and a free entry whose number a later update reuses.

// An edgeObj is an object an edgeRevision writes: "num gen obj body".
type edgeObj struct {
	num, gen int
	body     string
}

// An edgeRevision is a part of an edgeFile: its objects, then a classic
// section listing them in use and free lists free (number → generation),
// then its trailer (/Size size, /Prev the section before).
type edgeRevision struct {
	objs []edgeObj
	free map[int]int
	size int
}

// edgeFile writes revs, each section's entries in runs of consecutive
// numbers; the first section also lists the free head, object 0. The
// catalog is object 1.
func edgeFile(revs []edgeRevision) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n")
	prev := -1
	for i, rv := range revs {
		type entry struct {
			num, gen, off int
			free          bool
		}
		var es []entry
		if i == 0 {
			es = append(es, entry{num: 0, gen: 65535, free: true})
		}
		for _, o := range rv.objs {
			es = append(es, entry{num: o.num, gen: o.gen, off: b.Len()})
			fmt.Fprintf(&b, "%d %d obj\n%s\nendobj\n", o.num, o.gen, o.body)
		}
		for n, g := range rv.free {
			es = append(es, entry{num: n, gen: g, free: true})
		}
		slices.SortFunc(es, func(x, y entry) int { return x.num - y.num })
		xref := b.Len()
		b.WriteString("xref\n")
		for j := 0; j < len(es); {
			k := j + 1
			for k < len(es) && es[k].num == es[k-1].num+1 {
				k++
			}
			fmt.Fprintf(&b, "%d %d\n", es[j].num, k-j)
			for _, e := range es[j:k] {
				kind := 'n'
				if e.free {
					kind = 'f'
				}
				fmt.Fprintf(&b, "%010d %05d %c \n", e.off, e.gen, kind)
			}
			j = k
		}
		fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R", rv.size)
		if prev >= 0 {
			fmt.Fprintf(&b, " /Prev %d", prev)
		}
		fmt.Fprintf(&b, " >>\nstartxref\n%d\n%%%%EOF\n", xref)
		prev = xref
	}
	return b.Bytes()
}

// edgeObjects are lazyObjects as edgeObjs of generation 0, the content
// set numbered set (its leaf, 4, names it).
func edgeObjects(set int) []edgeObj {
	return []edgeObj{
		{1, 0, lazyObjects[1]},
		{2, 0, lazyObjects[2]},
		{3, 0, lazyObjects[3]},
		{4, 0, fmt.Sprintf("<< /Names [<00112233445566778899AABBCCDDEEFF> %d 0 R] >>", set)},
		{set, 0, lazyObjects[5]},
	}
}

// edgeSet is a page set of page 3 titled title.
func edgeSet(title string) string {
	return "<< /Type /SpiderContentSet /S /SPS /ID <00112233445566778899AABBCCDDEEFF> /O [3 0 R] " +
		"/SI << /AU (http://example.com/) /TS (D:20260101000000Z) >> /CT (text/html) /T (" + title + ") >>"
}

func init() {
	Register(
		Case{
			Name: "xref-size-2g-three-objects-info",
			Part: Bounds,
			// A catalog, its page tree and a page, and /Size 2^31-1.
			Setup: lazyFile("size.pdf", func() []byte {
				objs := edgeObjects(5)[:3]
				objs[0].body = "<< /Type /Catalog /Pages 2 0 R >>"
				return edgeFile([]edgeRevision{{objs: objs, size: 1<<31 - 1}})
			}, "info", "--json", "size.pdf"),
			Exit:   0,
			Stdout: []string{`"counts":\{"contentSets":0,"pageSets":0,"imageSets":0,"orphans":0,"pages":1,"pagesWithID":1,"images":0,"imagesWithID":0,"defects":0\}`},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 0, 1 page, no defect, in 0.01-0.02 s CPU, 22-23 MB (/work/webcap-old info --json size.pdf, 3 runs): pdfcpu's table and the lazy reader's are sized by the entries, not /Size; as before now (25 MB)",
		},
		Case{
			Name: "xref-numbers-far-apart-info",
			Part: Bounds,
			// The content set is object 8,000,000: the table is 6
			// entries, no dense index (the reader keeps pdfcpu's map).
			Setup: lazyFile("far.pdf", func() []byte {
				return edgeFile([]edgeRevision{{objs: edgeObjects(8000000), size: 8000001}})
			}, "info", "--json", "far.pdf"),
			Exit: 0,
			Stdout: []string{
				`"contentSets":\[\{"index":1,"object":"8000000 0 R","subtype":"SPS",.*"title":"Original title","objects":\["3 0 R"\],"pages":\[1\]\}`,
				`"counts":\{"contentSets":1,"pageSets":1,"imageSets":0,"orphans":0,"pages":1,"pagesWithID":1,"images":0,"imagesWithID":0,"defects":0\}`,
			},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 0, the set 8000000 0 R on page 1, no defect, in 0.02 s CPU, 23 MB (/work/webcap-old info --json far.pdf, 3 runs); as before now (27 MB)",
		},
		Case{
			Name: "xref-same-number-two-generations-info",
			Part: Bounds,
			// Object 5 is generation 0 in the first section and 1 in
			// the update, which also points the leaf at 5 1 R: the
			// update's entry is the object's.
			Setup: lazyFile("gens.pdf", func() []byte {
				return edgeFile([]edgeRevision{
					{objs: edgeObjects(5), size: 6},
					{objs: []edgeObj{
						{4, 0, "<< /Names [<00112233445566778899AABBCCDDEEFF> 5 1 R] >>"},
						{5, 1, edgeSet("Newer title")},
					}, size: 6},
				})
			}, "info", "--json", "gens.pdf"),
			Exit: 0,
			Stdout: []string{
				`"contentSets":\[\{"index":1,"object":"5 1 R","subtype":"SPS",.*"title":"Newer title","objects":\["3 0 R"\],"pages":\[1\]\}`,
				`"counts":\{"contentSets":1,"pageSets":1,"imageSets":0,"orphans":0,"pages":1,"pagesWithID":1,"images":0,"imagesWithID":0,"defects":0\}`,
			},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 0, the set 5 1 R titled \"Newer title\", no defect, in 0.01-0.02 s CPU, 22-23 MB (/work/webcap-old info --json gens.pdf, 3 runs); as before now (26 MB)",
		},
		Case{
			Name: "xref-free-entry-reused-info",
			Part: Bounds,
			// Object 6, a second set, is freed by the first update
			// (generation 1) and written again, generation 1, by the
			// second: no tree reaches it, so it is an orphan.
			Setup: lazyFile("reused.pdf", func() []byte {
				objs := append(edgeObjects(5), edgeObj{6, 0, edgeSet("Freed")})
				return edgeFile([]edgeRevision{
					{objs: objs, size: 7},
					{free: map[int]int{6: 1}, size: 7},
					{objs: []edgeObj{{6, 1, edgeSet("Reused")}}, size: 7},
				})
			}, "info", "--json", "reused.pdf"),
			Exit: 0,
			Stdout: []string{
				`\{"index":2,"object":"6 1 R","subtype":"SPS",.*"orphan":true,.*"title":"Reused"`,
				`"counts":\{"contentSets":2,"pageSets":2,"imageSets":0,"orphans":1,`,
			},
			MaxCPU: 2 * time.Second, MaxRSS: 64 << 20,
			Before: "exit 0, 2 sets, 6 1 R titled \"Reused\" an orphan, in 0.01-0.02 s CPU, 22-24 MB (/work/webcap-old info --json reused.pdf, 3 runs); as before now (25 MB)",
		},
	)
}
