package export_test

import (
	"os"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/export"
	"github.com/webcap/webcap/webcapture"
)

// The output of an Archivematica FPR validation command, a line per file.
func ExampleWrite() {
	results := export.Slice{
		{Input: "capture.pdf", Findings: []audit.Finding{
			{Rule: "WC-INFO-V-VALUE", Severity: audit.Caution, Message: "SpiderInfo /V is 1.25", Spec: "ISO 32000-1 Table 350"}}},
		{Input: "damaged.pdf", Findings: []audit.Finding{
			{Rule: "WC-TREE-ORDER", Severity: audit.Serious, Object: webcapture.Ref{Num: 5}, Message: "keys out of order", Spec: "PDF 1.7 §3.8.5"}}},
		{Input: "notapdf.pdf", Error: &audit.FileError{Message: "not a PDF", Kind: audit.Invalid}},
	}
	export.Write(os.Stdout, export.Archivematica, results, export.Options{Version: "v1.0.0"})
	// Output:
	// {"eventOutcomeInformation":"pass","eventOutcomeDetailNote":"format=\"PDF\"; result=\"Well-Formed and valid\"; errors=\"0\"; warnings=\"1\"; notes=\"0\""}
	// {"eventOutcomeInformation":"partial pass","eventOutcomeDetailNote":"format=\"PDF\"; result=\"Well-Formed, but not valid\"; errors=\"1\"; warnings=\"0\"; notes=\"0\"; rules=\"WC-TREE-ORDER (1)\""}
	// {"eventOutcomeInformation":"fail","eventOutcomeDetailNote":"format=\"PDF\"; result=\"Not well-formed\"; error=\"not a PDF\""}
}
