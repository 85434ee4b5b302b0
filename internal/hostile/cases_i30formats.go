package hostile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Issue 30's findings streamed, in every output: a file of 1,000,000
// findings (huge: WC-URLS-SOURCE, a key each) written as a veraPDF
// report and as JUnit, and one of 2,000,000 as the HTML report (the
// formats' cases take half the findings to stay within the suite's two
// minutes a case on a busy machine). Before, every format but
// text, --jsonl, --json and SARIF read a file's spilled findings back
// whole in audit's own process, which --max-memory does not bound (it
// bounds the worker that reads the file): at 2,000,000 findings, 2.2 GB
// for veraPDF, 2.6 GB for JUnit. Now each writes the findings as it reads them back from the
// spool, holding the spool's counts (a JUnit testsuite's failures=,
// veraPDF's failed rules and log count), and --html reads no more of a
// file's findings than it lists (htmlreport.MaxFindings): the run's peak
// is the worker's, which reads the document.

// reportHolds is a Check that the HTML report at name holds each of want.
func reportHolds(name string, want ...string) func(dir string) error {
	return func(dir string) error {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		for _, w := range want {
			if !strings.Contains(string(b), w) {
				return fmt.Errorf("%s does not hold %q", name, w)
			}
		}
		return emptyDir("tmp")(dir)
	}
}

// Issue 30's --max-memory default back to a fixed 1 GiB for the commands
// that read (info, audit, id, lookup: limits.DefaultMemory): a 157 MB file
// whose one URLS leaf holds 3,500,000 keys. Before, the default was 24
// times the largest input (3.5 GiB here), so that reading it took 1.66 GB
// unchecked; now the default stops it at 1 GiB, and the error names the
// file, the ceiling and the flag to raise it.

func init() {
	Register(
		Case{
			Name: "max-memory-default-info",
			Part: Bounds,
			// 5,000,000 keys (225 MB): since issue 30's classic reads,
			// the 3,500,000 of the first version (157 MB) are read
			// within the ceiling, at its edge (exit 0 in 1070 MB). The
			// stop comes while the leaf's one array of keys is built,
			// so the peak passes the ceiling by that array and the file.
			Setup:  huge(5000000, "info"),
			Exit:   4,
			Stderr: []string{`^webcap: info: huge\.pdf: took more memory than --max-memory 1\.0 GiB$`},
			MaxCPU: 60 * time.Second, MaxRSS: 1700 << 20,
			Slow:   true,
			Before: "webcap-old, this case: exit 0, read in 1.66 GB, 4.4 s CPU (its default --max-memory was 24 times the file: 3.5 GiB)",
		},
		Case{
			Name:  "huge-findings-verapdf",
			Part:  Bounds,
			Setup: huge(1000000, "audit", "--format", "verapdf", "--max-memory", "1GiB", "--timeout", "10m"),
			Env:   []string{"TMPDIR=tmp"},
			Exit:  1,
			// A message per finding: the first 100,000 are listed, the
			// others' occurrences counted in one (export's maxLogMessages).
			Stdout: []string{`^      <logs logsCount="100001">$`,
				`^        <logMessage occurrences="900002" level="INFO">webcap lists at most 100000 distinct log messages a file: the other messages&#39; 900002 occurrences are not listed</logMessage>$`,
				`^        <logMessage occurrences="1" level="WARNING">WC-URLS-SOURCE object 4 0 R /SI: URLS key &#34;http://www.example.com/\d{8}\.html&#34; names none`,
				`^    <validationReports compliant="0" nonCompliant="1" failedJobs="0">1</validationReports>$`},
			Check:  emptyDir("tmp"),
			MaxCPU: 90 * time.Second, MaxRSS: 900 << 20, // 0.75 GB measured
			Slow:   true,
			Before: "webcap-old, this case: exit 1, the same report (228 MB), 1.09 GB peak (audit's own process, which --max-memory does not bound; 2.18 GB at 2,000,000 findings), 43 s wall on a loaded machine; i30small's webcap-old (every message listed): exit 1, 12.6-13.3 s CPU, 554-726 MB, 228 MB out",
		},
		Case{
			Name:  "huge-findings-junit",
			Part:  Bounds,
			Setup: huge(1000000, "audit", "--format", "junit", "--max-memory", "1GiB", "--timeout", "10m"),
			Env:   []string{"TMPDIR=tmp"},
			Exit:  1,
			Stdout: []string{`^  <testsuite package="webcap.audit" id="0" name="huge.pdf" timestamp="[^"]+" hostname="[^"]*" tests="2" failures="1" errors="0" skipped="0" time="0.000">$`,
				`URLS key &#34;http://www.example.com/00999999.html&#34; names none of the content set&#39;s source URLs \(http://www.example.com/\) \(ISO 32000-1 §14.10.3.1, Table 355\)&#xA;</system-out>$`},
			Check:  emptyDir("tmp"),
			MaxCPU: 90 * time.Second, MaxRSS: 900 << 20, // 0.75 GB measured
			Slow:   true,
			Before: "webcap-old, this case: exit 1, the same report (212 MB), 1.32 GB peak (audit's own process; 2.65 GB at 2,000,000 findings), 35 s wall on a loaded machine",
		},
		Case{
			Name:   "huge-findings-html",
			Part:   Bounds,
			Setup:  huge(2000000, "audit", "--html", "report.html", "--thumbnails", "none", "--max-memory", "1GiB", "--timeout", "10m"),
			Env:    []string{"TMPDIR=tmp"},
			Exit:   1,
			Stdout: []string{`^1 file audited: 1 error, 2000002 warnings, 0 notes, 0 unreadable$`},
			Check: reportHolds("report.html", "1 file, 1 content set, 2,000,003 findings.", "1,999,003 more findings not shown: audit --json lists every one.",
				"www.example.com/00000996.html"),
			MaxCPU: 120 * time.Second, MaxRSS: 1 << 30,
			Slow:   true,
			Before: "webcap-old, this case: exit 1, the same report, 960 MB peak: within 1 GiB, with the file's 2,000,003 findings read back whole in audit's process to list 1,000",
		},
		Case{
			Name:  "many-findings-premis-spilled",
			Part:  Bounds,
			Setup: huge(50000, "audit", "--format", "premis", "--spool-limit", "1000"),
			Env:   []string{"TMPDIR=tmp"},
			Exit:  1,
			Stdout: []string{`^        <eventOutcomeDetailNote>format=&#34;PDF&#34;; result=&#34;Well-Formed, but not valid&#34;; errors=&#34;1&#34;; warnings=&#34;50002&#34;; notes=&#34;0&#34;; rules=&#34;WC-CS-ID \(1\)&#34;</eventOutcomeDetailNote>$`,
				`^        <eventOutcomeDetailNote>warning WC-URLS-SOURCE object 4 0 R /SI: URLS key &#34;http://www.example.com/00049999.html&#34; names none`},
			Check:  emptyDir("tmp"),
			MaxRSS: 256 << 20,
			Before: "webcap-old, this case: the same report (byte for byte, but for the time), exit 1, 62 MB, 0.6 s CPU: it passes there too (at 2,000,000 findings: 1.30 GB, the spilled findings read back whole); the case keeps PREMIS's spilled path and the spool's files removed",
		},
	)
}
