package capture

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"sort"
	"time"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/record"
	"github.com/webcap/webcap/webcapture"
)

// A Change is what refresh found for one page set (by its source's final
// URL), or for a page captured now that the file does not have.
type Change struct {
	URL    string `json:"url"`
	Status string `json:"status"` // one of the Status* values
	Old    string `json:"oldId,omitempty"`
	New    string `json:"newId,omitempty"`
	By     string `json:"comparedBy,omitempty"` // ID, or TID with TextOnly
	// Reason says why a page is gone, unreachable or unchecked.
	Reason string `json:"reason,omitempty"`
	Kind   string `json:"kind,omitempty"` // the Skip kind behind Reason
}

// What refresh found for a page.
const (
	StatusUnchanged   = "unchanged"   // the source gives what the set holds
	StatusChanged     = "changed"     // the source gives something else
	StatusNew         = "new"         // captured now, not in the file
	StatusGone        = "gone"        // the server says it is gone (404, 410)
	StatusUnreachable = "unreachable" // it could not be fetched: refused, DNS, TLS, time-out, an error status
	StatusUnchecked   = "unchecked"   // not fetched: a limit, robots.txt, a form not resubmitted, an address not allowed
)

// Differs reports whether a status is anything but unchanged: the page is
// not known to be what the file holds.
func (c Change) Differs() bool { return c.Status != StatusUnchanged }

// A Replay is one of the file's commands, and whether refresh runs it.
type Replay struct {
	URL      string `json:"url"`
	Method   string `json:"method"` // GET or POST
	Levels   int    `json:"levels"`
	Flags    string `json:"flags,omitempty"`
	Replayed bool   `json:"replayed"`
	Reason   string `json:"reason,omitempty"` // why it is not replayed
}

// RefreshOptions control Refresh.
type RefreshOptions struct {
	Options
	// TextOnly compares the text identifiers (TID) instead of the page
	// identifiers: Acrobat's "compare only page text". A set without a
	// TID is compared by ID.
	TextOnly bool
	// DryRun reports without making the refreshed file. It sends no
	// request with a body and no method but GET and HEAD, so it never
	// resubmits a form by POST (nor lets a page's scripts send one).
	DryRun bool
	// Resubmit replays the commands that are form submissions (their
	// data is the file's: someone else's, when the file is), and lets a
	// page's scripts send what they send while it renders (a POST to
	// subscribe, a beacon), as the capture did. Without it the commands
	// are not run and their pages are unchecked, and a page's own
	// requests but GET and HEAD are not sent: each is answered in the
	// browser with an empty 204, and named (RefreshResult.Unsent).
	Resubmit bool
}

// A RefreshResult is what Refresh found and, unless DryRun, made.
type RefreshResult struct {
	Commands []Replay // the file's commands, in order
	Changes  []Change // by URL
	Skips    []Skip   // what the crawl did not fetch, and why
	Stopped  error    // why the crawl stopped early (Result.Stopped), or nil
	// Unsent are the requests the pages' scripts made that were not
	// sent (neither Resubmit, or DryRun): Result.Unsent.
	Unsent     []Unsent
	UnsentMore int
	// PDF is the refreshed file: the input's bytes, then an incremental
	// update in which each changed page set's pages are replaced by the
	// new capture (the set keeps its object; its ID, TID, title and
	// times are the new ones), new pages are added at the end with their
	// page sets, the sources of unchanged sets get the time they were
	// checked (/TS) and their new expiry (/E), and links follow. Gone,
	// unreachable and unchecked sets are left as they are. PDF is nil
	// with DryRun, and when no page could be checked (nothing to write).
	PDF                      []byte
	Pages                    []*Page // the pages fetched, in order (WriteWARC)
	Replaced, Added, Checked int
	Links                    int // links made internal
	// Bookmarks is how many page sets were filed under "New and Changed
	// Pages"; Notes are as a capture's (Result.Notes).
	Bookmarks int
	Notes     []string

	u     *pdfio.Update    // wrote PDF, for Read
	held  map[string]*held // the file's page sets, by canonical URL (for Report)
	found map[string]found // the pages captured now, by canonical URL (for Report)
}

// Count returns how many changes have each status.
func (r *RefreshResult) Count() map[string]int {
	n := map[string]int{}
	for _, c := range r.Changes {
		n[c.Status]++
	}
	return n
}

// held is a page set of the file, as refresh compares it.
type held struct {
	set     *pdfio.ContentSet
	id, tid []byte
	cmd     int    // the command that fetched it (its source's /C), -1 if none is known
	noCheck string // why it is not fetched on its own (a form's result), or ""
}

// Refresh re-runs the commands stored in file's /SpiderInfo (name is used
// in messages) and compares each page set with what its source gives now,
// by canonical URL (a set's URL, or any URL of its redirect chains):
// unchanged or changed; new (captured now, not in the file); gone (the
// server answers 404 or 410); unreachable (the fetch failed: refused,
// DNS, TLS, a time-out, another error status) or unchecked (not fetched:
// a limit, robots.txt, a form submission not resubmitted). A page set
// the crawl did not reach is fetched on its own, so that gone means the
// server said so. Nothing is fetched but from the kinds of address
// opts.Allow names besides public ones. Unless opts.DryRun, it then
// writes the refreshed file (RefreshResult.PDF).
func Refresh(ctx context.Context, b *Browser, file []byte, name string, opts RefreshOptions) (*RefreshResult, error) {
	p, err := PlanRefresh(file, name, opts)
	if err != nil {
		return nil, err
	}
	return p.Run(ctx, b)
}

// A RefreshPlan is a file read for refreshing: its commands, and which of
// them will be replayed, known before anything is fetched (a program can
// show them, and needs no browser for a file that cannot be refreshed).
type RefreshPlan struct {
	Commands []Replay // the file's commands, in order, and whether each is replayed

	u      *pdfio.Update
	d      *pdfio.Document
	file   []byte // the input, for Report
	name   string
	opts   RefreshOptions
	starts []Start
}

// PlanRefresh reads file (name is used in messages) for Refresh: a file
// that is not a PDF, or has no commands to re-run, is an error here.
func PlanRefresh(file []byte, name string, opts RefreshOptions) (*RefreshPlan, error) {
	u, d, err := openUpdate(file, name, opts.Options)
	if err != nil {
		return nil, err
	}
	if d.Info == nil || len(d.Info.Commands) == 0 {
		return nil, fmt.Errorf("%s: no /SpiderInfo commands to re-run", d.File)
	}
	if !opts.DryRun {
		if err := certifiedRefused(d, opts.Options); err != nil {
			return nil, err
		}
	}
	starts, replays := replayed(d.Info.Commands, opts)
	return &RefreshPlan{Commands: replays, u: u, d: d, file: file, name: name, opts: opts, starts: starts}, nil
}

// Run refreshes as planned (see Refresh).
func (p *RefreshPlan) Run(ctx context.Context, b *Browser) (*RefreshResult, error) {
	u, d, name, opts, starts := p.u, p.d, p.name, p.opts, p.starts
	o := opts.Options
	o.Session = o.Session || inSession(d.Info.Commands)
	o = o.withDefaults()
	res := &RefreshResult{Commands: p.Commands}
	cmdIndex := map[webcapture.Ref]int{}
	for i, c := range d.Info.Commands {
		cmdIndex[c.Ref] = i
	}
	c, err := canon.New(o.Profile)
	if err != nil {
		return nil, err
	}
	// The file's page sets, by the canonical form of each URL that leads
	// to them; images sets by their URLs.
	was := map[string]*held{}
	var order []string // was's keys of the sets' own URLs, in file order
	images := map[string]*pdfio.ContentSet{}
	for _, cs := range d.Sets {
		if cs.ID == nil || cs.Ref.IsZero() {
			continue
		}
		for _, si := range cs.Sources {
			key, err := c.String(si.URLs.URL)
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
			h := &held{set: cs, id: []byte(*cs.ID), cmd: -1}
			if cs.TextID != nil {
				h.tid = []byte(*cs.TextID)
			}
			if si.Command != nil {
				if i, ok := cmdIndex[*si.Command]; ok {
					h.cmd = i
				}
			}
			if si.SubmissionOrDefault() != webcapture.NotSubmitted {
				h.noCheck = "the result of a form submission: only its command can fetch it again"
			}
			if _, ok := was[key]; !ok {
				order = append(order, key)
			}
			was[key] = h
			for _, u := range si.URLs.All() {
				if k, err := c.String(u); err == nil && was[k] == nil {
					was[k] = h
				}
			}
		}
	}
	// The sets the crawl does not reach are fetched on their own, by GET,
	// under the command that fetched them (the first when none is known),
	// unless that command is not replayed.
	revisit := func(f *Frontier) {
		for _, key := range order {
			h := was[key]
			cmd := max(h.cmd, 0)
			if h.noCheck == "" && starts[cmd].NotReplayed == "" {
				f.Revisit(h.set.Sources[0].URLs.URL, cmd)
			}
		}
	}
	cr, err := crawl(ctx, b, starts, o, crawlSpec{policy: AddressPolicy{Allow: o.Allow}, getOnly: opts.DryRun || !opts.Resubmit, revisit: revisit})
	if err != nil {
		return nil, err
	}
	res.Skips, res.Stopped, res.Pages = cr.res.Skips, cr.res.Stopped, cr.res.Pages
	res.Unsent, res.UnsentMore = cr.res.Unsent, cr.res.UnsentMore
	now := map[string]found{} // by the canonical form of each URL that led to the page
	for i, p := range cr.res.Pages {
		ct := p.Document.Header.Get("Content-Type")
		src, err := p.Document.SourceID(cr.sources, o.Profile)
		if err != nil {
			continue
		}
		id := src.ID
		tid, _ := webcapture.TextID(p.Document.Body, ct)
		for _, u := range p.URLs() {
			if k, err := c.String(u); err == nil {
				now[k] = found{id[:], tid[:], i}
			}
		}
	}
	skipped := map[string]Skip{}
	for _, s := range cr.res.Skips {
		if k, err := c.String(s.URL); err == nil {
			if _, ok := skipped[k]; !ok {
				skipped[k] = s
			}
		}
	}
	compared := map[int]bool{} // pages compared with a set of the file
	for _, key := range order {
		h := was[key]
		ch := Change{URL: key, Old: hexOf(h.id)}
		n, ok := now[key]
		switch {
		case ok:
			compared[n.page] = true
			if opts.TextOnly && h.tid != nil {
				ch = compare(key, h.tid, n.tid, "TID")
			} else {
				ch = compare(key, h.id, n.id, "ID")
			}
		case h.noCheck != "":
			ch.Status, ch.Reason, ch.Kind = StatusUnchecked, h.noCheck, SkipNotReplayed
		default:
			s, ok := skipped[key]
			if !ok {
				s = skip(key, SkipNotReplayed, "not fetched: its command is not replayed")
				if h.cmd >= 0 && starts[h.cmd].NotReplayed == "" {
					s = skip(key, SkipRender, "not reached")
				}
			}
			ch.Status, ch.Reason, ch.Kind = skipStatus(s), s.Reason, s.Kind
		}
		res.Changes = append(res.Changes, ch)
	}
	for i, p := range cr.res.Pages {
		if compared[i] {
			continue
		}
		key, err := c.String(p.URL)
		if err != nil {
			continue
		}
		res.Changes = append(res.Changes, Change{URL: key, Status: StatusNew, New: hexOf(now[key].id)})
	}
	sort.Slice(res.Changes, func(i, j int) bool { return res.Changes[i].URL < res.Changes[j].URL })
	res.held, res.found = was, now
	if opts.DryRun || len(cr.res.Pages) == 0 {
		return res, nil
	}
	wctx, stop := o.writeContext(ctx)
	defer stop()
	return res, refreshWrite(wctx, u, d, name, res, cr, was, now, images, starts, o)
}

// found is a page captured now, as refresh compares it.
type found struct {
	id, tid []byte
	page    int // index in the crawl's pages
}

// skipStatus is the status of a page set whose URL the crawl skipped: gone
// when the server says so, unreachable when it could not be fetched,
// unchecked when it was not fetched (a limit, or an address or scheme
// webcap may not fetch).
func skipStatus(s Skip) string {
	switch s.Kind {
	case SkipLevel, SkipScope, SkipURL, SkipHeld, SkipRobots, SkipPageLimit, SkipByteLimit, SkipTimeLimit, SkipInterrupted, SkipNotReplayed,
		Blocked.String(), Scheme.String():
		// Not fetched: a limit, or what webcap may not fetch.
		return StatusUnchecked
	case HTTPStatus.String():
		if s.Status == http.StatusNotFound || s.Status == http.StatusGone {
			return StatusGone
		}
	}
	return StatusUnreachable
}

// inSession reports whether a command of the file rendered its pages in
// one browser context (its settings' Session): the refresh does too, so
// that a page that depends on the cookie an earlier one set is compared
// with what it was.
func inSession(cmds []*webcapture.Command) bool {
	for _, c := range cmds {
		if c.Settings != nil && c.Settings.Global["Session"] == true {
			return true
		}
	}
	return false
}

// replayed makes the crawl's starts from a file's commands, and says which
// run: a form submission only with Resubmit, and by POST never in a dry
// run.
func replayed(cmds []*webcapture.Command, opts RefreshOptions) ([]Start, []Replay) {
	starts := make([]Start, len(cmds))
	replays := make([]Replay, len(cmds))
	for i, c := range cmds {
		s := Start{URL: c.URL, Levels: int(c.Depth()), Flags: c.FlagsOrDefault()}
		r := Replay{URL: c.URL, Method: http.MethodGet, Levels: s.Levels, Replayed: true}
		if f := s.Flags & (webcapture.SameSite | webcapture.SamePath | webcapture.Submit); f != 0 {
			r.Flags = f.String()
		}
		if c.IsPost() {
			r.Method = http.MethodPost
		}
		if c.PostData != nil {
			s.Post = *c.PostData
			if c.ContentType != nil {
				s.PostType = *c.ContentType
			}
		}
		switch {
		case c.IsPost() && c.PostData == nil:
			s.NotReplayed = "a form submission by POST whose data was too large to read"
		case c.PostData != nil && opts.DryRun:
			s.NotReplayed = "a form submission by POST: a dry run sends no request with a body"
		case (c.PostData != nil || s.Flags&webcapture.Submit != 0) && !opts.Resubmit:
			s.NotReplayed = "a form submission: its data is resubmitted only when asked (--resubmit)"
		}
		r.Replayed, r.Reason = s.NotReplayed == "", s.NotReplayed
		starts[i], replays[i] = s, r
	}
	return starts, replays
}

func compare(key string, old, new []byte, by string) Change {
	c := Change{URL: key, Status: StatusUnchanged, Old: hexOf(old), New: hexOf(new), By: by}
	if !bytes.Equal(old, new) {
		c.Status = StatusChanged
	}
	return c
}

func hexOf(b []byte) string { return webcapture.RawID(b).Hex() }

// Read reads PDF as Result.Read does.
func (r *RefreshResult) Read(name string) (*pdfio.Document, error) {
	return readWritten(&r.u, r.PDF, name)
}

// refreshWrite makes the refreshed file (res.PDF): it puts the new pages
// in place, then describes their sets for build. Once ctx is done
// (Options.WriteBound) it stops, nothing written: a *WriteStoppedError.
func refreshWrite(ctx context.Context, u *pdfio.Update, d *pdfio.Document, name string, res *RefreshResult, cr *crawled, was map[string]*held,
	now map[string]found, images map[string]*pdfio.ContentSet, starts []Start, o Options) error {
	type placed struct {
		key   string
		refs  []webcapture.Ref
		dests []pdfio.PrintedDest
		set   *pdfio.ContentSet // the set replaced; nil for a new page
		image *pdfio.ContentSet // the image set replaced, for an image page
	}
	var todo []placed
	var replaced, added []filed
	m := &record.Manifest{Profile: o.Profile.Name()}
	moved := map[webcapture.Ref]webcapture.Ref{}
	for _, c := range res.Changes {
		if err := writeStopped(ctx, len(cr.res.Pages)); err != nil {
			return err
		}
		switch c.Status {
		case StatusUnchanged:
			doc := cr.res.Pages[now[c.URL].page].Document
			ck := record.Checked{Set: was[c.URL].set.Ref, Time: doc.Fetched.Format(time.RFC3339)}
			if e, ok := Expiry(doc.Header, doc.Fetched); ok {
				ck.Expires = e.UTC().Format(time.RFC3339)
			}
			m.Checked = append(m.Checked, ck)
			if is := images[c.URL]; is != nil {
				m.Checked = append(m.Checked, record.Checked{Set: is.Ref, Time: ck.Time, Expires: ck.Expires})
			}
			res.Checked++
		case StatusChanged:
			w, p := was[c.URL], cr.res.Pages[now[c.URL].page]
			refs, pr, err := u.ReplacePages(w.set.Objects, p.PDF, "the browser's PDF of "+p.URL)
			if err != nil {
				return fmt.Errorf("refresh: %w", err)
			}
			for _, old := range w.set.Objects {
				moved[old] = refs[0]
			}
			replaced = append(replaced, filed{url: recordedURL(p.URL, o), title: p.Title, page: refs[0], article: pr.Article, reason: "changed", old: w.set.Objects})
			if pr.Untagged != "" {
				res.Notes = append(res.Notes, p.URL+": "+pr.Untagged)
			}
			todo = append(todo, placed{c.URL, refs, pr.Dests, w.set, images[c.URL]})
			res.Replaced++
		case StatusNew:
			p := cr.res.Pages[now[c.URL].page]
			refs, pr, err := u.AppendPages(p.PDF, "the browser's PDF of "+p.URL)
			if err != nil {
				return fmt.Errorf("refresh: %w", err)
			}
			todo = append(todo, placed{key: c.URL, refs: refs, dests: pr.Dests})
			added = append(added, filed{url: recordedURL(p.URL, o), title: p.Title, page: refs[0], article: pr.Article, reason: "new"})
			if pr.Untagged != "" {
				res.Notes = append(res.Notes, p.URL+": "+pr.Untagged)
			}
			res.Added++
		}
	}
	// build numbers pages: where the new ones are now.
	number := map[webcapture.Ref]int{}
	if len(todo) > 0 {
		order, err := u.Pages()
		if err != nil {
			return fmt.Errorf("refresh: %w", err)
		}
		for i, r := range order {
			number[r] = i + 1
		}
	}
	n, notes := refreshBookmarks(u, replaced, added, o.Bookmarks)
	res.Bookmarks, res.Notes = n, append(res.Notes, notes...)
	var printed []printedPage
	for _, t := range todo {
		i := now[t.key].page
		p, it := cr.res.Pages[i], cr.items[i]
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
		return fmt.Errorf("refresh: %w", err)
	}
	m.Input, m.InputData = name, input
	w, err := writeStructures(ctx, u, m, record.Options{Profile: o.Profile, Sources: cr.sources, AllowCertified: o.AllowCertified},
		cr.c, moved, printed)
	if stop := writeStopped(ctx, len(cr.res.Pages)); stop != nil {
		return stop
	}
	if err != nil {
		return fmt.Errorf("refresh: %w", err)
	}
	res.PDF, res.Links, res.u = w.pdf, w.links, w.u
	return nil
}
