// Command genurls writes N generated URLs, one per line, for timing
// "webcap canon" on a stream: genurls -n 1000000 > urls.txt. The URLs mix
// what canonicalization changes (host case, default ports, dot segments,
// escapes, fragments) with what it keeps; the output is the same for the
// same -n and -seed.
package main

import (
	"bufio"
	"flag"
	"fmt"
	"log"
	"math/rand/v2"
	"os"
)

func main() {
	n := flag.Int("n", 1000000, "number of URLs")
	seed := flag.Uint64("seed", 1, "random seed")
	flag.Parse()
	r := rand.New(rand.NewPCG(*seed, 0))
	w := bufio.NewWriter(os.Stdout)
	hosts := []string{"www.example.com", "Example.COM", "a.example.org:80", "b.example.net:8080", "xn--bcher-kva.example"}
	schemes := []string{"http", "https", "HTTP"}
	segs := []string{"a", "b", "..", ".", "docs", "%7Euser", "index.html", "x%2Fy", "caf%C3%A9"}
	for i := range *n {
		fmt.Fprintf(w, "%s://%s/", schemes[r.IntN(len(schemes))], hosts[r.IntN(len(hosts))])
		for range r.IntN(5) {
			fmt.Fprintf(w, "%s/", segs[r.IntN(len(segs))])
		}
		fmt.Fprintf(w, "p%d", i)
		if r.IntN(3) == 0 {
			fmt.Fprintf(w, "?q=%d&r=%s", r.IntN(1000), segs[r.IntN(len(segs))])
		}
		if r.IntN(4) == 0 {
			w.WriteString("#top")
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		log.Fatal(err)
	}
}
