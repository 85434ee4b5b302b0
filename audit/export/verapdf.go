package export

import (
	"encoding/xml"
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/webcap/webcap/audit"
)

// The veraPDF machine-readable report (MRR), in its current layout
// (veraPDF 1.26-1.28: batchSummary, no namespace). veraPDF publishes no
// schema for it; the element and attribute names are those of
// veraPDF-library's JAXB classes (core/.../processor/reports/*Impl.java),
// and tests check them against real reports.

// mrrReport is the whole report, as tests read it back; it is written an
// element at a time.
type mrrReport struct {
	XMLName xml.Name        `xml:"report"`
	Build   mrrBuild        `xml:"buildInformation"`
	Jobs    []mrrJob        `xml:"jobs>job"`
	Summary mrrBatchSummary `xml:"batchSummary"`
}

type mrrBuild struct {
	Release []mrrRelease `xml:"releaseDetails"`
}

type mrrRelease struct {
	ID        string `xml:"id,attr"`
	Version   string `xml:"version,attr"`
	BuildDate string `xml:"buildDate,attr"`
}

type mrrJob struct {
	Item      mrrItem           `xml:"item"`
	Report    *mrrValidation    `xml:"validationReport"`
	Exception *mrrTaskException `xml:"taskException"`
	Logs      *mrrLogs          `xml:"logs"`
}

type mrrItem struct {
	Size int64  `xml:"size,attr"`
	Name string `xml:"name"`
}

type mrrValidation struct {
	JobEndStatus string     `xml:"jobEndStatus,attr"`
	ProfileName  string     `xml:"profileName,attr"`
	Statement    string     `xml:"statement,attr"`
	IsCompliant  bool       `xml:"isCompliant,attr"`
	Details      mrrDetails `xml:"details"`
}

type mrrDetails struct {
	PassedRules  int       `xml:"passedRules,attr"`
	FailedRules  int       `xml:"failedRules,attr"`
	PassedChecks int       `xml:"passedChecks,attr"`
	FailedChecks int       `xml:"failedChecks,attr"`
	Rules        []mrrRule `xml:"rule"`
}

type mrrRule struct {
	Specification string     `xml:"specification,attr"`
	Clause        string     `xml:"clause,attr"`
	TestNumber    int        `xml:"testNumber,attr"`
	Status        string     `xml:"status,attr"`
	FailedChecks  int        `xml:"failedChecks,attr"`
	Tags          string     `xml:"tags,attr"`
	Description   string     `xml:"description"`
	Object        string     `xml:"object"`
	Test          string     `xml:"test"`
	Checks        []mrrCheck `xml:"check"`
}

type mrrCheck struct {
	Status       string `xml:"status,attr"`
	Context      string `xml:"context"`
	ErrorMessage string `xml:"errorMessage"`
}

type mrrTaskException struct {
	Type       string `xml:"type,attr"`
	IsExecuted bool   `xml:"isExecuted,attr"`
	IsSuccess  bool   `xml:"isSuccess,attr"`
	Message    string `xml:"exceptionMessage"`
}

type mrrLogs struct {
	Count    int          `xml:"logsCount,attr"`
	Messages []mrrMessage `xml:"logMessage"`
}

type mrrMessage struct {
	Occurrences int    `xml:"occurrences,attr"`
	Level       string `xml:"level,attr"`
	Text        string `xml:",chardata"`
}

type mrrBatchSummary struct {
	TotalJobs      int           `xml:"totalJobs,attr"`
	FailedToParse  int           `xml:"failedToParse,attr"`
	Encrypted      int           `xml:"encrypted,attr"`
	OutOfMemory    int           `xml:"outOfMemory,attr"`
	VeraExceptions int           `xml:"veraExceptions,attr"`
	Validation     mrrBatchCount `xml:"validationReports"`
	Features       mrrBatchCount `xml:"featureReports"`
	Repairs        mrrBatchCount `xml:"repairReports"`
}

type mrrBatchCount struct {
	Compliant    *int `xml:"compliant,attr"`
	NonCompliant *int `xml:"nonCompliant,attr"`
	FailedJobs   int  `xml:"failedJobs,attr"`
	Count        int  `xml:",chardata"`
}

// profileName is the validationReport's profileName: the profile is the
// Web Capture rule set (docs/rules.md).
const profileName = "webcap Web Capture validation profile"

func writeVeraPDF(w io.Writer, results Results, opts Options) error {
	enc, err := xmlDoc(w, start("report"))
	if err != nil {
		return err
	}
	build := mrrBuild{[]mrrRelease{{ID: opts.tool(), Version: opts.version(), BuildDate: opts.time().Format("2006-01-02T15:04:05Z")}}}
	if err := enc.EncodeElement(build, start("buildInformation")); err != nil {
		return err
	}
	if err := enc.EncodeToken(start("jobs")); err != nil {
		return err
	}
	all := clauses()
	var sum mrrBatchSummary
	compliant, nonCompliant := 0, 0
	for i := range results.Len() {
		job := mrrJobOf(results.At(i), all)
		switch {
		case job.Exception != nil:
			sum.FailedToParse++
		case job.Report.IsCompliant:
			compliant++
		default:
			nonCompliant++
		}
		if err := enc.EncodeElement(job, start("job")); err != nil {
			return err
		}
	}
	if err := enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: "jobs"}}); err != nil {
		return err
	}
	sum.TotalJobs = results.Len()
	sum.Validation = mrrBatchCount{Compliant: &compliant, NonCompliant: &nonCompliant, FailedJobs: sum.FailedToParse, Count: compliant + nonCompliant}
	if err := enc.EncodeElement(sum, start("batchSummary")); err != nil {
		return err
	}
	return xmlEnd(w, enc, "report")
}

// mrrJobOf is a file's job: its validation report (a failed rule per rule
// with error findings, a check per finding; warnings and notes as log
// messages), or the exception that kept it from being read.
func mrrJobOf(r audit.FileResult, all map[string]clause) mrrJob {
	job := mrrJob{Item: mrrItem{Size: r.Size, Name: r.Input}}
	if r.Error != nil {
		job.Exception = &mrrTaskException{Type: "PARSE", IsExecuted: true, Message: r.Error.Message}
		return job
	}
	v := mrrValidation{JobEndStatus: "normal", ProfileName: profileName}
	byRule := map[string]*mrrRule{}
	var order []string
	logs := map[[2]string]int{}
	var logOrder [][2]string
	for _, f := range r.Findings {
		if f.Severity != audit.Serious {
			k := [2]string{logLevel(f.Severity), f.Rule + " " + where(f) + ": " + f.Message}
			if logs[k] == 0 {
				logOrder = append(logOrder, k)
			}
			logs[k]++
			continue
		}
		rule := byRule[f.Rule]
		if rule == nil {
			c := clauseOf(all, f.Rule)
			desc := f.Rule
			if def, ok := audit.RuleByID(f.Rule); ok {
				desc += ": " + def.Summary
			}
			rule = &mrrRule{Specification: c.Specification, Clause: c.Clause, TestNumber: c.TestNumber, Status: "failed",
				Tags: f.Rule, Description: desc, Object: object(f), Test: f.Rule}
			byRule[f.Rule] = rule
			order = append(order, f.Rule)
		}
		rule.FailedChecks++
		rule.Checks = append(rule.Checks, mrrCheck{Status: "failed", Context: checkContext(f), ErrorMessage: f.Message})
		v.Details.FailedChecks++
	}
	sort.Strings(order)
	for _, id := range order {
		v.Details.Rules = append(v.Details.Rules, *byRule[id])
	}
	v.Details.FailedRules = len(order)
	v.Details.PassedRules = max(len(audit.Rules)-len(order), 0)
	v.IsCompliant = len(order) == 0
	v.Statement = "PDF file is not compliant with Validation Profile requirements."
	if v.IsCompliant {
		v.Statement = "PDF file is compliant with Validation Profile requirements."
	}
	job.Report = &v
	if len(logOrder) > 0 {
		job.Logs = &mrrLogs{Count: len(logOrder)}
		for _, k := range logOrder {
			job.Logs.Messages = append(job.Logs.Messages, mrrMessage{Occurrences: logs[k], Level: k[0], Text: k[1]})
		}
	}
	return job
}

func logLevel(s audit.Severity) string {
	if s == audit.Caution {
		return "WARNING"
	}
	return "INFO"
}

// object is the rule element's object: the kind of thing checked, as
// veraPDF names its model types (PDDocument for the file, CosIndirect for
// an object of it).
func object(f audit.Finding) string {
	if f.Object.IsZero() {
		return "PDDocument"
	}
	return "CosIndirect"
}

// checkContext is a check's context in veraPDF's path syntax:
// root/document[0] for the file, root/document[0]/indirect(12 0 obj) and
// the key for an object.
func checkContext(f audit.Finding) string {
	c := "root/document[0]"
	if !f.Object.IsZero() {
		c += fmt.Sprintf("/indirect(%d %d obj)", f.Object.Num, f.Object.Gen)
	}
	if f.Key != "" {
		c += "/" + strings.TrimPrefix(f.Key, "/")
	}
	return c
}
