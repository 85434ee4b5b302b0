package capture

import (
	"bytes"
	"context"
	"fmt"
	"sort"
	"time"

	"github.com/webcap/webcap/build"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// A Change is what refresh found for one source URL.
type Change struct {
	URL    string `json:"url"`
	Status string `json:"status"` // unchanged, changed, new, gone
	Old    string `json:"oldId,omitempty"`
	New    string `json:"newId,omitempty"`
	By     string `json:"comparedBy,omitempty"` // ID, or TID with TextOnly
}

// RefreshOptions control Refresh.
type RefreshOptions struct {
	Options
	// TextOnly compares the text identifiers (TID) instead of the page
	// identifiers: Acrobat's "compare only page text". A set without a
	// TID is compared by ID.
	TextOnly bool
	// DryRun reports without making the refreshed file.
	DryRun bool
}

// A RefreshResult is what Refresh found and, unless DryRun, made.
type RefreshResult struct {
	Changes []Change // by URL
	Skips   []Skip   // what the crawl did not fetch, and why
	// PDF is the refreshed file (nil with DryRun): the input's bytes, then
	// an incremental update in which each changed page set's pages are
	// replaced by the new capture (the set keeps its object; its ID, TID,
	// title and times are the new ones), new pages are added at the end
	// with their page sets, the sources of unchanged sets get the time
	// they were checked (/TS) and their new expiry (/E), and links follow.
	// Gone sets are left as they are.
	PDF                      []byte
	Replaced, Added, Checked int
	Links                    int // links made internal
}

// Refresh re-runs the commands stored in file's /SpiderInfo (name is used
// in messages) and compares each page set with what the source gives now,
// by canonical URL: unchanged, changed, new (captured now, not in the
// file) or gone (in the file, not captured now). Unless opts.DryRun, it
// then writes the refreshed file (RefreshResult.PDF).
func Refresh(ctx context.Context, b *Browser, file []byte, name string, opts RefreshOptions) (*RefreshResult, error) {
	u, err := pdfio.NewUpdate(file, name, pdfio.Options{})
	if err != nil {
		return nil, err
	}
	d, err := u.Document()
	if err != nil {
		return nil, err
	}
	if d.Info == nil || len(d.Info.Commands) == 0 {
		return nil, fmt.Errorf("%s: no /SpiderInfo commands to re-run", d.File)
	}
	o := opts.Options.withDefaults()
	var starts []Start
	for _, c := range d.Info.Commands {
		s := Start{URL: c.URL, Levels: int(c.Depth()), Flags: c.FlagsOrDefault()}
		if c.PostData != nil {
			s.Post = *c.PostData
			if c.ContentType != nil {
				s.PostType = *c.ContentType
			}
		}
		starts = append(starts, s)
	}
	cr, err := crawl(ctx, b, starts, o, nil)
	if err != nil {
		return nil, err
	}
	type ids struct {
		id, tid []byte
		page    int // index in cr.res.Pages
	}
	now := map[string]ids{}
	for i, p := range cr.res.Pages {
		key, err := cr.c.String(p.URL)
		if err != nil {
			continue
		}
		ct := p.Document.Header.Get("Content-Type")
		var id webcapture.ID
		if isHTML(p.Document) {
			r, err := webcapture.PageSetID(p.Document.Body, webcapture.PageSetOptions{URL: p.URL, ContentType: ct, Aux: cr.sources, Profile: o.Profile})
			if err != nil {
				continue
			}
			id = r.ID
		} else {
			id, _ = webcapture.ImageSetID(bytes.NewReader(p.Document.Body))
		}
		tid, _ := webcapture.TextID(p.Document.Body, ct)
		now[key] = ids{id[:], tid[:], i}
	}
	type held struct {
		ids
		set *pdfio.ContentSet
	}
	was := map[string]held{}
	images := map[string]*pdfio.ContentSet{} // image sets by source URL
	for _, cs := range d.Sets {
		if cs.ID == nil || cs.Ref.IsZero() {
			continue
		}
		for _, si := range cs.Sources {
			key, err := cr.c.String(si.URLs.URL)
			if err != nil {
				continue
			}
			if cs.IsImageSet() {
				images[key] = cs
				continue
			}
			if !cs.IsPageSet() {
				continue
			}
			v := held{ids{id: []byte(*cs.ID)}, cs}
			if cs.TextID != nil {
				v.tid = []byte(*cs.TextID)
			}
			was[key] = v
		}
	}
	res := &RefreshResult{Skips: cr.res.Skips}
	for key, w := range was {
		n, ok := now[key]
		switch {
		case !ok:
			res.Changes = append(res.Changes, Change{URL: key, Status: "gone", Old: hexOf(w.id)})
		case opts.TextOnly && w.tid != nil:
			res.Changes = append(res.Changes, compare(key, w.tid, n.tid, "TID"))
		default:
			res.Changes = append(res.Changes, compare(key, w.id, n.id, "ID"))
		}
	}
	for key, n := range now {
		if _, ok := was[key]; !ok {
			res.Changes = append(res.Changes, Change{URL: key, Status: "new", New: hexOf(n.id)})
		}
	}
	sort.Slice(res.Changes, func(i, j int) bool { return res.Changes[i].URL < res.Changes[j].URL })
	if opts.DryRun {
		return res, nil
	}

	// Put the new pages in place, then describe their sets for build.
	type placed struct {
		key   string
		refs  []webcapture.Ref
		dests []pdfio.PrintedDest
		set   *pdfio.ContentSet // the set replaced; nil for a new page
		image *pdfio.ContentSet // the image set replaced, for an image page
	}
	var todo []placed
	m := &build.Manifest{Profile: o.Profile.Name()}
	moved := map[webcapture.Ref]webcapture.Ref{}
	for _, c := range res.Changes {
		w, n := was[c.URL], now[c.URL]
		switch c.Status {
		case "unchanged":
			doc := cr.res.Pages[n.page].Document
			ck := build.Checked{Set: w.set.Ref, Time: doc.Fetched.Format(time.RFC3339)}
			if e, ok := Expiry(doc.Header, doc.Fetched); ok {
				ck.Expires = e.UTC().Format(time.RFC3339)
			}
			m.Checked = append(m.Checked, ck)
			if is := images[c.URL]; is != nil {
				m.Checked = append(m.Checked, build.Checked{Set: is.Ref, Time: ck.Time, Expires: ck.Expires})
			}
			res.Checked++
		case "changed":
			p := cr.res.Pages[n.page]
			refs, pr, err := u.ReplacePages(w.set.Objects, p.PDF, "the browser's PDF of "+p.URL)
			if err != nil {
				return nil, fmt.Errorf("refresh: %w", err)
			}
			for _, old := range w.set.Objects {
				moved[old] = refs[0]
			}
			todo = append(todo, placed{c.URL, refs, pr.Dests, w.set, images[c.URL]})
			res.Replaced++
		case "new":
			p := cr.res.Pages[n.page]
			refs, pr, err := u.AppendPages(p.PDF, "the browser's PDF of "+p.URL)
			if err != nil {
				return nil, fmt.Errorf("refresh: %w", err)
			}
			todo = append(todo, placed{key: c.URL, refs: refs, dests: pr.Dests})
			res.Added++
		}
	}
	// build numbers pages: where the new ones are now.
	number := map[webcapture.Ref]int{}
	if len(todo) > 0 {
		order, err := u.Pages()
		if err != nil {
			return nil, fmt.Errorf("refresh: %w", err)
		}
		for i, r := range order {
			number[r] = i + 1
		}
	}
	var printed []printedPage
	for _, t := range todo {
		n := now[t.key]
		p, it := cr.res.Pages[n.page], cr.items[n.page]
		pp := printedPage{number[t.refs[0]], len(t.refs), t.dests}
		printed = append(printed, pp)
		ps, is := pageSet(p, it, starts[it.Command], pp, o)
		ps.CommandRef = d.Info.Commands[it.Command].Ref
		if t.set != nil {
			ps.Replaces = t.set.Ref
		}
		m.PageSets = append(m.PageSets, ps)
		if is != nil {
			if t.image != nil {
				is.Replaces = t.image.Ref
			}
			m.ImageSets = append(m.ImageSets, *is)
		}
	}
	input, err := u.Bytes()
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	m.Input, m.InputData = name, input
	br, err := build.Build(m, build.Options{Profile: o.Profile, Sources: cr.sources})
	if err != nil {
		return nil, fmt.Errorf("refresh: %w", err)
	}
	if res.PDF, res.Links, err = internalLinks(br.Output, name, cr.c, moved, printed, false); err != nil {
		return nil, fmt.Errorf("refresh: internal links: %w", err)
	}
	return res, nil
}

func compare(key string, old, new []byte, by string) Change {
	c := Change{URL: key, Status: "unchanged", Old: hexOf(old), New: hexOf(new), By: by}
	if !bytes.Equal(old, new) {
		c.Status = "changed"
	}
	return c
}

func hexOf(b []byte) string { return webcapture.RawID(b).Hex() }
