package capture

import (
	"fmt"
	"strings"

	"github.com/sergi/go-diff/diffmatchpatch"
	"github.com/webcap/webcap/pdfio"
)

// The refresh change report (refresh --report): per page set, its old and
// new identifiers, what changed, and for a changed page a word-level diff
// of its text.
//
// Which text: a text identifier (TID) is the MD5 of the text of the page's
// HTML source (webcapture.PageText), but a PDF keeps only the identifier,
// not the source, so the old text cannot be had from the file. What both
// sides do have is the page as printed: the old set's pages in the input
// PDF, and the new capture's printed pages. Both are read by one
// extractor (pdfio.ReadText), so the diff is like for like: a word that
// differs is a word the reader sees differ, and a page printed twice
// from the same text diffs equal. The TIDs say whether the source's text
// changed (text-changed, or changed when only markup, images or styles
// did); the diff says how, as printed.

// The changes a report names: refresh's statuses, with changed split by
// the text identifiers.
const (
	ChangeText = "text-changed" // the page's text changed (the TIDs differ)
	// The other changes are the Status* values: unchanged, changed (the
	// page changed but not its text: markup, images, styles), new, gone,
	// unreachable, unchecked.
)

// ReportText says which text a report's diffs compare.
const ReportText = "the text printed on the pages: the old set's pages in the input PDF and the new capture's printed pages, read by one extractor (a PDF keeps a page's text identifier, not the source text it was computed from)"

// maxDiffWords bounds the words of one side of a diff: past it the diff
// is left out (DiffError says so), so that two very different long pages
// cannot hold refresh for long. The diff costs about words × edits: two
// pages of 10,000 words with no word in common take 1.8 s, with every
// other word changed 3 s (a long article is 5,000 to 8,000 words).
const maxDiffWords = 10_000

// A RefreshReport is what refresh found, page set by page set, for people
// to read (Report).
type RefreshReport struct {
	ComparedBy string       // "ID", or "TID" (TextOnly)
	Text       string       // which text the diffs compare (ReportText)
	Pages      []PageChange // by URL, as RefreshResult.Changes
	// Unsent and UnsentMore are RefreshResult's: the pages' own requests
	// not sent.
	Unsent     []Unsent
	UnsentMore int
}

// A PageChange is one page set of a RefreshReport.
type PageChange struct {
	URL    string `json:"url"`
	Change string `json:"change" jsonschema:"enum=text-changed,enum=changed,enum=new,enum=gone,enum=unreachable,enum=unchecked,enum=unchanged"` // text-changed, or a Status* value
	// Reason says why a page is gone, unreachable or unchecked.
	Reason string      `json:"reason,omitempty"`
	Kind   string      `json:"kind,omitempty"` // the Skip kind behind Reason
	Old    *SetIDs     `json:"old,omitempty"`  // the set in the input
	New    *SetIDs     `json:"new,omitempty"`  // the page captured now
	Diff   []DiffRun   `json:"diff,omitempty"` // changed and text-changed: the old text to the new, word by word
	Words  *DiffCounts `json:"words,omitempty"`
	// DiffError says why a changed page has no diff (its text could not
	// be read, or is too long).
	DiffError string `json:"diffError,omitempty"`
}

// SetIDs are a page set's identifiers and title.
type SetIDs struct {
	ID    string `json:"id"`              // upper-case hex
	TID   string `json:"tid,omitempty"`   // upper-case hex
	Title string `json:"title,omitempty"` // the set's /T, or the page's title
	Pages int    `json:"pages,omitempty"` // the input's pages that print it (old)
}

// A DiffRun is a run of words the old and new text share (equal), or that
// only the new (insert) or the old (delete) has, separated by one space.
type DiffRun struct {
	Op   string `json:"op" jsonschema:"enum=equal,enum=insert,enum=delete"` // equal, insert or delete
	Text string `json:"text"`
}

// DiffCounts count a diff's words.
type DiffCounts struct {
	Old      int `json:"old"`      // words of the old text
	New      int `json:"new"`      // words of the new text
	Inserted int `json:"inserted"` // words only the new text has
	Deleted  int `json:"deleted"`  // words only the old text has
}

// Report makes the change report of res, a result of p.Run: for each
// change the identifiers of both sides and, when a page changed, the diff
// of its printed text. A page whose text cannot be read has DiffError
// set; Report fails only when the input itself cannot be read again.
func (p *RefreshPlan) Report(res *RefreshResult) (*RefreshReport, error) {
	rep := &RefreshReport{ComparedBy: "ID", Text: ReportText, Unsent: res.Unsent, UnsentMore: res.UnsentMore}
	if p.opts.TextOnly {
		rep.ComparedBy = "TID"
	}
	var input *pdfio.TextReader // read when a page changed
	for _, c := range res.Changes {
		pc := PageChange{URL: c.URL, Change: c.Status, Reason: c.Reason, Kind: c.Kind}
		h, held := res.held[c.URL]
		n, found := res.found[c.URL]
		if held && c.Status != StatusNew {
			pc.Old = &SetIDs{ID: hexOf(h.id), Pages: len(h.set.Objects)}
			if h.tid != nil {
				pc.Old.TID = hexOf(h.tid)
			}
			if h.set.Title != nil {
				pc.Old.Title = h.set.Title.String()
			}
		}
		var page *Page
		if found && c.Status != StatusGone && c.Status != StatusUnreachable && c.Status != StatusUnchecked {
			page = res.Pages[n.page]
			pc.New = &SetIDs{ID: hexOf(n.id), TID: hexOf(n.tid), Title: page.Title}
		}
		if c.Status == StatusChanged && pc.Old != nil && page != nil {
			if input == nil {
				var err error
				if input, err = pdfio.ReadText(p.file, p.name, pdfio.Options{Password: p.opts.Password}); err != nil {
					return nil, fmt.Errorf("report: %w", err)
				}
			}
			old, oerr := input.PagesOf(h.set.Objects)
			now, nerr := printedText(page)
			switch {
			case oerr != nil:
				pc.DiffError = "the old pages' text: " + oerr.Error()
			case nerr != nil:
				pc.DiffError = "the new pages' text: " + nerr.Error()
			default:
				pc.Diff, pc.Words, pc.DiffError = WordDiff(old, now)
			}
			if textChanged(pc) {
				pc.Change = ChangeText
			}
		}
		rep.Pages = append(rep.Pages, pc)
	}
	return rep, nil
}

// textChanged says whether a changed page's text changed: its TIDs
// differ, or, when the old set has none, its printed words do.
func textChanged(pc PageChange) bool {
	if pc.Old.TID != "" {
		return pc.Old.TID != pc.New.TID
	}
	return pc.Words != nil && pc.Words.Inserted+pc.Words.Deleted > 0
}

// printedText is the text of a page as the browser printed it.
func printedText(p *Page) (string, error) {
	t, err := pdfio.ReadText(p.PDF, "the browser's PDF of "+p.URL, pdfio.Options{})
	if err != nil {
		return "", err
	}
	return t.All()
}

// WordDiff diffs two texts word by word (words are what white space
// separates: a change of line breaks or spacing is no change) with
// diffmatchpatch's Myers diff over the words, cleaned up for people
// (DiffCleanupSemantic), without a time limit so that the same texts
// always give the same diff. A text of more than maxDiffWords words
// gives no diff, and why.
func WordDiff(old, new string) ([]DiffRun, *DiffCounts, string) {
	ow, nw := strings.Fields(old), strings.Fields(new)
	counts := &DiffCounts{Old: len(ow), New: len(nw)}
	if len(ow) > maxDiffWords || len(nw) > maxDiffWords {
		return nil, counts, fmt.Sprintf("too long to diff: %d and %d words (at most %d a side)", len(ow), len(nw), maxDiffWords)
	}
	// Each distinct word is one rune. The diff's runs are strings, so a
	// rune must survive a round trip through UTF-8: with at most
	// 2 × maxDiffWords distinct words, the runes stay below the
	// surrogates (U+D800).
	index := map[string]rune{}
	var words []string
	toRunes := func(ws []string) []rune {
		rs := make([]rune, len(ws))
		for i, w := range ws {
			r, ok := index[w]
			if !ok {
				r = rune(len(words) + 1)
				index[w] = r
				words = append(words, w)
			}
			rs[i] = r
		}
		return rs
	}
	a, b := toRunes(ow), toRunes(nw)
	dmp := diffmatchpatch.New()
	dmp.DiffTimeout = 0
	diffs := dmp.DiffCleanupSemantic(dmp.DiffMainRunes(a, b, false))
	var out []DiffRun
	for _, d := range diffs {
		var ws []string
		for _, r := range d.Text {
			ws = append(ws, words[r-1])
		}
		if len(ws) == 0 {
			continue
		}
		op := map[diffmatchpatch.Operation]string{diffmatchpatch.DiffEqual: "equal", diffmatchpatch.DiffInsert: "insert", diffmatchpatch.DiffDelete: "delete"}[d.Type]
		switch op {
		case "insert":
			counts.Inserted += len(ws)
		case "delete":
			counts.Deleted += len(ws)
		}
		out = append(out, DiffRun{Op: op, Text: strings.Join(ws, " ")})
	}
	return out, counts, ""
}
