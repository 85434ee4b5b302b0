// Command pairtime times two whole commands against each other the way
// bench/peers.sh needs it: one warm-up run of each, then A B A B … for
// -runs rounds, each run's CPU time (user + system), wall time and peak
// resident memory read from the kernel (wait4's rusage of the process that
// exec replaced the shell with), and one Markdown table row of the medians
// and the ratios A/B. A run that exits with a status not in -ok fails the
// whole row: a figure from a command that failed is no figure.
//
//	pairtime -name "canon 1M URLs → file" -target 0.5 \
//	    -a 'webcap canon <urls.txt >out.txt' -b 'urlpeer -mode neturl <urls.txt >peer.txt'
//
// It prints the header with -header and nothing else.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"
)

type sample struct{ cpu, wall, mb float64 }

func run(shell string, ok map[int]bool) (sample, error) {
	cmd := exec.Command("sh", "-c", "exec "+shell)
	cmd.Stderr = os.Stderr
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start).Seconds()
	if cmd.ProcessState == nil {
		return sample{}, fmt.Errorf("%s: %w", shell, err)
	}
	if code := cmd.ProcessState.ExitCode(); !ok[code] {
		return sample{}, fmt.Errorf("%s: exit status %d", shell, code)
	}
	ru := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	cpu := time.Duration(ru.Utime.Nano() + ru.Stime.Nano()).Seconds()
	return sample{cpu: cpu, wall: wall, mb: float64(ru.Maxrss) / 1024}, nil
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}

func main() {
	log.SetFlags(0)
	log.SetPrefix("pairtime: ")
	header := flag.Bool("header", false, "print the table header and exit")
	name := flag.String("name", "", "the row's name")
	a := flag.String("a", "", "webcap's command (sh syntax)")
	b := flag.String("b", "", "the peer's command (sh syntax)")
	peer := flag.String("peer", "", "the peer's name in the table")
	runs := flag.Int("runs", 5, "timed runs of each, after one warm-up run")
	target := flag.Float64("target", 0, "CPU-time ratio A/B to stay at or under (0: none)")
	targetMem := flag.Float64("target-mem", 0, "peak-memory ratio A/B to stay at or under (0: none)")
	okList := flag.String("ok", "0", "exit statuses that count as success, comma-separated")
	flag.Parse()
	if *header {
		fmt.Println("| work | webcap CPU s | wall s | peak MB | peer | CPU s | wall s | peak MB | CPU ratio | memory ratio | target | met |")
		fmt.Println("|---|--:|--:|--:|---|--:|--:|--:|--:|--:|---|---|")
		return
	}
	if *a == "" || *b == "" || *runs < 1 {
		log.Fatal("need -a, -b and -runs ≥ 1")
	}
	ok := map[int]bool{}
	for _, s := range strings.Split(*okList, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil {
			log.Fatalf("-ok %q: %v", *okList, err)
		}
		ok[n] = true
	}
	var as, bs []sample
	for i := 0; i <= *runs; i++ { // round 0 is the warm-up
		sa, err := run(*a, ok)
		if err != nil {
			log.Fatal(err)
		}
		sb, err := run(*b, ok)
		if err != nil {
			log.Fatal(err)
		}
		if i > 0 {
			as, bs = append(as, sa), append(bs, sb)
		}
	}
	pick := func(ss []sample, f func(sample) float64) float64 {
		xs := make([]float64, len(ss))
		for i, s := range ss {
			xs[i] = f(s)
		}
		return median(xs)
	}
	cpu := func(s sample) float64 { return s.cpu }
	wall := func(s sample) float64 { return s.wall }
	mb := func(s sample) float64 { return s.mb }
	ac, aw, am := pick(as, cpu), pick(as, wall), pick(as, mb)
	bc, bw, bm := pick(bs, cpu), pick(bs, wall), pick(bs, mb)
	rc, rm := ac/bc, am/bm
	goal, met := "", "—"
	if *target > 0 || *targetMem > 0 {
		var parts []string
		good := true
		if *target > 0 {
			parts = append(parts, fmt.Sprintf("CPU ≤ %.2f×", *target))
			good = good && rc <= *target
		}
		if *targetMem > 0 {
			parts = append(parts, fmt.Sprintf("memory ≤ %.2f×", *targetMem))
			good = good && rm <= *targetMem
		}
		goal = strings.Join(parts, ", ")
		met = "no"
		if good {
			met = "yes"
		}
	}
	fmt.Printf("| %s | %.3f | %.3f | %.0f | %s | %.3f | %.3f | %.0f | %.2f× | %.2f× | %s | %s |\n",
		*name, ac, aw, am, *peer, bc, bw, bm, rc, rm, goal, met)
}
