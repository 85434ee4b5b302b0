// Package seeds captures a list of sites, each seed into its own PDF (and
// WARC), at archive scale: a list split among machines by [shard], a run
// that can be killed and resumed, a result per seed.
//
// # The list
//
// A list is UTF-8 text, a seed a line: a start URL (http or https, spaces
// percent-encoded), optionally followed by the seed's own flags, written
// as the command's flags are (--levels 2, --levels=2):
//
//	# a comment; blank lines are ignored
//	https://example.com/
//	https://example.org/docs/ --levels 2 --same-path
//	https://news.example/ --levels 3 --same-site --max-pages 40
//
// The flags a line may give are --levels N, --same-site, --same-path and
// --max-pages N; a line without them takes the run's. A line is at most
// [MaxLine] bytes. Every problem is a [*LineError] naming the list, the
// line and the problem; a list with none is an error too, and so is a
// seed written twice. The whole list is read and checked (every line, not
// only the shard's), so that every shard of a bad list fails alike.
//
// # Names
//
// A seed's outputs are DIR/NAME.pdf and WARCDIR/NAME.warc.gz, NAME being
// [Name]: a readable slug of the seed's host and path, then a hyphen and
// 16 hex digits of the SHA-256 of the seed as written. Names depend on
// the seed alone (not on the run, the shard or the machine), two seeds
// never share one, and a name holds no "/" and does not start with ".":
// no seed can name a file outside DIR.
//
// # Shards
//
// Shard I/N of a list holds the seeds whose key, the seed's URL as
// written, [shard.Of] gives I: the same 0-based FNV-1a rule as audit's.
//
// # Resume
//
// Outputs are written atomically (a temporary file in DIR, renamed), so a
// run killed at any point leaves a seed's outputs either whole or absent
// (and perhaps a ".NAME.pdf.*.tmp" file, which a later run removes). The
// WARC is written first and the PDF last. With Config.Resume a seed is
// kept, not captured again, when [Complete] finds its PDF reads and audits
// with no error and holds at least one page set, and (with a WARC asked
// for) its WARC reads whole and ends with the PDF's own resource record
// (the record's block digest is the PDF's SHA-256): a WARC of another run
// does not pass. Anything else is captured again.
//
// # Workers
//
// [Run] hands the seeds to a function, at most Jobs at a time. [Capturer]
// captures seeds one after the other with one Chromium (started again
// for the next seed when it exits, killed or out of memory, during one:
// that seed fails, nothing written, so that Resume redoes it; up to
// [MaxBrowserFailures] seeds in a row); [Serve] is a
// worker process's loop around one, and [Pool] the parent's side, through
// internal/workers: one bounded browser per worker process.
package seeds
