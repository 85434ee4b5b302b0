// Package audit checks the Web Capture structures of a PDF file against the
// specification (PDF Reference 1.7 §10.9; ISO 32000-1 and ISO 32000-2
// §14.10), with a severity policy that real Acrobat files decide: a finding
// is Serious (an error) only when the structure is broken or a lookup gives
// a wrong answer, so that files as Acrobat 5 to 15 write them (SpiderInfo
// /V 1.25, one-element /R arrays, bare-Z dates, empty trees) raise no error.
//
// Every rule has an ID, a severity and a spec reference (Rules; docs/rules.md).
// Check reads nothing itself: it judges a pdfio.Document, the reader's
// byte-exact view of the file, including the defects the reader met.
// Summarize counts what Check found, by severity and by rule:
//
//	d, err := pdfio.Open("capture.pdf", pdfio.Options{})
//	...
//	sum := audit.Summarize(audit.Check(d, audit.Options{Profile: canon.PDF}))
//	fmt.Println(sum) // audits with no error
package audit

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"fmt"
	"io"
	"iter"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// A Finding is one rule broken at one place.
type Finding struct {
	Rule     string
	Severity Severity
	Object   webcapture.Ref // the object it is about; zero if direct or none
	Key      string         // the key it is about ("/ID"), if any
	Message  string
	Spec     string
}

// Options control a check.
type Options struct {
	// Profile is the canonicalization URLS keys must be in (PDF if nil).
	Profile *canon.Profile
	// Sources, when set, holds the captured data by canonical URL: each
	// content set's identifier is recomputed from it (WC-SOURCE-*).
	Sources webcapture.AuxSource
	// Context, when not nil, stops the check once it is done (a deadline,
	// a memory ceiling, an interrupt): Check then returns what it found
	// so far, and the caller, seeing Context done, knows the list is cut
	// short. It is looked at between the rules and every 256 content sets.
	Context context.Context
	// File and FileSize give the file's bytes, for verifying its seals
	// (audit/seals.go); nil: the seals are not verified, only what was
	// added after them is named.
	File     io.ReaderAt
	FileSize int64
	// Trust holds the anchors a seal's chain must reach (--trust); nil:
	// none given, and every seal is WC-SEAL-UNTRUSTED, saying so.
	Trust *x509.CertPool
}

// Check returns the findings for d, errors first, each group in the order
// the file was walked.
func Check(d *pdfio.Document, opts Options) []Finding {
	var out []Finding
	for f := range Findings(d, opts) {
		out = append(out, f)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Severity > out[j].Severity })
	return out
}

// Findings yields the findings for d as they are found, in the order the
// file is walked (not errors first: Check sorts them), and holds none of
// them: a program auditing a file of millions of findings writes each as
// it comes, in bounded memory (audit/batch spools them). Breaking out of
// the loop stops the check.
func Findings(d *pdfio.Document, opts Options) iter.Seq[Finding] {
	return func(yield func(Finding) bool) {
		a := &auditor{d: d, opts: opts, yield: yield}
		if opts.Profile == nil {
			a.opts.Profile = canon.PDF
		}
		a.canon, _ = canon.New(a.opts.Profile)
		defer a.closeEmbedded()
		for _, rules := range []func(){a.wellFormed, a.defects, a.certified, a.version, a.info, a.trees, a.sets,
			a.members, a.pages, a.structure, a.images, a.aliasChains, a.urls, a.redirectDuplicates, a.embedded, a.sources, a.seals} {
			if a.stopped() {
				break
			}
			rules()
		}
	}
}

type auditor struct {
	d     *pdfio.Document
	opts  Options
	canon *canon.Canonicalizer
	// yield takes each finding (Findings); done: it said stop.
	yield func(Finding) bool
	done  bool
	// found counts the findings of each severity so far; typed holds the
	// WC-TYPE findings' places (has).
	found      [Serious + 1]int
	typed      map[place]bool
	imageByRef map[webcapture.Ref]*pdfio.Image // by image (see image)
	embed      *pdfio.AttachedFile             // the embedded WARC the sources are (embedded.go); nil: none
	embedName  string                          // \"the embedded WARC NAME\", or WARCs
	temps      []*os.File                      // temporary files of the embedded WARCs (embedded.go)
	tooLarge   map[*pdfio.AttachedFile]error   // embedded files that decode past maxEmbedded
	after      map[webcapture.Ref]bool         // the sets written after the (last) embedded WARC
}

// place is where a finding is: its object and key.
type place struct {
	obj webcapture.Ref
	key string
}

// stopped reports whether Options.Context is done, or the caller of
// Findings stopped: the check stops.
func (a *auditor) stopped() bool {
	return a.done || a.opts.Context != nil && a.opts.Context.Err() != nil
}

func (a *auditor) add(rule string, obj webcapture.Ref, key string, format string, args ...any) {
	a.emit(a.finding(rule, obj, key, format, args))
}

// finding makes a finding of rule, with the rule's severity.
func (a *auditor) finding(rule string, obj webcapture.Ref, key string, format string, args []any) Finding {
	if to, ok := embedRule[rule]; ok && a.embed != nil {
		rule = to // against the file's own archive (embedded.go)
	}
	r, ok := ruleByID[rule]
	if !ok {
		panic("audit: unknown rule " + rule) // a programming error, caught by the tests
	}
	return Finding{Rule: rule, Severity: r.Severity, Object: obj, Key: key, Message: message(format, args), Spec: r.Spec}
}

// emit gives a finding to the caller, and counts it.
func (a *auditor) emit(f Finding) {
	if a.done {
		return
	}
	a.found[f.Severity]++
	if f.Rule == "WC-TYPE" {
		if a.typed == nil {
			a.typed = map[place]bool{}
		}
		a.typed[place{f.Object, f.Key}] = true
	}
	a.done = !a.yield(f)
}

// message is a finding's message: no URL in it shows its password
// (WithoutPassword), whether it is an argument of its own or in a list or
// an error (withoutPasswords).
func message(format string, args []any) string {
	shown := make([]any, len(args))
	for i, v := range args {
		if s, ok := v.(string); ok {
			v, _ = WithoutPassword(s)
		}
		shown[i] = v
	}
	return withoutPasswords(fmt.Sprintf(format, shown...))
}

// has reports whether a finding of rule is already there for obj and key
// (rule is WC-TYPE, the one rule asked about).
func (a *auditor) has(rule string, obj webcapture.Ref, key string) bool {
	if rule != "WC-TYPE" {
		panic("audit: has is kept for WC-TYPE only, not " + rule) // a programming error
	}
	return a.typed[place{obj, key}]
}

// warnings is the number of warnings and errors found so far.
func (a *auditor) warnings() int { return a.found[Caution] + a.found[Serious] }

// defectRule maps the reader's defects to rules.
var defectRule = map[pdfio.DefectKind]string{
	pdfio.Dangling:       "WC-DANGLING",
	pdfio.Unreadable:     "WC-DANGLING", // a reference that reaches no object that can be read; its message says the object is listed
	pdfio.Cycle:          "WC-CYCLE",
	pdfio.TooDeep:        "WC-LIMIT",
	pdfio.TooMany:        "WC-LIMIT",
	pdfio.TooLarge:       "WC-LIMIT", // a stream that decodes past the reader's caps: what needs it is not read
	pdfio.TreeNode:       "WC-TREE-NODE",
	pdfio.TreeOddNames:   "WC-TREE-NODE",
	pdfio.TreeKeyType:    "WC-TREE-NODE",
	pdfio.TreeUnsorted:   "WC-TREE-ORDER",
	pdfio.TreeDuplicate:  "WC-TREE-DUPLICATE",
	pdfio.TreeLimits:     "WC-TREE-LIMITS",
	pdfio.TreeRootLimits: "WC-TREE-ROOT-LIMITS",
	pdfio.TreeShared:     "WC-TREE-SHARED",
	pdfio.TreeValue:      "WC-TREE-VALUE",
	pdfio.WrongType:      "WC-TYPE",
	pdfio.BadValue:       "WC-VALUE",
	pdfio.SharedSettings: "WC-CMD-SETTINGS-SHARED",
	pdfio.OutlineEntry:   "WC-OUTLINE-ENTRY",
	pdfio.StructEntry:    "WC-STRUCT-ENTRY",
}

func (a *auditor) defects() {
	for _, df := range a.d.Defects {
		rule, ok := defectRule[df.Kind]
		switch {
		case !ok:
			rule = "WC-VALUE"
		case df.Kind == pdfio.WrongType && sourceCommandPath.MatchString(df.Path):
			rule = "WC-SI-C"
		case df.Kind == pdfio.WrongType && sourceSHA256Path.MatchString(df.Path):
			rule = "WC-SI-SHA256"
		}
		a.add(rule, df.Object, keyOf(df.Path), "%s", df.Message)
	}
}

// sourceCommandPath matches the path of a source information's /C.
var sourceCommandPath = regexp.MustCompile(`/SI(\[[0-9]+\])?/C$`)

// sourceSHA256Path matches the path of a source information's /WCSHA256.
var sourceSHA256Path = regexp.MustCompile(`/SI(\[[0-9]+\])?/WCSHA256$`)

// keyOf returns the dictionary key a path ends in ("/ID"), or "".
func keyOf(path string) string {
	i := strings.LastIndexByte(path, '/')
	if i < 0 || i == len(path)-1 {
		return ""
	}
	k := path[i+1:]
	if strings.ContainsAny(k, "[ ") || k[0] < 'A' || k[0] > 'Z' {
		return ""
	}
	return "/" + k
}

// hasWebCapture: the file holds any Web Capture structure.
func (a *auditor) hasWebCapture() bool {
	return a.d.Info != nil || a.d.IDS != nil || a.d.URLS != nil || len(a.d.Sets) > 0
}

func (a *auditor) version() {
	if !a.hasWebCapture() {
		return
	}
	v := a.d.Version
	if a.d.Catalog != "" && a.d.Catalog > v {
		v = a.d.Catalog
	}
	switch {
	case v != "" && v < "1.3":
		a.add("WC-VERSION", webcapture.Ref{}, "", "the file is PDF %s; Web Capture needs PDF 1.3", v)
	case strings.HasPrefix(v, "2."):
		a.add("WC-DEPRECATED", webcapture.Ref{}, "", "the file is PDF %s, which deprecates Web Capture; its structures are still read and checked", v)
	}
}

// info checks SpiderInfo and every command: SpiderInfo's, and those only a
// source information's /C reaches.
func (a *auditor) info() {
	for _, c := range a.d.SourceCommands {
		a.command(c)
	}
	info := a.d.Info
	if info == nil {
		return
	}
	switch {
	case info.Version == nil:
		a.add("WC-INFO-V", info.Ref, "/V", "SpiderInfo has no /V (the Web Capture version, required)")
	case info.Version.Value != 1.0:
		a.add("WC-INFO-V-VALUE", info.Ref, "/V", "SpiderInfo /V is %s; ISO 32000-1 wants 1.0 (Acrobat writes 1.25)", info.Version)
	}
	for _, c := range info.Commands {
		a.command(c)
	}
}

func (a *auditor) command(c *webcapture.Command) {
	if c.URL == "" {
		a.add("WC-CMD-URL", c.Ref, "/URL", "the command has no /URL (the initial URL, required)")
	} else {
		a.urlBytes(c.Ref, "/URL", c.URL)
		a.password(c.Ref, "/URL", c.URL)
	}
	if c.Levels != nil && *c.Levels < 1 {
		a.add("WC-CMD-LEVELS", c.Ref, "/L", "/L is %d; 1 means the initial URL alone, and less means nothing", *c.Levels)
	}
	if f := c.FlagsOrDefault(); f.Reserved() != 0 {
		a.add("WC-CMD-FLAGS", c.Ref, "/F", "/F is %d (%s): only bits 1-3 (SameSite, SamePath, Submit) may be set", uint32(f), f)
	}
	if c.ContentType != nil {
		a.ascii(c.Ref, "/CT", *c.ContentType)
	}
	if c.ContentType != nil && !c.IsPost() {
		a.add("WC-CMD-CT", c.Ref, "/CT", "/CT %q is given but there is no /P: the content type is only for POST data", *c.ContentType)
	}
	if c.Headers != nil {
		for i, line := range strings.SplitAfter(*c.Headers, "\n") {
			if line != "" && !strings.HasSuffix(line, "\r\n") {
				a.add("WC-CMD-HEADERS", c.Ref, "/H", "header line %d %q does not end in CR LF", i+1, strings.TrimRight(line, "\r\n"))
			}
		}
	}
	if s := c.Settings; s != nil {
		for _, e := range s.Engines {
			if e.Err != nil {
				a.add("WC-CMD-ENGINE", s.Ref, "/C", "%v", e.Err)
			}
		}
	}
}

func (a *auditor) trees() {
	for _, t := range []*pdfio.Tree{a.d.IDS, a.d.URLS} {
		switch {
		case t == nil:
		case t.Empty:
			a.add("WC-TREE-EMPTY", t.Root, "/"+t.Name, "the %s tree is empty", t.Name)
		case t.Nodes > 0 && len(t.Entries) == 0 && !a.treeDefect(t.Name):
			a.add("WC-TREE-EMPTY-NAMES", t.Root, "/"+t.Name, "the %s tree holds no entry (an empty /Names or /Kids array); a lookup finds nothing, as in the << >> Acrobat leaves", t.Name)
		}
	}
	if ids := a.d.IDS; ids != nil {
		for _, e := range ids.Entries {
			for _, cs := range e.Sets {
				if cs.ID != nil && string(*cs.ID) != e.Key {
					a.add("WC-IDS-KEY", cs.Ref, "/ID", "IDS key <%s> holds a content set whose /ID is <%s>", hexOf(e.Key), cs.ID.Hex())
				}
			}
		}
	}
}

// treeDefect reports whether the reader met a defect in the named tree.
func (a *auditor) treeDefect(name string) bool {
	for _, df := range a.d.Defects {
		if df.Path == name || strings.HasPrefix(df.Path, name+"/") {
			return true
		}
	}
	return false
}

// dangling reports whether the reader found a reference to o that leads to
// no object (o does not exist or cannot be located).
func (a *auditor) dangling(o webcapture.Ref) bool {
	for _, df := range a.d.Defects {
		if (df.Kind == pdfio.Dangling || df.Kind == pdfio.Unreadable) && df.Object == o && !o.IsZero() {
			return true
		}
	}
	return false
}

func hexOf(s string) string { return webcapture.RawID(s).Hex() }

func (a *auditor) sets() {
	images := map[webcapture.Ref]bool{}
	for _, im := range a.d.Images {
		images[im.Ref] = true
	}
	for i, cs := range a.d.Sets {
		if i%256 == 0 && a.stopped() {
			return
		}
		a.set(cs, images)
	}
}

func (a *auditor) set(cs *pdfio.ContentSet, images map[webcapture.Ref]bool) {
	ref := cs.Ref
	if cs.Type != nil && *cs.Type != "SpiderContentSet" {
		a.add("WC-CS-TYPE", ref, "/Type", "/Type is /%s; a content set's /Type, when present, is /SpiderContentSet", *cs.Type)
	}
	switch {
	case cs.Subtype == "":
		a.add("WC-CS-S", ref, "/S", "the content set has no /S (SPS or SIS, required)")
	case !cs.IsPageSet() && !cs.IsImageSet():
		a.add("WC-CS-S", ref, "/S", "/S is /%s; want /SPS (page set) or /SIS (image set)", cs.Subtype)
	}
	if cs.IsImageSet() && (cs.Title != nil || cs.TextID != nil) {
		a.add("WC-CS-SUBTYPE-KEY", ref, "/T", "an image set has /T or /TID, which belong to page sets")
	}
	if cs.IsPageSet() && cs.RefCounts != nil {
		a.add("WC-CS-SUBTYPE-KEY", ref, "/R", "a page set has /R, which belongs to image sets")
	}
	switch {
	case cs.ID == nil:
		a.add("WC-CS-ID", ref, "/ID", "the content set has no /ID (its digital identifier, required)")
	case len(*cs.ID) != 16:
		a.add("WC-CS-ID-LENGTH", ref, "/ID", "/ID <%s> is %d bytes; an MD5 identifier is 16", cs.ID.Hex(), len(*cs.ID))
	}
	if cs.TextID != nil && len(*cs.TextID) != 16 {
		a.add("WC-CS-TID-LENGTH", ref, "/TID", "/TID <%s> is %d bytes; an MD5 text identifier is 16", cs.TextID.Hex(), len(*cs.TextID))
	}
	if cs.Objects == nil {
		a.add("WC-CS-O", ref, "/O", "the content set has no /O (its pages or images, required)")
	}
	pageSet, imageSet := cs.IsPageSet(), cs.IsImageSet()
	prev, before, after := 0, 0, 0 // the page number before; the first pair out of order
	for i, o := range cs.Objects {
		n := 0
		if pageSet {
			n = a.d.PageNumber(o)
			if n != 0 && prev != 0 && n < prev && before == 0 {
				before, after = prev, n
			}
			prev = n
		}
		switch {
		case a.dangling(o):
			// The reader's WC-DANGLING already names the object that cannot
			// be located (a damaged file's page, say); it is the one cause.
		case pageSet && n == 0:
			a.add("WC-CS-O-TARGET", ref, "/O", "O[%d] is %s, which is not a page of the page tree", i, o)
		case imageSet && !images[o]:
			a.add("WC-CS-O-TARGET", ref, "/O", "O[%d] is %s, which is not an image XObject", i, o)
		}
	}
	if before != 0 {
		a.add("WC-CS-O-ORDER", ref, "/O", "/O lists page %d before page %d: pages are listed in the order they were added, so they were added out of order or moved since", before, after)
	}
	if len(cs.Sources) == 0 {
		a.add("WC-CS-SI", ref, "/SI", "the content set has no /SI (its source information, required)")
	}
	for _, si := range cs.Sources {
		a.source(cs, si)
	}
	a.sourceTwice(cs)
	if cs.ContentType != nil {
		a.ascii(ref, "/CT", *cs.ContentType)
	}
	if cs.Orphan {
		a.add("WC-CS-ORPHAN", ref, "", "no IDS or URLS key reaches this content set")
	}
	if cs.IsImageSet() {
		a.refCounts(cs)
	}
}

func (a *auditor) source(cs *pdfio.ContentSet, si *webcapture.SourceInfo) {
	obj := si.Ref
	if obj.IsZero() {
		obj = cs.Ref
	}
	if si.URLs.URL == "" && !a.has("WC-TYPE", si.Ref, "/AU") {
		what := "/AU (the source's URL, required)"
		if si.URLs.Alias {
			what = "/U in its URL alias dictionary (required)"
		}
		a.add("WC-SI-AU", obj, "/AU", "the source information has no %s", what)
	}
	for _, u := range si.URLs.All() {
		a.urlBytes(obj, "/AU", u)
		a.password(obj, "/AU", u)
	}
	if si.Submission != nil && (*si.Submission < 0 || *si.Submission > 2) {
		a.add("WC-SI-S", obj, "/S", "/S is %d; want 0 (none), 1 (GET) or 2 (POST)", *si.Submission)
	}
	if si.SHA256 != nil && len(*si.SHA256) != sha256.Size {
		a.add("WC-SI-SHA256", obj, "/WCSHA256", "/WCSHA256 has %d bytes; want the 32 bytes of a SHA-256 digest", len(*si.SHA256))
	}
	if cs.IsImageSet() && (si.Submission != nil || si.Command != nil) {
		a.add("WC-SI-PAGESET", obj, "/S", "the source information of an image set has /S or /C, which belong to page sets")
	}
}

// members checks §6: every page's and image's /ID finds its parent through
// IDS, the parent's /O holds it, and no object is in two sets.
func (a *auditor) members() {
	in := a.setsListing()
	// keyed reports whether an IDS key id holds a set: made once, when a
	// finding asks (a member found through its sets needs no map of keys).
	var byKey map[string]bool
	keyed := func(id string) bool {
		if byKey == nil {
			byKey = map[string]bool{}
			if a.d.IDS != nil {
				for _, e := range a.d.IDS.Entries {
					byKey[e.Key] = byKey[e.Key] || len(e.Sets) > 0
				}
			}
		}
		return byKey[id]
	}
	// check checks page number page's membership, or an image's (page 0);
	// what it is called is made only for a finding.
	check := func(page int, ref webcapture.Ref, id *webcapture.RawID) {
		sets := in.of(ref)
		if len(sets) > 1 {
			a.add("WC-MEMBER-TWICE", ref, "", "%s %s is in the /O of %d content sets (%s): it may belong to one", memberName(page), ref, len(sets), refList(sets))
		}
		for _, cs := range sets {
			switch {
			case id == nil:
				a.add("WC-MEMBER-ID", ref, "/ID", "%s %s is in content set %s but has no /ID to find it by", memberName(page), ref, cs.Ref)
			case cs.ID != nil && *id != *cs.ID:
				a.add("WC-MEMBER-ID", ref, "/ID", "%s %s is in content set %s (/ID <%s>) but its /ID is <%s>", memberName(page), ref, cs.Ref, cs.ID.Hex(), id.Hex())
			}
		}
		if id == nil {
			return
		}
		// A set under IDS key id lists it: one of the sets that list it
		// is under that key (each set knows its keys, IDSKeys).
		for _, cs := range sets {
			if slices.Contains(cs.IDSKeys, string(*id)) {
				return
			}
		}
		if !a.hasWebCapture() {
			a.add("WC-ID-RESIDUE", ref, "/ID", "%s %s has /ID <%s>, but the file holds no Web Capture structure (no SpiderInfo, IDS, URLS or content set): residue of a capture saved without them", memberName(page), ref, id.Hex())
			return
		}
		if !keyed(string(*id)) {
			a.add("WC-PARENT", ref, "/ID", "%s %s has /ID <%s>, which is not an IDS key: its parent content set cannot be found", memberName(page), ref, id.Hex())
		} else {
			a.add("WC-PARENT", ref, "/ID", "%s %s has /ID <%s>, but no content set under that IDS key lists it in /O", memberName(page), ref, id.Hex())
		}
	}
	for _, p := range a.d.Pages {
		if p.ID != nil || len(in.of(p.Ref)) > 0 {
			check(p.Number, p.Ref, p.ID)
		}
	}
	for _, im := range a.d.Images {
		if im.ID != nil || len(in.of(im.Ref)) > 0 {
			check(0, im.Ref, im.ID)
		}
	}
}

// listing is the sets that list each object in /O (setsListing).
type listing struct {
	sets  []*pdfio.ContentSet
	first *webcapture.RefIndex[int32]            // the first set that lists an object: its place in sets
	more  map[webcapture.Ref][]*pdfio.ContentSet // every set that lists an object two or more list
}

// setsListing finds the sets that list each object, by object number up
// to what the pages and images alone could be numbered (a member is one
// of them; webcapture.DenseBound).
func (a *auditor) setsListing() *listing {
	l := &listing{sets: a.d.Sets, first: webcapture.NewRefIndex[int32](webcapture.DenseBound(len(a.d.Pages) + len(a.d.Images)))}
	for i, cs := range a.d.Sets {
		for _, o := range cs.Objects {
			j, ok := l.first.Get(o)
			switch {
			case !ok:
				l.first.Put(o, int32(i))
			case l.more[o] == nil:
				if l.more == nil {
					l.more = map[webcapture.Ref][]*pdfio.ContentSet{}
				}
				l.more[o] = []*pdfio.ContentSet{a.d.Sets[j], cs}
			default:
				l.more[o] = append(l.more[o], cs)
			}
		}
	}
	return l
}

// of returns the sets that list o, in Sets order (a set once for each
// time it lists o).
func (l *listing) of(o webcapture.Ref) []*pdfio.ContentSet {
	i, ok := l.first.Get(o)
	if !ok {
		return nil
	}
	if more := l.more[o]; more != nil {
		return more
	}
	return l.sets[i : i+1 : i+1]
}

// memberName names page number page, or an image (page 0), in a finding.
func memberName(page int) string {
	if page > 0 {
		return fmt.Sprintf("page %d", page)
	}
	return "image"
}

func refList(sets []*pdfio.ContentSet) string {
	parts := make([]string, len(sets))
	for i, cs := range sets {
		parts[i] = cs.Ref.String()
	}
	return strings.Join(parts, ", ")
}
