package repair

import (
	"bytes"
	"strings"
	"testing"

	"github.com/webcap/webcap/audit"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

const (
	pageID = "\x83\xed\xd6\xaa\xb5\x30\xb6\x44\xb8\x54\x0f\x60\x9e\x46\x8f\x78"
	imgID  = "\xbf\x70\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\x14\xd8"
	home   = "http://www.example.com/"
	logo   = "http://www.example.com/logo.gif"
)

// capture builds a small capture; trees makes the IDS and URLS roots from
// the page set and the image set (nil: clean trees); page changes page 0.
func capture(xrefStream bool, page func(d *pb.Dict), trees func(b *pb.Builder, sps, sis pb.Ref) (ids, urls pb.Ref)) []byte {
	b := pb.New()
	b.XRefStream, b.ObjectStreams = xrefStream, xrefStream
	img := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", pb.Name("DeviceGray"), "BitsPerComponent", 8, "ID", pb.Hex(imgID)), Data: []byte{0x7f}})
	pagesRoot, pages := b.PageTree(2, func(i int) pb.Dict {
		d := pb.D("ID", pb.Hex(pageID))
		if i == 0 && page != nil {
			page(&d)
		}
		return d
	})
	sps := b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex(pageID), "O", pb.Array{pages[0], pages[1]}, "SI", pb.D("AU", pb.Lit(home))))
	sis := b.Add(pb.D("S", pb.Name("SIS"), "ID", pb.Hex(imgID), "O", pb.Array{img}, "SI", pb.D("AU", pb.Lit(logo)), "R", 1))
	var ids, urls pb.Ref
	if trees != nil {
		ids, urls = trees(b, sps, sis)
	} else {
		ids = b.NameTree([]pb.KV{{Key: pageID, Value: sps}, {Key: imgID, Value: sis}}, 64, 64, pb.HexKey)
		urls = b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, pb.LitKey)
	}
	names := b.Add(pb.D("IDS", ids, "URLS", urls))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", pb.D("V", 1.0)))
	return b.Bytes()
}

func findings(t *testing.T, file []byte) map[string]int {
	t.Helper()
	d, err := pdfio.ReadBytes(file, "x.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]int{}
	for _, f := range audit.Check(d, audit.Options{}) {
		out[f.Severity.String()+" "+f.Rule]++
	}
	return out
}

func fix(t *testing.T, file []byte) ([]byte, *Plan) {
	t.Helper()
	d, err := pdfio.ReadBytes(file, "x.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	p, err := NewPlan(d, nil)
	if err != nil {
		t.Fatal(err)
	}
	if p.Empty() {
		return file, p
	}
	out, err := p.Apply(file, "x.pdf")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, file) {
		t.Fatal("the original bytes are not a prefix of the repaired file")
	}
	return out, p
}

func TestFixesEachFixableRule(t *testing.T) {
	lit, hex := pb.LitKey, pb.HexKey
	cases := []struct {
		rule  string
		page  func(d *pb.Dict)
		trees func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref)
	}{
		{"WC-URLS-CANONICAL", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			return b.NameTree([]pb.KV{{Key: pageID, Value: sps}, {Key: imgID, Value: sis}}, 64, 64, hex),
				b.Add(pb.D("Names", pb.Array{pb.Lit("HTTP://WWW.Example.com:80/"), sps, pb.Lit(logo), sis}))
		}},
		{"WC-TREE-ORDER", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			return b.Add(pb.D("Names", pb.Array{pb.Hex(imgID), sis, pb.Hex(pageID), sps})),
				b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, lit)
		}},
		{"WC-TREE-DUPLICATE", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			return b.Add(pb.D("Names", pb.Array{pb.Hex(pageID), sps, pb.Hex(imgID), sis, pb.Hex(imgID), sis})),
				b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, lit)
		}},
		{"WC-TREE-LIMITS", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			leaf := b.Add(pb.D("Limits", pb.Array{pb.Hex("\x00"), pb.Hex("\x01")}, "Names", pb.Array{pb.Hex(pageID), sps, pb.Hex(imgID), sis}))
			return b.Add(pb.D("Kids", pb.Array{leaf})), b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, lit)
		}},
		{"WC-TREE-ROOT-LIMITS", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			return b.Add(pb.D("Limits", pb.Array{pb.Hex(pageID), pb.Hex(imgID)}, "Names", pb.Array{pb.Hex(pageID), sps, pb.Hex(imgID), sis})),
				b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, lit)
		}},
		{"WC-TREE-NODE", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			return b.Add(pb.D("Names", pb.Array{pb.Hex(pageID), sps, pb.Hex(imgID), sis, pb.Hex("\xff")})),
				b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, lit)
		}},
		{"WC-DANGLING", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			leaf := b.Add(pb.D("Limits", pb.Array{pb.Hex(pageID), pb.Hex(imgID)}, "Names", pb.Array{pb.Hex(pageID), sps, pb.Hex(imgID), sis}))
			return b.Add(pb.D("Kids", pb.Array{leaf, pb.Ref(999)})), b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, lit)
		}},
		{"WC-IDS-KEY", nil, func(b *pb.Builder, sps, sis pb.Ref) (pb.Ref, pb.Ref) {
			return b.Add(pb.D("Names", pb.Array{pb.Hex("\x01"), sps, pb.Hex(imgID), sis})),
				b.NameTree([]pb.KV{{Key: home, Value: sps}, {Key: logo, Value: sis}}, 64, 64, lit)
		}},
		{"WC-MEMBER-ID", func(d *pb.Dict) {
			out := (*d)[:0]
			for _, e := range *d {
				if e.Key != "ID" {
					out = append(out, e)
				}
			}
			*d = out
		}, nil},
	}
	for _, xs := range []bool{false, true} {
		for _, c := range cases {
			t.Run(c.rule, func(t *testing.T) {
				file := capture(xs, c.page, c.trees)
				before := findings(t, file)
				if before["error "+c.rule]+before["warning "+c.rule] == 0 {
					t.Fatalf("the damaged file has no %s finding: %v", c.rule, before)
				}
				out, p := fix(t, file)
				if len(p.Changes) == 0 {
					t.Fatal("no change planned")
				}
				after := findings(t, out)
				for k := range after {
					if strings.HasPrefix(k, "error ") {
						t.Errorf("after the fix: %s (%d)", k, after[k])
					}
				}
				if after["warning "+c.rule] > 0 {
					t.Errorf("after the fix: warning %s", c.rule)
				}
			})
		}
	}
}

func TestLeavesAmbiguityAlone(t *testing.T) {
	// A page whose /ID differs from its set's: which is right is unknown.
	file := capture(false, func(d *pb.Dict) { d.Set("ID", pb.Hex("\x42")) }, nil)
	_, p := fix(t, file)
	if len(p.Left) != 1 || !strings.Contains(p.Left[0].Message, "which is right is not known") {
		t.Errorf("left alone = %+v", p.Left)
	}
	// A clean capture needs nothing.
	if _, p := fix(t, capture(false, nil, nil)); !p.Empty() || len(p.Changes) != 0 {
		t.Errorf("changes to a clean file: %+v", p.Changes)
	}
}

// The damaged sample: every tree error repaired, the result audits clean of
// errors.
func TestFixDamagedSample(t *testing.T) {
	file, _ := pb.Sample("damaged")
	out, p := fix(t, file)
	if len(p.Changes) == 0 {
		t.Fatal("nothing planned")
	}
	for k, n := range findings(t, out) {
		if strings.HasPrefix(k, "error ") {
			t.Errorf("after the fix: %s (%d)", k, n)
		}
	}
}
