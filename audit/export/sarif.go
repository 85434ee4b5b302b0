package export

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"path/filepath"

	"github.com/webcap/webcap/audit"
)

// SARIF 2.1.0 (OASIS Standard, Errata 01): one run, the tool webcap with
// every rule, a result per finding, and a tool notification per file that
// could not be audited. A finding's place is the file (a physical
// location, its path as a relative URI reference) and the object and key
// (a logical location, kind "object").

const (
	sarifSchema  = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
	sarifVersion = "2.1.0"
	toolURI      = "https://github.com/webcap/webcap"
)

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool        sarifTool         `json:"tool"`
	Invocations []sarifInvocation `json:"invocations"`
	Artifacts   []sarifArtifact   `json:"artifacts"`
	Results     []sarifResult     `json:"results"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifRule struct {
	ID               string        `json:"id"`
	ShortDescription sarifMessage  `json:"shortDescription"`
	HelpURI          string        `json:"helpUri"`
	Default          sarifDefault  `json:"defaultConfiguration"`
	Properties       sarifRuleProp `json:"properties"`
}

type sarifDefault struct {
	Level string `json:"level"`
}

type sarifRuleProp struct {
	Spec string `json:"spec"`
}

type sarifMessage struct {
	Text string `json:"text"`
}

type sarifInvocation struct {
	ExecutionSuccessful bool                `json:"executionSuccessful"`
	Notifications       []sarifNotification `json:"toolExecutionNotifications"`
}

type sarifNotification struct {
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifArtifact struct {
	Location   sarifArtifactLocation `json:"location"`
	Length     int64                 `json:"length,omitempty"`
	Properties sarifArtifactProp     `json:"properties"`
}

type sarifArtifactProp struct {
	Status string `json:"jhoveStatus"`
}

type sarifArtifactLocation struct {
	URI   string `json:"uri"`
	Index *int   `json:"index,omitempty"`
}

type sarifResult struct {
	RuleID    string          `json:"ruleId"`
	RuleIndex *int            `json:"ruleIndex,omitempty"`
	Level     string          `json:"level"`
	Message   sarifMessage    `json:"message"`
	Locations []sarifLocation `json:"locations"`
}

type sarifLocation struct {
	Physical sarifPhysical  `json:"physicalLocation"`
	Logical  []sarifLogical `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	Artifact sarifArtifactLocation `json:"artifactLocation"`
}

type sarifLogical struct {
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifLevel is a severity as SARIF says it: error, warning, note.
func sarifLevel(s audit.Severity) string {
	switch s {
	case audit.Serious:
		return "error"
	case audit.Caution:
		return "warning"
	}
	return "note"
}

// fileURI is a path as a SARIF artifact URI: a relative reference, with
// what a URI cannot hold percent-encoded.
func fileURI(path string) string {
	return (&url.URL{Path: filepath.ToSlash(path)}).String()
}

// writeSARIF writes the log an element at a time: the run's tool, then
// each file's artifact, then each finding's result, then the invocation
// (with the notifications of the files not read), each array element on a
// line of its own. JSON members have no order, so the invocation may come
// last.
func writeSARIF(w io.Writer, results Results, opts Options) error {
	ew := &errWriter{w: w}
	driver := sarifDriver{Name: opts.tool(), Version: opts.version(), InformationURI: toolURI}
	index := map[string]int{}
	for i, r := range audit.Rules {
		index[r.ID] = i
		driver.Rules = append(driver.Rules, sarifRule{ID: r.ID, ShortDescription: sarifMessage{r.Summary},
			HelpURI: toolURI + "/blob/main/docs/rules.md", Default: sarifDefault{sarifLevel(r.Severity)}, Properties: sarifRuleProp{r.Spec}})
	}
	ew.printf("{\n  \"$schema\": %s,\n  \"version\": %s,\n  \"runs\": [\n    {\n      \"tool\": %s,\n      \"artifacts\": [",
		ew.json(sarifSchema), ew.json(sarifVersion), ew.json(sarifTool{driver}))
	for i := range results.Len() {
		r := fileAt(results, i)
		a := sarifArtifact{Location: sarifArtifactLocation{URI: fileURI(r.Input)}, Length: r.Size, Properties: sarifArtifactProp{r.status.String()}}
		ew.element(i, a)
	}
	ew.printf("\n      ],\n      \"results\": [")
	inv := sarifInvocation{ExecutionSuccessful: true, Notifications: []sarifNotification{}}
	n := 0
	for i := range results.Len() {
		r := fileAt(results, i)
		at := sarifArtifactLocation{URI: fileURI(r.Input), Index: &i}
		if r.Error != nil {
			if r.Error.Operational() {
				inv.ExecutionSuccessful = false
			}
			inv.Notifications = append(inv.Notifications, sarifNotification{Level: "error", Message: sarifMessage{r.Error.Message},
				Locations: []sarifLocation{{Physical: sarifPhysical{at}}}})
		}
		err := r.each(func(f audit.Finding) error {
			res := sarifResult{RuleID: f.Rule, Level: sarifLevel(f.Severity), Message: sarifMessage{f.Message + " (" + f.Spec + ")"},
				Locations: []sarifLocation{{Physical: sarifPhysical{at}}}}
			if k, ok := index[f.Rule]; ok {
				res.RuleIndex = &k
			}
			if loc := where(f); loc != "file" {
				res.Locations[0].Logical = []sarifLogical{{FullyQualifiedName: loc, Kind: "object"}}
			}
			ew.element(n, res)
			n++
			return ew.err
		})
		if err != nil {
			return err
		}
	}
	ew.printf("\n      ],\n      \"invocations\": [\n        %s\n      ]\n    }\n  ]\n}\n", ew.json(inv))
	return ew.err
}

// errWriter writes until the first error, which it keeps.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) printf(format string, args ...any) {
	if e.err == nil {
		_, e.err = fmt.Fprintf(e.w, format, args...)
	}
}

// json is v's JSON, compact.
func (e *errWriter) json(v any) string {
	b, err := json.Marshal(v)
	if err != nil && e.err == nil {
		e.err = err
	}
	return string(b)
}

// element writes the i-th element of an array, on a line of its own.
func (e *errWriter) element(i int, v any) {
	sep := ","
	if i == 0 {
		sep = ""
	}
	e.printf("%s\n        %s", sep, e.json(v))
}
