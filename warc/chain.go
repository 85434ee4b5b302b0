package warc

import (
	"slices"
	"time"
)

// Captured returns when the content Open serves for the canonical URL u
// was archived: the WARC-Date of its response record, or of the revisit
// record that stands for it (the time the crawler fetched it last).
func (s *Source) Captured(u string) (time.Time, bool) {
	e, ok := s.content[u]
	if !ok || e.date.IsZero() {
		return time.Time{}, false
	}
	return e.date, true
}

// ChainsTo returns the redirect chains archived that end at the canonical
// URL u (Chain of each URL that redirected and that no other URL
// redirected to), each in order and without u, sorted by its first URL.
func (s *Source) ChainsTo(u string) [][]string {
	targets := map[string]bool{}
	for _, to := range s.redirects {
		targets[to] = true
	}
	starts := make([]string, 0, len(s.redirects))
	for from := range s.redirects {
		if !targets[from] {
			starts = append(starts, from)
		}
	}
	slices.Sort(starts)
	var out [][]string
	for _, from := range starts {
		if ch := s.Chain(from); ch[len(ch)-1] == u && len(ch) > 1 {
			out = append(out, ch[:len(ch)-1])
		}
	}
	return out
}
