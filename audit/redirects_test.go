package audit

import (
	"strconv"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

const (
	about   = "http://www.example.com/about.html"
	oldPage = "http://www.example.com/old-page"
	older   = "http://www.example.com/older-page"
)

// alias is a URL alias dictionary: U and its redirect chains.
func alias(u string, chains ...[]string) pb.Dict {
	d := pb.D("U", pb.Lit(u))
	if len(chains) > 0 {
		c := pb.Array{}
		for _, chain := range chains {
			a := pb.Array{}
			for _, s := range chain {
				a = append(a, pb.Lit(s))
			}
			c = append(c, a)
		}
		d.Set("C", c)
	}
	return d
}

// pageSet is one page set of a dupSpec: its /AU, its /ID (pageID if
// empty) and the URLS keys that hold it.
type pageSet struct {
	au   any
	id   string
	keys []string
}

// dupSpec builds the clean capture with its pages spread over the page
// sets given: the first is the builder's page set and keeps page
// 1, the second is added after it and holds page 2, any further one holds
// no page. IDS and URLS keys hold an array when several sets share one.
// The sets' references are written to out.
func dupSpec(sets []pageSet, out *[]pb.Ref) spec {
	id := func(i int) string {
		if sets[i].id == "" {
			return pageID
		}
		return sets[i].id
	}
	var made []pb.Ref
	// tree rebuilds a tree's entries: the image set's entry, then one per
	// key, in the order the sets name them.
	tree := func(keep pb.KV, key func(i int) []string) []pb.KV {
		out := []pb.KV{keep}
		at := map[string]int{}
		for i := range sets {
			for _, k := range key(i) {
				j, ok := at[k]
				if !ok {
					at[k] = len(out)
					out = append(out, pb.KV{Key: k, Value: made[i]})
					continue
				}
				if arr, isArr := out[j].Value.(pb.Array); isArr {
					out[j].Value = append(arr, made[i])
				} else {
					out[j].Value = pb.Array{out[j].Value, made[i]}
				}
			}
		}
		return out
	}
	return spec{
		sps:   func(d *pb.Dict) { d.Set("O", d.Get("O").(pb.Array)[:1]); d.Set("ID", pb.Hex(id(0))) },
		spsSI: func(d *pb.Dict) { d.Set("AU", sets[0].au) },
		page: func(i int, d *pb.Dict) {
			if len(sets) > 1 {
				d.Set("ID", pb.Hex(id(min(i, 1))))
			}
		},
		extra: func(b *pb.Builder, r refs) {
			made = append(made[:0], r.sps)
			for i := 1; i < len(sets); i++ {
				o := pb.Array{}
				if i == 1 {
					o = pb.Array{r.pages[1]}
				}
				made = append(made, b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex(id(i)), "O", o, "SI", pb.D("AU", sets[i].au))))
			}
			*out = made
		},
		ids: func(b *pb.Builder, kv []pb.KV) []pb.KV {
			return tree(kv[1], func(i int) []string { return []string{id(i)} })
		},
		urls: func(b *pb.Builder, kv []pb.KV) []pb.KV {
			return tree(kv[1], func(i int) []string { return sets[i].keys })
		},
	}
}

// The same fetched resource captured twice, through a redirect: one content
// set per fetched resource, with every URL that reached it in its source
// information (ISO 32000-1 §14.10.5.1: "SI shall be an array of source
// information dictionaries, one for each distinct URL"; Table 356: URLs that
// reach one location through redirection are one URL alias dictionary).
func TestRedirectDuplicate(t *testing.T) {
	otherID := "\x11\x22\x33\x44\x55\x66\x77\x88\x99\xaa\xbb\xcc\xdd\xee\xff\x00"
	cases := []struct {
		name string
		sets []pageSet
		want []string // message fragments, {i} for set i; none: no finding
		also []string // other rules the file breaks
	}{
		{
			name: "alias dict on one set, one URLS key for both",
			sets: []pageSet{
				{au: alias(about, []string{oldPage, about}), keys: []string{about}},
				{au: pb.Lit("http://WWW.Example.com:80/about.html"), keys: []string{about}},
			},
			want: []string{"content sets {0} and {1} hold the same resource (/ID <83EDD6AAB530B644B8540F609E468F78>): " +
				oldPage + " redirects to " + about + "; keep one set with both URLs in its alias chain"},
		},
		{
			name: "alias dict on one set, each set under its own URL",
			sets: []pageSet{
				{au: pb.Lit(about), keys: []string{about}},
				{au: alias(about, []string{oldPage}), keys: []string{oldPage}},
			},
			want: []string{oldPage + " redirects to " + about},
		},
		{
			name: "non-canonical spelling in the chain",
			sets: []pageSet{
				{au: pb.Lit(oldPage), keys: []string{oldPage}},
				{au: alias(about, []string{"HTTP://www.example.com:80/old-page"}), keys: []string{about}},
			},
			want: []string{"HTTP://www.example.com:80/old-page redirects to " + about},
		},
		{
			name: "alias dicts on both sets, overlapping chains",
			sets: []pageSet{
				{au: alias(about, []string{oldPage, about}), keys: []string{oldPage}},
				{au: alias(about, []string{older, oldPage}), keys: []string{older}},
			},
			want: []string{"content sets {0} and {1}", oldPage + " redirects to " + about,
				"keep one set whose source information names all 3 URLs"},
		},
		{
			name: "one URLS key holds both, no chain",
			sets: []pageSet{
				{au: pb.Lit(about), keys: []string{about}},
				{au: pb.Lit(about), keys: []string{about}},
			},
			want: []string{`URLS key "` + about + `" holds both; keep one set`},
		},
		{
			name: "one URLS key holds both, different URLs",
			sets: []pageSet{
				{au: pb.Lit(about), keys: []string{about}},
				{au: pb.Lit(about + "?"), keys: []string{about}},
			},
			want: []string{`URLS key "` + about + `" holds both; keep one set whose source information names both URLs`},
			also: []string{"WC-URLS-SOURCE"},
		},
		{
			name: "three sets, reported once",
			sets: []pageSet{
				{au: pb.Lit(about), keys: []string{about}},
				{au: alias(about, []string{oldPage}), keys: []string{oldPage}},
				{au: alias(about, []string{older}), keys: []string{older}},
			},
			want: []string{"content sets {0}, {1} and {2}", oldPage + " redirects to " + about,
				older + " redirects to " + about},
		},
		{
			name: "many sets, a short message",
			sets: func() []pageSet {
				s := []pageSet{{au: pb.Lit(about), keys: []string{about}}}
				for i := 0; i < 20; i++ {
					s = append(s, pageSet{au: alias(about, []string{home + "p" + strconv.Itoa(i)}), keys: []string{about}})
				}
				return s
			}(),
			want: []string{"{6}, {7} and 13 more hold", "p3 redirects to " + about + "; and 16 more; keep one set whose source information names all 21 URLs"},
		},
		{
			name: "same /ID from unrelated URLs",
			sets: []pageSet{
				{au: pb.Lit(about), keys: []string{about}},
				{au: pb.Lit(home + "copy.html"), keys: []string{home + "copy.html"}},
			},
		},
		{
			name: "chains from unrelated URLs",
			sets: []pageSet{
				{au: alias(about, []string{oldPage}), keys: []string{about}},
				{au: alias(home+"copy.html", []string{older}), keys: []string{home + "copy.html"}},
			},
		},
		{
			name: "alias dicts without chains name one URL each",
			sets: []pageSet{
				{au: alias(about), keys: []string{about}},
				{au: alias(home + "copy.html"), keys: []string{home + "copy.html"}},
			},
		},
		{
			name: "same chain, different /IDs",
			sets: []pageSet{
				{au: alias(about, []string{oldPage, about}), keys: []string{about}},
				{au: alias(about, []string{oldPage}), id: otherID, keys: []string{about}},
			},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var refs []pb.Ref
			fs := audit(t, dupSpec(tc.sets, &refs))
			if len(tc.want) == 0 {
				if len(fs) != 0 {
					t.Errorf("findings:%s", show(fs))
				}
				return
			}
			got := onlyRule(fs, "WC-CS-REDIRECT-DUPLICATE")
			if len(got) != 1 {
				t.Fatalf("%d WC-CS-REDIRECT-DUPLICATE findings, want 1:%s", len(got), show(fs))
			}
			f := got[0]
			later := webcapture.Ref{Num: int(refs[len(refs)-1])}
			if f.Object != later || f.Severity != Serious || f.Key != "/SI" {
				t.Errorf("finding on %s %s (%s), want %s /SI (error)", f.Object, f.Key, f.Severity, later)
			}
			var names []string
			for i, r := range refs {
				names = append(names, "{"+strconv.Itoa(i)+"}", webcapture.Ref{Num: int(r)}.String())
			}
			for _, w := range tc.want {
				w = strings.NewReplacer(names...).Replace(w)
				if !strings.Contains(f.Message, w) {
					t.Errorf("message %q\nlacks %q", f.Message, w)
				}
			}
			if rest := without(fs, append(tc.also, "WC-CS-REDIRECT-DUPLICATE")...); len(rest) != 0 {
				t.Errorf("other findings:%s", show(rest))
			}
		})
	}
}

// The cases the specification allows are clean.
func TestRedirectNotDuplicate(t *testing.T) {
	cases := map[string]spec{
		// One set, one source information dictionary per URL (§14.10.5.1).
		"one set, SI array of two URLs": {
			sps: func(d *pb.Dict) {
				d.Set("SI", pb.Array{pb.D("AU", pb.Lit(home)), pb.D("AU", alias(about, []string{oldPage}))})
			},
			urls: func(b *pb.Builder, kv []pb.KV) []pb.KV {
				return append(kv, pb.KV{Key: about, Value: kv[0].Value}, pb.KV{Key: oldPage, Value: kv[0].Value})
			},
		},
		// Figure 10.2: a page set and an image set of one resource share
		// its /ID and its URL.
		"page set and image set of one redirected resource": {
			spsSI: func(d *pb.Dict) { d.Set("AU", alias(logo, []string{oldPage})) },
			sisSI: func(d *pb.Dict) { d.Set("AU", pb.Lit(logo)) },
			sis:   func(d *pb.Dict) { d.Set("ID", pb.Hex(pageID)) },
			img:   func(d *pb.Dict) { d.Set("ID", pb.Hex(pageID)) },
			ids: func(b *pb.Builder, kv []pb.KV) []pb.KV {
				return []pb.KV{{Key: pageID, Value: pb.Array{kv[0].Value, kv[1].Value}}}
			},
			urls: func(b *pb.Builder, kv []pb.KV) []pb.KV {
				return []pb.KV{{Key: logo, Value: pb.Array{kv[0].Value, kv[1].Value}}}
			},
		},
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			if fs := audit(t, s); len(fs) != 0 {
				t.Errorf("findings:%s", show(fs))
			}
		})
	}
}

func onlyRule(fs []Finding, rule string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}
