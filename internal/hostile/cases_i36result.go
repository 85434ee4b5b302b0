package hostile

import (
	"fmt"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// Issue 30, build's CPU (the result read back, round 4): the document
// build audits after writing takes the pages, the image XObjects and
// what the pages' resources reach from the input's Document (pdfio's
// result_pages.go), where the build only gave pages and images an /ID;
// the catalog, the trees and the sets it wrote are read as before. An
// input whose pages and images already carry /IDs (direct and indirect),
// a Form XObject with /ID, an image reached only through that form, and
// a link's /PA says in the audit the build prints what an audit of the
// written file says.

// usedInputPDF is six pages: page 1 names an image whose /ID is an
// indirect string and a Form XObject with /ID that reaches a second
// image; page 2 has a link annotation with a URI /PA; pages 3 and 5
// carry /IDs no content set has.
func usedInputPDF() []byte {
	b := pb.New()
	b.Version = "1.7"
	imgID := b.Add(pb.Hex("B1B1B1B1B1B1B1B1B1B1B1B1B1B1B1B1"))
	gray := func(kv ...any) *pb.Stream {
		return &pb.Stream{Dict: pb.D(append([]any{"Type", pb.Name("XObject"), "Subtype", pb.Name("Image"), "Width", 1, "Height", 1,
			"ColorSpace", pb.Name("DeviceGray"), "BitsPerComponent", 8}, kv...)...), Data: []byte{0x80}}
	}
	img1 := b.Add(gray("ID", imgID))
	img2 := b.Add(gray())
	form := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("XObject"), "Subtype", pb.Name("Form"), "BBox", pb.Array{0, 0, 1, 1},
		"ID", pb.Hex("F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0F0"), "Resources", pb.D("XObject", pb.D("Im2", img2))), Data: []byte("/Im2 Do")})
	link := b.Add(pb.D("Type", pb.Name("Annot"), "Subtype", pb.Name("Link"), "Rect", pb.Array{0, 0, 10, 10},
		"PA", pb.D("S", pb.Name("URI"), "URI", pb.Lit("http://example.com/x"))))
	pagesRoot, _ := b.PageTree(6, func(i int) pb.Dict {
		switch i {
		case 0:
			return pb.D("Resources", pb.D("XObject", pb.D("Im1", img1, "Fm1", form)))
		case 1:
			return pb.D("Annots", pb.Array{link})
		case 2, 4:
			return pb.D("ID", pb.Hex(fmt.Sprintf("%016d", i)))
		}
		return pb.D()
	})
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot))
	return b.Bytes()
}

// usedFiles are a build over usedInputPDF: a page set on pages 1-2, one
// on page 3 (whose /ID it replaces), and an image set on page 1's Im1
// (whose indirect /ID it replaces).
func usedFiles() map[string]string {
	return map[string]string{
		"m/manifest.json": `{"input": "in.pdf",
 "pageSets": [
  {"pages": "1-2", "url": "http://example.com/a", "contentType": "text/html", "captured": "2026-11-29T10:00:00Z", "source": "a.html", "title": "A"},
  {"pages": "3", "url": "http://example.com/notes.txt", "contentType": "text/plain", "captured": "2026-11-29T10:00:01Z", "source": "notes.txt"}],
 "imageSets": [{"url": "http://example.com/i.gif", "captured": "2026-11-29T10:00:02Z", "source": "i.gif", "images": [{"page": 1, "name": "Im1"}]}]}`,
		"m/in.pdf":    string(usedInputPDF()),
		"m/a.html":    `<html><head><title>A</title></head><body><p>A</p></body></html>`,
		"m/notes.txt": "Notes.\n",
		"m/i.gif":     "GIF89a\x01\x00\x01\x00\x00\x00\x00;",
	}
}

func init() {
	Register(
		// A build that gives pages and an image /IDs over a file whose
		// pages already carry some (one left with no set), whose image's
		// /ID is an indirect string, whose Form XObject carries /ID and
		// reaches an image, and whose link keeps a /PA: the audit the
		// build prints (the pages, images and their use taken from the
		// input's read) is the audit of the file written.
		Case{
			Name: "build-input-pages-result-audit", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) {
				return confine(usedFiles(), "build", "m/manifest.json", "-o", "out.pdf")(dir)
			},
			Exit: 1,
			Stdout: []string{`^m/in\.pdf: 3 content sets and 0 commands written to out\.pdf \(2187 bytes appended`,
				`^out\.pdf: errors remain: WC-PARENT \(1\); see webcap audit$`},
			Check: All(sameMD5("out.pdf", "39c968863f833bc3a175ef40c919a9a8"), auditSays("out.pdf",
				`^out\.pdf: error WC-PARENT object 12 0 R /ID: page 5 12 0 R has /ID <30303030303030303030303030303034>, which is not an IDS key`,
				`^out\.pdf: warning WC-FORM-ID object 4 0 R /ID: Form XObject 4 0 R has /ID`,
				`^1 file audited: 1 error, 1 warning, 0 notes, 0 unreadable$`)),
			Before: "exit 1, 0.00 s user + 0.01 s sys, 22 MB (/usr/bin/time on /work/webcap-old): the same printed text (WC-PARENT (1)), out.pdf of 4,055 bytes, MD5 39c96886…, the same bytes; its audit the same (WC-PARENT on page 5, WC-FORM-ID on 4 0 R)",
		},
	)
}
