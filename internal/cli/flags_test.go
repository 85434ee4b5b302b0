package cli

import (
	"context"
	"github.com/webcap/webcap/shard"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/pdfio"
)

// parseWith returns a parser of a command's flags and arguments through its
// runF seam: the options they set, with nothing run.
func parseWith[T any](newCmd func(*IOStreams, func(context.Context, *T) error) *cobra.Command) func([]string) (any, error) {
	return func(args []string) (any, error) {
		ios, _, _, _ := Test()
		var got *T
		cmd := newCmd(ios, func(_ context.Context, o *T) error { got = o; return nil })
		cmd.SetArgs(args)
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		if err := cmd.Execute(); err != nil {
			return nil, err
		}
		reflect.ValueOf(got).Elem().FieldByName("IO").SetZero() // the streams are not a flag's
		return got, nil
	}
}

// fetchDefaults are the fetch flags' defaults, --max-pages aside.
func fetchDefaults(maxPages int) fetchFlags {
	return fetchFlags{Profile: canon.PDF, MaxPages: maxPages, MaxBytes: 100 << 20, Timeout: 5 * time.Minute,
		PageTimeout: 30 * time.Second, Media: "print", WaitIdle: capture.DefaultIdleQuiet, Settle: capture.DefaultSettle, Bookmarks: "sites", progressFlags: progressFlags{Progress: progressAuto},
		crawlMemory: crawlMemory{MaxMemory: defaultMaxMemory, BrowserMemory: capture.DefaultBrowserMemory}}
}

// readLimits are --timeout, --max-file-size and --max-memory's defaults.
var readLimits = limitFlags{Timeout: pdfio.DefaultTimeout, MaxFileSize: pdfio.DefaultMaxFileSize, MaxMemory: defaultMaxMemory}

// auditLimits are audit's: --timeout and --max-memory per file or worker.
func auditLimits(timeout time.Duration, mem byteSize, given bool) limitFlags {
	return limitFlags{Timeout: timeout, MaxFileSize: pdfio.DefaultMaxFileSize, MaxMemory: mem, maxMemoryGiven: given, perFile: true}
}

// Every command's flags, through its runF seam: the options each command
// line parses into, defaults included; nothing runs.
func TestCommandFlags(t *testing.T) {
	canonDefaults := canonFlags{Profile: canon.PDF, Input: canon.Encoded}
	auditDefaults := auditOptions{Profile: canon.PDF, Jobs: runtime.NumCPU(), limitFlags: auditLimits(time.Minute, defaultMaxMemory, false), RestartAfter: 1000, SpoolLimit: batch.DefaultLimit,
		inputFlags: inputFlags{Include: []string{"*.pdf"}}, ResumeBy: "stat", progressFlags: progressFlags{Progress: progressAuto}, htmlFlags: htmlFlags{Thumbnails: "auto"}}
	captureDefaults := captureOptions{fetchFlags: fetchDefaults(50), Levels: 1, Jobs: 2, PostType: capture.DefaultPostType, many: manyFlags{Workers: 1}}
	for _, tc := range []struct {
		name  string
		parse func([]string) (any, error)
		args  []string
		want  any
	}{
		{"canon defaults", parseWith(newCanonCmd), nil,
			&canonOptions{canonFlags: canonDefaults, URLs: []string{"-"}}},
		{"canon stdin", parseWith(newCanonCmd), []string{"-"},
			&canonOptions{canonFlags: canonDefaults, URLs: []string{"-"}}},
		{"canon", parseWith(newCanonCmd), []string{"--profile", "pdf2", "--base", "http://a/", "--input", "raw", "--explain", "--json", "u1", "u2"},
			&canonOptions{canonFlags: canonFlags{Profile: canon.PDF2, Base: "http://a/", Input: canon.Raw}, Explain: true, JSON: true, URLs: []string{"u1", "u2"}}},
		{"info", parseWith(newInfoCmd), []string{"--json", "--password-file", "pw.txt", "a.pdf", "b.pdf"},
			&infoOptions{limitFlags: readLimits, JSON: true, passwordFlags: passwordFlags{PasswordFile: "pw.txt"}, Files: []string{"a.pdf", "b.pdf"}}},
		{"lookup", parseWith(newLookupCmd), []string{"--profile", "rfc3986", "--base", "http://b/", "--input", "raw", "--id", "0A", "--id", "0b", "--json", "--password-file", "pw.txt", "c.pdf", "u"},
			&lookupOptions{limitFlags: readLimits, canonFlags: canonFlags{Profile: canon.RFC3986, Base: "http://b/", Input: canon.Raw}, IDs: []string{"0A", "0b"}, JSON: true, passwordFlags: passwordFlags{PasswordFile: "pw.txt"}, File: "c.pdf", URLs: []string{"u"}}},
		{"lookup defaults", parseWith(newLookupCmd), []string{"c.pdf", "u"},
			&lookupOptions{limitFlags: readLimits, canonFlags: canonDefaults, File: "c.pdf", URLs: []string{"u"}}},
		{"id defaults", parseWith(newIDCmd), []string{"a.html"},
			&idOptions{limitFlags: readLimits, Kind: "auto", AuxID: "raw", Files: []string{"a.html"}}},
		{"id", parseWith(newIDCmd), []string{"--kind", "page", "--url", "http://a/", "--aux", "mirror", "--aux-id", "HEX", "--json", "a.html"},
			&idOptions{limitFlags: readLimits, Kind: "page", URL: "http://a/", Aux: "mirror", AuxID: "HEX", JSON: true, Files: []string{"a.html"}}},
		{"audit defaults", parseWith(newAuditCmd), []string{"a.pdf"},
			func() *auditOptions { o := auditDefaults; o.Files = []string{"a.pdf"}; return &o }()},
		{"audit", parseWith(newAuditCmd), []string{"--profile", "pdf2", "--json", "--jobs", "3", "--timeout", "5s", "--password-file", "pw.txt", "--sources", "m.json", "--in-process", "--progress", "plain", "a.pdf", "b.pdf"},
			&auditOptions{Profile: canon.PDF2, JSON: true, Jobs: 3, limitFlags: auditLimits(5*time.Second, defaultMaxMemory, false), passwordFlags: passwordFlags{PasswordFile: "pw.txt"}, Sources: "m.json", RestartAfter: 1000, InProcess: true, SpoolLimit: batch.DefaultLimit,
				inputFlags: inputFlags{Include: []string{"*.pdf"}}, ResumeBy: "stat", progressFlags: progressFlags{Progress: progressPlain}, htmlFlags: htmlFlags{Thumbnails: "auto"}, Files: []string{"a.pdf", "b.pdf"}}},
		{"audit html", parseWith(newAuditCmd), []string{"--html", filepath.Join(os.TempDir(), "webcap-flags-test-report.html"), "--thumbnails", "none", "--force", "--sets", "a.pdf"},
			func() *auditOptions {
				o := auditDefaults
				o.htmlFlags = htmlFlags{HTML: filepath.Join(os.TempDir(), "webcap-flags-test-report.html"), Thumbnails: "none"}
				o.Force, o.Sets, o.Files = true, true, []string{"a.pdf"}
				return &o
			}()},
		{"audit inputs", parseWith(newAuditCmd), []string{"--files-from", "-", "-0", "-r", "--include", "*.PDF,*.ai", "--shard", "2/4", "--jsonl", "--ordered", "--resume", "r.jsonl", "--resume-by", "sha256", "d"},
			func() *auditOptions {
				o := auditDefaults
				o.inputFlags = inputFlags{FilesFrom: "-", Null: true, Recursive: true, Include: []string{"*.PDF", "*.ai"}, Shard: shard.Shard{I: 2, N: 4}}
				o.JSONL, o.Ordered, o.Resume, o.ResumeBy, o.Files = true, true, "r.jsonl", "sha256", []string{"d"}
				return &o
			}()},
		{"audit-worker", parseWith(newAuditWorkerCmd), []string{"--profile", "rfc3986", "--timeout", "2s", "--max-memory", "2MiB", "--sources", "d", "--spool-limit", "5", "--spool-dir", "s"},
			&auditOptions{Profile: canon.RFC3986, limitFlags: auditLimits(2*time.Second, 2<<20, true), Sources: "d", SpoolLimit: 5, spoolDir: "s"}},
		{"fix", parseWith(newFixCmd), []string{"--profile", "pdf2", "-o", "out.pdf", "in.pdf"},
			&fixOptions{limitFlags: readLimits, Profile: canon.PDF2, outputFlags: outputFlags{Out: "out.pdf"}, File: "in.pdf"}},
		{"fix in place", parseWith(newFixCmd), []string{"--in-place", "in.pdf"},
			&fixOptions{limitFlags: readLimits, Profile: canon.PDF, outputFlags: outputFlags{InPlace: true}, File: "in.pdf"}},
		{"fix dry run", parseWith(newFixCmd), []string{"--dry-run", "in.pdf"},
			&fixOptions{limitFlags: readLimits, Profile: canon.PDF, DryRun: true, File: "in.pdf"}},
		{"build defaults", parseWith(newBuildCmd), []string{"m.json", "-o", "out.pdf"},
			&buildOptions{limitFlags: readLimits, outputFlags: outputFlags{Out: "out.pdf"}, Manifest: "m.json"}},
		{"build", parseWith(newBuildCmd), []string{"--profile", "rfc3986", "--sources", "mirror", "--json", "--force", "m.json", "--output", "out.pdf"},
			&buildOptions{limitFlags: readLimits, outputFlags: outputFlags{Out: "out.pdf", Force: true}, Manifest: "m.json", Profile: canon.RFC3986, Sources: "mirror", JSON: true}},
		{"capture defaults", parseWith(newCaptureCmd), []string{"http://a/", "-o", "out.pdf"},
			func() *captureOptions {
				o := captureDefaults
				o.URLs, o.Out = []string{"http://a/"}, "out.pdf"
				return &o
			}()},
		{"capture", parseWith(newCaptureCmd), []string{"--levels", "3", "--same-site", "--same-path", "--max-pages", "9", "--max-bytes", "2MiB",
			"--timeout", "1m", "--page-timeout", "5s", "--jobs", "4", "--profile", "pdf2", "--chromium", "/bin/c", "--ignore-robots",
			"--keep-credentials", "--post", "q=1", "--post-type", "text/plain", "--allow-private", "--media", "screen", "--wait-idle", "2s", "--settle", "2s",
			"--no-sandbox", "--json", "-v", "--force", "--quiet", "--bookmarks", "none", "--max-memory", "512MiB", "--browser-memory", "1GiB", "http://a/", "http://b/", "-o", "out.pdf"},
			&captureOptions{URLs: []string{"http://a/", "http://b/"}, outputFlags: outputFlags{Out: "out.pdf", Force: true},
				fetchFlags: fetchFlags{Profile: canon.PDF2, Chromium: "/bin/c", MaxPages: 9, MaxBytes: 2 << 20, Timeout: time.Minute,
					PageTimeout: 5 * time.Second, IgnoreRobots: true, AllowPrivate: true, Media: "screen", NoSandbox: true, WaitIdle: 2 * time.Second, Settle: 2 * time.Second, Bookmarks: "none",
					progressFlags: progressFlags{Progress: progressAuto, Quiet: true}, crawlMemory: crawlMemory{MaxMemory: 512 << 20, maxMemoryGiven: true, BrowserMemory: 1 << 30}},
				Levels: 3, SameSite: true, SamePath: true, Jobs: 4, KeepCredentials: true, JSON: true, Verbose: true, Post: "q=1", PostType: "text/plain", many: manyFlags{Workers: 1}}},
		{"capture urls-from", parseWith(newCaptureCmd), []string{"--urls-from", "seeds.txt", "--out-dir", "out", "--warc", "out", "--shard", "1/4", "--resume", "--jsonl", "--workers", "2", "--levels", "2", "--progress", "none"},
			func() *captureOptions {
				o := captureDefaults
				o.Levels, o.WARC, o.Progress = 2, "out", progressNone
				o.many = manyFlags{From: "seeds.txt", OutDir: "out", Shard: "1/4", Resume: true, JSONL: true, Workers: 2, shard: shard.Shard{I: 1, N: 4},
					workerArgs: []string{"--levels=2", "--out-dir=out", "--resume=true", "--warc=out"}}
				return &o
			}()},
		{"capture submit", parseWith(newCaptureCmd), []string{"--submit", "http://a/?q=1", "-o", "out.pdf"},
			func() *captureOptions {
				o := captureDefaults
				o.URLs, o.Out, o.Submit = []string{"http://a/?q=1"}, "out.pdf", true
				return &o
			}()},
		{"append", parseWith(newAppendCmd), []string{"--levels", "2", "site.pdf", "http://a/", "-o", "out.pdf"},
			func() *captureOptions {
				o := captureDefaults
				o.File, o.URLs, o.Out, o.Levels = "site.pdf", []string{"http://a/"}, "out.pdf", 2
				o.lim.MaxFileSize = pdfio.DefaultMaxFileSize
				o.many = manyFlags{} // capture's alone
				return &o
			}()},
		{"refresh defaults", parseWith(newRefreshCmd), []string{"site.pdf", "-o", "out.pdf"},
			&refreshOptions{lim: limitFlags{MaxFileSize: pdfio.DefaultMaxFileSize}, File: "site.pdf", outputFlags: outputFlags{Out: "out.pdf"}, fetchFlags: fetchDefaults(100)}},
		{"refresh", parseWith(newRefreshCmd), []string{"--dry-run", "--text-only", "--json", "--resubmit", "--profile", "rfc3986", "--max-pages", "7",
			"--max-bytes", "1GiB", "--timeout", "10s", "--page-timeout", "3s", "--ignore-robots", "--allow-private", "--media", "screen",
			"--wait-idle", "1s", "--settle", "0", "--session", "--no-sandbox", "--chromium", "c", "--progress", "none", "site.pdf"},
			&refreshOptions{lim: limitFlags{MaxFileSize: pdfio.DefaultMaxFileSize}, File: "site.pdf", DryRun: true, TextOnly: true, JSON: true, Resubmit: true,
				fetchFlags: fetchFlags{Profile: canon.RFC3986, Chromium: "c", MaxPages: 7, MaxBytes: 1 << 30, Timeout: 10 * time.Second,
					PageTimeout: 3 * time.Second, IgnoreRobots: true, AllowPrivate: true, Media: "screen", NoSandbox: true, WaitIdle: time.Second, Session: true, Bookmarks: "sites",
					progressFlags: progressFlags{Progress: progressNone}, crawlMemory: fetchDefaults(0).crawlMemory}}},
		{"version", parseWith(newVersionCmd), []string{"--json"}, &versionOptions{JSON: true}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := tc.parse(tc.args)
			if err != nil {
				t.Fatalf("%q: %v", tc.args, err)
			}
			if !reflect.DeepEqual(got, tc.want) {
				t.Errorf("%q parsed to\n%+v\nwant\n%+v", tc.args, got, tc.want)
			}
		})
	}
}

// completion's argument, through its seam.
func TestCompletionFlags(t *testing.T) {
	got, err := parseWith(newCompletionCmd)([]string{"zsh"})
	if err != nil {
		t.Fatal(err)
	}
	if o := got.(*completionOptions); o.Shell != "zsh" || o.Root == nil {
		t.Errorf("completion zsh parsed to %+v", o)
	}
}

// A bad flag value or a bad combination is a usage error, said once, as
// the commands say theirs, before anything runs.
func TestCommandFlagErrors(t *testing.T) {
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"canon", "--profile", "pdf3", "x"}, `webcap: canon: --profile "pdf3": want pdf, pdf2 or rfc3986`},
		{[]string{"audit", "--progress", "fancy", "a.pdf"}, `webcap: audit: --progress "fancy": want auto, bar, plain or none`},
		{[]string{"audit", "--quiet", "--progress", "bar", "a.pdf"}, `webcap: audit: --quiet shows no progress: drop --progress bar`},
		{[]string{"capture", "-q", "--progress", "plain", "http://a/", "-o", "o.pdf"}, `webcap: capture: --quiet shows no progress: drop --progress plain`},
		{[]string{"canon", "--input", "twice", "x"}, `webcap: canon: --input "twice": want encoded or raw`},
		{[]string{"lookup", "--profile", "x", "c.pdf", "u"}, `webcap: lookup: --profile "x": want pdf, pdf2 or rfc3986`},
		{[]string{"lookup", "--id", "xyz", "c.pdf"}, `webcap: lookup: --id "xyz" is not hex`},
		{[]string{"lookup", "c.pdf"}, "webcap: lookup: give at least one URL or --id"},
		{[]string{"audit", "--profile", "x", "a.pdf"}, `webcap: audit: --profile "x": want pdf, pdf2 or rfc3986`},
		{[]string{"audit", "--jobs", "0", "a.pdf"}, "webcap: audit: --jobs 0: want at least 1"},
		{[]string{"audit", "--jobs", "many", "a.pdf"}, `webcap: audit: --jobs "many": invalid syntax`},
		{[]string{"audit", "--timeout", "soon", "a.pdf"}, `webcap: audit: --timeout: time: invalid duration "soon"`},
		{[]string{"audit-worker", "--profile", "x"}, `webcap: audit-worker: --profile "x": want pdf, pdf2 or rfc3986`},
		{[]string{"audit", "--max-memory", "8MiB", "a.pdf"}, "webcap: audit: --max-memory 8.0 MiB: want at least 64 MiB"},
		{[]string{"audit", "--restart-after", "-1", "a.pdf"}, "webcap: audit: --restart-after -1: want 0 (never) or more"},
		{[]string{"audit", "--max-memory", "lots", "a.pdf"}, `webcap: audit: --max-memory "lots": not a size: give bytes, or a number with kB, MB, GB (powers of 1000) or KiB, MiB, GiB (of 1024)`},
		{[]string{"fix", "--profile", "x", "--dry-run", "a.pdf"}, `webcap: fix: --profile "x": want pdf, pdf2 or rfc3986`},
		{[]string{"fix", "a.pdf"}, "webcap: fix: say where to write: -o OUT.pdf, -o - (stdout) or --in-place"},
		{[]string{"fix", "--dry-run", "--in-place", "a.pdf"}, "webcap: fix: --dry-run writes nothing"},
		{[]string{"build", "--profile", "x", "m.json", "-o", "o.pdf"}, `webcap: build: --profile "x": want pdf, pdf2 or rfc3986`},
		{[]string{"build", "m.json"}, "webcap: build: say where to write: -o OUT.pdf"},
		{[]string{"id", "--kind", "movie", "x"}, `webcap: id: --kind "movie": want auto, page, image, pdf, file or text`},
		{[]string{"id", "--aux-id", "base64", "x"}, `webcap: id: --aux-id "base64": want raw, HEX or hex`},
		{[]string{"capture", "--profile", "x", "http://a/", "-o", "o.pdf"}, `webcap: capture: --profile "x": want pdf, pdf2 or rfc3986`},
		{[]string{"capture", "--max-bytes", "lots", "http://a/", "-o", "o.pdf"}, `webcap: capture: --max-bytes "lots": not a size: give bytes, or a number with kB, MB, GB (powers of 1000) or KiB, MiB, GiB (of 1024)`},
		{[]string{"capture", "--max-pages", "0", "http://a/", "-o", "o.pdf"}, "webcap: capture: --max-pages 0: fetch at least one page"},
		{[]string{"append", "--media", "tv", "a.pdf", "http://a/", "-o", "o.pdf"}, `webcap: append: --media "tv": want print or screen`},
		{[]string{"refresh", "--profile", "x", "--dry-run", "a.pdf"}, `webcap: refresh: --profile "x": want pdf, pdf2 or rfc3986`},
		{[]string{"refresh", "--wait-idle", "1m", "--dry-run", "a.pdf"}, "webcap: refresh: --wait-idle 1m0s: give a time above 0 and up to 10s"},
		{[]string{"capture", "--settle", "2m", "http://a/", "-o", "out.pdf"}, "webcap: capture: --settle 2m0s: give a time from 0 (none) up to 1m0s"},
		{[]string{"refresh", "--dry-run", "-o", "o.pdf", "a.pdf"}, "webcap: refresh: --dry-run writes nothing: drop -o and --in-place"},
		{[]string{"capture", "--warc-keep-credentials", "http://a/", "-o", "o.pdf"}, "webcap: capture: --warc-keep-credentials is about the WARC: give --warc OUT.warc.gz"},
		{[]string{"append", "--warc-keep-credentials", "a.pdf", "http://a/", "-o", "o.pdf"}, "webcap: append: --warc-keep-credentials is about the WARC: give --warc OUT.warc.gz"},
		{[]string{"refresh", "--warc-keep-credentials", "a.pdf", "-o", "o.pdf"}, "webcap: refresh: --warc-keep-credentials is about the WARC: give --warc OUT.warc.gz"},
		// --ordered orders JSON lines: one rule for audit and capture --urls-from (ordered.go).
		{[]string{"audit", "--ordered", "a.pdf"}, "webcap: audit: --ordered is the order of --jsonl's lines: give --jsonl"},
		{[]string{"audit", "--ordered", "--json", "a.pdf"}, "webcap: audit: --ordered is the order of --jsonl's lines: give --jsonl"},
		{[]string{"capture", "--urls-from", "l.txt", "--out-dir", "o", "--ordered"}, "webcap: capture: --ordered is the order of --jsonl's lines: give --jsonl"},
		// A list's flags without a list.
		{[]string{"capture", "--ordered", "http://a/", "-o", "o.pdf"}, "webcap: capture: --ordered is for a list of seeds: give --urls-from LIST"},
		{[]string{"capture", "--jsonl", "--workers", "2", "http://a/", "-o", "o.pdf"}, "webcap: capture: --jsonl is for a list of seeds: give --urls-from LIST"},
		{[]string{"capture", "--out-dir", "o", "http://a/", "-o", "o.pdf"}, "webcap: capture: --out-dir is for a list of seeds: give --urls-from LIST"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			ios, _, stdout, stderr := Test()
			if code := Main(context.Background(), tc.args, ios); code != exitUsage {
				t.Errorf("exit %d, want %d", code, exitUsage)
			}
			if !strings.HasPrefix(stderr.String(), tc.msg) || strings.Count(stderr.String(), "webcap: ") != 1 {
				t.Errorf("stderr %q, want it to start %q (once)", stderr, tc.msg)
			}
			if stdout.Len() > 0 {
				t.Errorf("stdout %q, want nothing", stdout)
			}
		})
	}
}

// --profile completes with the profiles' names on every command that has
// it.
func TestProfileCompletion(t *testing.T) {
	ios, _, _, _ := Test()
	root := newRootCmd(ios)
	for _, sub := range root.Commands() {
		if sub.Flags().Lookup("profile") == nil {
			continue
		}
		ios, _, out, _ := Test()
		if code := Main(context.Background(), []string{"__complete", sub.Name(), "--profile", ""}, ios); code != 0 {
			t.Errorf("%s --profile: completion exit %d", sub.Name(), code)
		}
		for _, p := range []string{"pdf\t", "pdf2\t", "rfc3986\t"} {
			if !strings.Contains(out.String(), p) {
				t.Errorf("%s --profile completes to %q, want %q among them", sub.Name(), out, p)
			}
		}
	}
}

// --max-memory's default is 1 GiB whatever the inputs' sizes, for a
// command that reads (audit) and one that rewrites (fix: the lazy reader
// rewrites a sound 111 MB capture within it), and is the flag's value
// when it is given.
func TestMaxMemoryDefault(t *testing.T) {
	dir := t.TempDir()
	file := func(name string, size int64) string {
		p := filepath.Join(dir, name)
		f, err := os.Create(p)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if err := f.Truncate(size); err != nil { // sparse: no bytes written
			t.Fatal(err)
		}
		return p
	}
	small, big := file("small.pdf", 1<<20), file("big.pdf", 111_000_000)
	fix := parseWith(newFixCmd)
	got, err := fix([]string{big, "-o", filepath.Join(dir, "out.pdf")})
	if err != nil {
		t.Fatal(err)
	}
	if l, _, _ := got.(*fixOptions).bounds(); l.MaxMemory != defaultMaxMemory {
		t.Errorf("fix %s: --max-memory %d, want %d", big, l.MaxMemory, defaultMaxMemory)
	}
	parse := parseWith(newAuditCmd)
	for _, c := range []struct {
		args []string
		want byteSize
	}{
		{[]string{big}, defaultMaxMemory},
		{[]string{"--max-memory", "1GiB", big}, 1 << 30},
		{[]string{"--max-memory", "500MB", small}, 500_000_000},
	} {
		got, err := parse(c.args)
		if err != nil {
			t.Fatalf("%v: %v", c.args, err)
		}
		o := got.(*auditOptions)
		if o.MaxMemory != c.want {
			t.Errorf("%v: --max-memory %d, want %d", c.args, o.MaxMemory, c.want)
		}
	}
}
