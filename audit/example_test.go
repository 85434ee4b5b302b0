package audit_test

import (
	"fmt"
	"log"
	"os"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
)

// Audit the bundled capture: two warnings every Acrobat capture has, and no
// error.
func ExampleCheck() {
	pdf, err := os.ReadFile("../testdata/capture.pdf")
	if err != nil {
		log.Fatal(err)
	}
	d, err := pdfio.ReadBytes(pdf, "capture.pdf", pdfio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	findings := audit.Check(d, audit.Options{Profile: canon.PDF})
	for _, f := range findings {
		fmt.Printf("%s %s %s %s (%s)\n", f.Severity, f.Rule, f.Object, f.Key, f.Spec)
	}
	sum := audit.Summarize(findings)
	fmt.Printf("%d errors, %d warnings: %v\n", sum.Count(audit.Serious), sum.Count(audit.Caution), sum)
	// Output:
	// warning WC-INFO-V-VALUE 22 0 R /V (ISO 32000-1 Table 350)
	// warning WC-R-ARRAY1 17 0 R /R (ISO 32000-1 Table 354)
	// 0 errors, 2 warnings: audits with no error
}
