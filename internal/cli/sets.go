package cli

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"github.com/webcap/webcap/record"
	"github.com/webcap/webcap/webcapture"
)

// writeSets reports the content sets build wrote (for build, capture,
// append and refresh alike): a line per set, then a line per URL that
// redirected to its source and finds it in the URLS tree too.
func writeSets(out io.Writer, sets []record.Set) {
	// (Buffered: a build of 100,000 sets printed 220,000 writes.)
	w := bufio.NewWriterSize(out, 64<<10)
	defer w.Flush()
	for _, s := range sets {
		if s.Kind == webcapture.PageSet {
			fmt.Fprintf(w, "page set  %-8s pages %-6s ID %s  %s", s.Ref, pageList(s.Pages), s.ID, shownURL(s.Key))
			if s.Aux > 0 {
				fmt.Fprintf(w, " (+%s", plural(s.Aux, "auxiliary file"))
				if s.Missing > 0 {
					fmt.Fprintf(w, ", %d left out", s.Missing)
				}
				fmt.Fprint(w, ")")
			}
		} else {
			fmt.Fprintf(w, "image set %-8s images %-5d ID %s  %s (R %s)", s.Ref, len(s.Objects), s.ID, shownURL(s.Key), strings.Trim(fmt.Sprint(s.RefCount), "[]"))
			if s.Shared {
				fmt.Fprint(w, " joined the set with the same ID")
			}
		}
		fmt.Fprintln(w)
		for _, a := range s.Aliases {
			fmt.Fprintf(w, "          also %s, which redirects to it\n", shownURL(a))
		}
	}
}
