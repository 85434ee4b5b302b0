package htmlreport

import (
	"encoding/base64"
	"errors"
	"fmt"
	"html/template"
	"net/url"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/htmlsafe"
)

// The report's views: what the templates print of a result, every string
// as text (html/template escapes it for where it goes), links made only
// of http and https URLs.

// MaxFindings is the number of a file's findings the report lists; the
// rest are counted (audit --json holds them all).
const MaxFindings = 1000

// MaxThumbnails is the number of a file's page sets that get a thumbnail.
const MaxThumbnails = 20

// MaxText is the most characters the report shows of one string from a
// file or its results (htmlsafe.MaxText, as every page webcap writes).
const MaxText = htmlsafe.MaxText

type fileView struct {
	N        int // 1-based, in the report's order
	Anchor   string
	Page     string // the page that holds its details ("" in a one-file report)
	Path     string // the file as audit was given it: what the renderer reads
	Input    string // the file's name as shown (text)
	Status   string
	Class    string // the status's CSS class
	Size     string
	Modified string
	SHA256   string
	Error    string
	Kind     string // the error's kind

	Recorded bool // audit recorded the sets (--sets)
	SetCount int  // the file's content sets, listed or not (Sets is dropped once written)
	Version  string
	Sets     []setView
	MoreSets int
	NoThumbs string // why the sets have no thumbnails, said once per file
	Stopped  string // why the thumbnails stopped: the time for them was spent

	Errors, Warnings, Notes int
	Findings                []findingView
	MoreFindings            int
}

type setView struct {
	N        int
	Set      Set
	Sources  []sourceView
	Thumb    template.URL // a data: URI of the PNG webcap made; "" when none
	ThumbAlt string
	NoThumb  string // why there is none
	Verified string // the words of Set.Verified
	VClass   string
}

type sourceView struct {
	URL    link
	Chains [][]link
}

// A link is a URL from the file: Href is set only for an http or https
// URL, so that a javascript: or data: URL is never a live link.
type link struct {
	Text string
	Href string
}

type findingView struct {
	ID       string
	Rule     string
	Href     string // the rule's documentation; "" for a rule webcap does not know
	Severity string
	Where    string
	Message  string
	Spec     string
}

var statusClass = map[audit.Status]string{audit.Valid: "ok", audit.NotValid: "bad", audit.NotWellFormed: "worst", audit.Unchecked: "none"}

var verifiedWords = map[string]string{
	"verified":   "verified against the sources",
	"mismatch":   "differs from the sources (WC-SOURCE-MISMATCH)",
	"missing":    "no source found (WC-SOURCE-MISSING)",
	"incomplete": "cannot be recomputed (WC-SOURCE-INCOMPLETE)",
	"unchecked":  "not checked (audit without --sources)",
	"no-id":      "no /ID",
}

// newFileView is the view of the n-th file, its first MaxFindings
// findings listed (read no further), the rest counted.
func newFileView(n int, f entry, rules string) (fileView, error) {
	r := f.Result
	st := f.status
	v := fileView{N: n, Anchor: fmt.Sprintf("f%d", n), Path: r.Input, Input: text(r.Input), Status: st.String(), Class: statusClass[st], SHA256: text(r.SHA256)}
	if r.Size > 0 {
		v.Size = plural(int(r.Size), "byte")
	}
	if !r.ModTime.IsZero() {
		v.Modified = r.ModTime.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	if r.Error != nil {
		v.Error = text(r.Error.Message)
		v.Kind = []string{"invalid", "unavailable", "interrupted"}[min(int(r.Error.Kind), 2)]
	}
	for _, c := range f.counts {
		switch c.Severity {
		case audit.Serious:
			v.Errors += c.N
		case audit.Caution:
			v.Warnings += c.N
		default:
			v.Notes += c.N
		}
	}
	v.MoreFindings = max(v.Errors+v.Warnings+v.Notes-MaxFindings, 0)
	err := f.each(func(x audit.Finding) error {
		i := len(v.Findings)
		if i >= MaxFindings {
			return errListed
		}
		fv := findingView{ID: fmt.Sprintf("%s-%d", v.Anchor, i+1), Rule: text(x.Rule), Severity: x.Severity.String(), Message: text(x.Message), Spec: text(x.Spec), Where: "file"}
		if _, ok := audit.RuleByID(x.Rule); ok {
			fv.Href = rules + "#" + ruleAnchor(x.Rule)
		}
		if !x.Object.IsZero() {
			fv.Where = "object " + x.Object.String()
		}
		if x.Key != "" {
			fv.Where += " " + text(x.Key)
		}
		v.Findings = append(v.Findings, fv)
		return nil
	})
	if err != nil && !errors.Is(err, errListed) {
		return v, err
	}
	if f.Capture == nil {
		return v, nil
	}
	v.Recorded, v.Version, v.MoreSets = true, text(f.Capture.Version), f.Capture.More
	v.SetCount = len(f.Capture.Sets) + f.Capture.More
	for i, s := range f.Capture.Sets {
		sv := setView{N: i + 1, Set: shownSet(s), Verified: verifiedWords[s.Verified], VClass: "v-" + s.Verified}
		if sv.Verified == "" {
			sv.Verified, sv.VClass = text(s.Verified), "v-unchecked"
		}
		for _, src := range s.Sources {
			x := sourceView{URL: newLink(src.URL, src.Passwords)}
			for _, ch := range src.Chains {
				var c []link
				for _, u := range ch {
					c = append(c, newLink(u, src.Passwords))
				}
				x.Chains = append(x.Chains, c)
			}
			sv.Sources = append(sv.Sources, x)
		}
		v.Sets = append(v.Sets, sv)
	}
	return v, nil
}

// errListed ends the reading of a file's findings at MaxFindings.
var errListed = errors.New("htmlreport: findings listed")

// shownSet is s with its strings as the report shows them (text); Page
// and Objects stay what they are.
func shownSet(s Set) Set {
	s.Object, s.Kind, s.ID, s.Title, s.Created = text(s.Object), text(s.Kind), text(s.ID), text(s.Title), text(s.Created)
	s.Sources = nil // newFileView shows them as links
	return s
}

// newLink shows u as text, without its password when it has one (as
// audit's WC-URL-PASSWORD message does: audit.WithoutPassword), and makes
// it a link when htmlsafe.Link allows it. left says that Describe left
// out a password of u's source: the report notes it on a URL that shows
// a user name.
func newLink(u string, left bool) link {
	u, password := audit.WithoutPassword(u)
	if left && !password {
		p, err := url.Parse(u)
		password = err == nil && p.User != nil
	}
	var l link
	l.Text, l.Href = htmlsafe.Link(u, password)
	return l
}

// text is how the report shows a string from a file or its results
// (htmlsafe.Text: printable, else quoted, cut after MaxText characters).
func text(s string) string { return htmlsafe.Text(s) }

// ruleAnchor is the id of a rule's documentation in the report.
func ruleAnchor(rule string) string { return "rule-" + rule }

// dataPNG makes a PNG webcap rendered a data: URI; only these bytes,
// checked to be a PNG, are ever a data: URI in the report.
func dataPNG(png []byte) template.URL {
	return template.URL("data:image/png;base64," + base64.StdEncoding.EncodeToString(png))
}

type ruleView struct {
	ID, Anchor, Severity, Spec, Summary string
}

func ruleViews() []ruleView {
	var out []ruleView
	for _, r := range audit.Rules {
		out = append(out, ruleView{r.ID, ruleAnchor(r.ID), r.Severity.String(), r.Spec, r.Summary})
	}
	return out
}
