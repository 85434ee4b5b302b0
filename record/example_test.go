package record_test

import (
	"fmt"

	"github.com/webcap/webcap/audit"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/record"
)

// Record that a PDF's page was made from a text file fetched from a URL
// that redirected: the page set gets the identifier of the bytes, the
// redirect chain, and a URLS key for each URL.
func ExampleApply() {
	b := pb.New()
	root, _ := b.PageTree(1, nil)
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root))
	m := &record.Manifest{Input: "notes.pdf", InputData: b.Bytes(), PageSets: []record.PageSet{{
		Pages:       "1",
		URL:         "http://www.example.com/notes.txt",
		Redirects:   [][]string{{"http://example.com/notes"}},
		ContentType: "text/plain",
		Captured:    "2026-11-21T10:30:00Z",
		Data:        []byte("Notes of the meeting.\n"),
	}}}
	res, err := record.Apply(m, record.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	s := res.Sets[0]
	fmt.Println(s.Kind, s.Ref, "pages", s.Pages, "ID", s.ID)
	fmt.Println("URLS keys:", s.Key, s.Aliases)
	d, err := pdfio.ReadBytes(res.Output, "notes-captured.pdf", pdfio.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(d.Sets[0].Sources[0].URLs.Chains[0])
	fmt.Println(audit.Summarize(audit.Check(d, audit.Options{})))
	// Output:
	// SPS 5 0 R pages [1] ID 5F9D76E813A215011CCF22CB91EA012C
	// URLS keys: http://www.example.com/notes.txt [http://example.com/notes]
	// [http://example.com/notes http://www.example.com/notes.txt]
	// audits with no error
}
