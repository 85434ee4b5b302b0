package repair

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// lossCapture is a capture of 16 pages, each its own page set, whose URLS
// tree is a root over two kids over two leaves of four keys each, one URLS
// key written out of order (so that fix has something to do), and the
// objects the damage cases aim at.
type lossCapture struct {
	file              []byte
	leaf, kid, value  int    // a URLS leaf, an intermediate node, a content set under the leaf
	key               string // a key of leaf, as written
	leafKeys, allKeys []string
}

func newLossCapture() lossCapture {
	b := pb.New()
	pagesRoot, pages := b.PageTree(16, nil)
	var lc lossCapture
	var urls []pb.KV
	for i, pg := range pages {
		url := fmt.Sprintf("http://www.example.com/page%02d.html", i)
		cs := b.Add(pb.D("S", pb.Name("SPS"), "O", pb.Array{pg}, "SI", pb.D("AU", pb.Lit(url))))
		urls = append(urls, pb.KV{Key: url, Value: cs})
		lc.allKeys = append(lc.allKeys, url)
	}
	urls[0], urls[1] = urls[1], urls[0] // out of order: the tree is rebuilt
	var leaves []pb.Ref
	for i := 0; i < 16; i += 4 {
		part := urls[i : i+4]
		arr := pb.Array{}
		for _, e := range part {
			arr = append(arr, pb.Lit(e.Key), e.Value)
		}
		leaves = append(leaves, b.Add(pb.D("Limits", pb.Array{pb.Lit(part[0].Key), pb.Lit(part[3].Key)}, "Names", arr)))
	}
	var kids []pb.Ref
	for i := 0; i < 4; i += 2 {
		kids = append(kids, b.Add(pb.D("Limits", pb.Array{pb.Lit(urls[4*i].Key), pb.Lit(urls[4*i+7].Key)}, "Kids", pb.Array{leaves[i], leaves[i+1]})))
	}
	root := b.Add(pb.D("Kids", pb.Array{kids[0], kids[1]}))
	names := b.Add(pb.D("URLS", root))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", pb.D("V", 1.0)))
	lc.file = b.Bytes()
	lc.leaf, lc.kid, lc.value = int(leaves[1]), int(kids[1]), int(urls[5].Value.(pb.Ref))
	lc.key = urls[6].Key
	for _, e := range urls[4:8] {
		lc.leafKeys = append(lc.leafKeys, e.Key)
	}
	return lc
}

// shiftEntry moves object num's cross-reference table entry delta bytes.
func shiftEntry(b []byte, num, delta int) []byte {
	re := regexp.MustCompile(`(?m)^(\d{10}) 00000 n \r?$`)
	i := 0
	return re.ReplaceAllFunc(b, func(m []byte) []byte {
		if i++; i != num {
			return m
		}
		off, _ := strconv.Atoi(string(m[:10]))
		return []byte(fmt.Sprintf("%010d 00000 n ", off+delta))
	})
}

// keysOf reads file and returns its URLS keys.
func keysOf(t *testing.T, file []byte) []string {
	t.Helper()
	d, err := pdfio.ReadBytes(file, "x.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var ks []string
	if d.URLS != nil {
		for _, e := range d.URLS.Entries {
			if len(e.Sets) > 0 {
				ks = append(ks, e.Key)
			}
		}
	}
	return ks
}

// objHeader is where object num begins in f.
func objHeader(t *testing.T, f []byte, num int) int {
	t.Helper()
	i := bytes.Index(f, []byte(fmt.Sprintf("\n%d 0 obj", num)))
	if i < 0 {
		t.Fatalf("no object %d", num)
	}
	return i + 1
}

// A node or value that the cross-reference data lists is never dropped:
// it is found near a wrong offset, or the tree is left alone and the plan
// refused (unless loss is allowed, and then counted); an object that does
// not exist holds nothing, and its key may go.
func TestFixNeverDropsWhatItCannotRead(t *testing.T) {
	lc := newLossCapture()
	f := lc.file
	unclosedKey := func() []byte {
		k := []byte("(" + lc.key + ")")
		i := bytes.LastIndex(f, k) // the leaf's, after the sets' /AU
		return slices.Concat(f[:i], k[:len(k)-1], []byte(" "), f[i+len(k):])
	}()
	unclosedValue := bytes.Replace(f, []byte("("+lc.allKeys[5]+")"), []byte("("+lc.allKeys[5]+" "), 1)
	noHeader := func(num int) []byte {
		i := objHeader(t, f, num)
		j := i + len(fmt.Sprintf("%d 0 ", num))
		return slices.Concat(f[:j], []byte("obk"), f[j+3:])
	}
	missing := bytes.Replace(f, []byte(fmt.Sprintf(" %d 0 R", lc.value)), []byte(fmt.Sprintf(" %d 0 R", 900)), 1)
	if bytes.Equal(missing, f) {
		t.Fatal("missing: no reference to the value")
	}
	for _, tc := range []struct {
		name     string
		file     []byte
		refused  bool // without AllowLoss
		nodes    int  // Loss.Nodes
		lost     int  // Loss.Lost
		keys     int  // URLS keys after, loss allowed or none
		wantKeys int  // the keys a reader finds in the input
	}{
		{"intact", f, false, 0, 0, 16, 16},
		{"leaf 7 bytes off", shiftEntry(f, lc.leaf, 7), false, 0, 0, 16, 16},
		{"kid 7 bytes off", shiftEntry(f, lc.kid, 7), false, 0, 0, 16, 16},
		{"value 7 bytes off", shiftEntry(f, lc.value, 7), false, 0, 0, 16, 16},
		{"leaf 3000 bytes off", shiftEntry(f, lc.leaf, -3000), false, 0, 0, 16, 16},
		{"unclosed ( in a key", unclosedKey, true, 1, 0, 12, 12},
		{"unclosed ( in a value", unclosedValue, true, 0, 1, 15, 15},
		{"leaf header lost", noHeader(lc.leaf), true, 1, 0, 12, 12},
		{"value header lost", noHeader(lc.value), true, 0, 1, 15, 15},
		{"value does not exist", missing, false, 0, 0, 15, 15},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := keysOf(t, tc.file); len(got) != tc.wantKeys {
				t.Fatalf("input: %d keys read, want %d", len(got), tc.wantKeys)
			}
			d, err := pdfio.ReadBytes(tc.file, "x.pdf", pdfio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			p, err := NewPlan(d, nil)
			if err != nil {
				t.Fatal(err)
			}
			if p.Refused() != tc.refused {
				t.Fatalf("Refused() = %v, want %v; losses %v", p.Refused(), tc.refused, p.Losses)
			}
			if tc.refused {
				l := p.Losses[0]
				if l.Tree != "URLS" || l.Nodes != tc.nodes || l.Lost != tc.lost || len(l.Objects) == 0 {
					t.Errorf("loss %+v, want URLS, %d nodes, %d keys lost", l, tc.nodes, tc.lost)
				}
				t.Logf("refused: %s", l)
				if _, ok := p.trees["URLS"]; ok {
					t.Errorf("the URLS tree is rebuilt although refused")
				}
				p, err = NewPlanWith(d, Options{AllowLoss: true})
				if err != nil {
					t.Fatal(err)
				}
				if p.Refused() || len(p.Losses) != 1 || !p.Losses[0].Dropped {
					t.Fatalf("allowed: Refused() = %v, losses %v", p.Refused(), p.Losses)
				}
			} else if len(p.Losses) != 0 {
				t.Errorf("losses %v, want none", p.Losses)
			}
			out, err := p.Apply(tc.file, "x.pdf")
			if err != nil {
				t.Fatal(err)
			}
			if got := keysOf(t, out); len(got) != tc.keys {
				t.Errorf("output: %d keys, want %d", len(got), tc.keys)
			}
			d2, err := pdfio.ReadBytes(out, "x.pdf", pdfio.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := p.Check(d2); err != nil {
				t.Error(err)
			}
		})
	}
}
