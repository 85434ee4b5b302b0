package audit

import (
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// redirectDuplicates checks that one fetched resource is one content set
// (ISO 32000-1 §14.10.5.1, Table 356). When several URLs reach one resource
// through redirection, a capture keeps a single set whose source information
// names them all, in a URL alias dictionary's redirect chains. Two sets of
// one subtype with one /ID are the same resource captured twice when a URL
// of one is in a redirect chain of the other, or when one URLS key (after
// canonicalization) holds both: a lookup by that URL then gives two answers,
// which diverge once either set is refreshed.
//
// Sets with one /ID reached from unrelated URLs are left alone: the
// specification says a processor may merge them, not that it shall. A page
// set and an image set with one /ID are Figure 10.2's case, not a duplicate.
func (a *auditor) redirectDuplicates() {
	// The first set of each /ID, a map for each subtype (no key to make per
	// set); the groups of two or more, by their first set's place in Sets.
	// (The page sets' map is made for every set: a build's result holds
	// 100,000, and the map would grow seventeen times.)
	first := [2]map[webcapture.RawID]int{{}, make(map[webcapture.RawID]int, len(a.d.Sets))}
	groups := map[int][]*pdfio.ContentSet{}
	for i, cs := range a.d.Sets {
		if cs.ID == nil || !(cs.IsPageSet() || cs.IsImageSet()) {
			continue // WC-CS-ID or WC-CS-S says so
		}
		byID := first[0]
		if cs.IsPageSet() {
			byID = first[1]
		}
		j, ok := byID[*cs.ID]
		switch {
		case !ok:
			byID[*cs.ID] = i
		case groups[j] == nil:
			groups[j] = []*pdfio.ContentSet{a.d.Sets[j], cs}
		default:
			groups[j] = append(groups[j], cs)
		}
	}
	for _, j := range slices.Sorted(maps.Keys(groups)) {
		a.duplicateGroup(groups[j])
	}
}

// duplicateGroup joins the sets (one subtype, one /ID) that a redirect chain
// or a URLS key connects, and reports each group of two or more once. Every
// step is linear in the URLs named, so that a hostile file with many sets
// under one /ID costs no more than reading it.
func (a *auditor) duplicateGroup(sets []*pdfio.ContentSet) {
	byURL := &index{}               // canonical source URL → sets that name it
	byKey := &index{}               // canonical URLS key → sets under it
	chains := map[string][]string{} // canonical URL → the chains (as written) it is in
	for i, cs := range sets {
		for _, u := range cs.SourceURLs() {
			byURL.add(a.canonicalURL(u), i)
		}
		for _, k := range cs.URLSKeys {
			byKey.add(a.canonicalURL(k), i)
		}
		for _, chain := range a.redirectChains(cs) {
			desc := strings.Join(chain, " redirects to ")
			for _, u := range chain {
				c := a.canonicalURL(u)
				chains[c] = append(chains[c], desc)
			}
		}
	}
	g := newUnion(len(sets))
	// A URL in a redirect chain joins every set that names it; a URLS key
	// joins every set under it.
	for _, u := range byURL.order {
		if len(chains[u]) > 0 {
			g.join(byURL.sets[u])
		}
	}
	for _, k := range byKey.order {
		g.join(byKey.sets[k])
	}
	redirects, keys := map[int][]string{}, map[int][]string{}
	for _, u := range byURL.order {
		if s := byURL.sets[u]; len(s) > 1 && len(chains[u]) > 0 {
			r := g.find(s[0])
			redirects[r] = append(redirects[r], chains[u]...)
		}
	}
	for _, k := range byKey.order {
		if s := byKey.sets[k]; len(s) > 1 {
			r := g.find(s[0])
			keys[r] = append(keys[r], fmt.Sprintf("URLS key %q holds both", k))
		}
	}
	members := map[int][]*pdfio.ContentSet{}
	var roots []int
	for i, cs := range sets {
		r := g.find(i)
		if members[r] == nil {
			roots = append(roots, r)
		}
		members[r] = append(members[r], cs)
	}
	for _, r := range roots {
		if len(members[r]) < 2 {
			continue
		}
		if why := redirects[r]; len(why) > 0 { // a redirect says more than the key it led to
			a.reportDuplicate(members[r], why, true)
		} else {
			a.reportDuplicate(members[r], keys[r], false)
		}
	}
}

// An index lists the sets under each string, each set once, strings in the
// order first met.
type index struct {
	order []string
	sets  map[string][]int
}

func (x *index) add(s string, i int) {
	if x.sets == nil {
		x.sets = map[string][]int{}
	}
	have := x.sets[s]
	if len(have) == 0 {
		x.order = append(x.order, s)
	}
	if len(have) > 0 && have[len(have)-1] == i {
		return // sets are added in order: a repeat is the last one
	}
	x.sets[s] = append(have, i)
}

// union is a disjoint-set forest over set indexes.
type union []int

func newUnion(n int) union {
	u := make(union, n)
	for i := range u {
		u[i] = i
	}
	return u
}

func (u union) find(i int) int {
	for u[i] != i {
		u[i] = u[u[i]]
		i = u[i]
	}
	return i
}

// join puts every index of s in one group.
func (u union) join(s []int) {
	for _, i := range s[min(1, len(s)):] {
		if a, b := u.find(s[0]), u.find(i); a != b {
			u[b] = a
		}
	}
}

// How many sets, and how many redirects or keys, a message names at most.
const (
	maxNamed   = 8
	maxReasons = 4
)

// reportDuplicate reports a group of sets that hold one resource, once, on
// the set with the greatest object number; redirect says the reasons are
// redirect chains, not URLS keys.
func (a *auditor) reportDuplicate(group []*pdfio.ContentSet, reasons []string, redirect bool) {
	sort.SliceStable(group, func(i, j int) bool {
		x, y := group[i].Ref, group[j].Ref
		return x.Num < y.Num || x.Num == y.Num && x.Gen < y.Gen
	})
	names := make([]string, len(group))
	urls := map[string]bool{}
	for i, cs := range group {
		names[i] = setName(cs)
		for _, u := range cs.SourceURLs() {
			urls[a.canonicalURL(u)] = true
		}
	}
	var why []string
	seen := map[string]bool{}
	for _, r := range reasons {
		if !seen[r] {
			seen[r] = true
			why = append(why, r)
		}
	}
	if n := len(names) - maxNamed; n > 0 {
		names = append(names[:maxNamed], fmt.Sprintf("%d more", n))
	}
	if n := len(why) - maxReasons; n > 0 {
		why = append(why[:maxReasons], fmt.Sprintf("and %d more", n))
	}
	fix := "keep one set"
	switch {
	case len(urls) == 2 && redirect:
		fix = "keep one set with both URLs in its alias chain"
	case len(urls) == 2:
		fix = "keep one set whose source information names both URLs"
	case len(urls) > 2:
		fix = fmt.Sprintf("keep one set whose source information names all %d URLs", len(urls))
	}
	later := group[len(group)-1]
	a.add("WC-CS-REDIRECT-DUPLICATE", later.Ref, "/SI", "content sets %s hold the same resource (/ID <%s>): %s; %s",
		andList(names), later.ID.Hex(), strings.Join(why, "; "), fix)
}

// redirectChains returns the redirect chains of the set's URL alias
// dictionaries, as written, each ending in the dictionary's U (which a
// chain may leave out). A chain of one URL redirects nothing and is left
// out.
func (a *auditor) redirectChains(cs *pdfio.ContentSet) [][]string {
	var out [][]string
	for _, si := range cs.Sources {
		au := si.URLs
		if !au.Alias {
			continue
		}
		for _, c := range au.Chains {
			chain := append([]string(nil), c...)
			if au.URL != "" && (len(chain) == 0 || a.canonicalURL(chain[len(chain)-1]) != a.canonicalURL(au.URL)) {
				chain = append(chain, au.URL)
			}
			if len(chain) > 1 {
				out = append(out, chain)
			}
		}
	}
	return out
}

// canonicalURL returns u in the profile's canonical form, or u itself when
// it has none (WC-URLS-CANONICAL reports such a key).
func (a *auditor) canonicalURL(u string) string {
	if c, err := a.canon.String(u); err == nil {
		return c
	}
	return u
}

// setName names a content set for a message: its reference, or where a
// direct one stands.
func setName(cs *pdfio.ContentSet) string {
	if cs.Ref.IsZero() {
		return "(direct, at " + cs.Path + ")"
	}
	return cs.Ref.String()
}

// andList joins "a", "a and b", "a, b and c".
func andList(s []string) string {
	if len(s) < 2 {
		return strings.Join(s, "")
	}
	return strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}
