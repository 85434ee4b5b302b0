package canon

// hasDotSegment reports whether the path s may hold a "." or ".." segment: a
// '.' right after a '/'. (appendEncoded finds the same while it encodes.)
func hasDotSegment(s string) bool {
	for i := 1; i < len(s); i++ {
		if s[i] == '.' && s[i-1] == '/' {
			return true
		}
	}
	return false
}

// removeDots applies a dot-segment rule, in place, to the path b, which starts
// with '/'. It is RFC 3986 §5.2.4 remove_dot_segments when keepAbove is false.
//
// When keepAbove is true it is RFC 1808 §4 step 6 (rules a–d) applied to the
// path without its leading '/', as the PDF text's step 7 asks: "." segments
// are removed; "<segment>/.." pairs are removed, leftmost first, where
// <segment> is a complete segment other than ".." (an empty segment counts);
// and a ".." with no segment before it to cancel is kept. Both rules amount to
// a stack of segments: a ".." pops the last kept segment if there is one that
// is not itself a kept ".." (the floor), and otherwise is dropped (RFC 3986)
// or kept (RFC 1808). A "." or ".." that ends the path leaves a trailing '/'.
func removeDots(b []byte, keepAbove bool) []byte {
	w, floor := 0, 0 // b[:w] is the output so far; b[:floor] its kept ".." segments
	for r := 0; r < len(b); {
		end := r + 1
		for end < len(b) && b[end] != '/' {
			end++
		}
		seg := b[r+1 : end]
		last := end == len(b)
		switch {
		case len(seg) == 1 && seg[0] == '.':
			if last {
				b[w] = '/'
				w++
			}
		case len(seg) == 2 && seg[0] == '.' && seg[1] == '.':
			switch {
			case w > floor:
				w--
				for b[w] != '/' {
					w--
				}
			case keepAbove:
				copy(b[w:], "/..")
				w += 3
				floor = w
				r = end
				continue
			}
			if last {
				b[w] = '/'
				w++
			}
		default:
			w += copy(b[w:], b[r:end])
		}
		r = end
	}
	return b[:w]
}
