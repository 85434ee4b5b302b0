// Command genfix writes a large generated capture whose Web Capture trees
// are damaged the ways "webcap fix" repairs (internal/pdfbuild.BigBroken),
// for the fix benchmarks: genfix -sets 10000 -o broken.pdf.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/webcap/webcap/internal/pdfbuild"
)

func main() {
	sets := flag.Int("sets", 10000, "number of pages and page sets")
	objstm := flag.Bool("objstm", false, "use an xref stream and object streams")
	out := flag.String("o", "broken.pdf", "output file")
	flag.Parse()
	if err := os.WriteFile(*out, pdfbuild.BigBroken(*sets, *objstm), 0o644); err != nil {
		log.Fatal(err)
	}
}
