package htmlreport

import (
	"encoding/base64"
	"fmt"
	"html/template"

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

type fileView struct {
	N        int // 1-based, in the report's order
	Anchor   string
	Page     string // the page that holds its details ("" in a one-file report)
	Input    string
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

func newFileView(n int, f File, rules string) fileView {
	r := f.Result
	st := r.Status()
	v := fileView{N: n, Anchor: fmt.Sprintf("f%d", n), Input: r.Input, Status: st.String(), Class: statusClass[st], SHA256: r.SHA256}
	if r.Size > 0 {
		v.Size = plural(int(r.Size), "byte")
	}
	if !r.ModTime.IsZero() {
		v.Modified = r.ModTime.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	if r.Error != nil {
		v.Error = r.Error.Message
		v.Kind = []string{"invalid", "unavailable", "interrupted"}[min(int(r.Error.Kind), 2)]
	}
	for i, x := range r.Findings {
		switch x.Severity {
		case audit.Serious:
			v.Errors++
		case audit.Caution:
			v.Warnings++
		default:
			v.Notes++
		}
		if i >= MaxFindings {
			v.MoreFindings++
			continue
		}
		fv := findingView{ID: fmt.Sprintf("%s-%d", v.Anchor, i+1), Rule: x.Rule, Severity: x.Severity.String(), Message: x.Message, Spec: x.Spec, Where: "file"}
		if _, ok := audit.RuleByID(x.Rule); ok {
			fv.Href = rules + "#" + ruleAnchor(x.Rule)
		}
		if !x.Object.IsZero() {
			fv.Where = "object " + x.Object.String()
		}
		if x.Key != "" {
			fv.Where += " " + x.Key
		}
		v.Findings = append(v.Findings, fv)
	}
	if f.Capture == nil {
		return v
	}
	v.Recorded, v.Version, v.MoreSets = true, f.Capture.Version, f.Capture.More
	v.SetCount = len(f.Capture.Sets) + f.Capture.More
	for i, s := range f.Capture.Sets {
		sv := setView{N: i + 1, Set: s, Verified: verifiedWords[s.Verified], VClass: "v-" + s.Verified}
		if sv.Verified == "" {
			sv.Verified, sv.VClass = s.Verified, "v-unchecked"
		}
		for _, src := range s.Sources {
			x := sourceView{URL: newLink(src.URL)}
			for _, ch := range src.Chains {
				var c []link
				for _, u := range ch {
					c = append(c, newLink(u))
				}
				x.Chains = append(x.Chains, c)
			}
			sv.Sources = append(sv.Sources, x)
		}
		v.Sets = append(v.Sets, sv)
	}
	return v
}

// newLink makes u a link when htmlsafe.WebLink allows it, else text only.
func newLink(u string) link { return link{Text: u, Href: htmlsafe.WebLink(u)} }

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
