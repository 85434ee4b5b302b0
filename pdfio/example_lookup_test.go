package pdfio_test

import (
	"fmt"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
)

// Find the content set of a URL: the URL is canonicalized (here with a base
// URL for a relative reference) and looked up in the URLS tree.
func ExampleDocument_LookupURL() {
	d, err := pdfio.Open("../testdata/capture.pdf", pdfio.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	c, err := canon.New(canon.PDF, canon.WithBase("http://www.example.com/a/"))
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, u := range []string{"HTTP://WWW.Example.com:80/#top", "../logo.gif", "/nope"} {
		key, sets, err := d.LookupURL(c, u)
		if err != nil {
			fmt.Println(u, "->", err)
			continue
		}
		for _, cs := range sets {
			fmt.Printf("%s -> %s: %s %s, ID %s\n", u, key, cs.Subtype, cs.Ref, cs.ID.Hex())
		}
	}
	// Output:
	// HTTP://WWW.Example.com:80/#top -> http://www.example.com/: SPS 15 0 R, ID 83EDD6AAB530B644B8540F609E468F78
	// ../logo.gif -> http://www.example.com/logo.gif: SIS 17 0 R, ID BF70112233445566778899AABBCC14D8
	// /nope -> "http://www.example.com/nope": not found in URLS
}

// Find the content set of a digital identifier in the IDS tree.
func ExampleDocument_LookupID() {
	d, err := pdfio.Open("../testdata/capture.pdf", pdfio.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	sets, err := d.LookupID("\x83\xed\xd6\xaa\xb5\x30\xb6\x44\xb8\x54\x0f\x60\x9e\x46\x8f\x78")
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, cs := range sets {
		fmt.Println(cs.Subtype, cs.Ref, "pages", d.PageNumbers(cs))
	}
	// Output: SPS 15 0 R pages [1 2]
}
