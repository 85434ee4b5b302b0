package workers

import (
	"bytes"
	"os"
	"strconv"
	"time"
)

// canWatch: the parent can read a worker's resident set size.
const canWatch = true

// watchEvery is how often the parent looks at a busy worker's size.
const watchEvery = 100 * time.Millisecond

var pageSize = int64(os.Getpagesize())

// rss is the resident set size of process pid in bytes (0 when unknown),
// the second field of /proc/PID/statm, in pages.
func rss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/statm")
	if err != nil {
		return 0
	}
	f := bytes.Fields(b)
	if len(f) < 2 {
		return 0
	}
	n, _ := strconv.ParseInt(string(f[1]), 10, 64)
	return n * pageSize
}
