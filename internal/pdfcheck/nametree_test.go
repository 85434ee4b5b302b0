package pdfcheck

import (
	"bytes"
	"crypto/md5"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// bigTrees is the bundled capture with its URLS tree replaced by 5,000
// keys in pdfio's default shape (79 leaves under two intermediate nodes)
// and its IDS tree by 502 keys in leaves of 3 and nodes of 2 kids (nine
// levels): what every writing command's trees are made by.
func bigTrees(t *testing.T) []byte {
	t.Helper()
	orig, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	u, err := pdfio.NewUpdate(orig, "capture.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := []webcapture.Ref{{Num: 15}}
	var urls, ids []pdfio.NameEntry
	for i := range 5000 {
		urls = append(urls, pdfio.NameEntry{Key: fmt.Sprintf("http://www.example.com/p%05d", (i*7919)%5000), Sets: set})
	}
	for i := range 500 {
		id := md5.Sum([]byte(fmt.Sprint(i)))
		ids = append(ids, pdfio.NameEntry{Key: string(id[:]), Sets: set})
	}
	// Two keys qpdf's JSON shows as the same text "u:ABCDEFG" (UTF-16BE and
	// UTF-16LE after their marks): NameTrees must read their bytes.
	be, le := "\xfe\xff", "\xff\xfe"
	for _, r := range "ABCDEFG" {
		be += "\x00" + string(r)
		le += string(r) + "\x00"
	}
	ids = append(ids, pdfio.NameEntry{Key: be, Sets: set}, pdfio.NameEntry{Key: le, Sets: set})
	if err := u.SetNameTree("URLS", urls, pdfio.TreeShape{}); err != nil {
		t.Fatal(err)
	}
	if err := u.SetNameTree("IDS", ids, pdfio.TreeShape{Leaf: 3, Fan: 2, Hex: true}); err != nil {
		t.Fatal(err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// The trees pdfio writes pass qpdf's walk: every key, in order, and
// intermediate nodes with their /Limits.
func TestNameTreesOfTheWriter(t *testing.T) {
	trees := CheckNameTrees(t, bigTrees(t))
	if trees == nil {
		t.Skip("qpdf not installed")
	}
	for _, tc := range []struct {
		tree         string
		keys         int
		minDepth     int
		intermediate int
	}{
		{"URLS", 5000, 3, 2},
		{"IDS", 502, 8, 60},
	} {
		w := trees[tc.tree]
		if w == nil {
			t.Fatalf("no %s tree in qpdf's JSON", tc.tree)
		}
		if len(w.Keys) != tc.keys || w.Depth < tc.minDepth || w.Intermediate < tc.intermediate {
			t.Errorf("%s: %d keys, depth %d, %d intermediate nodes; want %d, at least %d, at least %d",
				tc.tree, len(w.Keys), w.Depth, w.Intermediate, tc.keys, tc.minDepth, tc.intermediate)
		}
		if !slices.IsSortedFunc(w.Keys, bytes.Compare) {
			t.Errorf("%s: keys out of order", tc.tree)
		}
	}
}

// The walk fails a tree whose intermediate node has a wrong upper
// /Limits (and one whose leaves are out of order): the oracle can fail.
func TestNameTreesFindsBrokenTrees(t *testing.T) {
	good := bigTrees(t)
	if _, _, ok := NameTrees(t, good); !ok {
		t.Skip("qpdf not installed")
	}
	// An object of the update with /Kids and /Limits is an intermediate
	// node; its upper limit, one byte lower, keeps every offset.
	obj := regexp.MustCompile(`(?s)\n\d+ 0 obj\s*<<[^>]*?/Kids[^>]*?>>`)
	limits := regexp.MustCompile(`/Limits\s*\[\s*\(([^)]*)\)\s*\(([^)]*)\)\s*\]`)
	var brokenLimits []byte
	for _, m := range obj.FindAllIndex(good, -1) {
		l := limits.FindSubmatchIndex(good[m[0]:m[1]])
		if l == nil {
			continue
		}
		brokenLimits = bytes.Clone(good)
		last := m[0] + l[5] - 1 // the upper key's last byte: ...p02542 becomes ...p02541
		brokenLimits[last]--
		break
	}
	if brokenLimits == nil {
		t.Fatal("no intermediate node with literal /Limits found in the written bytes")
	}
	// Two keys of an IDS leaf swapped: same length, so the offsets hold.
	unsorted := bytes.Clone(good)
	leaf := regexp.MustCompile(`/Names\s*\[\s*<([0-9A-Fa-f]{32})>\s*(\d+ 0 R)\s*<([0-9A-Fa-f]{32})>`)
	lm := leaf.FindSubmatchIndex(unsorted)
	if lm == nil {
		t.Fatal("no IDS leaf with hex keys found in the written bytes")
	}
	a, b := string(good[lm[2]:lm[3]]), string(good[lm[6]:lm[7]])
	copy(unsorted[lm[2]:lm[3]], b)
	copy(unsorted[lm[6]:lm[7]], a)
	for _, tc := range []struct {
		name string
		pdf  []byte
		want string
	}{
		{"wrong upper /Limits of an intermediate node", brokenLimits, "URLS .*/Limits .*but its keys span"},
		{"leaf out of order", unsorted, "IDS .*is not above the key before it"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, problems, _ := NameTrees(t, tc.pdf)
			if !regexp.MustCompile(tc.want).MatchString(strings.Join(problems, "\n")) {
				t.Errorf("problems %q, want one matching %q", problems, tc.want)
			}
		})
	}
}
