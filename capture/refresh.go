package capture

import (
	"bytes"
	"context"
	"fmt"
	"sort"

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
}

// Refresh re-runs the commands stored in d's /SpiderInfo and compares each
// page set with what the source gives now, by canonical URL: unchanged,
// changed, new (captured now, not in the file) or gone (in the file, not
// captured now). It reports; it does not write.
func Refresh(ctx context.Context, b *Browser, d *pdfio.Document, opts RefreshOptions) ([]Change, []Skip, error) {
	if d.Info == nil || len(d.Info.Commands) == 0 {
		return nil, nil, fmt.Errorf("%s: no /SpiderInfo commands to re-run", d.File)
	}
	o := opts.Options.withDefaults()
	var starts []Start
	for _, c := range d.Info.Commands {
		starts = append(starts, Start{URL: c.URL, Levels: int(c.Depth()), Flags: c.FlagsOrDefault()})
	}
	cr, err := crawl(ctx, b, starts, o, nil)
	if err != nil {
		return nil, nil, err
	}
	type ids struct{ id, tid []byte }
	now := map[string]ids{}
	for _, p := range cr.res.Pages {
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
		now[key] = ids{id[:], tid[:]}
	}
	was := map[string]ids{}
	for _, cs := range d.Sets {
		if !cs.IsPageSet() || cs.ID == nil {
			continue
		}
		for _, si := range cs.Sources {
			key, err := cr.c.String(si.URLs.URL)
			if err != nil {
				continue
			}
			v := ids{id: []byte(*cs.ID)}
			if cs.TextID != nil {
				v.tid = []byte(*cs.TextID)
			}
			was[key] = v
		}
	}
	var out []Change
	for key, w := range was {
		n, ok := now[key]
		switch {
		case !ok:
			out = append(out, Change{URL: key, Status: "gone", Old: hexOf(w.id)})
		case opts.TextOnly && w.tid != nil:
			out = append(out, compare(key, w.tid, n.tid, "TID"))
		default:
			out = append(out, compare(key, w.id, n.id, "ID"))
		}
	}
	for key, n := range now {
		if _, ok := was[key]; !ok {
			out = append(out, Change{URL: key, Status: "new", New: hexOf(n.id)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].URL < out[j].URL })
	return out, cr.res.Skips, nil
}

func compare(key string, old, new []byte, by string) Change {
	c := Change{URL: key, Status: "unchanged", Old: hexOf(old), New: hexOf(new), By: by}
	if !bytes.Equal(old, new) {
		c.Status = "changed"
	}
	return c
}

func hexOf(b []byte) string { return webcapture.RawID(b).Hex() }
