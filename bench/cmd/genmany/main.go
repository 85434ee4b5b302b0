// Command genmany writes a directory of many small files for the audit
// throughput benchmark (bench/audit-many.sh): n copies of the bundled
// capture (internal/pdfbuild's "capture" sample, testdata/capture.pdf) and
// each of pdfbuild's hostile samples once, spread among them, and the list
// of their paths, one a line:
//
//	genmany -n 10000 -dir files > list.txt
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/webcap/webcap/internal/pdfbuild"
)

func main() {
	n := flag.Int("n", 10000, "copies of the capture")
	dir := flag.String("dir", "files", "directory to write them in")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	capture, err := pdfbuild.Sample("capture")
	if err != nil {
		log.Fatal(err)
	}
	hostile := pdfbuild.HostileSamples()
	w := bufio.NewWriter(os.Stdout)
	defer w.Flush()
	write := func(name string, data []byte) {
		p := filepath.Join(*dir, name)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Fprintln(w, p)
	}
	every := max(*n/(len(hostile)+1), 1)
	for i := range *n {
		write(fmt.Sprintf("capture-%05d.pdf", i), capture)
		if h := i / every; i%every == every-1 && h < len(hostile) {
			data, err := pdfbuild.Hostile(hostile[h])
			if err != nil {
				log.Fatal(err)
			}
			write(hostile[h]+".pdf", data)
		}
	}
}
