package cli

import (
	"encoding/hex"
	"errors"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/htmlreport"
	"sort"
	"strings"
	"time"

	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// The JSON every command prints with --json, and the builders of info's
// report. Every object a command prints starts with "schema":
// "webcap.COMMAND/1", the name of its JSON Schema (docs/schemas, shipped
// in the binary: webcap help schema NAME; generated from these types by
// TestSchemas). Output comes in one of two kinds: a stream, one object per
// input on its own line (canon, id, info, lookup, audit --jsonl), or one
// document (audit, build, fix, capture, append, refresh, version).
// Field names are stable, and one concept has one name in every command
// (docs/json.md): "input" is what the command read, "output" the file it
// wrote, "subtype" a content set's /S, "refCounts" an image set's /R,
// "chains" redirect chains, "reason" why something was skipped or left
// out, "error" a failure. Identifiers are upper-case hex; strings read from
// the file (bytesJSON, textJSON) lose no byte: a JSON string when they are
// valid UTF-8 (titles: when they decode), {"hex": "..."} otherwise, but
// for a URL's password, never shown (audit.WithoutPassword); dates
// come as written ("raw") and, when they parse, in RFC 3339 ("time").
// Messages (defects, errors) are text for people.

// schemaName is the "schema" of what a command prints.
func schemaName(command string) string { return "webcap." + command + "/1" }

// schemaCanon is canon's, a constant: canon prints millions.
const schemaCanon = "webcap.canon/1"

// errorJSON is a failure, in-band. Kind is the class of exit status it
// makes, decided by exitCode: "failed" (1), "io" (3: a file or stream could
// not be read or written; worth retrying), "invalid" (4: an input is not a
// PDF, too damaged to parse, or hostile; never worth retrying),
// "interrupted" (130 or 143).
type errorJSON struct {
	Message string `json:"message"`
	Kind    string `json:"kind" jsonschema:"enum=failed,enum=io,enum=invalid,enum=interrupted"`
	Step    string `json:"step,omitempty"`   // canon: the step of the algorithm that failed
	Offset  *int   `json:"offset,omitempty"` // canon: the byte of the input where it failed
}

func newErrorJSON(err error) *errorJSON {
	var in *interrupted
	kind := "failed"
	switch {
	case errors.As(err, &in):
		kind = "interrupted"
	case exitCode(err) == exitIOError:
		kind = "io"
	case exitCode(err) == exitInvalid:
		kind = "invalid"
	}
	return &errorJSON{Message: err.Error(), Kind: kind}
}

// failureJSON is what a command prints with --json when it fails as a
// whole, or (info, id) for an input it cannot read: the command's schema,
// what it read and was to write, and the error.
type failureJSON struct {
	Schema string     `json:"schema"`
	Input  string     `json:"input,omitempty"`
	Output string     `json:"output,omitempty"`
	Error  *errorJSON `json:"error"`
}

// info --json: one object per file.

type infoReport struct {
	Schema      string          `json:"schema"`
	Input       string          `json:"input"`
	Version     string          `json:"version"`
	Encrypted   bool            `json:"encrypted"`
	Pages       int             `json:"pages"`
	SpiderInfo  *spiderInfoJSON `json:"spiderInfo" jsonschema:"nullable"`
	IDS         *treeJSON       `json:"ids" jsonschema:"nullable"`
	URLS        *treeJSON       `json:"urls" jsonschema:"nullable"`
	ContentSets []setJSON       `json:"contentSets"`
	Defects     []defectJSON    `json:"defects"`
	Counts      countsJSON      `json:"counts"`

	// The pages' /PZ and the link annotations' /PA, in page order.
	PageZoom     []pageZoomJSON    `json:"pageZoom"`
	PriorActions []priorActionJSON `json:"priorActions"`
	// The files the catalog's /AF and /Names /EmbeddedFiles list (infoembed.go).
	EmbeddedFiles []embeddedFileJSON `json:"embeddedFiles"`
	// The signatures and document timestamps, as they claim (infoseals.go).
	Seals []sealJSON `json:"seals,omitempty"`
}

type pageZoomJSON struct {
	Page int     `json:"page"`
	PZ   float64 `json:"pz"`
}

type priorActionJSON struct {
	Page   int        `json:"page"`
	Annot  string     `json:"annot"`            // the link annotation, "12 0 R" or "direct"
	Kind   string     `json:"kind"`             // what /PA is: "a dictionary", "a name", ...
	Action string     `json:"action,omitempty"` // its /S
	URI    *bytesJSON `json:"uri,omitempty"`    // its /URI string, when it has one
}

type spiderInfoJSON struct {
	Object   string        `json:"object"`
	Version  *string       `json:"version" jsonschema:"nullable"`
	Commands []commandJSON `json:"commands"`
}

// commandJSON is a command. Posted data is written once per stream: 400
// commands sharing one 60 MiB /P stream are 60 MiB of JSON, not 24 GB
// (postDataOf names the command that holds it).
type commandJSON struct {
	Object      string        `json:"object"`
	URL         bytesJSON     `json:"url"`
	Levels      int64         `json:"levels"`
	Flags       []string      `json:"flags"`
	FlagBits    uint32        `json:"flagBits"`
	Method      string        `json:"method"`
	PostData    *bytesJSON    `json:"postData,omitempty"`
	PostDataOf  *int          `json:"postDataOf,omitempty"` // P is the stream commands[N] posts: its data is written there only
	ContentType *bytesJSON    `json:"contentType,omitempty"`
	Headers     *bytesJSON    `json:"headers,omitempty"`
	Settings    *settingsJSON `json:"settings,omitempty"`
}

type settingsJSON struct {
	Object  string       `json:"object"`
	Global  []bytesJSON  `json:"global"`
	Values  []valueJSON  `json:"values"` // G's entries, in key order, with their values
	Engines []engineJSON `json:"engines"`
}

type engineJSON struct {
	Name     bytesJSON   `json:"name"`
	Valid    bool        `json:"valid"`
	Reason   string      `json:"reason,omitempty"` // why Name is not an engine name
	Settings []bytesJSON `json:"settings"`
	Value    string      `json:"value"` // the engine's settings in PDF syntax (webcapture.Format)
}

// valueJSON is a dictionary entry: its key, and its value in PDF syntax
// (webcapture.Format: ASCII, strings that are not printable in hex).
type valueJSON struct {
	Key   bytesJSON `json:"key"`
	Value string    `json:"value"`
}

type treeJSON struct {
	Object  string    `json:"object"`
	Entries int       `json:"entries"`
	Nodes   int       `json:"nodes"`
	Depth   int       `json:"depth"`
	Keys    []keyJSON `json:"keys"`
}

type keyJSON struct {
	Key   bytesJSON `json:"key"` // IDS: the identifier in hex
	Array bool      `json:"array"`
	Sets  []int     `json:"sets"`
}

type setJSON struct {
	Index       int          `json:"index"`
	Object      string       `json:"object"`
	Subtype     bytesJSON    `json:"subtype"`
	ID          *string      `json:"id" jsonschema:"nullable"`
	IDSKeys     []string     `json:"idsKeys"`
	URLSKeys    []bytesJSON  `json:"urlsKeys"`
	Orphan      bool         `json:"orphan"`
	Sources     []sourceJSON `json:"sources"`
	ContentType *bytesJSON   `json:"contentType,omitempty"`
	Created     *dateJSON    `json:"created,omitempty"`
	Title       *textJSON    `json:"title,omitempty"`
	TID         *string      `json:"tid,omitempty"`
	Objects     []string     `json:"objects"`
	Pages       []int        `json:"pages,omitempty"`
	RefCounts   []int64      `json:"refCounts,omitempty"`
}

type sourceJSON struct {
	URL        bytesJSON     `json:"url"`
	Alias      bool          `json:"alias"`
	Chains     [][]bytesJSON `json:"chains,omitempty"`
	Updated    *dateJSON     `json:"updated,omitempty"`
	Expires    *dateJSON     `json:"expires,omitempty"`
	Submission string        `json:"submission"`
	Command    string        `json:"command,omitempty"`
	// SHA256 is webcap's /WCSHA256 (docs/sha256.md) in lower-case hex, as
	// sha256sum and a WARC's sha256: digests write it; absent when the
	// file has none.
	SHA256 string `json:"sha256,omitempty"`
}

type dateJSON struct {
	Raw   bytesJSON `json:"raw"`
	Time  string    `json:"time,omitempty"`
	Valid bool      `json:"valid"`
}

type defectJSON struct {
	Kind    string `json:"kind"`
	Path    string `json:"path"`
	Object  string `json:"object"`
	Message string `json:"message"`
}

type countsJSON struct {
	ContentSets  int `json:"contentSets"`
	PageSets     int `json:"pageSets"`
	ImageSets    int `json:"imageSets"`
	Orphans      int `json:"orphans"`
	Pages        int `json:"pages"`
	PagesWithID  int `json:"pagesWithID"`
	Images       int `json:"images"`
	ImagesWithID int `json:"imagesWithID"`
	Defects      int `json:"defects"`
}

// canon --json: one object per input.

type canonJSON struct {
	Schema    string     `json:"schema"`
	Input     string     `json:"input"`
	Canonical string     `json:"canonical,omitempty"`
	Error     *errorJSON `json:"error,omitempty"`
	Steps     []stepJSON `json:"steps,omitempty"`
}

type stepJSON struct {
	Step   string `json:"step"`
	Name   string `json:"name"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// lookup --json: one object per query; its sets are info's.

type lookupJSON struct {
	Schema string     `json:"schema"`
	Input  string     `json:"input"` // the PDF file
	Query  bytesJSON  `json:"query"`
	Tree   string     `json:"tree" jsonschema:"enum=URLS,enum=IDS"`
	Key    bytesJSON  `json:"key,omitempty"`
	Found  bool       `json:"found"`
	Error  *errorJSON `json:"error,omitempty"`
	Sets   []setJSON  `json:"sets"`
}

// id --json: one object per file.

type idJSON struct {
	Schema     string       `json:"schema"`
	Input      string       `json:"input"`
	Kind       string       `json:"kind"`
	ID         string       `json:"id"`
	Complete   bool         `json:"complete"`
	URL        string       `json:"url,omitempty"`
	Base       string       `json:"base,omitempty"`
	AuxID      string       `json:"auxId,omitempty"`
	Aux        []auxRefJSON `json:"aux,omitempty"`
	Skipped    []auxRefJSON `json:"skipped,omitempty"`
	TextLength *int         `json:"textLength,omitempty"`
	SHA256     string       `json:"sha256,omitempty"` // id --warc: SHA-256 (hex) of the bytes the identifier rule hashes first, as /WCSHA256 holds it
	WARC       *idWARCJSON  `json:"warc,omitempty"`   // id --warc: the record that holds those bytes
}

// idWARCJSON names the WARC response record whose content an identifier
// was computed from.
type idWARCJSON struct {
	Record          string `json:"record"`                    // WARC-Record-ID
	PayloadDigest   string `json:"payloadDigest,omitempty"`   // WARC-Payload-Digest, as written
	ContentEncoding string `json:"contentEncoding,omitempty"` // the payload's Content-Encoding, decoded before hashing
}

type auxRefJSON struct {
	URL     string `json:"url,omitempty"`
	Element string `json:"element"`
	Attr    string `json:"attr"`
	Raw     string `json:"raw"`
	ID      string `json:"id,omitempty"`
	Found   bool   `json:"found"`
	Reason  string `json:"reason,omitempty"` // why it was not found
}

// audit --json: one document; audit --jsonl: a fileLineJSON per file, as
// audit-file prints it to its parent.

type auditReport struct {
	Schema  string       `json:"schema"`
	Files   []fileJSON   `json:"files"`
	Summary auditSummary `json:"summary"`
}

// fileJSON is one file's result.
type fileJSON struct {
	Input string `json:"input"`
	fileMeta
	Error    *errorJSON    `json:"error,omitempty"` // the file could not be read
	Findings []findingJSON `json:"findings"`
	// Status is the verdict in JHOVE's words (audit.Status): "Well-Formed
	// and valid", "Well-Formed, but not valid" or "Not well-formed";
	// absent for a file not examined for an operational reason (error
	// kind io or interrupted), of which no verdict is said. audit writes
	// it; its worker does not.
	Status string `json:"jhoveStatus,omitempty" jsonschema:"enum=Well-Formed and valid,enum=Well-Formed\\, but not valid,enum=Not well-formed"`
	// Capture is the file's SpiderInfo version and content sets, what the
	// HTML report shows (htmlreport.Capture): with audit --sets (or
	// --html) only.
	Capture *htmlreport.Capture `json:"capture,omitempty"`
	// spooled holds the findings instead of Findings when they spilled
	// (auditspool.go); nil: Findings holds them.
	spooled *batch.Findings
}

// fileLineJSON is one file's result on a line of its own (audit --jsonl).
type fileLineJSON struct {
	Schema string `json:"schema"`
	fileJSON
}

type findingJSON struct {
	Rule     string `json:"rule"`
	Severity string `json:"severity"`
	Message  string `json:"message"`
	Object   string `json:"object,omitempty"`
	Key      string `json:"key,omitempty"`
	Spec     string `json:"spec"`
}

type auditSummary struct {
	Files      int `json:"files"`
	Errors     int `json:"errors"`
	Warnings   int `json:"warnings"`
	Infos      int `json:"infos"`
	Unreadable int `json:"unreadable"`
}

// build --json.

// buildSummary is build --json's output.
type buildSummary struct {
	Schema   string     `json:"schema"`
	Input    string     `json:"input"` // the manifest
	PDF      string     `json:"pdf"`   // the PDF the manifest names, which build adds to
	Output   string     `json:"output"`
	Appended int        `json:"appendedBytes"`
	Commands int        `json:"commandsAdded"`
	Sets     []buildSet `json:"sets"`
	Errors   int        `json:"auditErrors"`
}

type buildSet struct {
	Subtype string   `json:"subtype" jsonschema:"enum=SPS,enum=SIS"`
	Object  string   `json:"object"`
	ID      string   `json:"id"`
	TextID  string   `json:"tid,omitempty"`
	URL     string   `json:"url"`
	Key     string   `json:"urlsKey"`
	Pages   []int    `json:"pages,omitempty"`
	Objects []string `json:"objects,omitempty"` // image sets: the image XObjects
	R       []int64  `json:"refCounts,omitempty"`
	Aux     int      `json:"auxFiles,omitempty"`
	Aliases []string `json:"aliases,omitempty"` // URLS keys of the URLs that redirected to URL
	Shared  bool     `json:"joined,omitempty"`  // the images joined an image set with the same ID
}

// fix --json.

// fixSummary is what fix prints with --json.
type fixSummary struct {
	Schema     string          `json:"schema"`
	Input      string          `json:"input"`
	Output     string          `json:"output,omitempty"` // the file written (the input with --in-place); none with --dry-run or nothing to fix
	DryRun     bool            `json:"dryRun"`
	Repairs    []repairJSON    `json:"repairs"`
	Left       []repairJSON    `json:"leftAlone"`
	Collisions []collisionJSON `json:"collisions"`
	Losses     []lossJSON      `json:"losses"`  // trees that hold what cannot be read
	Refused    bool            `json:"refused"` // nothing written: a tree would lose what cannot be read (no --allow-loss)
	Appended   int             `json:"appendedBytes"`
	Errors     int             `json:"auditErrors"` // of the output, or of the input when nothing is written
}

type repairJSON struct {
	Rules   []string `json:"rules"`
	Object  string   `json:"object,omitempty"`
	Message string   `json:"message"`
}

// collisionJSON is URLS keys left as written: canonicalized, they would
// all be Key and merge different content sets.
type collisionJSON struct {
	Key  bytesJSON          `json:"key"`
	Keys []collidingKeyJSON `json:"keys"`
}

// lossJSON is a tree that holds objects the cross-reference data lists but
// that cannot be read (repair.Loss).
type lossJSON struct {
	Tree    string   `json:"tree" jsonschema:"enum=IDS,enum=URLS"`
	Objects []string `json:"objects"`   // the objects that cannot be read
	Read    int      `json:"keysRead"`  // keys read from the tree
	Kept    int      `json:"keysKept"`  // keys the rebuilt tree holds, or would
	Lost    int      `json:"keysLost"`  // keys read whose value cannot be read
	Nodes   int      `json:"nodesLost"` // nodes that cannot be read, with their keys (how many is not known)
	Dropped bool     `json:"dropped"`   // rebuilt anyway (--allow-loss)
	Message string   `json:"message"`
}

type collidingKeyJSON struct {
	Key        bytesJSON `json:"key"`        // as the file writes it
	SetObjects []string  `json:"setObjects"` // the content sets it leads to
}

// capture --json and append --json.

// captureSummary is what capture and append print with --json.
type captureSummary struct {
	Schema string         `json:"schema"`
	Input  string         `json:"input,omitempty"` // append: the capture added to
	Output string         `json:"output"`
	Pages  []capturedPage `json:"captured"`
	Skips  []capture.Skip `json:"skipped"`
	Links  int            `json:"internalLinks"`
	// Bookmarks is how many page sets were given a bookmark.
	Bookmarks int `json:"bookmarks"`
	// Notes say what was not done as asked (pages not tagged, bookmarks
	// not added), and why.
	Notes   []string `json:"notes,omitempty"`
	Errors  int      `json:"auditErrors"`
	Stopped string   `json:"stopped,omitempty"`
}

// capturedPage is one page a capture fetched.
type capturedPage struct {
	URL     string         `json:"url"`
	Chains  [][]string     `json:"chains,omitempty"`
	Title   string         `json:"title"`
	Pages   []int          `json:"pages"`
	ID      string         `json:"id"`
	Missing []capture.Skip `json:"missing,omitempty"`
}

// refresh --json.

// refreshSummary is what refresh prints with --json.
type refreshSummary struct {
	Schema   string           `json:"schema"`
	Input    string           `json:"input"`
	Output   string           `json:"output,omitempty"`
	DryRun   bool             `json:"dryRun"`
	Commands []capture.Replay `json:"commands"`
	Changes  []capture.Change `json:"changes"`
	Skips    []capture.Skip   `json:"skipped"`
	Replaced int              `json:"replaced"`
	Added    int              `json:"added"`
	Checked  int              `json:"checked"`
	Links    int              `json:"internalLinks"`
	// Bookmarks is how many page sets are listed under "New and Changed
	// Pages".
	Bookmarks int `json:"bookmarks"`
	// Notes say what was not done as asked (pages not tagged, bookmarks
	// not added), and why.
	Notes   []string   `json:"notes,omitempty"`
	Errors  int        `json:"auditErrors"`
	Stopped string     `json:"stopped,omitempty"`
	Error   *errorJSON `json:"error,omitempty"` // nothing written: no page could be checked
	// Unsent are the requests the pages' scripts made that were not sent
	// (without --resubmit, or in a dry run), at most 100; UnsentMore
	// counts the others.
	Unsent     []capture.Unsent `json:"unsent,omitempty"`
	UnsentMore int              `json:"unsentMore,omitempty"`
}

func newInfoReport(d *pdfio.Document) *infoReport {
	rep := newInfoReportHead(d)
	rep.ContentSets = []setJSON{}
	for i, cs := range d.Sets {
		rep.ContentSets = append(rep.ContentSets, newSetJSON(d, cs, i+1))
	}
	return rep
}

func counts(d *pdfio.Document) countsJSON {
	c := countsJSON{ContentSets: len(d.Sets), Pages: len(d.Pages), Images: len(d.Images), Defects: len(d.Defects)}
	for _, cs := range d.Sets {
		switch {
		case cs.IsPageSet():
			c.PageSets++
		case cs.IsImageSet():
			c.ImageSets++
		}
		if cs.Orphan {
			c.Orphans++
		}
	}
	for _, p := range d.Pages {
		if p.ID != nil {
			c.PagesWithID++
		}
	}
	for _, im := range d.Images {
		if im.ID != nil {
			c.ImagesWithID++
		}
	}
	return c
}

func newSpiderInfoJSON(info *webcapture.Info) *spiderInfoJSON {
	j := &spiderInfoJSON{Object: info.Ref.String(), Version: spiderVersion(info), Commands: []commandJSON{}}
	posted := map[webcapture.Ref]int{}
	for i, c := range info.Commands {
		cj, post := newCommandJSON(c, i, posted)
		if post != nil {
			s := bytesJSON(post)
			cj.PostData = &s
		}
		j.Commands = append(j.Commands, cj)
	}
	return j
}

func spiderVersion(info *webcapture.Info) *string {
	if info.Version == nil {
		return nil
	}
	v := info.Version.String()
	return &v
}

// newCommandJSON is commands[i] without its postData, which it returns
// apart: the bytes to write there, or nil. A /P stream is written by the
// first command that posts it (posted maps it to that command's index);
// the others name that command in postDataOf. (The data is not made a
// bytesJSON here, so that writeInfoJSON can write a 60 MiB stream from
// the decoded bytes without a copy.)
func newCommandJSON(c *webcapture.Command, i int, posted map[webcapture.Ref]int) (commandJSON, []byte) {
	cj := commandJSON{Object: c.Ref.String(), URL: urlJSON(c.URL), Levels: c.Depth(), FlagBits: uint32(c.FlagsOrDefault()),
		Flags: flagNames(c.FlagsOrDefault()), Method: "GET", ContentType: optBytes(c.ContentType), Headers: optBytes(c.Headers)}
	if c.IsPost() {
		cj.Method = "POST"
	}
	var post []byte
	first, shared := posted[c.PostRef]
	switch {
	case c.PostData == nil: // (a POST whose stream is too large to read: a defect says)
	case c.PostRef != webcapture.Ref{} && shared:
		cj.PostDataOf = &first
	default:
		post = *c.PostData
		if post == nil {
			post = []byte{} // (posted, and empty: "postData": "")
		}
		if c.PostRef != (webcapture.Ref{}) {
			posted[c.PostRef] = i
		}
	}
	if s := c.Settings; s != nil {
		sj := &settingsJSON{Object: s.Ref.String(), Global: dictKeys(s.Global), Values: dictValues(s.Global), Engines: []engineJSON{}}
		for _, e := range s.Engines {
			ej := engineJSON{Name: bytesJSON(e.Key), Valid: e.Err == nil, Settings: []bytesJSON{}, Value: webcapture.Format(e.Settings)}
			if e.Err != nil {
				ej.Reason = e.Err.Error()
			}
			if d, ok := e.Settings.(webcapture.Dict); ok {
				ej.Settings = dictKeys(d)
			}
			sj.Engines = append(sj.Engines, ej)
		}
		cj.Settings = sj
	}
	return cj, post
}

func flagNames(f webcapture.Flags) []string {
	if f == 0 {
		return []string{}
	}
	return strings.Split(f.String(), "|")
}

func dictKeys(d webcapture.Dict) []bytesJSON {
	keys := []bytesJSON{}
	for k := range d {
		keys = append(keys, bytesJSON(k))
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] })
	return keys
}

func dictValues(d webcapture.Dict) []valueJSON {
	out := []valueJSON{}
	for _, k := range dictKeys(d) {
		out = append(out, valueJSON{Key: k, Value: webcapture.Format(d[webcapture.Name(k)])})
	}
	return out
}

// newZoomJSON and newPriorActionsJSON are info's pageZoom and
// priorActions.
func newZoomJSON(d *pdfio.Document) []pageZoomJSON {
	out := []pageZoomJSON{}
	for _, p := range d.Pages {
		if p.PZ != nil {
			out = append(out, pageZoomJSON{Page: p.Number, PZ: *p.PZ})
		}
	}
	return out
}

func newPriorActionsJSON(d *pdfio.Document) []priorActionJSON {
	out := []priorActionJSON{}
	for _, a := range d.PriorActions {
		j := priorActionJSON{Page: a.Page, Annot: a.Annot.String(), Kind: a.Kind, Action: a.Action}
		if a.URI {
			u := urlJSON(a.Target)
			j.URI = &u
		}
		out = append(out, j)
	}
	return out
}

func optBytes(s *string) *bytesJSON {
	if s == nil {
		return nil
	}
	b := bytesJSON(*s)
	return &b
}

func newTreeJSON(t *pdfio.Tree, index map[*pdfio.ContentSet]int) *treeJSON {
	if t == nil {
		return nil
	}
	j := &treeJSON{Object: t.Root.String(), Entries: len(t.Entries), Nodes: t.Nodes, Depth: t.Depth, Keys: []keyJSON{}}
	for _, e := range t.Entries {
		k := keyJSON{Key: bytesJSON(showKey(t.Name, e.Key)), Array: e.Array, Sets: []int{}}
		for _, cs := range e.Sets {
			k.Sets = append(k.Sets, index[cs])
		}
		j.Keys = append(j.Keys, k)
	}
	return j
}

func newSetJSON(d *pdfio.Document, cs *pdfio.ContentSet, i int) setJSON {
	j := setJSON{Index: i, Object: cs.Ref.String(), Subtype: bytesJSON(cs.Subtype), Orphan: cs.Orphan,
		ContentType: optBytes(cs.ContentType), Created: newDateJSON(cs.Created), RefCounts: cs.RefCounts,
		IDSKeys: []string{}, URLSKeys: []bytesJSON{}, Sources: []sourceJSON{}, Objects: []string{}}
	if cs.ID != nil {
		h := cs.ID.Hex()
		j.ID = &h
	}
	if cs.TextID != nil {
		h := cs.TextID.Hex()
		j.TID = &h
	}
	if cs.Title != nil {
		t := textJSON(*cs.Title)
		j.Title = &t
	}
	for _, k := range cs.IDSKeys {
		j.IDSKeys = append(j.IDSKeys, webcapture.RawID(k).Hex())
	}
	for _, k := range cs.URLSKeys {
		j.URLSKeys = append(j.URLSKeys, urlJSON(k))
	}
	for _, o := range cs.Objects {
		j.Objects = append(j.Objects, o.String())
	}
	if cs.IsPageSet() {
		j.Pages = d.PageNumbers(cs)
	}
	for _, si := range cs.Sources {
		sj := sourceJSON{URL: urlJSON(si.URLs.URL), Alias: si.URLs.Alias, Chains: chainsJSON(si.URLs.Chains),
			Updated: newDateJSON(si.Updated), Expires: newDateJSON(si.Expires), Submission: si.SubmissionOrDefault().String()}
		if si.Command != nil {
			sj.Command = si.Command.String()
		}
		if si.SHA256 != nil {
			sj.SHA256 = sha256Hex(*si.SHA256)
		}
		j.Sources = append(j.Sources, sj)
	}
	return j
}

// sha256Hex shows a /WCSHA256 as lower-case hex, whatever its length.
func sha256Hex(r webcapture.RawID) string { return hex.EncodeToString([]byte(r)) }

func chainsJSON(chains [][]string) [][]bytesJSON {
	if chains == nil {
		return nil
	}
	out := make([][]bytesJSON, len(chains))
	for i, c := range chains {
		out[i] = make([]bytesJSON, len(c))
		for j, u := range c {
			out[i][j] = urlJSON(u)
		}
	}
	return out
}

func newDateJSON(d *webcapture.Date) *dateJSON {
	if d == nil {
		return nil
	}
	j := &dateJSON{Raw: bytesJSON(d.Raw), Valid: d.Valid}
	if d.Valid {
		j.Time = d.Time.Format(time.RFC3339)
	}
	return j
}

// showKey shows a tree key: IDS keys as hex, URLS keys as they are but
// for a password (shownURL).
func showKey(tree, key string) string {
	if tree == "IDS" {
		return webcapture.RawID(key).Hex()
	}
	return shownURL(key)
}
