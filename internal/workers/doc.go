// Package workers runs tasks in long-lived child processes, one task at a
// time in each: a task that hangs, crashes its process or makes it run out
// of memory costs that task alone, and the process is replaced.
//
// audit uses it to read untrusted PDFs in isolation without a process per
// file (a process start costs ~10 ms of CPU; an audit of a small file,
// 0.6 ms). It holds only the process plumbing: what a task is and what its
// result means belong to the caller (internal/cli's audit-worker command
// and the audit package), which is why it is a package of its own and
// imports nothing of the module.
//
// The protocol is a line each way: the parent writes a task as one line
// (JSON, without a newline inside) on the worker's stdin, the worker
// answers with one line on its stdout (Serve), and exits at the end of its
// stdin. Secrets travel in the task lines, never on a command line (ps
// shows those).
//
// A worker is replaced after a crash, after a task runs past
// Config.Timeout (it is killed), and after Config.Recycle tasks (its stdin
// is closed and it exits). Memory is limited by the worker itself
// (LimitMemory: a hard RLIMIT_DATA on Unix, which the kernel enforces,
// with Go's soft limit under it, so the collector works hard before the
// wall) and, on Linux, by the parent, which kills a worker whose resident
// set passes Config.MaxMemory and its size at rest (/proc/PID/statm; the
// only limit where there is no RLIMIT_DATA): RLIMIT_AS cannot be used,
// since a Go process reserves more address space at start than any
// sensible limit (a Go program under RLIMIT_AS 1 GiB dies before main).
package workers
