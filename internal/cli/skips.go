package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/capture"
)

// skipsShown is how many URLs of a group of skipped URLs are named without
// --verbose.
const skipsShown = 3

// writeSkips reports what a crawl did not capture: one line per reason,
// with the count and the first few URLs, in the order the reasons first
// came up (a 40-page crawl can skip thousands of links for one reason);
// with verbose, a line per URL.
func writeSkips(w io.Writer, skips []capture.Skip, verbose bool) {
	skips = shownSkips(skips)
	if verbose {
		for _, s := range skips {
			fmt.Fprintf(w, "skipped   %s: %s\n", s.URL, s.Reason)
		}
		return
	}
	var order []string
	groups := map[string][]string{}
	for _, s := range skips {
		if _, ok := groups[s.Reason]; !ok {
			order = append(order, s.Reason)
		}
		groups[s.Reason] = append(groups[s.Reason], s.URL)
	}
	more := false
	for _, reason := range order {
		urls := groups[reason]
		if len(urls) == 1 {
			fmt.Fprintf(w, "skipped   %s: %s\n", urls[0], reason)
			continue
		}
		shown := strings.Join(urls[:min(len(urls), skipsShown)], ", ")
		if len(urls) > skipsShown {
			shown += fmt.Sprintf(" and %d more", len(urls)-skipsShown)
			more = true
		}
		fmt.Fprintf(w, "skipped   %d URLs: %s: %s\n", len(urls), reason, shown)
	}
	if more {
		fmt.Fprintln(w, "          (--verbose or --json lists every skipped URL)")
	}
}

// writeNotes prints what a capture or refresh did not do as asked, a line
// each.
func writeNotes(w io.Writer, notes []string) {
	for _, n := range notes {
		fmt.Fprintf(w, "note      %s\n", audit.WithoutPasswords(n))
	}
}
