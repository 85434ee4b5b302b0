package pdfio

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/webcap/webcap/webcapture"
)

// gen makes model values from a fuzzer's bytes, deterministically; when
// the bytes run out it gives zeros.
type gen struct{ b []byte }

func (g *gen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

func (g *gen) n(max int) int { return int(g.byte()) % max }
func (g *gen) bool() bool    { return g.byte()&1 == 1 }

// str is a byte string of any bytes (parentheses, backslashes, CR, NUL
// and high bytes included), up to 40 long.
func (g *gen) str() string {
	b := make([]byte, g.n(41))
	for i := range b {
		b[i] = g.byte()
	}
	return string(b)
}

func (g *gen) optStr() *string {
	if !g.bool() {
		return nil
	}
	s := g.str()
	return &s
}

func (g *gen) int() int64 { return int64(g.byte())<<8 | int64(g.byte()) - 1000 }

func (g *gen) date() *webcapture.Date {
	if !g.bool() {
		return nil
	}
	raw := "D:2026" + fmt.Sprintf("%02d%02d", 1+g.n(12), 1+g.n(28))
	if g.bool() {
		raw = g.str() // malformed dates are kept as written too
	}
	d, _ := webcapture.ParseDate(raw)
	return &d
}

// value is a settings value of any PDF kind the model holds, at most depth
// levels deep.
func (g *gen) value(depth int) webcapture.Object {
	switch k := g.n(7); {
	case k == 0:
		return g.bool()
	case k == 1:
		return g.int()
	case k == 2:
		return float64(g.int()) + 0.25 // not whole: a whole real reads back as an integer
	case k == 3:
		return webcapture.Name(fmt.Sprintf("N%d", g.byte()))
	case k == 4 && depth > 0:
		a := make([]webcapture.Object, g.n(4))
		for i := range a {
			a[i] = g.value(depth - 1)
		}
		return a
	case k == 5 && depth > 0:
		return g.dict(depth - 1)
	}
	return webcapture.String(g.str())
}

func (g *gen) dict(depth int) webcapture.Dict {
	d := webcapture.Dict{}
	for range g.n(4) {
		d[webcapture.Name(fmt.Sprintf("K%d", g.byte()))] = g.value(depth)
	}
	return d
}

func (g *gen) command() *webcapture.Command {
	c := &webcapture.Command{URL: "u" + g.str(), ContentType: g.optStr(), Headers: g.optStr()}
	if g.bool() {
		n := g.int()
		c.Levels = &n
	}
	if g.bool() {
		f := webcapture.Flags(uint32(g.int()) & 7)
		c.Flags = &f
	}
	if g.bool() {
		p := []byte(g.str())
		c.PostData, c.PostStream = &p, g.bool()
	}
	if g.bool() {
		s := &webcapture.Settings{}
		if g.bool() {
			s.Global = g.dict(2)
		}
		for i := range g.n(3) {
			key := fmt.Sprintf("CO%d:prod%d:1.%d:text/html", i, g.byte(), g.byte())
			e := webcapture.EngineSettings{Key: webcapture.Name(key), Settings: g.dict(1)}
			e.Engine, _ = webcapture.ParseEngineName(key)
			s.Engines = append(s.Engines, e)
		}
		c.Settings = s
	}
	return c
}

func (g *gen) source(cmds []webcapture.Ref) *webcapture.SourceInfo {
	si := &webcapture.SourceInfo{URLs: webcapture.AliasedURLs{URL: "u" + g.str()}, Updated: g.date(), Expires: g.date()}
	if g.bool() {
		si.URLs.Alias = true
		for range g.n(3) {
			chain := make([]string, 1+g.n(3))
			for j := range chain {
				chain[j] = "u" + g.str()
			}
			si.URLs.Chains = append(si.URLs.Chains, chain)
		}
	}
	if g.bool() {
		n := int64(g.n(3))
		si.Submission = &n
	}
	if len(cmds) > 0 && g.bool() {
		c := cmds[g.n(len(cmds))]
		si.Command = &c
	}
	if g.bool() { // webcap's /WCSHA256, of any length as read
		d := webcapture.RawID(g.str())
		si.SHA256 = &d
	}
	return si
}

func (g *gen) contentSet(pages []webcapture.Ref, cmds []webcapture.Ref) *webcapture.ContentSet {
	id := webcapture.RawID(g.str())
	cs := &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: &id, ContentType: g.optStr(), Created: g.date()}
	if g.bool() {
		t := webcapture.Name("SpiderContentSet")
		cs.Type = &t
	}
	cs.Objects = []webcapture.Ref{}
	for range g.n(len(pages) + 1) {
		cs.Objects = append(cs.Objects, pages[g.n(len(pages))])
	}
	for range 1 + g.n(3) {
		cs.Sources = append(cs.Sources, g.source(cmds))
	}
	cs.SourceArray = len(cs.Sources) > 1 || g.bool()
	if g.bool() {
		cs.Subtype = webcapture.ImageSet
		cs.RefCounts = make([]int64, len(cs.Objects))
		for i := range cs.RefCounts {
			cs.RefCounts[i] = g.int()
		}
		cs.RefArray = len(cs.RefCounts) != 1 || g.bool()
		return cs
	}
	if g.bool() {
		t := webcapture.Text(g.str())
		cs.Title = &t
	}
	if g.bool() {
		tid := webcapture.RawID(g.str())
		cs.TextID = &tid
	}
	return cs
}

// FuzzWriteRead writes random valid models through the typed writes
// (AddCommand, AddContentSet, SetSpiderInfo, both name trees), reads the
// file back, and requires the model it wrote: every key is read the way it
// is written.
func FuzzWriteRead(f *testing.F) {
	f.Add([]byte{})
	f.Add([]byte("(x)\\\r\n\x00\xff some bytes for the generator to use, with ( and ) and \\ in them"))
	f.Add([]byte{255, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1})
	orig := plain(3, false)
	f.Fuzz(func(t *testing.T, data []byte) {
		u, err := NewUpdate(orig, "plain.pdf", Options{})
		if err != nil {
			t.Fatal(err)
		}
		d0, _ := u.Document()
		var pages []webcapture.Ref
		for _, p := range d0.Pages {
			pages = append(pages, p.Ref)
		}
		g := &gen{data}
		info := &webcapture.Info{Version: &webcapture.Number{Value: 1.25}}
		if g.bool() {
			info.Version = &webcapture.Number{Value: 1, Integer: true}
		}
		var cmdRefs []webcapture.Ref
		for range g.n(3) {
			c := g.command()
			if _, err := u.AddCommand(c); err != nil {
				t.Fatalf("AddCommand(%+v): %v", c, err)
			}
			info.Commands = append(info.Commands, c)
			cmdRefs = append(cmdRefs, c.Ref)
		}
		if err := u.SetSpiderInfo(info); err != nil {
			t.Fatal(err)
		}
		var sets []*webcapture.ContentSet
		var ids []NameEntry
		seen := map[string]bool{}
		for range 1 + g.n(4) {
			cs := g.contentSet(pages, cmdRefs)
			if seen[string(*cs.ID)] {
				continue // one set per IDS key, so each is reached once
			}
			seen[string(*cs.ID)] = true
			ref, err := u.AddContentSet(cs)
			if err != nil {
				t.Fatalf("AddContentSet(%+v): %v", cs, err)
			}
			cs.Ref = ref
			sets = append(sets, cs)
			ids = append(ids, NameEntry{Key: string(*cs.ID), Sets: []webcapture.Ref{ref}})
		}
		if err := u.SetNameTree("IDS", ids, TreeShape{Hex: true}); err != nil {
			t.Fatal(err)
		}
		// Result, which takes the sets and the tree from their models
		// (result_model.go; verifyKept reads them too), reads the same.
		_, d := resultAndRead(t, u, "roundtrip.pdf")
		if d.Info == nil || !reflect.DeepEqual(comparable(d.Info), comparable(info)) {
			t.Errorf("SpiderInfo read back as\n%+v\nwant\n%+v", dump(d.Info), dump(info))
		}
		if len(d.Sets) != len(sets) {
			t.Fatalf("%d sets read back, want %d", len(d.Sets), len(sets))
		}
		byID := map[webcapture.RawID]*webcapture.ContentSet{}
		for _, cs := range d.Sets {
			byID[*cs.ID] = cs.ContentSet
		}
		for _, want := range sets {
			if got := byID[*want.ID]; !reflect.DeepEqual(comparable(got), comparable(want)) {
				t.Errorf("set %s read back as\n%s\nwant\n%s", want.Ref, dump(got), dump(want))
			}
		}
	})
}

// comparable is a model value with what reading adds left out: parsed
// dates (their text is compared), a settings dictionary's place, and the
// errors of engine names (their parse is compared).
func comparable(v any) any {
	switch m := v.(type) {
	case *webcapture.Info:
		c := *m
		c.Ref = webcapture.Ref{}
		cmds := make([]any, len(c.Commands))
		for i, cmd := range c.Commands {
			cmds[i] = comparable(cmd)
		}
		c.Commands = nil
		return []any{c, cmds}
	case *webcapture.Command:
		c := *m
		if c.Settings != nil {
			s := *c.Settings
			s.Ref = webcapture.Ref{}
			s.Engines = append([]webcapture.EngineSettings(nil), s.Engines...)
			for i := range s.Engines {
				s.Engines[i].Err = nil
			}
			c.Settings = &s
		}
		return c
	case *webcapture.ContentSet:
		c := *m
		c.Created = rawDate(c.Created)
		src := make([]webcapture.SourceInfo, len(c.Sources))
		for i, si := range c.Sources {
			src[i] = *si
			src[i].Updated, src[i].Expires = rawDate(si.Updated), rawDate(si.Expires)
		}
		c.Sources = nil
		return []any{c, src}
	}
	return v
}

func rawDate(d *webcapture.Date) *webcapture.Date {
	if d == nil {
		return nil
	}
	return &webcapture.Date{Raw: d.Raw}
}

func dump(v any) string { return fmt.Sprintf("%#v", comparable(v)) }
