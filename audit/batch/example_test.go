package batch_test

import (
	"fmt"
	"log"
	"os"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/pdfio"
)

// Spool a file's findings as they are found: past Limit (here 1, to
// show it; by default 20,000) they go to files, and memory holds only the
// summary.
func ExampleSpool() {
	d, err := pdfio.Open("../../testdata/capture.pdf", pdfio.Options{})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "findings")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	s := &batch.Spool{Dir: dir, Limit: 1, First: 10}
	for f := range audit.Findings(d, audit.Options{}) {
		if err := s.Add(f); err != nil {
			log.Fatal(err)
		}
	}
	found, err := s.Close()
	defer found.Remove()
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d findings, spilled: %v, %v\n", found.Len(), found.Spilled(), found.Summary.Status(nil))
	for _, c := range found.Summary.Codes {
		fmt.Printf("%s %s: %d\n", c.Severity, c.Rule, c.Count)
	}
	err = found.Each(func(f audit.Finding) error {
		_, err := fmt.Printf("%s %s %s %s\n", f.Severity, f.Rule, f.Object, f.Key)
		return err
	})
	if err != nil {
		log.Fatal(err)
	}
	// Output:
	// 2 findings, spilled: true, Well-Formed and valid
	// warning WC-INFO-V-VALUE: 1
	// warning WC-R-ARRAY1: 1
	// warning WC-INFO-V-VALUE 22 0 R /V
	// warning WC-R-ARRAY1 17 0 R /R
}
