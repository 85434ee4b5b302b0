package repair

import (
	"fmt"
	"slices"
	"strings"

	"github.com/webcap/webcap/webcapture"
)

// A Collision is a group of URLS keys that canonicalize to one key but lead
// to different content sets. None of them is rewritten: one key would give
// one answer for URLs that give different answers today, and which answer
// is right is not known.
type Collision struct {
	Key  string    // the canonical key they share
	Keys []KeySets // the keys as the file writes them, in tree order; one may be Key itself
}

// KeySets is a URLS key, its bytes as written, and the content sets it
// leads to.
type KeySets struct {
	Key  string
	Sets []webcapture.Ref
}

// String says which keys collide, each quoted with Go's %q (so no byte is
// lost), with their content sets:
//
//	URLS keys "HTTP://Example.com/a" (set 5 0 R) and "http://example.com:80/a" (set 6 0 R) both canonicalize to "http://example.com/a" but lead to different content sets: neither is rewritten
//	URLS key "HTTP://EXAMPLE.COM/b" (set 8 0 R) canonicalizes to "http://example.com/b", already the key of set 7 0 R: it is not rewritten
func (c Collision) String() string {
	var moved []string
	existing := ""
	for _, k := range c.Keys {
		if k.Key == c.Key {
			existing = setList(k.Sets)
			continue
		}
		moved = append(moved, fmt.Sprintf("%q (%s)", k.Key, setList(k.Sets)))
	}
	var b strings.Builder
	if len(moved) == 1 {
		fmt.Fprintf(&b, "URLS key %s canonicalizes to %q", moved[0], c.Key)
	} else {
		both := ""
		if len(moved) == 2 && existing == "" {
			both = "both "
		}
		fmt.Fprintf(&b, "URLS keys %s %scanonicalize to %q", joinAnd(moved), both, c.Key)
	}
	if existing != "" {
		fmt.Fprintf(&b, ", already the key of %s", existing)
	} else {
		b.WriteString(" but lead to different content sets")
	}
	switch len(moved) {
	case 1:
		b.WriteString(": it is not rewritten")
	case 2:
		b.WriteString(": neither is rewritten")
	default:
		b.WriteString(": none is rewritten")
	}
	return b.String()
}

// refuseCollisions finds the moves that would meet at one key from keys
// that lead to different content sets, keeps each of their keys as it is,
// and reports the groups. Keys that meet with the same sets are left to
// merge.
func refuseCollisions(ms []move) []Collision {
	var out []Collision
	for {
		groups := map[string][]int{}
		var targets []string
		for i, m := range ms {
			if _, ok := groups[m.to]; !ok {
				targets = append(targets, m.to)
			}
			groups[m.to] = append(groups[m.to], i)
		}
		found := false
		for _, to := range targets {
			c, ok := collision(to, ms, groups[to])
			if !ok {
				continue
			}
			for _, i := range groups[to] {
				ms[i].to = ms[i].from
			}
			out = append(out, c)
			found = true
		}
		// A key kept as written could be where another key goes; with an
		// idempotent canonicalizer it never is, but look again.
		if !found {
			return out
		}
	}
}

// noteMerges says, in the change of each URLS key that is rewritten onto
// another key (of the same content sets, as the collisions are refused
// already), which keys it is merged with.
func noteMerges(ms []move) {
	froms := map[string][]string{}
	for _, m := range ms {
		if !slices.Contains(froms[m.to], m.from) {
			froms[m.to] = append(froms[m.to], m.from)
		}
	}
	for i, m := range ms {
		if m.to == m.from || len(froms[m.to]) < 2 {
			continue
		}
		var others []string
		for _, f := range froms[m.to] {
			if f != m.from {
				others = append(others, fmt.Sprintf("%q", f))
			}
		}
		what := "a key"
		if len(others) > 1 {
			what = "keys"
		}
		ms[i].change.Message += fmt.Sprintf(" and is merged with %s, %s of the same %s", joinAnd(others), what, setList(m.sets))
	}
}

// collision describes the moves idx, which all go to the key to, and
// reports whether they come from different keys with different sets.
// A key written twice counts once, with the sets of both.
func collision(to string, ms []move, idx []int) (Collision, bool) {
	c := Collision{Key: to}
	seen := map[string]int{}
	for _, i := range idx {
		m := ms[i]
		if j, ok := seen[m.from]; ok {
			c.Keys[j].Sets = mergeRefs(c.Keys[j].Sets, m.sets)
			continue
		}
		seen[m.from] = len(c.Keys)
		c.Keys = append(c.Keys, KeySets{m.from, slices.Clone(m.sets)})
	}
	for _, k := range c.Keys[1:] {
		if !sameRefs(k.Sets, c.Keys[0].Sets) {
			return c, true
		}
	}
	return c, false
}

// sameRefs reports whether a and b hold the same objects, in any order.
func sameRefs(a, b []webcapture.Ref) bool {
	for _, r := range a {
		if !slices.Contains(b, r) {
			return false
		}
	}
	for _, r := range b {
		if !slices.Contains(a, r) {
			return false
		}
	}
	return true
}

// setList writes "set 5 0 R" or "sets 5 0 R, 6 0 R".
func setList(refs []webcapture.Ref) string {
	s := make([]string, len(refs))
	for i, r := range refs {
		s[i] = r.String()
	}
	if len(s) == 1 {
		return "set " + s[0]
	}
	return "sets " + strings.Join(s, ", ")
}

// joinAnd writes "a and b", "a, b and c".
func joinAnd(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
