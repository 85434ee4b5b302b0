package pdfio

import (
	"bytes"
	"compress/zlib"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

func flate(s string) []byte {
	var b bytes.Buffer
	w := zlib.NewWriter(&b)
	w.Write([]byte(s))
	w.Close()
	return b.Bytes()
}

// full builds a file with every Web Capture key, the way Acrobat shares
// objects (indirect key strings) and the way the specification allows
// (arrays, alias chains, POST data, settings).
func full() ([]byte, map[string]pb.Ref) {
	b := pb.New()
	refs := map[string]pb.Ref{}
	img := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", pb.Name("DeviceGray"), "BitsPerComponent", 8, "ID", pb.Hex("AAAAAAAAAAAAAAAA")), Data: []byte{0}})
	img2 := b.Add(&pb.Stream{Dict: pb.D("Subtype", pb.Name("Image"), "Width", 1, "Height", 1, "ColorSpace", pb.Name("DeviceGray"),
		"BitsPerComponent", 8), Data: []byte{0}})
	pageID := b.Add(pb.Lit("\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10"))
	pagesRoot, pages := b.PageTree(3, func(i int) pb.Dict {
		if i < 2 {
			return pb.D("ID", pageID, "PZ", 2)
		}
		return nil
	})
	settings := b.Add(pb.D("G", pb.D("PS", pb.Array{792, 612}, "CP", pb.Lit("utf-8")),
		"C", pb.D("ADBE:H2PDF:1.0:HTML", pb.D("X", true), "bad-engine", pb.D())))
	post := b.Add(&pb.Stream{Dict: pb.D("Filter", pb.Name("FlateDecode")), Data: flate("q=web+capture")})
	cmd1 := b.Add(pb.D("URL", pb.Lit("http://www.example.com/"), "L", 2, "F", 3, "S", settings))
	cmd2 := b.Add(pb.D("URL", pb.Lit("http://www.example.com/search"), "F", 4, "P", post,
		"CT", pb.Lit("application/x-www-form-urlencoded"), "H", pb.Lit("Accept: text/html\r\n")))
	cmd3 := b.Add(pb.D("URL", pb.Lit("http://www.example.com/form"), "P", pb.Lit("a=1&b=2"), "F", int64(1)<<40))
	shared := b.Add(pb.Lit("http://www.example.com/b"))
	sps := b.Add(pb.D("Type", pb.Name("SpiderContentSet"), "S", pb.Name("SPS"), "ID", pageID, "O", pb.Array{pages[0], pages[1]},
		"SI", pb.Array{
			pb.D("AU", pb.D("U", pb.Lit("http://www.example.com/c"), "C", pb.Array{pb.Array{pb.Lit("http://www.example.com/a"), shared}, pb.Array{shared}}),
				"TS", pb.Lit("D:20150402085105Z"), "E", pb.Lit("D:20160402085105+01'00'"), "S", 1, "C", cmd1),
			pb.D("AU", pb.Lit("http://mirror.example.com/c"), "S", 2, "C", cmd2),
		},
		"CT", pb.Lit("text/html"), "TS", pb.Lit("D:20150402085105Z"),
		"T", pb.Lit("\xFE\xFF\x00T\x00i\x00t\x00l\x00e"), "TID", pb.Hex("\x0f\x0e\x0d\x0c\x0b\x0a\x09\x08\x07\x06\x05\x04\x03\x02\x01\x00")))
	one := b.Add(1)
	sis := b.Add(pb.D("S", pb.Name("SIS"), "ID", pb.Hex("AAAAAAAAAAAAAAAA"), "O", pb.Array{img}, "SI", pb.D("AU", pb.Lit("http://www.example.com/i.gif")), "R", pb.Array{one}))
	sis2 := b.Add(pb.D("S", pb.Name("SIS"), "ID", pb.Hex("BBBBBBBBBBBBBBBB"), "O", pb.Array{img2, 5}, "SI", pb.D("AU", pb.Lit("http://www.example.com/j.gif")), "R", 3))
	orphan := b.Add(pb.D("S", pb.Name("SIS"), "ID", pb.Hex("CCCC"), "O", pb.Array{}, "SI", pb.D("AU", pb.Lit("x")), "R", pb.Array{}))
	bad := b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Name("notastring"), "O", pb.Lit("x"), "SI", 7, "TS", pb.Lit("yesterday"), "R", pb.Lit("r")))
	ids := b.NameTree([]pb.KV{
		{Key: "\x01\x02\x03\x04\x05\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10", Value: pb.Array{sps, sis}},
		{Key: "\xBB\xBB\xBB\xBB\xBB\xBB\xBB\xBB", Value: sis2},
		{Key: "\xDD", Value: bad},
	}, 10, 2, pb.HexKey)
	urls := b.NameTree([]pb.KV{{Key: "http://www.example.com/b", Value: sps}, {Key: "http://www.example.com/c", Value: sps}}, 10, 2, func(s string) any {
		if s == "http://www.example.com/b" {
			return shared // Acrobat: the key is the same object as the URL
		}
		return pb.Lit(s)
	})
	names := b.Add(pb.D("IDS", ids, "URLS", urls))
	info := b.Add(pb.D("V", 1.25, "C", pb.Array{cmd1, cmd2, cmd3, pb.D("URL", pb.Lit("direct"))}))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", info))
	refs["sps"], refs["sis"], refs["sis2"], refs["orphan"], refs["bad"], refs["shared"], refs["img"] = sps, sis, sis2, orphan, bad, shared, img
	return b.Bytes(), refs
}

func TestModel(t *testing.T) {
	file, refs := full()
	d := read(t, file, Options{})
	ref := func(name string) webcapture.Ref { return webcapture.Ref{Num: int(refs[name])} }
	set := func(name string) *ContentSet {
		for _, cs := range d.Sets {
			if cs.Ref == ref(name) {
				return cs
			}
		}
		t.Fatalf("set %s not found", name)
		return nil
	}

	// SpiderInfo and commands.
	if d.Info == nil || d.Info.Version == nil || d.Info.Version.String() != "1.25" || len(d.Info.Commands) != 4 {
		t.Fatalf("Info = %+v", d.Info)
	}
	c1, c2, c3 := d.Info.Commands[0], d.Info.Commands[1], d.Info.Commands[2]
	if c1.URL != "http://www.example.com/" || c1.Depth() != 2 || c1.FlagsOrDefault().String() != "SameSite|SamePath" || c1.IsPost() {
		t.Errorf("command 1 = %+v", c1)
	}
	if c1.Settings == nil || c1.Settings.Global["CP"] != webcapture.String("utf-8") || len(c1.Settings.Engines) != 2 {
		t.Fatalf("settings = %+v", c1.Settings)
	}
	if e := c1.Settings.Engines[0]; e.Engine.Product != "H2PDF" || e.Err != nil {
		t.Errorf("engine 0 = %+v", e)
	}
	if e := c1.Settings.Engines[1]; e.Err == nil {
		t.Errorf("engine %q parsed", e.Key)
	}
	if !c2.IsPost() || !c2.PostStream || string(*c2.PostData) != "q=web+capture" || *c2.Headers != "Accept: text/html\r\n" || c2.Depth() != 1 {
		t.Errorf("command 2 = %+v", c2)
	}
	if string(*c3.PostData) != "a=1&b=2" || c3.PostStream {
		t.Errorf("command 3 = %+v", c3)
	}

	// The page set: an array value, SI array, alias chains through a shared string.
	sps := set("sps")
	if !sps.IsPageSet() || sps.Type == nil || *sps.Type != "SpiderContentSet" || len(sps.Objects) != 2 {
		t.Errorf("sps = %+v", sps.ContentSet)
	}
	if got := d.PageNumbers(sps); len(got) != 2 || got[0] != 1 || got[1] != 2 {
		t.Errorf("sps pages %v", got)
	}
	if sps.Title.String() != "Title" || sps.TextID.Hex() != "0F0E0D0C0B0A09080706050403020100" || *sps.ContentType != "text/html" || !sps.Created.Valid {
		t.Errorf("sps extras = %+v", sps.ContentSet)
	}
	if !sps.SourceArray || len(sps.Sources) != 2 {
		t.Fatalf("sps sources = %+v", sps.Sources)
	}
	s0, s1 := sps.Sources[0], sps.Sources[1]
	if !s0.URLs.Alias || s0.URLs.URL != "http://www.example.com/c" || len(s0.URLs.Chains) != 2 || s0.URLs.Chains[0][1] != "http://www.example.com/b" {
		t.Errorf("alias = %+v", s0.URLs)
	}
	if s0.SubmissionOrDefault() != webcapture.SubmitGET || s0.Command == nil || *s0.Command != d.Info.Commands[0].Ref || !s0.Expires.Valid {
		t.Errorf("source 0 = %+v", s0)
	}
	if s1.URLs.Alias || s1.URLs.URL != "http://mirror.example.com/c" || s1.SubmissionOrDefault() != webcapture.SubmitPOST {
		t.Errorf("source 1 = %+v", s1)
	}
	want := []string{"http://www.example.com/a", "http://www.example.com/b", "http://www.example.com/c", "http://mirror.example.com/c"}
	if got := sps.SourceURLs(); len(got) != len(want) || got[3] != want[3] {
		t.Errorf("SourceURLs = %q", got)
	}
	if len(sps.IDSKeys) != 1 || len(sps.URLSKeys) != 2 {
		t.Errorf("sps keys: IDS %d, URLS %d", len(sps.IDSKeys), len(sps.URLSKeys))
	}
	if e := d.URLS.Entries[0]; e.KeyRef != ref("shared") {
		t.Errorf("URLS key object = %s, want %s", e.KeyRef, ref("shared"))
	}

	// Image sets: R as an array of indirect integers, and as an integer.
	sis := set("sis")
	if !sis.IsImageSet() || !sis.RefArray || len(sis.RefCounts) != 1 || sis.RefCounts[0] != 1 {
		t.Errorf("sis = %+v", sis.ContentSet)
	}
	sis2 := set("sis2")
	if sis2.RefArray || len(sis2.RefCounts) != 1 || sis2.RefCounts[0] != 3 || len(sis2.Objects) != 1 {
		t.Errorf("sis2 = %+v", sis2.ContentSet)
	}
	if o := set("orphan"); !o.Orphan || len(o.IDSKeys) != 0 {
		t.Errorf("orphan = %+v", o)
	}

	// Wrong types are defects, and the set is still shown.
	bad := set("bad")
	if bad.ID != nil || len(bad.Sources) != 0 || bad.Created == nil || bad.Created.Valid {
		t.Errorf("bad = %+v", bad.ContentSet)
	}
	kinds := map[DefectKind]int{}
	for _, df := range d.Defects {
		kinds[df.Kind]++
	}
	// ID, O, SI, R of "bad"; O[1] of sis2; the direct command; F out of range.
	if kinds[WrongType] != 6 || kinds[BadValue] != 2 {
		t.Errorf("defects %v: %+v", kinds, d.Defects)
	}

	// Pages and images.
	if len(d.Pages) != 3 || d.Pages[0].IDRef.IsZero() || d.Pages[2].ID != nil || *d.Pages[0].PZ != 2 {
		t.Errorf("pages = %+v %+v %+v", d.Pages[0], d.Pages[1], d.Pages[2])
	}
	if len(d.Images) != 2 || d.Images[0].Ref != ref("img") || string(*d.Images[0].ID) != "AAAAAAAAAAAAAAAA" || d.Images[1].ID != nil {
		t.Errorf("images = %+v", d.Images)
	}
}
