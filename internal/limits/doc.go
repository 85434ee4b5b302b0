// Package limits holds the bounds every webcap command puts on its work,
// decided once for the whole module: an input is a regular file of a
// bounded size, checked before it is opened and before it is read (Open,
// ReadFile); one deadline covers an operation (Deadline); and a memory
// ceiling stops the work, with an error, once the heap passes it
// (WatchMemory).
//
// Why by hand: os.Open of a named pipe blocks in open(2) until a writer
// comes, and os.ReadFile of /dev/zero never ends, so the file's type must
// be known before the open (and checked again on what was opened, in
// case the path changed in between). Go's runtime/debug.SetMemoryLimit
// only makes the collector work harder: it never stops a program whose
// live heap grows, so a watchdog reads the heap's size (runtime/metrics)
// and cancels the operation's context when it is over the ceiling.
//
// Every limit passed is an error wrapping ErrLimit (a finding about the
// input, which trying again will not change), that names the limit and,
// where the caller gives it, the flag that sets it ("took longer than
// --timeout 2s", "took more memory than --max-memory 64 MiB").
package limits
