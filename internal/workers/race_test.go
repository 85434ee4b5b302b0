//go:build race

package workers

// raceEnabled: the race detector's runtime maps shadow memory that
// RLIMIT_DATA counts, so a worker under a memory limit dies in it before
// it grows (exit 66, "ThreadSanitizer failed to allocate"), not of the
// limit the test means to reach.
const raceEnabled = true
