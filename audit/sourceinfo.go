package audit

import (
	"strings"

	"github.com/webcap/webcap/pdfio"
)

// sourceTwice reports a URL that two source information dictionaries of
// one /SI array name: /SI holds one per distinct URL (ISO 32000-1
// §14.10.5.1). URLs are compared in canonical form, by the profile.
func (a *auditor) sourceTwice(cs *pdfio.ContentSet) {
	if len(cs.Sources) < 2 {
		return
	}
	first := map[string]int{}
	for i, si := range cs.Sources {
		u := si.URLs.URL
		if u == "" {
			continue // WC-SI-AU says so
		}
		key := u
		if c, err := a.canon.String(u); err == nil {
			key = c
		}
		j, seen := first[key]
		if !seen {
			first[key] = i
			continue
		}
		a.add("WC-SI-DUPLICATE", cs.Ref, "/SI", "SI[%d] and SI[%d] both name %q (canonical form %q): /SI holds one source information dictionary per distinct URL", j, i, u, key)
	}
}

// aliasChains reports URL alias dictionaries whose /C holds no chain, or a
// chain with no URL: /C is an array of one or more chains of URLs, or
// absent (ISO 32000-1 Table 356).
func (a *auditor) aliasChains() {
	for _, pl := range a.d.EmptyAliasC {
		if strings.HasSuffix(pl.Path, "]") {
			a.add("WC-ALIAS-EMPTY", pl.Object, "/C", "the redirect chain %s of a URL alias dictionary holds no URL", pl.Path)
		} else {
			a.add("WC-ALIAS-EMPTY", pl.Object, "/C", "the URL alias /C at %s holds no redirect chain: omit it, or give it one or more chains", pl.Path)
		}
	}
}
