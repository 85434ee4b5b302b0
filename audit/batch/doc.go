// Package batch holds what a program auditing an archive of PDF files
// decides beyond one file's checks (package audit), so that webcap audit
// and report, and any Go program running an archive-scale audit, decide it
// once:
//
//   - which files a run takes (List): the paths given, directories
//     walked (--recursive, --include), and of those the shard a machine
//     takes (package shard: N machines given the same list each take one
//     part, and together every file once);
//   - how they are audited (Run): Jobs at a time, each result handed on
//     in input order or as it is done; a run stops at its context;
//   - what a resumed run skips (Log, --resume): the files an earlier
//     run's results hold with the same size and mtime, or SHA-256, unless
//     they failed for an operational reason;
//   - how a file's findings are kept (Spool): in memory up to a limit,
//     past it in files, so that a file of two million findings is audited
//     in bounded memory, with a Summary of bounded size (the count of each
//     rule at each severity, and the first few of each);
//   - how the results of many runs (shards) make one report (ReadShard,
//     Merge): each file's line indexed, not held, and its last result kept.
//
// What a file's result looks like on the wire (webcap's JSON) and how a
// file is read in isolation (webcap's worker processes, internal/workers)
// are the caller's: Run calls the caller's audit function, which may hand
// the file to another process.
//
// A file's findings come from audit.Findings as the file is walked:
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
