// Package export writes audit results (audit.FileResult) in the formats
// preservation and CI systems already read, so that their parsers and
// policies work on webcap's findings unchanged:
//
//   - VeraPDF: a veraPDF-style machine-readable report (MRR), the XML
//     "report" veraPDF's --format mrr writes (no XSD is published; the
//     element structure is veraPDF-library's, processor/reports/*Impl.java).
//   - PREMIS: PREMIS 3.0 validation events, one per file, in a <premis>
//     container with the file objects and the webcap agent
//     (premis-v3-0.xsd).
//   - Archivematica: the stdout of an Archivematica FPR validation command,
//     one object per file that is both JSON and a Python literal.
//   - SARIF: a SARIF 2.1.0 log (OASIS, Errata 01), for code-scanning UIs.
//   - JUnit: JUnit XML valid under both the Ant schema (windyroad JUnit.xsd)
//     and the one Jenkins xUnit enforces (junit-10.xsd).
//
// Every format says a file's verdict the same way, from audit's decision
// (FileResult.Status, in JHOVE's words): Well-Formed and valid is a pass,
// Well-Formed but not valid a partial pass (as Archivematica's JHOVE
// command maps it), Not well-formed a fail. A file that could not be read
// for an operational reason (FileError.Operational) is an error, not a
// failure, where the format tells the two apart (JUnit <error>, SARIF tool
// notifications). docs/formats.md documents each mapping.
//
// Every format is written as it is read, a file at a time, and a file's
// findings a finding at a time when the results are Streamed: what a
// format says before the findings (JUnit's failures, veraPDF's failed
// rules and log count) comes from their counts (Count), and the findings
// are read again as often as the format needs, so that a file of millions
// of findings (audit/batch.Spool) is never whole in memory. veraPDF's log
// messages are counted by a 128-bit key each, not held.
//
// Usage:
//
//	opts := export.Options{Version: "v1.2.0", Time: time.Now()}
//	err := export.Write(w, export.SARIF, results, opts)
package export
