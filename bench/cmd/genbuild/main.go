// Command genbuild writes a generated capture to build, for the "webcap
// build" benchmark (issue 17, bench/build.sh): an N-page PDF without Web
// Capture, a build manifest with one page set per page, and the captured
// sources the manifest reads, as a wget mirror (internal/pdfbuild's
// BuildCase says what is in them):
//
//	genbuild -sets 10000 -dir DIR
//	webcap build DIR/manifest.json -o out.pdf
//
// The output is the same for the same N.
package main

import (
	"flag"
	"log"

	"github.com/webcap/webcap/internal/pdfbuild"
)

func main() {
	n := flag.Int("sets", 10000, "number of pages and page sets")
	dir := flag.String("dir", "build", "directory to write input.pdf, manifest.json and sources/ in")
	flag.Parse()
	if *n < 1 {
		log.Fatal("genbuild: -sets must be at least 1")
	}
	if err := pdfbuild.BuildCase(*n, *dir); err != nil {
		log.Fatal(err)
	}
}
