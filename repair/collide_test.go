package repair

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// keyed builds a capture of n page sets whose URLS tree holds keys, each
// leading to the sets named by index (one: the set; several: an array).
func keyed(n int, keys []keySets) []byte {
	b := pb.New()
	pagesRoot, pages := b.PageTree(n, nil)
	sets := make([]pb.Ref, n)
	var ids []pb.KV
	for i := range sets {
		id := strings.Repeat(string(rune('A'+i)), 16)
		sets[i] = b.Add(pb.D("S", pb.Name("SPS"), "ID", pb.Hex(id), "O", pb.Array{pages[i]}, "SI", pb.D("AU", pb.Lit("http://example.com/"))))
		ids = append(ids, pb.KV{Key: id, Value: sets[i]})
	}
	var urls []pb.KV
	for _, k := range keys {
		var v any = sets[k.sets[0]]
		if len(k.sets) > 1 {
			a := pb.Array{}
			for _, i := range k.sets {
				a = append(a, sets[i])
			}
			v = a
		}
		urls = append(urls, pb.KV{Key: k.key, Value: v})
	}
	names := b.Add(pb.D("IDS", b.NameTree(ids, 64, 64, pb.HexKey), "URLS", b.NameTree(urls, 64, 64, pb.LitKey)))
	b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", pagesRoot, "Names", names, "SpiderInfo", pb.D("V", 1.0)))
	return b.Bytes()
}

type keySets struct {
	key  string
	sets []int // indexes of the capture's sets
}

// urlsKeys reads the URLS tree of file: each key and the indexes of its
// sets, in tree order.
func urlsKeys(t *testing.T, file []byte) []keySets {
	t.Helper()
	d, err := pdfio.ReadBytes(file, "x.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var out []keySets
	for _, e := range d.URLS.Entries {
		k := keySets{key: e.Key}
		for _, cs := range e.Sets {
			k.sets = append(k.sets, slices.Index(d.Sets, cs))
		}
		slices.Sort(k.sets)
		out = append(out, k)
	}
	return out
}

// A URLS key is never rewritten to a key another key is or becomes when
// the two lead to different content sets; keys of the same sets merge.
func TestCollisions(t *testing.T) {
	cases := []struct {
		name       string
		sets       int
		keys       []keySets
		want       []keySets // the URLS tree after the fix, sorted by key bytes
		collisions []string  // Collision.String of each, in tree order
		rewrites   int       // WC-URLS-CANONICAL changes
	}{
		{
			name: "two keys of two sets become one key",
			sets: 2,
			keys: []keySets{{"HTTP://Example.com/a", []int{0}}, {"http://example.com:80/a", []int{1}}},
			want: []keySets{{"HTTP://Example.com/a", []int{0}}, {"http://example.com:80/a", []int{1}}},
			collisions: []string{`URLS keys "HTTP://Example.com/a" (set 5 0 R) and "http://example.com:80/a" (set 6 0 R) ` +
				`both canonicalize to "http://example.com/a" but lead to different content sets: neither is rewritten`},
		},
		{
			name: "a key becomes the canonical key of another set",
			sets: 2,
			keys: []keySets{{"http://example.com/b", []int{0}}, {"HTTP://EXAMPLE.COM/b", []int{1}}},
			want: []keySets{{"HTTP://EXAMPLE.COM/b", []int{1}}, {"http://example.com/b", []int{0}}},
			collisions: []string{`URLS key "HTTP://EXAMPLE.COM/b" (set 6 0 R) canonicalizes to "http://example.com/b", ` +
				`already the key of set 5 0 R: it is not rewritten`},
		},
		{
			name: "three keys, one canonical already",
			sets: 3,
			keys: []keySets{{"http://example.com/e", []int{0}}, {"HTTP://example.com/e", []int{1}}, {"http://EXAMPLE.com:80/e", []int{2}}},
			want: []keySets{{"HTTP://example.com/e", []int{1}}, {"http://EXAMPLE.com:80/e", []int{2}}, {"http://example.com/e", []int{0}}},
			collisions: []string{`URLS keys "HTTP://example.com/e" (set 7 0 R) and "http://EXAMPLE.com:80/e" (set 8 0 R) canonicalize to ` +
				`"http://example.com/e", already the key of set 6 0 R: neither is rewritten`},
		},
		{
			name: "sets that only overlap collide",
			sets: 2,
			keys: []keySets{{"HTTP://example.com/f", []int{0}}, {"http://example.com/f", []int{0, 1}}},
			want: []keySets{{"HTTP://example.com/f", []int{0}}, {"http://example.com/f", []int{0, 1}}},
			collisions: []string{`URLS key "HTTP://example.com/f" (set 5 0 R) canonicalizes to "http://example.com/f", ` +
				`already the key of sets 5 0 R, 6 0 R: it is not rewritten`},
		},
		{
			name:     "two non-canonical keys of the same set merge",
			sets:     1,
			keys:     []keySets{{"HTTP://Example.com/c", []int{0}}, {"http://example.com:80/c", []int{0}}},
			want:     []keySets{{"http://example.com/c", []int{0}}},
			rewrites: 2,
		},
		{
			name:     "a key of the same set as the canonical key merges",
			sets:     1,
			keys:     []keySets{{"http://example.com/c", []int{0}}, {"http://Example.com/c", []int{0}}},
			want:     []keySets{{"http://example.com/c", []int{0}}},
			rewrites: 1,
		},
		{
			name:     "the same sets in another order merge",
			sets:     2,
			keys:     []keySets{{"http://example.com/g", []int{0, 1}}, {"http://Example.com/g", []int{1, 0}}},
			want:     []keySets{{"http://example.com/g", []int{0, 1}}},
			rewrites: 1,
		},
		{
			name: "a collision does not stop the other repairs",
			sets: 3,
			keys: []keySets{{"HTTP://Example.com/a", []int{0}}, {"http://example.com:80/a", []int{1}}, {"HTTP://example.com/d", []int{2}}},
			want: []keySets{{"HTTP://Example.com/a", []int{0}}, {"http://example.com/d", []int{2}}, {"http://example.com:80/a", []int{1}}},
			collisions: []string{`URLS keys "HTTP://Example.com/a" (set 6 0 R) and "http://example.com:80/a" (set 7 0 R) ` +
				`both canonicalize to "http://example.com/a" but lead to different content sets: neither is rewritten`},
			rewrites: 1,
		},
		{
			name: "keys that cannot be canonicalized are kept: no collision",
			sets: 2,
			keys: []keySets{{"http://a:99999/", []int{0}}, {"HTTP://a:99999/", []int{1}}},
			want: []keySets{{"HTTP://a:99999/", []int{1}}, {"http://a:99999/", []int{0}}},
		},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			out, p := fix(t, keyed(tc.sets, tc.keys))
			var got []string
			for _, c := range p.Collisions {
				got = append(got, c.String())
			}
			if !slices.Equal(got, tc.collisions) {
				t.Errorf("collisions:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(tc.collisions, "\n"))
			}
			rewrites := 0
			for _, c := range p.Changes {
				if slices.Contains(c.Rules, "WC-URLS-CANONICAL") {
					rewrites++
				}
			}
			if rewrites != tc.rewrites {
				t.Errorf("%d WC-URLS-CANONICAL changes, want %d: %+v", rewrites, tc.rewrites, p.Changes)
			}
			if got, want := fmt.Sprint(urlsKeys(t, out)), fmt.Sprint(tc.want); got != want {
				t.Errorf("URLS after the fix = %s, want %s", got, want)
			}
		})
	}
}

// The Latin-1 hosts of issue 13's example: whether canon makes them one
// key (U+FFFD, punycoded) or rejects them as bad hosts, neither key is
// rewritten and both keep their bytes.
func TestLatin1HostsAreNeverMerged(t *testing.T) {
	keys := []keySets{{"http://m\xfcnchen.de/", []int{0}}, {"http://m\xe4nchen.de/", []int{1}}}
	out, p := fix(t, keyed(2, keys))
	for _, c := range p.Changes {
		if strings.Contains(c.Message, "nchen") {
			t.Errorf("change planned: %s", c.Message)
		}
	}
	want := []keySets{keys[1], keys[0]} // sorted: \xe4 before \xfc
	if got := fmt.Sprint(urlsKeys(t, out)); got != fmt.Sprint(want) {
		t.Errorf("URLS after the fix = %q, want %q", got, fmt.Sprint(want))
	}
	for _, c := range p.Collisions {
		if !strings.Contains(c.String(), `"http://m\xfcnchen.de/" (set 5 0 R)`) || !strings.Contains(c.String(), `"http://m\xe4nchen.de/" (set 6 0 R)`) {
			t.Errorf("collision does not quote both keys byte for byte: %s", c)
		}
	}
}

// A key written twice is one key, as before: its values merge, whatever
// the sets (the file's own lookup answers with both already).
func TestDuplicateKeyStillMerges(t *testing.T) {
	out, p := fix(t, keyed(2, []keySets{{"http://example.com/", []int{0}}, {"http://example.com/", []int{1}}}))
	if len(p.Collisions) != 0 {
		t.Errorf("collisions: %v", p.Collisions)
	}
	if got, want := fmt.Sprint(urlsKeys(t, out)), fmt.Sprint([]keySets{{"http://example.com/", []int{0, 1}}}); got != want {
		t.Errorf("URLS after the fix = %s, want %s", got, want)
	}
}
