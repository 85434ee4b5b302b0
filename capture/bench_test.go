package capture

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// BenchmarkCapture50 captures a 50-page local site (an index linking 49
// pages, each with the shared logo) and reports pages per second, how the
// time splits between the browser and webcap's own work, and the peak
// memory of webcap and Chromium together. WEBCAP_BENCH_JOBS sets the
// number of tabs (Options.Jobs).
func BenchmarkCapture50(b *testing.B) {
	br := newBrowser(b)
	mux := http.NewServeMux()
	mux.HandleFunc("/logo.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(gif)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var s strings.Builder
		fmt.Fprintf(&s, "<title>%s</title><img src=/logo.gif><p>%s</p>", r.URL.Path, strings.Repeat("Some text of the page. ", 200))
		if r.URL.Path == "/" {
			for i := 1; i < 50; i++ {
				fmt.Fprintf(&s, `<a href="/p%02d.html">%d</a> `, i, i)
			}
		}
		w.Write([]byte(s.String()))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	jobs, _ := strconv.Atoi(os.Getenv("WEBCAP_BENCH_JOBS")) // 0: the default
	var res *Result
	peak := watchMemory(b)
	for b.Loop() {
		var err error
		res, err = Capture(context.Background(), br, []string{srv.URL + "/"}, Options{Levels: 2, MaxPages: 50, IgnoreRobots: true, Jobs: jobs})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Pages) != 50 {
			b.Fatalf("%d pages", len(res.Pages))
		}
	}
	total := res.Render + res.Merge + res.Structures
	b.ReportMetric(50/total.Seconds(), "pages/s")
	b.ReportMetric(100*res.Render.Seconds()/total.Seconds(), "%render")
	b.ReportMetric(100*(res.Merge+res.Structures).Seconds()/total.Seconds(), "%ours")
	b.ReportMetric(float64(peak())/(1<<20), "peak-PSS-MB")
}

// watchMemory samples, every 20 ms, the proportional set size (PSS: each
// shared page counted once, split between its sharers) of this process and
// all its descendants (Chromium's processes), and returns a function that
// stops sampling and gives the peak in bytes. On systems without
// /proc/PID/smaps_rollup it reports 0.
func watchMemory(b *testing.B) func() int64 {
	var peak atomic.Int64
	done := make(chan struct{})
	stopped := make(chan struct{})
	go func() {
		defer close(stopped)
		t := time.NewTicker(20 * time.Millisecond)
		defer t.Stop()
		for {
			if n := treePSS(os.Getpid()); n > peak.Load() {
				peak.Store(n)
			}
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	}()
	return func() int64 {
		close(done)
		<-stopped
		return peak.Load()
	}
}

// treePSS sums the PSS of pid and its descendants, from /proc.
func treePSS(pid int) int64 {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		st, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		// pid (comm) state ppid ...: comm may hold spaces; cut after ')'.
		if i := bytes.LastIndexByte(st, ')'); i > 0 {
			if f := strings.Fields(string(st[i+1:])); len(f) > 1 {
				parent[n], _ = strconv.Atoi(f[1])
			}
		}
	}
	var total int64
	for n := range parent {
		for a := n; a != 0; a = parent[a] {
			if a == pid {
				total += pss(n)
				break
			}
			if _, ok := parent[a]; !ok {
				break
			}
		}
	}
	return total
}

func pss(pid int) int64 {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/smaps_rollup")
	if err != nil {
		return 0
	}
	for _, line := range strings.Split(string(b), "\n") {
		if f := strings.Fields(line); len(f) >= 2 && f[0] == "Pss:" {
			kb, _ := strconv.ParseInt(f[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}
