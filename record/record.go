package record

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// Options tune Apply.
type Options struct {
	Profile *canon.Profile       // overrides the manifest's profile; nil: the manifest's, or PDF
	Sources webcapture.AuxSource // overrides the manifest's sources and WARC; nil: the manifest's, if any
	// WARC, a WARC file's path, overrides the manifest's sources and WARC
	// (Manifest.WARC says what it gives).
	WARC     string
	Password string // for an encrypted input (which cannot be written: Apply reports it)
	// AllowCertified updates a certified input although its DocMDP
	// permissions forbid it (pdfio.Options.AllowCertified).
	AllowCertified bool
	// AllowOutside lets the manifest's paths (input, warc, sources, each
	// set's source), and the files its sources name, lead outside their
	// directory (mirror.Options); without it such a path is refused with a
	// *mirror.OutsideError. Options.Sources and Options.WARC, given by the
	// caller, are not the manifest's: they are read where they are.
	AllowOutside bool
	// ReadBack keeps the input's parse and the objects written in the
	// Result, for Result.Read to read the output from without parsing it
	// (as build does, to audit its result). Without it a Result holds
	// only what it says, and Read parses Output.
	ReadBack bool
	// Context, when not nil, stops the build once it is done (a deadline,
	// a memory ceiling, an interrupt): the input's read stops with it
	// (pdfio.Options.Context), and so does the build between content sets.
	Context context.Context
	// MaxFileSize refuses an input PDF or a source file larger than this
	// before reading it (0: pdfio.DefaultMaxFileSize); a file that is not a
	// regular file is refused without waiting on it (mirror.OpenIn).
	MaxFileSize int64
	// Update, when not nil, is the input already opened for an update
	// (its bytes are Manifest.InputData): Apply adds to it instead of
	// parsing the input, and consumes it. A capture hands over the update
	// its pages were merged with (pdfio's Update.Continue).
	Update *pdfio.Update
}

// A Result is the built file and what went into it.
type Result struct {
	Input    string
	Profile  *canon.Profile // the profile URLS keys were made with
	Output   []byte
	Appended int // bytes appended to the input
	Commands []webcapture.Ref
	Sets     []Set

	u *pdfio.Update // made Output; Read reads it from there
}

// Read reads Output, which is to be named name, for the audit of the
// result: what pdfio.ReadBytes(Output) returns; with Options.ReadBack, from
// the parse Apply did and the objects it wrote instead of a second parse
// (pdfio's Update.Result), once (a second call parses).
func (r *Result) Read(name string) (*pdfio.Document, error) {
	if r.u == nil {
		return pdfio.ReadBytes(r.Output, name, pdfio.Options{})
	}
	u := r.u
	r.u = nil
	return u.Result(r.Output, name)
}

// Continue returns an update of Output, as pdfio.NewUpdate(Output) would:
// with Options.ReadBack, continued from the update Apply made (pdfio's
// Update.Continue) instead of a second parse, once (then Read parses).
func (r *Result) Continue(opts pdfio.Options) (*pdfio.Update, error) {
	if r.u == nil {
		return pdfio.NewUpdate(r.Output, r.Input, opts)
	}
	u := r.u
	r.u = nil
	return u.Continue(r.Output)
}

// A Set is one content set Apply wrote.
type Set struct {
	Kind     webcapture.Subtype
	Ref      webcapture.Ref
	ID       webcapture.ID
	TextID   *webcapture.ID
	URL      string   // the source URL
	Key      string   // its URLS key (canonical)
	Aliases  []string // the URLS keys of the URLs that redirected to URL
	Missing  int      // page sets: auxiliary files missing from ID (PageSet.Partial)
	Pages    []int    // page sets: the pages
	Objects  []webcapture.Ref
	RefCount []int64 // image sets: pages using each image
	Aux      int     // page sets: auxiliary files hashed into ID
	// Shared: an image set whose identifier an image set of the input, or
	// one made earlier from the manifest, already had. Its images joined
	// that set (Ref), and its URL became one more source of it.
	Shared bool
}

// Apply reads m's input, adds m's content sets, commands and trees as an
// incremental update, and returns the new file. Nothing is written: the
// caller writes Result.Output. Every manifest problem is a *ManifestError.
func Apply(m *Manifest, opts Options) (*Result, error) {
	if m.name == "" {
		m.name = "manifest"
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	b := &builder{m: m, opts: opts}
	return b.run()
}

type builder struct {
	m    *Manifest
	opts Options
	c    *canon.Canonicalizer
	src  webcapture.AuxSource
	arc  *warc.Source // the WARC the sources are, if any
	doc  *pdfio.Document
	u    *pdfio.Update
	res  *Result

	ids, urls map[string]*pdfio.NameEntry
	idsOrder  []*pdfio.NameEntry // the entries of ids and urls, in order
	urlsOrder []*pdfio.NameEntry
	slab      []pdfio.NameEntry         // where new entries are made, a chunk at a time
	claimed   map[webcapture.Ref]string // page or image -> who claims it

	sets      map[webcapture.Ref]*pdfio.ContentSet // the input's sets by object
	imageSets map[webcapture.ID]*imageDraft        // image sets by identifier, the input's and new ones
	drafts    []*imageDraft                        // new image sets, written after all are known
	extended  []*imageDraft                        // the input's image sets new images join, in order
	cmds      []*webcapture.Command                // the manifest's commands, written
	xobjUsers map[webcapture.Ref]int               // pages using each XObject, once an image set asks

	// page is the buffer a page set's source is read into (load, from a
	// mirror: mirror.Dir.ReadFast), one set after another: nothing keeps
	// a source's bytes past its set (SourceID copies what it keeps).
	page []byte
}

// maxPageBuf bounds the buffer kept for the next page set's source.
const maxPageBuf = 1 << 20

// A fastSource reads a source into a buffer of the caller's
// (mirror.Dir); ok false: Open decides.
type fastSource interface {
	ReadFast(buf []byte, u string) (data []byte, ok bool)
}

// An imageDraft is an image set to write, or one of the input's that new
// images join: the images and sources it gets.
type imageDraft struct {
	ref      webcapture.Ref  // the input's set; zero for a new one
	urls     map[string]bool // URLS keys of its sources
	set      Set             // a new set: the manifest entry that made it
	captured string          // a new set: its TS
	objs     []webcapture.Ref
	counts   []int64
	si       []*webcapture.SourceInfo
	shared   []Set // manifest entries whose images joined it
}

func (b *builder) path(p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(b.m.dir, p)
}

// confined is where the manifest's paths may lead (mirror.OpenIn).
func (b *builder) confined() mirror.Options {
	return mirror.Options{AllowOutside: b.opts.AllowOutside, MaxFileSize: b.maxFileSize()}
}

// check refuses a path of the manifest (a WARC file, a sources directory)
// that leads outside the manifest's directory, before it is opened by
// path.
func (b *builder) check(field, p string) error {
	if _, err := mirror.StatIn(b.m.dir, p, b.confined()); err != nil {
		return b.m.fail(field, "%w", err)
	}
	return nil
}

// warcOptions are how a WARC file is read: as an input, within the size
// limit and the context the PDF is read within.
func (b *builder) warcOptions(p *canon.Profile) warc.Options {
	return warc.Options{Profile: p, MaxFileSize: b.maxFileSize(), Context: b.opts.Context}
}

func (b *builder) run() (*Result, error) {
	m := b.m
	p := b.opts.Profile
	if p == nil {
		p = canon.PDF
		if m.Profile != "" {
			var err error
			if p, err = canon.ParseProfile(m.Profile); err != nil {
				return nil, m.fail("profile", "%v", err)
			}
		}
	}
	var err error
	if b.c, err = canon.New(p); err != nil {
		return nil, err
	}
	aux := webcapture.AuxRaw
	if m.AuxForm != "" {
		if aux, err = webcapture.ParseAuxEncoding(m.AuxForm); err != nil {
			return nil, m.fail("auxForm", "%q is not raw, HEX or hex", m.AuxForm)
		}
	}
	b.src = b.opts.Sources
	switch {
	case b.src != nil:
	case b.opts.WARC != "":
		if b.arc, err = warc.LoadFile(b.opts.WARC, b.warcOptions(p)); err != nil {
			return nil, err
		}
	case m.WARC != "":
		if err := b.check("warc", m.WARC); err != nil {
			return nil, err
		}
		if b.arc, err = warc.LoadFile(b.path(m.WARC), b.warcOptions(p)); err != nil {
			return nil, m.fail("warc", "%w", err)
		}
	case m.Sources != "":
		if err := b.check("sources", m.Sources); err != nil {
			return nil, err
		}
		if b.src, err = mirror.Load(b.path(m.Sources), b.confined()); err != nil {
			return nil, m.fail("sources", "%w", err)
		}
	}
	if b.arc != nil {
		b.src = b.arc
	}
	in, orig := m.Input, m.InputData
	if orig == nil {
		in = b.path(m.Input)
		if orig, err = b.readInput(); err != nil {
			return nil, m.fail("input", "%w", err)
		}
	}
	if b.u = b.opts.Update; b.u == nil {
		if b.u, err = pdfio.NewUpdate(orig, in, pdfio.Options{Password: b.opts.Password, AllowCertified: b.opts.AllowCertified, Context: b.opts.Context, MaxFileSize: b.opts.MaxFileSize}); err != nil {
			return nil, err
		}
		if m.InputData == nil {
			b.u.AppendInPlace() // (readInput left it the room)
		}
	}
	if b.doc, err = b.u.Document(); err != nil {
		return nil, err
	}
	b.res = &Result{Input: in, Profile: p}
	if n := len(m.PageSets) + len(m.ImageSets); n > 0 {
		b.res.Sets = make([]Set, 0, n)
	}
	if err := b.existing(); err != nil {
		return nil, err
	}
	cmds, err := b.commands()
	if err != nil {
		return nil, err
	}
	for i := range m.PageSets {
		if err := b.stopped(); err != nil {
			return nil, err
		}
		if err := b.pageSet(i, cmds, aux); err != nil {
			return nil, err
		}
	}
	for i := range m.ImageSets {
		if err := b.stopped(); err != nil {
			return nil, err
		}
		if err := b.imageSet(i); err != nil {
			return nil, err
		}
	}
	if err := b.writeImageSets(); err != nil {
		return nil, err
	}
	if err := b.checked(); err != nil {
		return nil, err
	}
	if err := b.stopped(); err != nil {
		return nil, err
	}
	if err := b.trees(); err != nil {
		return nil, err
	}
	if err := b.spiderInfo(); err != nil {
		return nil, err
	}
	out, err := b.u.Bytes()
	if err != nil {
		return nil, err
	}
	b.res.Output = out
	if b.opts.ReadBack {
		b.res.u = b.u
	}
	b.res.Appended = len(out) - len(orig)
	return b.res, nil
}

// existing records the input's trees, so new entries join them, and the
// pages and images its sets already hold.
func (b *builder) existing() error {
	// Sized once for the manifest's sets (the URLS tree has at least a
	// key per set) and the input's entries and pages.
	nIDS, nURLS := len(b.m.PageSets)+len(b.m.ImageSets), len(b.m.PageSets)+len(b.m.ImageSets)
	if b.doc.IDS != nil {
		nIDS += len(b.doc.IDS.Entries)
	}
	if b.doc.URLS != nil {
		nURLS += len(b.doc.URLS.Entries)
	}
	b.ids, b.urls = make(map[string]*pdfio.NameEntry, nIDS), make(map[string]*pdfio.NameEntry, nURLS)
	b.idsOrder, b.urlsOrder = make([]*pdfio.NameEntry, 0, nIDS), make([]*pdfio.NameEntry, 0, nURLS)
	b.claimed = make(map[webcapture.Ref]string, len(b.doc.Pages))
	for _, t := range []*pdfio.Tree{b.doc.IDS, b.doc.URLS} {
		if t == nil {
			continue
		}
		for _, e := range t.Entries {
			refs := make([]webcapture.Ref, 0, len(e.Sets))
			for _, cs := range e.Sets {
				if cs.Ref == (webcapture.Ref{}) {
					return fmt.Errorf("%s: the %s entry %q holds a direct content set, which cannot be shared with a rebuilt tree (run webcap fix first)", b.doc.File, t.Name, e.Key)
				}
				refs = append(refs, cs.Ref)
			}
			b.addEntry(t.Name, e.Key, e.KeyRef, refs...)
		}
	}
	b.imageSets = map[webcapture.ID]*imageDraft{}
	b.sets = map[webcapture.Ref]*pdfio.ContentSet{}
	for _, cs := range b.doc.Sets {
		if !cs.Ref.IsZero() {
			b.sets[cs.Ref] = cs
		}
		for _, o := range cs.Objects {
			b.claimed[o] = fmt.Sprintf("the existing content set %s", cs.Ref)
		}
		if cs.IsImageSet() && cs.ID != nil && !cs.Ref.IsZero() {
			id, ok := cs.ID.ID()
			if ok && b.imageSets[id] == nil {
				dr := &imageDraft{ref: cs.Ref, urls: map[string]bool{}}
				for _, u := range cs.SourceURLs() {
					if k, err := b.c.String(u); err == nil {
						dr.urls[k] = true
					}
				}
				b.imageSets[id] = dr
			}
		}
	}
	return nil
}

func (b *builder) addEntry(tree, key string, keyRef webcapture.Ref, sets ...webcapture.Ref) {
	m, order := b.ids, &b.idsOrder
	if tree == "URLS" {
		m, order = b.urls, &b.urlsOrder
	}
	e := m[key]
	if e == nil {
		if len(b.slab) == 0 {
			b.slab = make([]pdfio.NameEntry, 1024)
		}
		e, b.slab = &b.slab[0], b.slab[1:]
		e.Key, e.KeyObject = key, keyRef
		m[key] = e
		*order = append(*order, e)
	}
	for _, s := range sets {
		dup := false
		for _, have := range e.Sets {
			dup = dup || have == s
		}
		if !dup {
			e.Sets = append(e.Sets, s)
		}
	}
}

func (b *builder) commands() (map[string]webcapture.Ref, error) {
	out := map[string]webcapture.Ref{}
	for _, c := range b.m.Commands {
		cmd := &webcapture.Command{URL: c.URL, Levels: c.Levels}
		var f webcapture.Flags
		if c.SameSite {
			f |= webcapture.SameSite
		}
		if c.SamePath {
			f |= webcapture.SamePath
		}
		if c.Submit {
			f |= webcapture.Submit
		}
		if f != 0 {
			cmd.Flags = &f
		}
		if c.Post != nil {
			data := []byte(*c.Post)
			cmd.PostData = &data
		}
		if c.ContentType != "" {
			cmd.ContentType = &c.ContentType
		}
		if c.Headers != "" {
			cmd.Headers = &c.Headers
		}
		if c.Settings != nil {
			st, err := c.Settings.toModel()
			if err != nil {
				return nil, err
			}
			cmd.Settings = st
		}
		r, err := b.u.AddCommand(cmd)
		if err != nil {
			return nil, err
		}
		b.cmds = append(b.cmds, cmd)
		out[c.Name] = r
		b.res.Commands = append(b.res.Commands, r)
	}
	return out, nil
}

// sourceInfo describes a source: its URL, the redirect chains that led to
// it (each ends in the URL: a URL alias dictionary), when it was captured
// and when it expires.
func sourceInfo(url string, redirects [][]string, captured, expires string) *webcapture.SourceInfo {
	si := &webcapture.SourceInfo{URLs: webcapture.AliasedURLs{URL: url}, Updated: date(captured), Expires: date(expires)}
	if len(redirects) > 0 {
		si.URLs.Alias = true
		si.URLs.Chains = make([][]string, len(redirects))
		for i, c := range redirects {
			ch := make([]string, len(c)+1) // (the chain and url, in one slice)
			copy(ch, c)
			ch[len(c)] = url
			si.URLs.Chains[i] = ch
		}
	}
	return si
}

// sha256Of is a source's SHA-256 as a source information's /WCSHA256:
// the digest SourceID made of the bytes it made the identifier from.
func sha256Of(src *webcapture.Source) *webcapture.RawID {
	r := webcapture.RawID(src.SHA256[:])
	return &r
}

// date is a checked RFC 3339 time as a PDF date; nil for "".
func date(s string) *webcapture.Date {
	if s == "" {
		return nil
	}
	d, _ := webcapture.ParseDate(pdfDate(s))
	return &d
}

// sameDate is a copy of d (date(captured) again, without a second parse).
func sameDate(d *webcapture.Date) *webcapture.Date {
	if d == nil {
		return nil
	}
	c := *d
	return &c
}

// pdfDate turns a checked RFC 3339 time into a PDF date.
func pdfDate(s string) string {
	if d, ok := utcPDFDate(s); ok {
		return d
	}
	t, _ := time.Parse(time.RFC3339, s)
	_, off := t.Zone()
	if off == 0 {
		return t.Format("D:20060102150405Z")
	}
	sign := '+'
	if off < 0 {
		sign, off = '-', -off
	}
	return t.Format("D:20060102150405") + fmt.Sprintf("%c%02d'%02d'", sign, off/3600, off/60%60)
}

// stopped is the cause of Options.Context once it is done (the build
// stops), else nil.
func (b *builder) stopped() error {
	if c := b.opts.Context; c != nil && c.Err() != nil {
		return context.Cause(c)
	}
	return nil
}

// maxFileSize is the size limit of every file the build reads.
func (b *builder) maxFileSize() int64 {
	if b.opts.MaxFileSize > 0 {
		return b.opts.MaxFileSize
	}
	return pdfio.DefaultMaxFileSize
}

// load returns a source's bytes: the named file, or the URL from sources.
// (key is url's URLS key, which source made.) With reuse, they may be
// read into b.page, and are then the caller's until the next load with
// reuse.
func (b *builder) load(field string, data []byte, file, url, key string, reuse bool) ([]byte, error) {
	if data != nil {
		return data, nil
	}
	if file != "" {
		data, err := mirror.ReadFileIn(b.m.dir, file, b.confined())
		if err != nil {
			return nil, b.m.fail(field+".source", "%w", err)
		}
		return data, nil
	}
	if b.src == nil {
		return nil, b.m.fail(field+".source", "missing, and no sources to fetch %s from: give source (a file) or the manifest's sources (a mirror)", url)
	}
	if f, ok := b.src.(fastSource); ok && reuse {
		if data, ok := f.ReadFast(b.page, key); ok {
			if cap(data) > cap(b.page) && cap(data) <= maxPageBuf {
				b.page = data[:0] // (a new buffer, larger: kept)
			}
			return data[:min(len(data), 1<<30)], nil
		}
	}
	rc, err := b.src.Open(key)
	switch {
	case errors.Is(err, webcapture.ErrRefused):
		return nil, b.m.fail(field+".source", "%s: %w", key, err)
	case err != nil:
		return nil, b.m.fail(field+".source", "%s is not in the sources: %v", key, err)
	}
	defer rc.Close()
	if f, ok := rc.(interface{ Bytes() []byte }); ok {
		// A mirror's file comes read whole: its buffer, not a copy.
		return f.Bytes()[:min(len(f.Bytes()), 1<<30)], nil
	}
	data, err = readAll(rc, 1<<30) // (one buffer of its size when rc says it)
	if err != nil {
		return nil, b.m.fail(field+".source", "reading %s: %w", key, err)
	}
	return data, nil
}

// source returns a set's URLS key and its source's bytes (reuse: load's).
func (b *builder) source(field, url string, data []byte, file string, reuse bool) (string, []byte, error) {
	key, err := b.c.String(url)
	if err != nil {
		return "", nil, b.m.fail(field+".url", "cannot be a URLS key: %v", err)
	}
	data, err = b.load(field, data, file, url, key, reuse)
	return key, data, err
}

func (b *builder) claim(field string, obj webcapture.Ref, what string) error {
	if who, ok := b.claimed[obj]; ok {
		return b.taken(field, what, who)
	}
	b.claimed[obj] = field
	return nil
}

// taken is the error of field claiming what, which who claimed first.
func (b *builder) taken(field, what, who string) error {
	return b.m.fail(field, "%s already belongs to %s", what, who)
}

func (b *builder) pageSet(i int, cmds map[string]webcapture.Ref, aux webcapture.AuxEncoding) error {
	s := &b.m.PageSets[i]
	f := element("pageSets", i)
	// (What archived fills in is the set's, not written to the manifest:
	// the caller's; s is not a copy, which escaped, one per set.)
	redirects, captured := s.Redirects, s.Captured
	if err := b.archived(f, s.URL, &redirects, &captured); err != nil {
		return err
	}
	first, last, _ := parseRange(s.Pages)
	if last > len(b.doc.Pages) {
		return b.m.fail(f+".pages", "%q: %s has %d pages", s.Pages, b.doc.File, len(b.doc.Pages))
	}
	key, data, err := b.source(f, s.URL, s.Data, s.Source, true) // (data: b.page's, read only by SourceID)
	if err != nil {
		return err
	}
	src, err := webcapture.SourceID(data, webcapture.SourceOptions{ContentType: s.ContentType, URL: s.URL, Aux: b.src, AuxEncoding: aux, Profile: b.c.Profile(), Text: true})
	if err != nil {
		return b.m.fail(f, "%v", err)
	}
	ct := s.ContentType
	if ct == "" {
		ct = src.MediaType // sniffed
	}
	set := Set{Kind: webcapture.PageSet, URL: s.URL, Key: key, ID: src.ID}
	if set.Aliases, err = b.aliases(f, key, redirects); err != nil {
		return err
	}
	if r := src.Page; r != nil {
		if !r.Complete && !s.Partial {
			var missing []string
			for _, a := range r.Aux {
				if !a.Found {
					missing = append(missing, a.First.Raw)
				}
			}
			return b.m.fail(f+".source", "%d of the %d auxiliary files of %s are missing from the sources (%s): its identifier would be wrong",
				len(missing), len(r.Aux), s.URL, strings.Join(truncate(missing, 3), ", "))
		}
		set.Aux = len(r.Aux)
		for _, a := range r.Aux {
			if !a.Found {
				set.Missing++
			}
		}
	}
	if src.TextID != nil && strings.TrimSpace(src.Text) != "" {
		set.TextID = src.TextID
	}
	fp := f + ".pages"
	set.Pages, set.Objects = make([]int, 0, last-first+1), make([]webcapture.Ref, 0, last-first+1)
	for n := first; n <= last; n++ {
		p := b.doc.Pages[n-1]
		// (claim, without its message made for every page)
		if who, ok := b.claimed[p.Ref]; ok {
			return b.taken(fp, fmt.Sprintf("page %d", n), who)
		}
		b.claimed[p.Ref] = fp
		set.Pages = append(set.Pages, n)
		set.Objects = append(set.Objects, p.Ref)
	}
	si := sourceInfo(s.URL, redirects, captured, s.Expires)
	si.SHA256 = sha256Of(src)
	if sub, _ := submission(s.Submission); sub != 0 {
		n := int64(sub)
		si.Submission = &n
	}
	if s.Command != "" {
		c := cmds[s.Command]
		si.Command = &c
	}
	if !s.CommandRef.IsZero() {
		si.Command = &s.CommandRef
	}
	cs := &webcapture.ContentSet{Subtype: webcapture.PageSet, ID: rawID(&set.ID), Objects: set.Objects, Sources: []*webcapture.SourceInfo{si},
		ContentType: &ct, Created: sameDate(si.Updated), TextID: rawID(set.TextID)}
	if s.Title != "" {
		t := webcapture.Text(webcapture.EncodeText(s.Title))
		cs.Title = &t
	}
	if !s.Replaces.IsZero() {
		return b.replace(f, s.Replaces, set, cs)
	}
	return b.add(set, cs)
}

// rawID is an identifier as the model holds it; nil for nil.
func rawID(id *webcapture.ID) *webcapture.RawID {
	if id == nil {
		return nil
	}
	r := id.Raw()
	return &r
}

// replace rewrites a content set of the input as set (d), keeping its
// object: the trees' entries for its old identifier drop it, and it is
// entered under its new identifier and its URL.
func (b *builder) replace(field string, ref webcapture.Ref, set Set, cs *webcapture.ContentSet) error {
	old := b.sets[ref]
	if old == nil || old.Subtype != set.Kind {
		return b.m.fail(field, "%s is not a %s content set of %s", ref, set.Kind, b.doc.File)
	}
	if err := b.u.ReplaceContentSet(ref, cs); err != nil {
		return err
	}
	// The set's old images leave it: their /ID would name a parent that
	// no longer holds them. (Old pages left the page tree with ReplacePages.)
	if old.IsImageSet() {
		for _, o := range old.Objects {
			if !slices.Contains(set.Objects, o) {
				if err := b.u.SetID(o, ""); err != nil {
					return err
				}
			}
		}
	}
	for _, k := range old.IDSKeys {
		e := b.ids[k]
		if e == nil {
			continue
		}
		e.Sets = slices.DeleteFunc(e.Sets, func(r webcapture.Ref) bool { return r == ref })
		if len(e.Sets) == 0 {
			delete(b.ids, k)
			b.idsOrder = slices.DeleteFunc(b.idsOrder, func(x *pdfio.NameEntry) bool { return x == e })
		}
	}
	return b.enter(set, ref, true)
}

// checked stamps the sets found up to date.
func (b *builder) checked() error {
	for i, c := range b.m.Checked {
		var e string
		if c.Expires != "" {
			e = pdfDate(c.Expires)
		}
		if err := b.u.SetSourceTimes(c.Set, pdfDate(c.Time), e); err != nil {
			return b.m.fail(fmt.Sprintf("checked[%d]", i), "%v", err)
		}
	}
	return nil
}

func (b *builder) imageSet(i int) error {
	s := b.m.ImageSets[i]
	f := element("imageSets", i)
	if err := b.archived(f, s.URL, &s.Redirects, &s.Captured); err != nil {
		return err
	}
	key, data, err := b.source(f, s.URL, s.Data, s.Source, false)
	if err != nil {
		return err
	}
	set := Set{Kind: webcapture.ImageSet, URL: s.URL, Key: key}
	if set.Aliases, err = b.aliases(f, key, s.Redirects); err != nil {
		return err
	}
	src, err := webcapture.SourceID(data, webcapture.SourceOptions{Kind: webcapture.SourceImage})
	if err != nil {
		return b.m.fail(f, "%v", err)
	}
	set.ID = src.ID
	pages := make([]webcapture.Ref, len(b.doc.Pages))
	for j, p := range b.doc.Pages {
		pages[j] = p.Ref
	}
	images := map[webcapture.Ref]bool{}
	for _, im := range b.doc.Images {
		images[im.Ref] = true
	}
	for j, im := range s.Images {
		g := fmt.Sprintf("%s.images[%d]", f, j)
		var ref webcapture.Ref
		if im.Object != 0 {
			ref = webcapture.Ref{Num: im.Object}
			if !images[ref] {
				return b.m.fail(g+".object", "object %d of %s is not an image XObject", im.Object, b.doc.File)
			}
		} else if im.Name == "*" {
			if im.Page > len(pages) {
				return b.m.fail(g+".page", "%d: %s has %d pages", im.Page, b.doc.File, len(pages))
			}
			all, err := b.u.PageXObjects(pages[im.Page-1])
			if err != nil {
				return b.m.fail(g, "page %d: %v", im.Page, err)
			}
			names := make([]string, 0, len(all))
			for n, r := range all {
				if images[r] {
					names = append(names, n)
				}
			}
			sort.Strings(names)
			seen := map[webcapture.Ref]bool{}
			uniq := names[:0]
			for _, n := range names {
				if !seen[all[n]] {
					seen[all[n]] = true
					uniq = append(uniq, n)
				}
			}
			names = uniq
			if len(names) == 0 {
				return b.m.fail(g, "page %d uses no image XObject", im.Page)
			}
			for _, n := range names {
				if err := b.imageObject(g, all[n], pages, &set); err != nil {
					return err
				}
			}
			continue
		} else {
			if im.Page > len(pages) {
				return b.m.fail(g+".page", "%d: %s has %d pages", im.Page, b.doc.File, len(pages))
			}
			if ref, err = b.u.PageXObject(pages[im.Page-1], im.Name); err != nil {
				return b.m.fail(g, "page %d: %v", im.Page, err)
			}
			if !images[ref] {
				return b.m.fail(g, "/%s on page %d is object %s, which is not an image XObject", im.Name, im.Page, ref)
			}
		}
		if err := b.imageObject(g, ref, pages, &set); err != nil {
			return err
		}
	}
	si := sourceInfo(s.URL, s.Redirects, s.Captured, s.Expires)
	si.SHA256 = sha256Of(src)
	if !s.Replaces.IsZero() {
		return b.replace(f, s.Replaces, set, imageSetModel(set.ID, set.Objects, set.RefCount, []*webcapture.SourceInfo{si}, s.Captured))
	}
	dr := b.imageSets[set.ID]
	if dr == nil {
		dr = &imageDraft{urls: map[string]bool{}, set: set, captured: s.Captured}
		b.imageSets[set.ID] = dr
		b.drafts = append(b.drafts, dr)
	} else {
		// The same image data as a set the file or the manifest already
		// has: its images join that set (PDF 1.7 §10.9.3: an image set's O
		// holds every XObject made from one source image), and a new URL
		// becomes one more source.
		set.Shared = true
		if !dr.ref.IsZero() && len(dr.objs) == 0 {
			b.extended = append(b.extended, dr)
		}
		dr.shared = append(dr.shared, set)
	}
	dr.objs, dr.counts = append(dr.objs, set.Objects...), append(dr.counts, set.RefCount...)
	if !dr.urls[set.Key] {
		dr.urls[set.Key] = true
		dr.si = append(dr.si, si)
	}
	return nil
}

// imageSetModel describes an image set. R is an integer for one image
// (ISO 32000-1 Table 354), an array for more; SI a dictionary for one
// source, an array for more (the writer's rule).
func imageSetModel(id webcapture.ID, objs []webcapture.Ref, counts []int64, sources []*webcapture.SourceInfo, captured string) *webcapture.ContentSet {
	return &webcapture.ContentSet{Subtype: webcapture.ImageSet, ID: rawID(&id), Objects: objs, RefCounts: counts, Sources: sources, Created: date(captured)}
}

// writeImageSets writes the new image sets, and the input's image sets
// that new images joined.
func (b *builder) writeImageSets() error {
	for _, dr := range b.extended {
		if err := b.u.ExtendImageSet(dr.ref, dr.objs, dr.counts, dr.si); err != nil {
			return err
		}
		if err := b.enterShared(dr); err != nil {
			return err
		}
	}
	for _, dr := range b.drafts {
		ref, err := b.u.AddContentSet(imageSetModel(dr.set.ID, dr.objs, dr.counts, dr.si, dr.captured))
		if err != nil {
			return err
		}
		dr.ref = ref
		if err := b.enter(dr.set, ref, true); err != nil {
			return err
		}
		if err := b.enterShared(dr); err != nil {
			return err
		}
	}
	return nil
}

// enterShared records the manifest entries whose images joined a set.
func (b *builder) enterShared(dr *imageDraft) error {
	for _, s := range dr.shared {
		if err := b.enter(s, dr.ref, false); err != nil {
			return err
		}
	}
	return nil
}

// enter records a set written at ref: its objects' /ID back-links, its
// tree entries (IDS too when ids) and its place in the result.
func (b *builder) enter(set Set, ref webcapture.Ref, ids bool) error {
	set.Ref = ref
	for _, o := range set.Objects {
		if err := b.u.SetID(o, set.ID.Raw()); err != nil {
			return err
		}
	}
	if ids {
		b.addEntry("IDS", string(set.ID[:]), webcapture.Ref{}, ref)
	}
	b.addEntry("URLS", set.Key, webcapture.Ref{}, ref)
	for _, k := range set.Aliases {
		b.addEntry("URLS", k, webcapture.Ref{}, ref)
	}
	b.res.Sets = append(b.res.Sets, set)
	return nil
}

// aliases returns the URLS keys of the URLs of a set's redirect chains,
// each once and none equal to key (the set's URL's): every URL that led
// to the source finds the set (PDF 1.7 §10.9.4, URL alias dictionaries).
// archived fills in, from the WARC the sources are, what a set of url
// does not say: its redirect chains (the chains archived that end at url)
// and its capture time (the WARC-Date of the response whose content is
// its source). What the manifest says is kept.
func (b *builder) archived(field, url string, redirects *[][]string, captured *string) error {
	if b.arc == nil || (*redirects != nil && *captured != "") {
		return nil
	}
	key, err := b.c.String(url)
	if err != nil {
		return b.m.fail(field+".url", "cannot be a URLS key: %v", err)
	}
	if *redirects == nil {
		*redirects = b.arc.ChainsTo(key)
	}
	if t, ok := b.arc.Captured(key); ok && *captured == "" {
		*captured = t.UTC().Truncate(time.Second).Format(time.RFC3339)
	}
	return nil
}

func (b *builder) aliases(field, key string, chains [][]string) ([]string, error) {
	var out []string
	seen := map[string]bool{key: true}
	for i, ch := range chains {
		for j, u := range ch {
			k, err := b.c.String(u)
			if err != nil {
				return nil, b.m.fail(fmt.Sprintf("%s.redirects[%d][%d]", field, i, j), "cannot be a URLS key: %v", err)
			}
			if !seen[k] {
				seen[k] = true
				out = append(out, k)
			}
		}
	}
	return out, nil
}

// imageObject adds one image XObject to an image set, with its page count.
func (b *builder) imageObject(field string, ref webcapture.Ref, pages []webcapture.Ref, set *Set) error {
	if err := b.claim(field, ref, fmt.Sprintf("image object %s", ref)); err != nil {
		return err
	}
	if b.xobjUsers == nil {
		b.xobjUsers = b.u.XObjectCounts(pages)
	}
	n := int64(b.xobjUsers[ref])
	set.Objects, set.RefCount = append(set.Objects, ref), append(set.RefCount, n)
	return nil
}

// add writes a content set, its objects' /ID back-links and its tree entries.
func (b *builder) add(set Set, cs *webcapture.ContentSet) error {
	ref, err := b.u.AddContentSet(cs)
	if err != nil {
		return err
	}
	return b.enter(set, ref, true)
}

func (b *builder) trees() error {
	for _, t := range []struct {
		name  string
		order []*pdfio.NameEntry
	}{{"IDS", b.idsOrder}, {"URLS", b.urlsOrder}} {
		entries := make([]pdfio.NameEntry, len(t.order))
		for i, e := range t.order {
			entries[i] = *e
		}
		if err := b.u.SetNameTree(t.name, entries, pdfio.TreeShape{Hex: t.name == "IDS"}); err != nil {
			return err
		}
	}
	return nil
}

// spiderInfo writes /SpiderInfo: the input's version if it has one, and
// its commands, then the manifest's.
func (b *builder) spiderInfo() error {
	info := &webcapture.Info{Version: &webcapture.Number{Value: b.m.Version}}
	if old := b.doc.Info; old != nil {
		if old.Version != nil {
			info.Version = old.Version
		}
		for _, c := range old.Commands {
			if c.Ref.IsZero() {
				return errors.New(b.doc.File + ": /SpiderInfo holds a direct command dictionary, which cannot be kept by reference")
			}
		}
		info.Commands = old.Commands
	}
	if info.Version.Value == 0 {
		info.Version = &webcapture.Number{Value: 1.0}
	}
	info.Commands = append(slices.Clone(info.Commands), b.cmds...)
	return b.u.SetSpiderInfo(info)
}

func truncate(s []string, n int) []string {
	if len(s) <= n {
		return s
	}
	return append(s[:n:n], fmt.Sprintf("and %d more", len(s)-n))
}

// utcPDFDate is pdfDate for the form a build's times mostly take,
// "2006-01-02T15:04:05Z", by moving its digits (time.Parse and Format
// were 1% of a build of 100,000 sets): false for any other form, or a
// time that is not one (TestUTCPDFDate).
func utcPDFDate(s string) (string, bool) {
	if len(s) != 20 || s[4] != '-' || s[7] != '-' || s[10] != 'T' || s[13] != ':' || s[16] != ':' || s[19] != 'Z' {
		return "", false
	}
	var b [17]byte
	n := copy(b[:], "D:")
	var f [6]int // year, month, day, hour, minute, second
	for i, span := range [6][2]int{{0, 4}, {5, 7}, {8, 10}, {11, 13}, {14, 16}, {17, 19}} {
		for _, c := range []byte(s[span[0]:span[1]]) {
			if c < '0' || c > '9' {
				return "", false
			}
			f[i] = f[i]*10 + int(c-'0')
			b[n] = c
			n++
		}
	}
	t := time.Date(f[0], time.Month(f[1]), f[2], f[3], f[4], f[5], 0, time.UTC)
	if t.Year() != f[0] || int(t.Month()) != f[1] || t.Day() != f[2] || t.Hour() != f[3] || t.Minute() != f[4] || t.Second() != f[5] {
		return "", false
	}
	b[n] = 'Z'
	return string(b[:]), true
}
