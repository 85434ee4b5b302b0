package htmlreport

import (
	"encoding/hex"
	"strings"
	"time"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/pdfio"
)

// MaxSets is the number of content sets Describe lists of a file: a
// capture of 20,000 pages would otherwise make each result line (and
// the report) megabytes long. Capture.More counts the rest.
const MaxSets = 1000

// A Capture is what the report shows of a file's Web Capture structures:
// its SpiderInfo version and its content sets. It is also the "capture"
// object of an audit --jsonl line (webcap.audit-file/1) made with --sets,
// so that a report made from shards equals the one audit makes.
type Capture struct {
	// Version is SpiderInfo /V as written ("1.25"); "" without SpiderInfo
	// or /V.
	Version string `json:"version,omitempty"`
	// Sets are the first MaxSets content sets, in the order the reader
	// found them (IDS, then URLS, then orphans).
	Sets []Set `json:"sets"`
	// More is the number of content sets not listed.
	More int `json:"more,omitempty"`
}

// A Set is one content set as the report's table shows it. Every string
// comes from the file and is untrusted: the report prints it as text.
type Set struct {
	Object  string   `json:"object"`                                            // "12 0 R"; "" when direct
	Kind    string   `json:"kind" jsonschema:"enum=page,enum=image,enum=other"` // S: SPS, SIS, or another value
	ID      string   `json:"id,omitempty"`                                      // /ID in upper-case hex
	Title   string   `json:"title,omitempty"`                                   // /T decoded
	Created string   `json:"created,omitempty"`                                 // /TS in RFC 3339, when it is a valid date
	Sources []Source `json:"sources"`
	// Page is the page number of the set's first page (page sets whose
	// first /O entry is a page of the page tree); 0 when none.
	Page int `json:"page,omitempty"`
	// Objects is the number of /O entries (pages or images).
	Objects int `json:"objects"`
	// Verified says whether /ID was recomputed from the sources given to
	// audit (--sources): verified, mismatch (WC-SOURCE-MISMATCH), missing
	// (WC-SOURCE-MISSING), incomplete (WC-SOURCE-INCOMPLETE); unchecked
	// when no sources were given, no-id when the set has no /ID.
	Verified string `json:"verified" jsonschema:"enum=verified,enum=mismatch,enum=missing,enum=incomplete,enum=unchecked,enum=no-id"`
}

// A Source is a source information's URL with its redirect chains (a
// URL alias's /C: each chain the URLs that led to URL), each without its
// password (audit.WithoutPassword: audit's WC-URL-PASSWORD says which had
// one), so that no result line holds one.
type Source struct {
	URL    string     `json:"url"`
	Chains [][]string `json:"chains,omitempty"`
	// Passwords says that URL or a URL of Chains carried a password, left
	// out: the report says so of those that show a user name.
	Passwords bool `json:"passwords,omitempty"`
}

// Describe returns what the report shows of d: findings are audit's on
// d, and sources tells whether audit recomputed identifiers (--sources),
// so that a set with no WC-SOURCE-* finding is verified.
func Describe(d *pdfio.Document, findings []audit.Finding, sources bool) *Capture {
	c := &Capture{Sets: []Set{}}
	if d.Info != nil && d.Info.Version != nil {
		c.Version = d.Info.Version.String()
	}
	verdict := map[string]string{} // by object: the source rule's word
	for _, f := range findings {
		word := map[string]string{"WC-SOURCE-MISMATCH": "mismatch", "WC-SOURCE-MISSING": "missing", "WC-SOURCE-INCOMPLETE": "incomplete",
			"WC-EMBED-MISMATCH": "mismatch", "WC-EMBED-MISSING": "missing"}[f.Rule]
		if word != "" && !f.Object.IsZero() {
			verdict[f.Object.String()] = word
		}
	}
	for i, cs := range d.Sets {
		if i == MaxSets {
			c.More = len(d.Sets) - MaxSets
			break
		}
		s := Set{Kind: "other", Sources: []Source{}, Objects: len(cs.Objects)}
		if !cs.Ref.IsZero() {
			s.Object = cs.Ref.String()
		}
		switch {
		case cs.IsPageSet():
			s.Kind = "page"
			if n := d.PageNumbers(cs); len(n) > 0 {
				s.Page = n[0]
			}
		case cs.IsImageSet():
			s.Kind = "image"
		}
		if cs.ID != nil {
			s.ID = strings.ToUpper(hex.EncodeToString([]byte(*cs.ID)))
		}
		if cs.Title != nil {
			s.Title = cs.Title.String()
		}
		if cs.Created != nil && cs.Created.Valid {
			s.Created = cs.Created.Time.Format(time.RFC3339)
		}
		for _, si := range cs.Sources {
			src := Source{}
			src.URL = src.shown(si.URLs.URL)
			for _, ch := range si.URLs.Chains {
				chain := make([]string, len(ch))
				for j, u := range ch {
					chain[j] = src.shown(u)
				}
				src.Chains = append(src.Chains, chain)
			}
			s.Sources = append(s.Sources, src)
		}
		switch {
		case cs.ID == nil:
			s.Verified = "no-id"
		case verdict[s.Object] != "":
			s.Verified = verdict[s.Object]
		case sources:
			s.Verified = "verified"
		default:
			s.Verified = "unchecked"
		}
		c.Sets = append(c.Sets, s)
	}
	return c
}

// valid is s with bytes that are not UTF-8 as U+FFFD: URLs are ASCII
// strings in the file, but a hostile one may hold anything.
func valid(s string) string { return strings.ToValidUTF8(s, "\uFFFD") }

// shown is a URL of s as a Capture records it: valid, without its
// password (noted in s.Passwords).
func (s *Source) shown(u string) string {
	u, password := audit.WithoutPassword(u)
	s.Passwords = s.Passwords || password
	return valid(u)
}
