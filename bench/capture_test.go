package bench

import (
	"bytes"
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/webcap/webcap/capture"
)

// site50 serves a 50-page local site: an index linking 49 pages, each with
// the shared logo and about 4.6 KB of text.
func site50() *httptest.Server {
	mux := http.NewServeMux()
	mux.HandleFunc("/logo.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(logo)
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
	return httptest.NewServer(mux)
}

var logo = []byte("GIF89a\x01\x00\x01\x00\x80\x00\x00\xff\xff\xff\x00\x00\x00!\xf9\x04\x01\x00\x00\x00\x00,\x00\x00\x00\x00\x01\x00\x01\x00\x00\x02\x02D\x01\x00;")

// BenchmarkCapture50 captures the 50-page site with webcap (its defaults:
// pages settle, a quiet network of 500 ms) and prints the same 50 pages
// with Chromium alone (chromium --headless --print-to-pdf, a process per
// page, as a user would script it), with 1 and 2 at once, and reports
// pages per second and the peak memory of everything running (this
// process and its descendants: Chromium's). It skips without Chromium.
// WEBCAP_BENCH_IDLE sets webcap's quiet time (--wait-idle), e.g. 100ms.
//
//	cd bench && go test -run '^$' -bench Capture50 -benchtime 2x -count 3
func BenchmarkCapture50(b *testing.B) {
	exe, err := capture.FindChromium(os.Getenv("WEBCAP_CHROMIUM"))
	if err != nil {
		b.Skipf("skipping: %v", err)
	}
	srv := site50()
	defer srv.Close()
	urls := []string{srv.URL + "/"}
	for i := 1; i < 50; i++ {
		urls = append(urls, fmt.Sprintf("%s/p%02d.html", srv.URL, i))
	}
	idle, _ := time.ParseDuration(os.Getenv("WEBCAP_BENCH_IDLE")) // 0: the default
	for _, jobs := range []int{1, 2} {
		b.Run(fmt.Sprintf("webcap/jobs=%d", jobs), func(b *testing.B) {
			br, err := capture.NewBrowser(context.Background(), exe, capture.BrowserOptions{})
			if err != nil {
				b.Fatal(err)
			}
			defer br.Close()
			peak := watchMemory(b)
			t0 := time.Now()
			for b.Loop() {
				res, err := capture.Capture(context.Background(), br, urls[:1], capture.Options{Levels: 2, MaxPages: 50, IgnoreRobots: true, Jobs: jobs, IdleQuiet: idle})
				if err != nil || len(res.Pages) != 50 {
					b.Fatalf("%v, %d pages", err, len(res.Pages))
				}
			}
			b.ReportMetric(float64(50*b.N)/time.Since(t0).Seconds(), "pages/s")
			b.ReportMetric(float64(peak())/(1<<20), "peak-PSS-MB")
		})
		b.Run(fmt.Sprintf("chromium/jobs=%d", jobs), func(b *testing.B) {
			dir := b.TempDir()
			peak := watchMemory(b)
			t0 := time.Now()
			for b.Loop() {
				var wg sync.WaitGroup
				next := make(chan int)
				for w := range jobs {
					wg.Go(func() {
						for i := range next {
							out := filepath.Join(dir, fmt.Sprintf("%d.pdf", i))
							cmd := exec.Command(exe, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
								"--disable-background-networking", "--disable-component-update", "--disable-sync",
								"--disable-dev-shm-usage", "--user-data-dir="+filepath.Join(dir, fmt.Sprint("profile", w)),
								"--print-to-pdf="+out, urls[i])
							if o, err := cmd.CombinedOutput(); err != nil {
								b.Errorf("%s: %v\n%s", urls[i], err, o)
							}
						}
					})
				}
				for i := range urls {
					next <- i
				}
				close(next)
				wg.Wait()
			}
			b.ReportMetric(float64(50*b.N)/time.Since(t0).Seconds(), "pages/s")
			b.ReportMetric(float64(peak())/(1<<20), "peak-PSS-MB")
		})
	}
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
