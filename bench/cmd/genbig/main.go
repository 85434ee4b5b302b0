// Command genbig writes a large generated capture (internal/pdfbuild.Big) for
// the reader benchmarks: genbig -pages 20000 -o big.pdf.
package main

import (
	"flag"
	"log"
	"os"

	"github.com/webcap/webcap/internal/pdfbuild"
)

func main() {
	pages := flag.Int("pages", 20000, "number of pages")
	objstm := flag.Bool("objstm", false, "use an xref stream and object streams")
	out := flag.String("o", "big.pdf", "output file")
	flag.Parse()
	if err := os.WriteFile(*out, pdfbuild.Big(*pages, *objstm), 0o644); err != nil {
		log.Fatal(err)
	}
}
