package export

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/webcap/webcap/audit"
)

// PREMIS 3.0 (premis-v3-0.xsd, no imports): a <premis> container with a
// file object per result, then a validation event per result, then one
// agent, webcap, which every event links to.

const premisNS = "http://www.loc.gov/premis/v3"

type premisObj struct {
	Type            string      `xml:"xsi:type,attr"`
	IDType          string      `xml:"objectIdentifier>objectIdentifierType"`
	IDValue         string      `xml:"objectIdentifier>objectIdentifierValue"`
	Characteristics premisChars `xml:"objectCharacteristics"`
	OriginalName    string      `xml:"originalName"`
}

type premisChars struct {
	CompositionLevel int           `xml:"compositionLevel"`
	Fixity           *premisFixity `xml:"fixity"`
	Size             *int64        `xml:"size"`
	FormatName       string        `xml:"format>formatDesignation>formatName"`
}

type premisFixity struct {
	Algorithm string `xml:"messageDigestAlgorithm"`
	Digest    string `xml:"messageDigest"`
}

type premisEvent struct {
	IDType   string        `xml:"eventIdentifier>eventIdentifierType"`
	IDValue  string        `xml:"eventIdentifier>eventIdentifierValue"`
	Type     string        `xml:"eventType"`
	DateTime string        `xml:"eventDateTime"`
	Detail   string        `xml:"eventDetailInformation>eventDetail"`
	Outcome  premisOutcome `xml:"eventOutcomeInformation"`
	Agent    premisLink    `xml:"linkingAgentIdentifier"`
	Object   premisObjLink `xml:"linkingObjectIdentifier"`
}

type premisOutcome struct {
	Outcome string         `xml:"eventOutcome"`
	Details []premisDetail `xml:"eventOutcomeDetail"`
}

type premisDetail struct {
	Note string `xml:"eventOutcomeDetailNote"`
}

type premisLink struct {
	Type  string `xml:"linkingAgentIdentifierType"`
	Value string `xml:"linkingAgentIdentifierValue"`
	Role  string `xml:"linkingAgentRole"`
}

type premisObjLink struct {
	Type  string `xml:"linkingObjectIdentifierType"`
	Value string `xml:"linkingObjectIdentifierValue"`
	Role  string `xml:"linkingObjectRole"`
}

type premisAgent struct {
	IDType  string `xml:"agentIdentifier>agentIdentifierType"`
	IDValue string `xml:"agentIdentifier>agentIdentifierValue"`
	Name    string `xml:"agentName"`
	Type    string `xml:"agentType"`
	Version string `xml:"agentVersion"`
}

// premisEventDetail is the eventDetail, as Archivematica writes it for a
// validation command: program="..."; version="...".
func premisEventDetail(opts Options) string {
	return fmt.Sprintf("program=%q; version=%q", opts.tool()+" audit", opts.version())
}

func writePREMIS(w io.Writer, results Results, opts Options) error {
	root := start("premis")
	root.Attr = []xml.Attr{
		{Name: xml.Name{Local: "xmlns"}, Value: premisNS},
		{Name: xml.Name{Local: "xmlns:xsi"}, Value: "http://www.w3.org/2001/XMLSchema-instance"},
		{Name: xml.Name{Local: "xsi:schemaLocation"}, Value: premisNS + " https://www.loc.gov/standards/premis/v3/premis-v3-0.xsd"},
		{Name: xml.Name{Local: "version"}, Value: "3.0"},
	}
	enc, err := xmlDoc(w, root)
	if err != nil {
		return err
	}
	agentID := opts.tool() + "-" + opts.version()
	x := &xmlw{w: w, enc: enc}
	// PREMIS wants every object before the events.
	for i := range results.Len() {
		r := fileAt(results, i)
		obj := premisObj{Type: "file", IDType: "local", IDValue: r.Input, OriginalName: r.Input,
			Characteristics: premisChars{FormatName: "Portable Document Format"}}
		if r.Size > 0 {
			size := r.Size
			obj.Characteristics.Size = &size
		}
		if r.SHA256 != "" {
			obj.Characteristics.Fixity = &premisFixity{"SHA-256", r.SHA256}
		}
		x.elem(obj, "object")
	}
	for i := range results.Len() {
		writePREMISEvent(x, i, fileAt(results, i), agentID, opts)
		if x.err != nil {
			return x.err
		}
	}
	agent := premisAgent{IDType: "local", IDValue: agentID, Name: opts.tool() + " audit", Type: "software", Version: opts.version()}
	x.elem(agent, "agent")
	if x.err != nil {
		return x.err
	}
	return xmlEnd(w, enc, "premis")
}

// writePREMISEvent writes the i-th file's validation event (premisEvent):
// its verdict in one line, then a line per finding, read one at a time.
func writePREMISEvent(x *xmlw, i int, r file, agentID string, opts Options) {
	at := opts.time()
	x.open("event")
	x.open("eventIdentifier")
	x.elem("local", "eventIdentifierType")
	x.elem(fmt.Sprintf("%s-validation-%s-%d", opts.tool(), at.Format("20060102T150405Z"), i+1), "eventIdentifierValue")
	x.close("eventIdentifier")
	x.elem("validation", "eventType")
	x.elem(at.Format("2006-01-02T15:04:05Z"), "eventDateTime")
	x.open("eventDetailInformation")
	x.elem(premisEventDetail(opts), "eventDetail")
	x.close("eventDetailInformation")
	x.open("eventOutcomeInformation")
	x.elem(Outcome(r.status), "eventOutcome")
	x.elem(premisDetail{detailNote(r)}, "eventOutcomeDetail")
	err := r.each(func(f audit.Finding) error {
		x.elem(premisDetail{FindingLine(f)}, "eventOutcomeDetail")
		return x.err
	})
	if x.err == nil {
		x.err = err
	}
	x.close("eventOutcomeInformation")
	x.elem(premisLink{"local", agentID, "executing program"}, "linkingAgentIdentifier")
	x.elem(premisObjLink{"local", r.Input, "source"}, "linkingObjectIdentifier")
	x.close("event")
}

// DetailNote is a file's verdict in one line, as Archivematica's JHOVE
// command writes its eventOutcomeDetailNote: format="PDF"; result="<JHOVE
// status>", then the counts and the rules with errors, or the error that
// kept the file from being read.
func DetailNote(r audit.FileResult) string { return detailNote(fileOf(r)) }

// detailNote is DetailNote of a file whose findings are counted: the
// rules with errors are those whose findings are all errors (as
// audit.Summarize reads findings in audit's order, errors first), each
// with its count.
func detailNote(r file) string {
	s := fmt.Sprintf("format=%q; result=%q", "PDF", r.status.String())
	if r.Error != nil {
		return s + fmt.Sprintf("; error=%q", r.Error.Message)
	}
	errs, warns, infos := r.bySeverity()
	s += fmt.Sprintf("; errors=\"%d\"; warnings=\"%d\"; notes=\"%d\"", errs, warns, infos)
	if errs > 0 {
		s += fmt.Sprintf("; rules=%q", strings.Join(errorRules(r.counts), ", "))
	}
	return s
}

// errorRules are the rules with errors as audit.Summarize's RulesOf says
// them of findings in audit's order (errors first): "RULE (N)", where N
// counts the rule's findings of every severity, for each rule whose last
// findings (its least severe) are errors, in rule ID order.
func errorRules(counts []Count) []string {
	total := map[string]int{}
	least := map[string]audit.Severity{}
	for _, c := range counts {
		if _, ok := least[c.Rule]; !ok || c.Severity < least[c.Rule] {
			least[c.Rule] = c.Severity
		}
		total[c.Rule] += c.N
	}
	var out []string
	for id, n := range total {
		if least[id] == audit.Serious {
			out = append(out, fmt.Sprintf("%s (%d)", id, n))
		}
	}
	sort.Strings(out)
	return out
}

// FindingLine is a finding in one line, as webcap audit prints it without
// the file name: "error WC-TREE-ORDER object 5 0 R: message (spec)".
func FindingLine(f audit.Finding) string {
	return fmt.Sprintf("%s %s %s: %s (%s)", f.Severity, f.Rule, where(f), f.Message, f.Spec)
}
