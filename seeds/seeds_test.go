package seeds

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/capture"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/shard"
	"github.com/webcap/webcap/webcapture"
)

func TestRead(t *testing.T) {
	tests := []struct {
		name, list string
		want       []Seed
		err        string // "": no error
	}{
		{"urls", "http://a.example/\n# c\n\n  https://b.example/x  \n", []Seed{{Line: 1, URL: "http://a.example/"}, {Line: 4, URL: "https://b.example/x"}}, ""},
		{"flags", "http://a.example/ --levels 2 --same-path\nhttp://b.example/ --levels=3 --same-site --max-pages 9\n",
			[]Seed{{Line: 1, URL: "http://a.example/", Levels: 2, Scope: webcapture.SamePath, ScopeSet: true},
				{Line: 2, URL: "http://b.example/", Levels: 3, Scope: webcapture.SameSite, ScopeSet: true, MaxPages: 9}}, ""},
		{"crlf and no final newline", "http://a.example/\r\nhttp://b.example/", []Seed{{Line: 1, URL: "http://a.example/"}, {Line: 2, URL: "http://b.example/"}}, ""},
		{"empty", "# nothing\n\n", nil, "L: no seed"},
		{"unknown flag", "http://a.example/\nhttp://b.example/ --jobs 3\n", nil, "L:2: --jobs: not a flag a line may give"},
		{"two urls", "http://a.example/ http://b.example/\n", nil, `L:1: "http://b.example/": one URL a line`},
		{"flag first", "--levels 2 http://a.example/\n", nil, "L:1: --levels: a line starts with its URL"},
		{"bad levels", "http://a.example/ --levels 0\n", nil, "L:1: --levels 0"},
		{"levels not a number", "http://a.example/ --levels two\n", nil, `L:1: --levels "two": not a whole number`},
		{"both scopes", "http://a.example/ --same-site --same-path\n", nil, "L:1: --same-site and --same-path"},
		{"not http", "ftp://a.example/\n", nil, "L:1: ftp://a.example/"},
		{"NUL", "http://a.example/\nhttp://b\x00.example/\n", nil, "L:2: a NUL byte"},
		{"not UTF-8", "http://a.example/\xff\n", nil, "L:1: not UTF-8"},
		{"twice", "http://a.example/\n\nhttp://a.example/ --levels 2\n", nil, "L:3: http://a.example/: the seed of line 1 again"},
		{"long line", "http://a.example/\nhttp://b.example/" + strings.Repeat("a", MaxLine) + "\n", nil, fmt.Sprintf("L:2: longer than %d bytes", MaxLine)},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Read(strings.NewReader(tc.list), "L", ReadOptions{})
			if tc.err != "" {
				var le *LineError
				if err == nil || !strings.Contains(err.Error(), tc.err) || !errors.As(err, &le) {
					t.Fatalf("Read(%q) = %v, want a *LineError containing %q", tc.list, err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatalf("Read(%q): %v", tc.list, err)
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Errorf("Read(%q) = %+v, want %+v", tc.list, got, tc.want)
			}
		})
	}
}

// TestReadShards: the shards of a list are disjoint, together the list,
// by shard.Of of the seed as written.
func TestReadShards(t *testing.T) {
	var list strings.Builder
	for i := range 50 {
		fmt.Fprintf(&list, "http://s%d.example/ --levels 2\n", i)
	}
	seen := map[string]int{}
	for i := range 4 {
		got, err := Read(strings.NewReader(list.String()), "L", ReadOptions{Shard: shard.Shard{I: i, N: 4}})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range got {
			if shard.Of(s.URL, 4) != i {
				t.Errorf("shard %d/4 holds %s, of shard %d", i, s.URL, shard.Of(s.URL, 4))
			}
			seen[s.URL]++
		}
	}
	if len(seen) != 50 {
		t.Errorf("the 4 shards hold %d seeds, want 50", len(seen))
	}
	for u, n := range seen {
		if n != 1 {
			t.Errorf("%s in %d shards", u, n)
		}
	}
}

func TestName(t *testing.T) {
	tests := []struct{ seed, prefix string }{
		{"https://Example.com/docs/a b", "example.com-docs-a-20b-"},
		{"http://127.0.0.1:8080/", "127.0.0.1-8080-"},
		{"http://x/../../etc", "x-etc-"},
		{"http://x/%2e%2e/%2E%2E/etc/passwd", "x-2e-2e-2e-2e-etc-passwd-"},
		{"http://.../", "seed-"},
		{"http://a..b/", "a.-b-"}, // never ".."
		{"https://" + strings.Repeat("a", 100) + ".example/", strings.Repeat("a", 60) + "-"},
	}
	for _, tc := range tests {
		got := Name(tc.seed)
		if !strings.HasPrefix(got, tc.prefix) || len(got) != len(tc.prefix)+16 {
			t.Errorf("Name(%q) = %q, want %q and 16 hex digits", tc.seed, got, tc.prefix)
		}
		if strings.ContainsAny(got, `/\`) || strings.HasPrefix(got, ".") || filepath.Base(got) != got {
			t.Errorf("Name(%q) = %q: not a plain base name", tc.seed, got)
		}
	}
	// Slugs that collide do not make names that do.
	a, b := Name("http://a/b"), Name("http://a-b/")
	if a == b || !strings.HasPrefix(a, "a-b-") || !strings.HasPrefix(b, "a-b-") {
		t.Errorf("Name(http://a/b) = %q, Name(http://a-b/) = %q: want the same slug and different names", a, b)
	}
}

func TestRun(t *testing.T) {
	list := []Seed{{Line: 1, URL: "a"}, {Line: 2, URL: "b"}, {Line: 3, URL: "c"}}
	tests := []struct {
		name  string
		exits map[string]int
		want  int
	}{
		{"all good", nil, 0},
		{"one failed", map[string]int{"b": 1}, 1},
		{"io wins", map[string]int{"a": 1, "b": 3}, 3},
		{"interrupt wins", map[string]int{"a": 3, "c": 130}, 130},
		{"io wins over a limit", map[string]int{"a": 4, "b": 3, "c": 1}, 3},
		{"a limit over a failure", map[string]int{"a": 1, "b": 4}, 4},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got := map[string]bool{}
			exit := Run(context.Background(), list, batch.RunOptions{Jobs: 2}, func(_ context.Context, s Seed) Result {
				return Result{Seed: s.URL, Exit: tc.exits[s.URL]}
			}, func(r Result) { got[r.Seed] = true })
			if exit != tc.want || len(got) != 3 {
				t.Errorf("Run = %d with %d results, want %d with 3", exit, len(got), tc.want)
			}
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var statuses []string
	exit := Run(ctx, list, batch.RunOptions{Jobs: 1}, func(context.Context, Seed) Result { t.Fatal("a seed ran after the end"); return Result{} },
		func(r Result) { statuses = append(statuses, r.Status) })
	if exit != 130 || len(statuses) != 3 || statuses[0] != Interrupted {
		t.Errorf("Run after cancel = %d, %v; want 130 and 3 interrupted", exit, statuses)
	}
}

// TestRunOrder: results come in list order by default, and with
// Unordered as each seed is done (a seed done early does not wait).
func TestRunOrder(t *testing.T) {
	list := []Seed{{Line: 1, URL: "slow"}, {Line: 2, URL: "b"}, {Line: 3, URL: "c"}}
	for _, unordered := range []bool{false, true} {
		t.Run(fmt.Sprintf("unordered=%v", unordered), func(t *testing.T) {
			release := make(chan struct{})
			var got []string
			// slow waits for c: until c is done (in list order, it cannot
			// be given before slow), or until it is given (unordered).
			Run(context.Background(), list, batch.RunOptions{Jobs: 2, Unordered: unordered}, func(_ context.Context, s Seed) Result {
				if s.URL == "slow" {
					<-release
				} else if s.URL == "c" && !unordered {
					defer close(release)
				}
				return Result{Seed: s.URL, Line: s.Line}
			}, func(r Result) {
				got = append(got, r.Seed)
				if r.Seed == "c" && unordered {
					close(release)
				}
			})
			want := "slow b c"
			if unordered {
				want = "b c slow"
			}
			if strings.Join(got, " ") != want {
				t.Errorf("Run(Unordered: %v) gave %v, want %s", unordered, got, want)
			}
		})
	}
}

// TestComplete: what a killed or damaged run leaves is not complete.
func TestComplete(t *testing.T) {
	dir := t.TempDir()
	cfg := &Config{Dir: dir}
	seed := "http://a.example/"
	if _, err := Complete(cfg, seed); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Complete of an absent PDF = %v, want fs.ErrNotExist", err)
	}
	for name, data := range map[string]string{
		"garbage":   "not a PDF",
		"truncated": "%PDF-1.7\n1 0 obj\n<< /Type /Catalog",
		"no sets":   "%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj 2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\ntrailer<</Root 1 0 R>>\n%%EOF\n",
	} {
		if err := os.WriteFile(cfg.PDF(seed), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Complete(cfg, seed); err == nil {
			t.Errorf("%s: Complete = nil, want an error", name)
		}
	}
	os.Remove(cfg.PDF(seed))
	if err := os.Symlink(filepath.Join(dir, "elsewhere.pdf"), cfg.PDF(seed)); err != nil {
		t.Fatal(err)
	}
	if _, err := Complete(cfg, seed); err == nil || errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Complete of a symbolic link = %v, want a refusal", err)
	}
	if err := cfg.writable(cfg.PDF(seed)); err == nil || !strings.Contains(err.Error(), "a symbolic link, not a regular file") {
		t.Errorf("writable(a symbolic link) = %v, want a refusal", err)
	}
}

// TestCompleteWARC: a complete seed's WARC reads whole and ends with its
// PDF's record; a WARC cut short, of another PDF, or absent is not.
func TestCompleteWARC(t *testing.T) {
	pdf, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	cfg := &Config{Dir: dir, WARCDir: dir}
	seed := "http://a.example/"
	if err := os.WriteFile(cfg.PDF(seed), pdf, 0o644); err != nil {
		t.Fatal(err)
	}
	warcOf := func(data []byte) []byte {
		var b bytes.Buffer
		if err := capture.WriteWARC(&b, true, nil, data, capture.WARCInfo{Software: "test"}); err != nil {
			t.Fatal(err)
		}
		return b.Bytes()
	}
	good := warcOf(pdf)
	tests := []struct {
		name string
		warc []byte // nil: none
		ok   bool
	}{
		{"absent", nil, false},
		{"whole", good, true},
		{"cut short", good[:len(good)-20], false},
		{"another PDF's", warcOf(append([]byte{}, pdf[:len(pdf)-1]...)), false},
		{"not a WARC", []byte("hello"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove(cfg.WARCPath(seed))
			if tc.warc != nil {
				if err := os.WriteFile(cfg.WARCPath(seed), tc.warc, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			done, err := Complete(cfg, seed)
			if (err == nil) != tc.ok {
				t.Fatalf("Complete = %+v, %v; want complete %v", done, err, tc.ok)
			}
			if tc.ok && (done.Sets == 0 || done.Pages == 0) {
				t.Errorf("Complete = %+v: no pages or sets", done)
			}
		})
	}
}

// TestWritable: a list's outputs are checked before anything is
// captured; the first seed whose output may not be written is named by
// its line and file, with how many more.
func TestWritable(t *testing.T) {
	dir := t.TempDir()
	a, b, c := Seed{Line: 1, URL: "http://a.example/"}, Seed{Line: 3, URL: "http://b.example/"}, Seed{Line: 4, URL: "http://c.example/"}
	plain := &Config{Dir: dir, WARCDir: dir}
	for _, path := range []string{plain.WARCPath(b.URL), plain.PDF(c.URL)} {
		if err := os.WriteFile(path, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink("elsewhere", plain.PDF(a.URL)); err != nil {
		t.Fatal(err)
	}
	list := []Seed{a, b, c}
	tests := []struct {
		name string
		cfg  Config
		list []Seed
		want string // "": no error
	}{
		{"none there", Config{Dir: filepath.Join(dir, "absent")}, list, ""},
		{"exists", *plain, []Seed{b, c}, "list.txt:3: " + plain.WARCPath(b.URL) + ": exists (--resume keeps it when complete, --force replaces it); 1 more seed has such an output"},
		{"resume", Config{Dir: dir, WARCDir: dir, Resume: true}, []Seed{b, c}, ""},
		{"force", Config{Dir: dir, WARCDir: dir, Force: true}, []Seed{b, c}, ""},
		{"a link, even with --force", Config{Dir: dir, Force: true}, list, "list.txt:1: " + plain.PDF(a.URL) + ": a symbolic link, not a regular file: not replaced"},
		{"three", *plain, list, "; 2 more seeds have such an output"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.cfg.Writable(context.Background(), "list.txt", tc.list)
			var oe *OutputError
			switch {
			case tc.want == "" && err != nil:
				t.Errorf("Writable = %v, want nil", err)
			case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want) || !errors.As(err, &oe)):
				t.Errorf("Writable = %v, want an *OutputError with %q", err, tc.want)
			}
		})
	}
}

// An interrupt (the context's cause) stops the read of a long list and
// the check of its outputs, each within checkEvery seeds, with that
// cause.
func TestReadAndWritableStop(t *testing.T) {
	var list strings.Builder
	var ss []Seed
	for i := range 3 * checkEvery {
		u := fmt.Sprintf("http://127.0.0.1:1/p/%d", i)
		fmt.Fprintln(&list, u)
		ss = append(ss, Seed{Line: i + 1, URL: u})
	}
	stop := errors.New("interrupted")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(stop)
	if got, err := Read(strings.NewReader(list.String()), "list.txt", ReadOptions{Context: ctx}); err != stop || got != nil {
		t.Errorf("Read in a context done = %d seeds, %v; want none, %v", len(got), err, stop)
	}
	if got, err := Read(strings.NewReader(list.String()), "list.txt", ReadOptions{Context: context.Background()}); err != nil || len(got) != len(ss) {
		t.Errorf("Read = %d seeds, %v; want %d", len(got), err, len(ss))
	}
	cfg := &Config{Dir: t.TempDir()}
	if err := cfg.Writable(ctx, "list.txt", ss); err != stop {
		t.Errorf("Writable in a context done = %v, want %v", err, stop)
	}
	if err := cfg.Writable(context.Background(), "list.txt", ss); err != nil {
		t.Errorf("Writable = %v", err)
	}
}
