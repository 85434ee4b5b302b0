// Package batch holds what a program auditing an archive of PDF files
// decides beyond one file's checks (package audit): how a file's findings
// are kept when there are millions of them.
//
// A file's findings come from audit.Findings as the file is walked. A
// Spool takes them one at a time: it holds up to Spool.Limit of them in
// memory and, past that, writes every finding to files (one per severity,
// so that they read back errors first, the order audit.Check gives), so
// that a file of two million findings is audited in bounded memory. Beside
// them it keeps a Summary of bounded size: the count of each rule's
// findings of each severity, and the first few of each, which is all a
// report that shows a few findings per rule (webcap audit's text) needs.
//
//	s := &batch.Spool{Dir: dir, First: 10}
//	for f := range audit.Findings(d, audit.Options{}) {
//		if err := s.Add(f); err != nil { ... }
//	}
//	found, err := s.Close() // a Findings: in memory, or in files under dir
//	defer found.Remove()
//	err = found.Each(func(f audit.Finding) error { ...; return nil })
//
// Findings is JSON-encodable, so that a worker process can hand it to the
// process that prints (webcap's audit workers do): its files stay where
// they are, and are read back by path.
package batch
