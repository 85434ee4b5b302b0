package pdfio

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

// TestUpdateFromModel builds a Web Capture structure on a plain file with
// the model-level calls a builder uses (AddCommand, AddContentSet,
// PageXObject, XObjectUsers, SetID, SetNameTree, SetSpiderInfo) and reads
// it back.
func TestUpdateFromModel(t *testing.T) {
	orig, err := pb.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	before := read(t, orig, Options{})
	pages := make([]webcapture.Ref, len(before.Pages))
	for i, p := range before.Pages {
		pages[i] = p.Ref
	}

	u, err := NewUpdate(orig, "capture.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	logo, err := u.PageXObject(pages[0], "Im0")
	if err != nil {
		t.Fatal(err)
	}
	if logo != before.Images[0].Ref {
		t.Fatalf("PageXObject = %v, want the logo %v", logo, before.Images[0].Ref)
	}
	if n := u.XObjectUsers(logo, pages); n != 2 {
		t.Errorf("XObjectUsers(logo) = %d, want 2 (pages 1 and 2 use it)", n)
	}
	for _, tc := range []struct {
		page webcapture.Ref
		name string
		want string
	}{
		{pages[0], "Nope", "no XObject named /Nope"},
		{pages[2], "Im0", "has no /Resources"},
		{webcapture.Ref{Num: 9999}, "Im0", ""},
	} {
		if _, err := u.PageXObject(tc.page, tc.name); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("PageXObject(%v, %q) error = %v, want one containing %q", tc.page, tc.name, err, tc.want)
		}
	}

	id := webcapture.RawID("\x00()\\\r\n\xff" + strings.Repeat("\x01", 9))
	one, flags, ct := int64(1), webcapture.Flags(2), "text/plain"
	command := &webcapture.Command{URL: "http://new.example/", Levels: &one, Flags: &flags,
		Settings: &webcapture.Settings{Global: webcapture.Dict{"PS": []webcapture.Object{792.0, 612.0}}}}
	cmd, err := u.AddCommand(command)
	if err != nil {
		t.Fatal(err)
	}
	title := webcapture.Text("a (tricky) \\ title")
	set, err := u.AddContentSet(&webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, Objects: []webcapture.Ref{pages[2]},
		Sources:     []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://new.example/"}, Command: &cmd}},
		ContentType: &ct, Title: &title})
	if err != nil {
		t.Fatal(err)
	}
	if err := u.SetID(pages[2], id); err != nil {
		t.Fatal(err)
	}
	if err := u.SetNameTree("IDS", []NameEntry{{Key: string(id), Sets: []webcapture.Ref{set}}}, TreeShape{Hex: true}); err != nil {
		t.Fatal(err)
	}
	if err := u.SetSpiderInfo(&webcapture.Info{Version: &webcapture.Number{Value: 1.0}, Commands: []*webcapture.Command{command}}); err != nil {
		t.Fatal(err)
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(out, orig) {
		t.Fatal("the original bytes are not a prefix of the output")
	}

	d := read(t, out, Options{})
	if d.Info == nil || d.Info.Version == nil || d.Info.Version.Value != 1.0 || len(d.Info.Commands) != 1 ||
		d.Info.Commands[0].URL != "http://new.example/" || d.Info.Commands[0].Ref != cmd {
		t.Fatalf("SpiderInfo read back as %+v", d.Info)
	}
	if c := d.Info.Commands[0]; c.Flags == nil || *c.Flags != 2 || c.Settings == nil {
		t.Errorf("command read back as %+v", c)
	}
	if d.IDS == nil || len(d.IDS.Entries) != 1 || d.IDS.Entries[0].Key != string(id) {
		t.Fatalf("IDS read back as %+v", d.IDS)
	}
	s := d.IDS.Entries[0].Sets[0]
	if s.ID == nil || string(*s.ID) != string(id) || s.Title == nil || s.Title.String() != "a (tricky) \\ title" {
		t.Errorf("set read back as %+v", s)
	}
	if p := d.Pages[2]; p.ID == nil || string(*p.ID) != string(id) {
		t.Errorf("page 3 /ID = %v, want % X", p.ID, id)
	}
	// The URLS tree and the catalog's other entries survive the catalog rewrite.
	if d.URLS == nil || len(d.URLS.Entries) != len(before.URLS.Entries) {
		t.Errorf("URLS tree lost: %+v", d.URLS)
	}
	if len(d.Pages) != len(before.Pages) {
		t.Errorf("%d pages, want %d", len(d.Pages), len(before.Pages))
	}
	checkQPDF(t, out, len(pages))
}

// The writer refuses what it cannot write: a settings value of no PDF
// type, nesting past its bound, a content set without a required key.
func TestWriteRejects(t *testing.T) {
	orig := plain(1, false)
	u, err := NewUpdate(orig, "plain.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	settings := func(v webcapture.Object) *webcapture.Command {
		return &webcapture.Command{URL: "http://a/", Settings: &webcapture.Settings{Global: webcapture.Dict{"X": v}}}
	}
	if _, err := u.AddCommand(settings(struct{}{})); err == nil || !strings.Contains(err.Error(), "cannot write a struct {}") {
		t.Errorf("AddCommand(struct) error = %v", err)
	}
	var deep webcapture.Object = int64(1)
	for i := 0; i < maxModelDepth+2; i++ {
		deep = []webcapture.Object{deep}
	}
	if _, err := u.AddCommand(settings(deep)); err == nil || !strings.Contains(err.Error(), "nested deeper") {
		t.Errorf("AddCommand(deep) error = %v", err)
	}
	id := webcapture.RawID("0123456789abcdef")
	for _, cs := range []*webcapture.ContentSet{
		{ID: &id, Objects: []webcapture.Ref{{Num: 1}}, Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a/"}}}},
		{Subtype: webcapture.PageSet, Objects: []webcapture.Ref{{Num: 1}}, Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a/"}}}},
		{Subtype: webcapture.PageSet, ID: &id, Sources: []*webcapture.SourceInfo{{URLs: webcapture.AliasedURLs{URL: "http://a/"}}}},
		{Subtype: webcapture.PageSet, ID: &id, Objects: []webcapture.Ref{{Num: 1}}},
		{Subtype: webcapture.PageSet, ID: &id, Objects: []webcapture.Ref{{Num: 1}}, Sources: []*webcapture.SourceInfo{{}}},
	} {
		if _, err := u.AddContentSet(cs); !errors.Is(err, ErrMissingKey) {
			t.Errorf("AddContentSet(%+v) error = %v, want ErrMissingKey", cs, err)
		}
	}
}

// Update.Document reads what ReadBytes reads, from the update's own parse.
func TestUpdateDocument(t *testing.T) {
	for _, name := range pb.Samples() {
		orig, _ := pb.Sample(name)
		want, err := ReadBytes(orig, name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		u, err := NewUpdate(orig, name, Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, err := u.Document()
		if err != nil {
			t.Fatal(err)
		}
		if fmt.Sprint(summary(got)) != fmt.Sprint(summary(want)) {
			t.Errorf("%s: Update.Document\n%v\nReadBytes\n%v", name, summary(got), summary(want))
		}
	}
	if _, err := NewUpdate(plain(1, false), "big.pdf", Options{MaxFileSize: 10}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("NewUpdate over MaxFileSize: %v", err)
	}
}

func summary(d *Document) []string {
	out := []string{fmt.Sprintf("pages %d images %d sets %d defects %d", len(d.Pages), len(d.Images), len(d.Sets), len(d.Defects))}
	for _, t := range []*Tree{d.IDS, d.URLS} {
		if t == nil {
			continue
		}
		for _, e := range t.Entries {
			out = append(out, fmt.Sprintf("%s %q %d", t.Name, e.Key, len(e.Sets)))
		}
	}
	for _, df := range d.Defects {
		out = append(out, df.Message)
	}
	return out
}

// joinNew makes a new file of files' pages, as capture does.
func joinNew(t *testing.T, files ...[]byte) []byte {
	t.Helper()
	u, err := NewFileUpdate(files[0], "new.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if _, _, err := u.AppendPages(f, "printed.pdf"); err != nil {
			t.Fatal(err)
		}
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func TestNewFileUpdate(t *testing.T) {
	a, b := plain(2, false), plain(3, true)
	out := joinNew(t, a, b)
	d := read(t, out, Options{})
	if len(d.Pages) != 5 {
		t.Errorf("%d pages, want 5", len(d.Pages))
	}
	checkQPDF(t, out, 5)
	u, err := NewFileUpdate([]byte("not a pdf"), "new.pdf", Options{})
	if err != nil {
		t.Fatal(err) // like only lends its document information
	}
	if _, _, err := u.AppendPages([]byte("not a pdf"), "printed.pdf"); err == nil {
		t.Error("appending garbage")
	}
}

// SetSourceTimes stamps every source of a set, whatever form SI has:
// direct, indirect, an array of either, an indirect array.
func TestSetSourceTimes(t *testing.T) {
	for _, form := range []string{"direct", "indirect", "array", "indirect array"} {
		t.Run(form, func(t *testing.T) {
			b := pb.New()
			root, pages := b.PageTree(1, nil)
			si1 := pb.D("AU", pb.Lit("http://a.example/"), "TS", pb.Lit("D:20200101000000Z"))
			si2 := pb.D("AU", pb.Lit("http://b.example/"))
			var si any
			switch form {
			case "direct":
				si = si1
			case "indirect":
				si = b.Add(si1)
			case "array":
				si = pb.Array{si1, b.Add(si2)}
			case "indirect array":
				si = b.Add(pb.Array{b.Add(si1), si2})
			}
			set := b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex("00112233445566778899AABBCCDDEEFF"), "O", pb.Array{pages[0]}, "SI", si))
			b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root,
				"Names", pb.D("IDS", pb.D("Names", pb.Array{pb.Hex("00112233445566778899AABBCCDDEEFF"), set}))))
			orig := b.Bytes()
			u, err := NewUpdate(orig, "in.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := u.SetSourceTimes(webcapture.Ref{Num: int(set)}, "D:20261121120000Z", "D:20261122120000Z"); err != nil {
				t.Fatal(err)
			}
			out, err := u.Bytes()
			if err != nil {
				t.Fatal(err)
			}
			d, err := ReadBytes(out, "out.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			cs := d.Sets[0]
			want := map[string]int{"direct": 1, "indirect": 1, "array": 2, "indirect array": 2}[form]
			if len(cs.Sources) != want {
				t.Fatalf("%d sources, want %d", len(cs.Sources), want)
			}
			for _, s := range cs.Sources {
				if s.Updated == nil || s.Updated.Raw != "D:20261121120000Z" || s.Expires == nil || s.Expires.Raw != "D:20261122120000Z" {
					t.Errorf("%s: TS %v, E %v", s.URLs.URL, s.Updated, s.Expires)
				}
			}
		})
	}
}

// pdfcpuValid validates a file with pdfcpu's relaxed validation: an
// independent reader's verdict on whether a change broke the file.
func pdfcpuValid(b []byte) error {
	ctx, err := api.ReadContext(bytes.NewReader(b), config(Options{}))
	if err != nil {
		return err
	}
	ctx.Configuration.ValidationMode = model.ValidationRelaxed
	return api.ValidateContext(ctx)
}

// Moving a link's action to /PA keeps the file as valid as it was: an
// action with a stray /Type /A (real files have one) is copied without it,
// one with /Type /Action or none is kept as it is.
func TestSetLinkGoToNormalizesAction(t *testing.T) {
	b := pb.New()
	stray := b.Add(pb.D("Type", pb.Name("A"), "S", pb.Name("URI"), "URI", pb.Lit("http://a.example/")))
	proper := b.Add(pb.D("Type", pb.Name("Action"), "S", pb.Name("URI"), "URI", pb.Lit("http://b.example/")))
	var annots []pb.Ref
	for _, a := range []any{stray, proper, pb.D("S", pb.Name("URI"), "URI", pb.Lit("http://c.example/"))} {
		annots = append(annots, b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Link"), "Rect", pb.Array{0, 0, 10, 10}, "A", a)))
	}
	root, _ := b.PageTree(1, func(int) pb.Dict { return pb.D("Annots", pb.Array{annots[0], annots[1], annots[2]}) })
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	orig := b.Bytes()
	if err := pdfcpuValid(orig); err != nil {
		t.Fatalf("the test file is not valid to begin with: %v", err)
	}
	u, err := NewUpdate(orig, "links.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range annots {
		if err := u.SetLinkGoTo(webcapture.Ref{Num: int(a)}, "there"); err != nil {
			t.Fatal(err)
		}
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	if err := pdfcpuValid(out); err != nil {
		t.Errorf("valid before, not after: %v", err)
	}
	u2, err := NewUpdate(out, "out.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range []string{"direct, no /Type", "5 0 R", "direct"} {
		o, _ := u2.lookup(*types.NewIndirectRef(int(annots[i]), 0))
		pa := o.(types.Dict)["PA"]
		var got string
		switch v := pa.(type) {
		case types.IndirectRef:
			got = fmt.Sprintf("%d 0 R", v.ObjectNumber.Value())
		case types.Dict:
			got = "direct"
			if _, has := v["Type"]; !has && i == 0 {
				got = "direct, no /Type"
			}
		}
		if i == 1 {
			want = fmt.Sprintf("%d 0 R", int(proper))
		}
		if got != want {
			t.Errorf("link %d: /PA %s, want %s", i, got, want)
		}
	}
}
