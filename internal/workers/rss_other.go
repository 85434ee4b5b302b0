//go:build !linux

package workers

import (
	"os"
	"time"
)

const canWatch = false

const watchEvery = time.Second

func rss(int) int64 { return 0 }

func dataSize() int64 { return 0 }

func peakRSS(*os.ProcessState) int64 { return 0 }
