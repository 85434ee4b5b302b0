package export

import (
	"encoding/xml"
	"fmt"
	"hash/maphash"
	"io"
	"strconv"
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
	x := &xmlw{w: w, enc: enc}
	build := mrrBuild{[]mrrRelease{{ID: opts.tool(), Version: opts.version(), BuildDate: opts.time().Format("2006-01-02T15:04:05Z")}}}
	x.elem(build, "buildInformation")
	x.open("jobs")
	all := clauses()
	seeds := logSeeds{maphash.MakeSeed(), maphash.MakeSeed()}
	var sum mrrBatchSummary
	compliant, nonCompliant := 0, 0
	for i := range results.Len() {
		f := fileAt(results, i)
		failed := f.failed()
		switch {
		case f.Error != nil:
			sum.FailedToParse++
		case len(failed) == 0:
			compliant++
		default:
			nonCompliant++
		}
		writeMRRJob(x, f, failed, all, seeds)
		if x.err != nil {
			return x.err
		}
	}
	x.close("jobs")
	sum.TotalJobs = results.Len()
	sum.Validation = mrrBatchCount{Compliant: &compliant, NonCompliant: &nonCompliant, FailedJobs: sum.FailedToParse, Count: compliant + nonCompliant}
	x.elem(sum, "batchSummary")
	if x.err != nil {
		return x.err
	}
	return xmlEnd(w, enc, "report")
}

// writeMRRJob writes a file's job (mrrJob): its validation report (a
// failed rule per rule with error findings, each with a check per
// finding; warnings and notes as log messages, each message once with its
// occurrences), or the exception that kept it from being read. failed
// are the file's rules with errors. The findings are read once for each
// failed rule, as far as its last, and twice for the log messages.
func writeMRRJob(x *xmlw, f file, failed []Count, all map[string]clause, seeds logSeeds) {
	x.open("job")
	x.elem(mrrItem{Size: f.Size, Name: f.Input}, "item")
	if f.Error != nil {
		x.elem(mrrTaskException{Type: "PARSE", IsExecuted: true, Message: f.Error.Message}, "taskException")
		x.close("job")
		return
	}
	errs, warns, infos := f.bySeverity()
	statement := "PDF file is not compliant with Validation Profile requirements."
	if len(failed) == 0 {
		statement = "PDF file is compliant with Validation Profile requirements."
	}
	x.open("validationReport", attr("jobEndStatus", "normal"), attr("profileName", profileName), attr("statement", statement),
		attr("isCompliant", strconv.FormatBool(len(failed) == 0)))
	x.open("details", intAttr("passedRules", max(len(audit.Rules)-len(failed), 0)), intAttr("failedRules", len(failed)),
		intAttr("passedChecks", 0), intAttr("failedChecks", errs))
	for _, c := range failed {
		writeMRRRule(x, f, c, all)
	}
	x.close("details")
	x.close("validationReport")
	if warns+infos > 0 {
		writeMRRLogs(x, f, seeds, maxLogMessages)
	}
	x.close("job")
}

// writeMRRRule writes the failed rule of c: a check per finding.
func writeMRRRule(x *xmlw, f file, c Count, all map[string]clause) {
	n := 0
	err := f.eachOf(c, func(found audit.Finding) error {
		if n == 0 {
			cl := clauseOf(all, c.Rule)
			desc := c.Rule
			if def, ok := audit.RuleByID(c.Rule); ok {
				desc += ": " + def.Summary
			}
			x.open("rule", attr("specification", cl.Specification), attr("clause", cl.Clause), intAttr("testNumber", cl.TestNumber),
				attr("status", "failed"), intAttr("failedChecks", c.N), attr("tags", c.Rule))
			x.elem(desc, "description")
			x.elem(object(found), "object")
			x.elem(c.Rule, "test")
		}
		n++
		x.elem(mrrCheck{Status: "failed", Context: checkContext(found), ErrorMessage: found.Message}, "check")
		return x.err
	})
	if n > 0 {
		x.close("rule")
	}
	if x.err == nil {
		x.err = err
	}
}

// maxLogMessages is how many distinct log messages a file's job lists at
// most: each is counted (a key and a count in a map, some 50 bytes) while
// the file's findings are read. A finding's message names its object, so
// a file of two million warnings can have as many messages: past this,
// their occurrences are one message that says so (100,000 messages are
// some 5 MB).
const maxLogMessages = 100_000

// writeMRRLogs writes the file's warnings and notes as log messages: each
// message once, in the order first found, with its occurrences; at most
// max messages, then one that counts the occurrences of the others. The
// first reading counts the messages by a key of 128 bits (logKey), the
// second writes each at its first occurrence: a file's millions of
// messages cost some 50 bytes each of the first max, not themselves.
func writeMRRLogs(x *xmlw, f file, seeds logSeeds, max int) {
	seen := map[logKey]int{}
	more := 0 // the occurrences of the messages past max
	err := f.each(func(found audit.Finding) error {
		if found.Severity == audit.Serious {
			return nil
		}
		k := seeds.key(logMessage(found))
		if _, ok := seen[k]; ok || len(seen) < max {
			seen[k]++
		} else {
			more++
		}
		return nil
	})
	if err != nil {
		x.err = err
		return
	}
	count := len(seen)
	if more > 0 {
		count++
	}
	x.open("logs", intAttr("logsCount", count))
	err = f.each(func(found audit.Finding) error {
		if found.Severity == audit.Serious {
			return nil
		}
		level, text := logMessage(found)
		k := seeds.key(level, text)
		if n := seen[k]; n > 0 {
			x.elem(mrrMessage{Occurrences: n, Level: level, Text: text}, "logMessage")
			seen[k] = 0
		}
		return x.err
	})
	if x.err == nil {
		x.err = err
	}
	if more > 0 {
		x.elem(mrrMessage{Occurrences: more, Level: "INFO",
			Text: fmt.Sprintf("webcap lists at most %d distinct log messages a file: the other messages' %d occurrences are not listed", max, more)}, "logMessage")
	}
	x.close("logs")
}

// logMessage is a warning's or a note's log message: its level and text.
func logMessage(f audit.Finding) (level, text string) {
	return logLevel(f.Severity), f.Rule + " " + where(f) + ": " + f.Message
}

// A logKey stands for a log message: two hashes of its level and text,
// under seeds of the run (a collision of both is a chance of 2^-128 a
// pair).
type logKey [2]uint64

type logSeeds [2]maphash.Seed

func (s logSeeds) key(level, text string) logKey {
	var k logKey
	for i, seed := range s {
		var h maphash.Hash
		h.SetSeed(seed)
		h.WriteString(level)
		h.WriteByte(0)
		h.WriteString(text)
		k[i] = h.Sum64()
	}
	return k
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
