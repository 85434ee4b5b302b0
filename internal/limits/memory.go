package limits

// DefaultMemory is the memory ceiling of a command that reads PDFs when
// none is given (webcap's --max-memory): 1 GiB, whatever the inputs'
// sizes. A reader that needs more than this for a file is under attack
// or reading an exceptionally large capture, which --max-memory admits:
// the lazy reader reads the 20,000-page file of bench/peers.sh (13 MB) in
// some 140 MB and the 100,000-set file (111 MB) in some 760 MB, build,
// fix and append rewrite that file within it (issue 30: their input is
// read by the same reader), and a file's findings past 20,000 wait on
// disk (audit/batch.Spool).
const DefaultMemory int64 = 1 << 30
