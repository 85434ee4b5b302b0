package batch_test

import (
	"context"
	"fmt"
	"log"
	"os"
	"path/filepath"

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

// Audit a collection: the files in a directory (walked, *.pdf; one
// machine of N would also give ListOptions.Shard), two at a time, each
// file's findings spooled, the results printed in input order, and the
// run summed up.
func ExampleRun() {
	ctx := context.Background()
	files, err := batch.List(ctx, []string{"../../testdata"}, batch.ListOptions{Recursive: true, Include: []string{"*.pdf"}})
	if err != nil {
		log.Fatal(err)
	}
	dir, err := os.MkdirTemp("", "findings")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	results := make([]*batch.Findings, len(files))
	auditOne := func(ctx context.Context, i int) {
		d, err := pdfio.Open(files[i], pdfio.Options{})
		if err != nil {
			return // a real program keeps the error as the file's result
		}
		s := &batch.Spool{Dir: dir, First: 10}
		for f := range audit.Findings(d, audit.Options{Context: ctx}) {
			if s.Add(f) != nil {
				break
			}
		}
		results[i], _ = s.Close()
	}
	var total batch.Summary
	emit := func(i int) error {
		r := results[i]
		defer r.Remove()
		total.Errors += r.Summary.Errors
		total.Warnings += r.Summary.Warnings
		_, err := fmt.Printf("%s: %v, %d warnings\n", filepath.ToSlash(files[i]), r.Summary.Status(nil), r.Summary.Warnings)
		return err
	}
	skip := func(int) bool { return false } // a resumed run asks its batch.Log
	if err := batch.Run(ctx, len(files), batch.RunOptions{Jobs: 2}, skip, auditOne, emit); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%d files: %d errors, %d warnings\n", len(files), total.Errors, total.Warnings)
	// Output:
	// ../../testdata/build/web.pdf: Well-Formed and valid, 0 warnings
	// ../../testdata/capture.pdf: Well-Formed and valid, 2 warnings
	// ../../testdata/collide.pdf: Well-Formed, but not valid, 0 warnings
	// 3 files: 5 errors, 2 warnings
}
