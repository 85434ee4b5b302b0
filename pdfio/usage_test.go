package pdfio

import (
	"fmt"
	"reflect"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// usageFile builds three pages and one image; f adds what the case needs
// and returns the resources of each page (nil: none).
func usageFile(t *testing.T, f func(b *pb.Builder, img pb.Ref) [3]any) (*Document, pb.Ref) {
	t.Helper()
	b := pb.New()
	img := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Image"), "Width", 1, "Height", 1,
		"ColorSpace", pb.Name("DeviceGray"), "BitsPerComponent", 8), Data: []byte{0}})
	res := f(b, img)
	root, _ := b.PageTree(3, func(i int) pb.Dict {
		if res[i] == nil {
			return nil
		}
		if d, ok := res[i].(pb.Dict); ok && d.Get("Annots") != nil { // a page's own keys
			return d
		}
		return pb.D("Resources", res[i])
	})
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	d, err := ReadBytes(b.Bytes(), "usage.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d, img
}

func form(b *pb.Builder, res any) pb.Ref {
	return b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Form"), "BBox", pb.Array{0, 0, 1, 1}, "Resources", res)})
}

// Image.Direct holds the pages whose resources name the image, Pages every
// page that uses it, and Via how the others reach it; loops and broken
// references end the walk quietly.
func TestImageUse(t *testing.T) {
	cases := []struct {
		name          string
		build         func(b *pb.Builder, img pb.Ref) [3]any
		direct, pages []int
		via           []string
	}{
		{"named", func(b *pb.Builder, img pb.Ref) [3]any {
			return [3]any{pb.D("XObject", pb.D("Im0", img)), nil, pb.D("XObject", pb.D("Im0", img))}
		}, []int{1, 3}, []int{1, 3}, nil},
		{"form in a form, shared by two pages", func(b *pb.Builder, img pb.Ref) [3]any {
			inner := form(b, pb.D("XObject", pb.D("Im0", img)))
			outer := form(b, pb.D("XObject", pb.D("Fm0", inner)))
			return [3]any{pb.D("XObject", pb.D("Fm0", outer)), pb.D("XObject", pb.D("Fm0", outer)), nil}
		}, nil, []int{1, 2}, []string{"form"}},
		{"a form that draws itself", func(b *pb.Builder, img pb.Ref) [3]any {
			loop := b.Reserve()
			b.Set(loop, &pb.Stream{Dict: pb.D("Subtype", pb.Name("Form"), "BBox", pb.Array{0, 0, 1, 1},
				"Resources", pb.D("XObject", pb.D("Me", loop, "Im0", img)))})
			return [3]any{nil, pb.D("XObject", pb.D("Fm0", loop)), nil}
		}, nil, []int{2}, []string{"form"}},
		{"pattern, Type 3 font, soft mask", func(b *pb.Builder, img pb.Ref) [3]any {
			pat := b.Add(&pb.Stream{Dict: pb.D("PatternType", 1, "Resources", pb.D("XObject", pb.D("Im0", img)))})
			font := b.Add(pb.D("Type", pb.Name("Font"), "Subtype", pb.Name("Type3"), "Resources", pb.D("XObject", pb.D("Im0", img))))
			gs := pb.D("SMask", pb.D("S", pb.Name("Luminosity"), "G", form(b, pb.D("XObject", pb.D("Im0", img)))))
			return [3]any{pb.D("Pattern", pb.D("P0", pat)), pb.D("Font", pb.D("F0", font)), pb.D("ExtGState", pb.D("G0", gs))}
		}, nil, []int{1, 2, 3}, []string{"Type 3 font", "pattern", "soft mask"}},
		{"another image's mask", func(b *pb.Builder, img pb.Ref) [3]any {
			other := b.Add(&pb.Stream{Dict: pb.D("Subtype", pb.Name("Image"), "Width", 1, "Height", 1, "SMask", img), Data: []byte{0}})
			return [3]any{pb.D("XObject", pb.D("Im1", other)), nil, nil}
		}, nil, []int{1}, []string{"mask"}},
		{"annotation appearance states", func(b *pb.Builder, img pb.Ref) [3]any {
			on := form(b, pb.D("XObject", pb.D("Im0", img)))
			annot := b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Widget"), "AP", pb.D("N", pb.D("On", on, "Off", pb.Ref(999)))))
			return [3]any{nil, nil, pb.D("Annots", pb.Array{annot, pb.Ref(998)})}
		}, nil, []int{3}, []string{"annotation"}},
		{"broken references are skipped", func(b *pb.Builder, img pb.Ref) [3]any {
			return [3]any{nil, pb.D("XObject", pb.Ref(997), "Font", pb.D("F0", pb.Ref(996))), nil}
		}, nil, nil, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, img := usageFile(t, tc.build)
			if len(d.Defects) != 0 {
				t.Errorf("defects: %v", d.Defects)
			}
			if !d.ImageUseKnown {
				t.Error("ImageUseKnown is false")
			}
			var im *Image
			for _, x := range d.Images {
				if x.Ref.Num == int(img) {
					im = x
				}
			}
			if im == nil {
				t.Fatal("no image")
			}
			if !reflect.DeepEqual(im.Direct, tc.direct) || !reflect.DeepEqual(im.Pages, tc.pages) || !reflect.DeepEqual(im.Via, tc.via) {
				t.Errorf("Direct %v, Pages %v, Via %v; want %v, %v, %v", im.Direct, im.Pages, im.Via, tc.direct, tc.pages, tc.via)
			}
		})
	}
}

// Resources inherited from the page tree count as the page's own.
func TestImageUseInherited(t *testing.T) {
	b := pb.New()
	img := b.Add(&pb.Stream{Dict: pb.D("Subtype", pb.Name("Image"), "Width", 1, "Height", 1), Data: []byte{0}})
	root := b.Reserve()
	p1 := b.Add(pb.D("Type", pb.Name("Page"), "Parent", root, "MediaBox", pb.Array{0, 0, 1, 1}))
	p2 := b.Add(pb.D("Type", pb.Name("Page"), "Parent", root, "MediaBox", pb.Array{0, 0, 1, 1}, "Resources", pb.D()))
	b.Set(root, pb.D("Type", pb.Name("Pages"), "Kids", pb.Array{p1, p2}, "Count", 2, "Resources", pb.D("XObject", pb.D("Im0", img))))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	d, err := ReadBytes(b.Bytes(), "inherit.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := d.Images[0].Direct; !reflect.DeepEqual(got, []int{1}) {
		t.Errorf("Direct = %v, want [1] (page 2 has resources of its own)", got)
	}
}

// Link /PA values, Form XObjects with /ID, and alias /C arrays with no
// chain are read as they are.
func TestUseExtras(t *testing.T) {
	b := pb.New()
	fm := b.Add(&pb.Stream{Dict: pb.D("Subtype", pb.Name("Form"), "BBox", pb.Array{0, 0, 1, 1}, "ID", pb.Hex("\x01\x02"))})
	link := func(pa any) pb.Ref {
		return b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Link"), "Rect", pb.Array{0, 0, 1, 1}, "PA", pa))
	}
	annots := pb.Array{
		link(pb.D("S", pb.Name("URI"), "URI", pb.Lit("http://a/"))),
		link(pb.D("S", pb.Name("GoTo"))),
		link(pb.Name("URI")),
		link(pb.Ref(999)),
	}
	root, pages := b.PageTree(1, func(int) pb.Dict { return pb.D("Annots", annots) })
	si := pb.D("AU", pb.D("U", pb.Lit("http://a/"), "C", pb.Array{}))
	cs := b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex("\x01\x02"), "O", pb.Array{pages[0]}, "SI", pb.Array{si, pb.D("AU", pb.D("U", pb.Lit("http://b/"), "C", pb.Array{pb.Array{}, pb.Array{pb.Lit("http://c/")}}))}))
	ids := b.NameTree([]pb.KV{{Key: "\x01\x02", Value: cs}}, 8, 2, pb.HexKey)
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root, "Names", b.Add(pb.D("IDS", ids))))
	d, err := ReadBytes(b.Bytes(), "extras.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, pa := range d.PriorActions {
		kinds = append(kinds, pa.Kind+"/"+pa.Action)
	}
	if want := []string{"a dictionary/URI", "a dictionary/GoTo", "a name/", "a missing object/"}; !reflect.DeepEqual(kinds, want) {
		t.Errorf("PriorActions %v, want %v", kinds, want)
	}
	if !d.PriorActions[0].URI || d.PriorActions[1].URI {
		t.Errorf("URI flags %v %v, want true false", d.PriorActions[0].URI, d.PriorActions[1].URI)
	}
	if len(d.IDForms) != 1 || d.IDForms[0].Ref.Num != int(fm) || d.IDForms[0].ID == nil || string(*d.IDForms[0].ID) != "\x01\x02" {
		t.Errorf("IDForms %+v", d.IDForms)
	}
	var paths []string
	for _, p := range d.EmptyAliasC {
		paths = append(paths, p.Path)
	}
	if want := []string{fmt.Sprintf("object %d/SI[0]/AU/C", cs), fmt.Sprintf("object %d/SI[1]/AU/C[0]", cs)}; !reflect.DeepEqual(paths, want) {
		t.Errorf("EmptyAliasC %v, want %v", paths, want)
	}
}
