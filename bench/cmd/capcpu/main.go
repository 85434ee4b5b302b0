// Command capcpu measures issue 29's speed target: the whole-machine CPU
// time (user + system, of the command and every process descending from
// it, Chromium's included) and the wall time of `webcap capture` of a
// generated local site, against one Chromium printing the same pages over
// the DevTools protocol in one tab (bench/cmd/cdppeer), interleaved (one
// warm-up run of each, then A B A B … -runs times), as medians and their
// ratio, one Markdown table row per site size and --jobs.
//
//	capcpu -webcap ./webcap -peer ./cdppeer -pages 24,50 -jobs 1,2 -runs 5
//
// -before runs another webcap too, interleaved (before, webcap, peer, …),
// and gives its own row against the same peer runs: a change's effect on
// the ratio, both measured at the same moments of a noisy machine. -base
// runs another webcap in the peer's place (an A/B of two builds).
//
// How the tree's CPU is counted: capcpu makes itself the child subreaper
// (prctl PR_SET_CHILD_SUBREAPER), so that a Chromium process orphaned when
// its parent exits is re-parented to capcpu rather than to init, and
// reaps every descendant before the run ends. The kernel adds a reaped
// process's CPU (its own and its reaped descendants') to its reaper's
// RUSAGE_CHILDREN: the difference of capcpu's getrusage(RUSAGE_CHILDREN)
// across a run is every process of the run, whoever reaped it. The
// command's own wait4 rusage (what bench/cmd/pairtime reports) is printed
// beside it (-v): it misses the processes that outlived their parent.
//
// The breakdown (-v) is read from /proc/PID/stat of every descendant,
// every 50 ms, the last figure of each process kept and summed by kind
// (the Go process, Chromium's browser process, renderers, the GPU
// process, utility processes such as the network service, zygotes), with
// the number of processes of each kind: a process that ends between two
// samples loses up to 50 ms.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"log"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

func main() {
	log.SetFlags(0)
	log.SetPrefix("capcpu: ")
	webcap := flag.String("webcap", "webcap", "the webcap executable")
	peer := flag.String("peer", "cdppeer", "the peer (bench/cmd/cdppeer)")
	pagesList := flag.String("pages", "24,50", "site sizes, in pages, comma-separated")
	jobsList := flag.String("jobs", "1,2", "webcap's --jobs, comma-separated")
	runs := flag.Int("runs", 5, "timed runs of each, after one warm-up run")
	extra := flag.String("webcap-args", "", "more arguments for webcap capture (space-separated)")
	peerExtra := flag.String("peer-extra", "", "the peer's -extra Chromium flags")
	verbose := flag.Bool("v", false, "print each run and the CPU of each kind of process")
	serve := flag.String("serve", "", "only serve the site of the first -pages size at this address (127.0.0.1:8029), for trying things by hand")
	other := flag.String("base", "", "A/B: run this other webcap executable, with the same arguments, in the peer's place")
	before := flag.String("before", "", "run this other webcap executable too (the one before a change), interleaved with the two others, and give its ratio to the same peer runs")
	flag.Parse()
	if *serve != "" {
		log.Printf("serving %d pages at http://%s/", ints(*pagesList)[0], *serve)
		log.Fatal(http.ListenAndServe(*serve, newSite(ints(*pagesList)[0])))
	}
	if _, _, e := syscall.RawSyscall(syscall.SYS_PRCTL, 36 /* PR_SET_CHILD_SUBREAPER */, 1, 0); e != 0 {
		log.Fatalf("prctl(PR_SET_CHILD_SUBREAPER): %v", e)
	}
	tmp, err := os.MkdirTemp("", "capcpu")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	peerName := "peer"
	if *other != "" {
		peerName = "base"
	}
	fmt.Printf("| pages | --jobs | webcap CPU s | wall s | %s CPU s | wall s | CPU ratio | wall ratio |\n", peerName)
	fmt.Println("|--:|--:|--:|--:|--:|--:|--:|--:|")
	for _, n := range ints(*pagesList) {
		s := newSite(n)
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		if err != nil {
			log.Fatal(err)
		}
		srv := &http.Server{Handler: s}
		go srv.Serve(ln)
		base := "http://" + ln.Addr().String()
		urls := s.URLs(base)
		for _, jobs := range ints(*jobsList) {
			wargs := []string{"capture", "--levels", "2", "--max-pages", strconv.Itoa(n), "--jobs", strconv.Itoa(jobs),
				"--ignore-robots", "-q", "--force", "-o", filepath.Join(tmp, "out.pdf")}
			wargs = append(append(wargs, strings.Fields(*extra)...), base+"/")
			pexe, pargs := *peer, append([]string{"-out", tmp, "-extra", *peerExtra}, urls...)
			if *other != "" {
				pexe, pargs = *other, wargs
			}
			var ws, ps, bs []sample
			for i := 0; i <= *runs; i++ {
				var c sample
				if *before != "" {
					var err error
					if c, err = run(*before, wargs); err != nil {
						log.Fatal(err)
					}
				}
				a, err := run(*webcap, wargs)
				if err != nil {
					log.Fatal(err)
				}
				b, err := run(pexe, pargs)
				if err != nil {
					log.Fatal(err)
				}
				if *verbose {
					what := "run"
					if i == 0 {
						what = "warm-up"
					}
					log.Printf("%d pages, jobs %d, %s %d: webcap %s; %s %s", n, jobs, what, i, a, peerName, b)
					if *before != "" {
						log.Printf("%d pages, jobs %d, %s %d: before %s", n, jobs, what, i, c)
					}
				}
				if i > 0 {
					ws, ps, bs = append(ws, a), append(ps, b), append(bs, c)
				}
			}
			wc, ww := med(ws, func(s sample) float64 { return s.tree }), med(ws, func(s sample) float64 { return s.wall })
			pc, pw := med(ps, func(s sample) float64 { return s.tree }), med(ps, func(s sample) float64 { return s.wall })
			fmt.Printf("| %d | %d | %.2f | %.2f | %.2f | %.2f | %.2f× | %.2f× |\n", n, jobs, wc, ww, pc, pw, wc/pc, ww/pw)
			if *before != "" {
				bc, bw := med(bs, func(s sample) float64 { return s.tree }), med(bs, func(s sample) float64 { return s.wall })
				fmt.Printf("| %d | %d (before) | %.2f | %.2f | %.2f | %.2f | %.2f× | %.2f× |\n", n, jobs, bc, bw, pc, pw, bc/pc, bw/pw)
				if *verbose {
					log.Printf("  before by kind (medians): %s", kinds(bs))
				}
			}
			if *verbose {
				log.Printf("  webcap by kind (medians): %s", kinds(ws))
				log.Printf("  %s by kind (medians):   %s", peerName, kinds(ps))
			}
		}
		srv.Close()
	}
}

func ints(s string) []int {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil || n < 1 {
			log.Fatalf("%q: not a positive number", f)
		}
		out = append(out, n)
	}
	return out
}

// A sample is one run: its wall time (until the command exits), the CPU
// seconds of the whole tree (RUSAGE_CHILDREN's difference), of the
// command's own wait4 rusage, and of each kind of process (/proc).
type sample struct {
	wall, tree, top float64
	kind            map[string]float64
	procs           map[string]int // processes of each kind
}

func (s sample) String() string {
	var sum float64
	for _, v := range s.kind {
		sum += v
	}
	return fmt.Sprintf("wall %.2fs, CPU %.2fs (its wait4 %.2fs, /proc %.2fs)", s.wall, s.tree, s.top, sum)
}

func med(ss []sample, f func(sample) float64) float64 {
	xs := make([]float64, len(ss))
	for i, s := range ss {
		xs[i] = f(s)
	}
	slices.Sort(xs)
	if len(xs)%2 == 1 {
		return xs[len(xs)/2]
	}
	return (xs[len(xs)/2-1] + xs[len(xs)/2]) / 2
}

func kinds(ss []sample) string {
	names := map[string]bool{}
	for _, s := range ss {
		for k := range s.kind {
			names[k] = true
		}
	}
	var ks []string
	for k := range names {
		ks = append(ks, k)
	}
	slices.Sort(ks)
	var parts []string
	for _, k := range ks {
		parts = append(parts, fmt.Sprintf("%s %.2fs (%g)", k, med(ss, func(s sample) float64 { return s.kind[k] }),
			med(ss, func(s sample) float64 { return float64(s.procs[k]) })))
	}
	return strings.Join(parts, ", ")
}

func rusageChildren() float64 {
	var ru syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
}

// run runs one command and every process it starts to their end.
func run(exe string, args []string) (sample, error) {
	before := rusageChildren()
	cmd := exec.Command(exe, args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return sample{}, err
	}
	w := watch(cmd.Process.Pid)
	err := cmd.Wait()
	wall := time.Since(start).Seconds()
	if err != nil {
		w.stop()
		return sample{}, fmt.Errorf("%s %s: %v\n%s", exe, strings.Join(args, " "), err, stderr.Bytes())
	}
	// The orphans, re-parented to us: wait for each (at most 20 s, then
	// kill what is left).
	deadline := time.Now().Add(20 * time.Second)
	for {
		var ws syscall.WaitStatus
		pid, err := syscall.Wait4(-1, &ws, syscall.WNOHANG, nil)
		if err == syscall.ECHILD {
			break
		}
		if pid == 0 {
			if time.Now().After(deadline) {
				for _, p := range descendants(os.Getpid()) {
					syscall.Kill(p, syscall.SIGKILL)
				}
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	kind, procs := w.stop()
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	top := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	return sample{wall: wall, tree: rusageChildren() - before, top: top, kind: kind, procs: procs}, nil
}

// A watcher samples the CPU of a process tree from /proc.
type watcher struct {
	done chan struct{}
	wg   sync.WaitGroup
	mu   sync.Mutex
	last map[int]proc
}

type proc struct {
	kind string
	cpu  float64
}

func watch(root int) *watcher {
	w := &watcher{done: make(chan struct{}), last: map[int]proc{}}
	w.wg.Add(1)
	go func() {
		defer w.wg.Done()
		t := time.NewTicker(50 * time.Millisecond)
		defer t.Stop()
		for {
			pids := append(descendants(os.Getpid()), root)
			for _, p := range pids {
				cpu, ok := cpuOf(p)
				if !ok {
					continue
				}
				w.mu.Lock()
				// A command line changes once, at exec (the chromium
				// script, a zygote's fork that becomes a renderer): read
				// it each time.
				pr := w.last[p]
				if k := kindOf(p); k != "" {
					pr.kind = k
				}
				if pr.kind != "" {
					pr.cpu = cpu
					w.last[p] = pr
				}
				w.mu.Unlock()
			}
			select {
			case <-w.done:
				return
			case <-t.C:
			}
		}
	}()
	return w
}

func (w *watcher) stop() (map[string]float64, map[string]int) {
	close(w.done)
	w.wg.Wait()
	cpu, n := map[string]float64{}, map[string]int{}
	for _, p := range w.last {
		cpu[p.kind] += p.cpu
		n[p.kind]++
	}
	return cpu, n
}

var tick = 100.0 // USER_HZ: Linux reports 100 everywhere

// cpuOf reads a process's utime + stime from /proc/PID/stat.
func cpuOf(pid int) (float64, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return 0, false
	}
	i := bytes.LastIndexByte(b, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(string(b[i+1:]))
	if len(f) < 13 {
		return 0, false
	}
	u, _ := strconv.ParseFloat(f[11], 64)
	s, _ := strconv.ParseFloat(f[12], 64)
	return (u + s) / tick, true
}

// kindOf names a process by its command line: Chromium's --type (a
// utility by its sub-type), Chromium's browser process, or the program's
// name (webcap, cdppeer, sh).
func kindOf(pid int) string {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/cmdline")
	if err != nil || len(b) == 0 {
		return ""
	}
	s := string(bytes.ReplaceAll(b, []byte{0}, []byte{' '}))
	first := func(s string) string {
		if f := strings.Fields(s); len(f) > 0 {
			return f[0]
		}
		return ""
	}
	if i := strings.Index(s, "--type="); i >= 0 {
		t := first(s[i+len("--type="):])
		if t == "utility" {
			if j := strings.Index(s, "--utility-sub-type="); j >= 0 {
				sub := first(s[j+len("--utility-sub-type="):])
				return "utility:" + strings.TrimSuffix(strings.TrimPrefix(sub, "network.mojom."), "Service")
			}
		}
		return t
	}
	name := filepath.Base(first(s))
	if name == "." {
		return ""
	}
	if strings.Contains(name, "chrom") {
		return "browser"
	}
	return name
}

// descendants are the processes below pid, from /proc's parent links.
func descendants(pid int) []int {
	parent := map[int]int{}
	ents, _ := os.ReadDir("/proc")
	for _, e := range ents {
		n, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		b, err := os.ReadFile("/proc/" + e.Name() + "/stat")
		if err != nil {
			continue
		}
		if i := bytes.LastIndexByte(b, ')'); i > 0 {
			if f := strings.Fields(string(b[i+1:])); len(f) > 1 {
				parent[n], _ = strconv.Atoi(f[1])
			}
		}
	}
	var out []int
	for n := range parent {
		for a := parent[n]; a > 1; a = parent[a] {
			if a == pid {
				out = append(out, n)
				break
			}
		}
	}
	return out
}
