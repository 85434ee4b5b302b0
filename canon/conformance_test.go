package canon_test

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcap/webcap/canon"
)

// Conformance over testdata/conformance: byte-identical copies of the
// project's shared URL vectors (../shared/testdata/url), vendored so that
// these tests run on a clean clone. Provenance and licences are in
// testdata/conformance/README.md; TestConformanceProvenance keeps the two
// in step. Each test fails when its data decodes to no cases, and every row
// it does not assert on is on a skip list, keyed by the row, with a reason.

// conformanceDir holds the vendored vectors.
const conformanceDir = "testdata/conformance"

func conformanceFile(elem ...string) string {
	return filepath.Join(append([]string{filepath.FromSlash(conformanceDir)}, elem...)...)
}

// skipList is a conformance test's list of the rows it does not assert on,
// keyed by the row, each with its reason (as x/net/html's html5lib tests
// do). An entry that matches no row is an error, so that a list cannot
// outlive its data.
type skipList map[string]string

// skips reports whether key is on the list, logs why, and marks it used.
func (l skipList) skips(t *testing.T, used map[string]bool, key string) bool {
	t.Helper()
	reason, ok := l[key]
	if ok {
		used[key] = true
		t.Logf("skip %q: %s", key, reason)
	}
	return ok
}

// checkUsed fails t for every entry of l that matched no row.
func (l skipList) checkUsed(t *testing.T, used map[string]bool) {
	t.Helper()
	for _, k := range slices.Sorted(maps.Keys(l)) {
		if !used[k] {
			t.Errorf("skip list entry %q matches no row of the data", k)
		}
	}
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}

func stripFragment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// withRootPath is RFC 3986 §6.2.3 for the expected value of a row under the
// rfc3986 profile: an empty path with an authority becomes "/".
func withRootPath(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	rest := u[i+3:]
	if strings.IndexAny(rest, "/?") < 0 {
		return u + "/"
	}
	if j := strings.IndexAny(rest, "/?"); rest[j] == '?' {
		return u[:i+3] + rest[:j] + "/" + rest[j:]
	}
	return u
}

// The RFC 1808 / 2396 / 3986 resolution table: every row must pass for every
// profile, with the package's answer (doc.go) where the RFCs disagree.
func TestConformanceResolution(t *testing.T) {
	var data struct {
		Base  string `json:"base_rfc3986"`
		Cases []struct {
			Ref     string  `json:"ref"`
			RFC1808 *string `json:"rfc1808"`
			RFC3986 *string `json:"rfc3986"`
			Agree   bool    `json:"all_listed_agree"`
		} `json:"cases"`
	}
	readJSON(t, conformanceFile("rfc_resolution_examples.json"), &data)
	if len(data.Cases) == 0 {
		t.Fatal("no cases decoded")
	}
	// The package's decision where the RFCs disagree: pdf keeps RFC 1808's ".." above
	// the root; every other disagreement takes RFC 3986's answer.
	pdfTakes1808 := map[string]bool{"../../../g": true, "../../../../g": true, "/../g": true}
	n := 0
	for _, p := range canon.Profiles() {
		c := mustNew(t, p, canon.WithBase(data.Base))
		for _, row := range data.Cases {
			want := ""
			switch {
			case p == canon.PDF && pdfTakes1808[row.Ref]:
				want = *row.RFC1808
			case row.RFC3986 != nil:
				want = *row.RFC3986
			default:
				want = *row.RFC1808 // "http:" is listed by RFC 1808 alone
			}
			want, _, _ = strings.Cut(want, " | ") // "http:g | http://a/b/c/g": strict first
			want = stripFragment(want)
			if p == canon.RFC3986 {
				want = withRootPath(want)
			}
			got, err := c.String(row.Ref)
			if err != nil || got != want {
				t.Errorf("%s String(%q) = %q, %v; want %q", p, row.Ref, got, err, want)
			}
			n++
		}
	}
	t.Logf("%d resolution rows x profiles passed", n)
}

// The derived RFC 1808 vs RFC 3986 dot-path table. Every row is first checked
// against an independent, literal implementation of the rules (the table is
// derived, not authoritative), then against canon.
func TestConformanceDotPaths(t *testing.T) {
	var data struct {
		Cases []struct {
			Path    string `json:"path"`
			RFC1808 string `json:"rfc1808_s4_step6"`
			RFC3986 string `json:"rfc3986_remove_dot_segments"`
		} `json:"cases"`
	}
	readJSON(t, conformanceFile("derived_rfc1808_vs_rfc3986_dot_paths.json"), &data)
	if len(data.Cases) == 0 {
		t.Fatal("no cases decoded")
	}
	pdf, pdf2, rfc := mustNew(t, canon.PDF), mustNew(t, canon.PDF2), mustNew(t, canon.RFC3986)
	used := map[string]bool{}
	nrfc := 0
	for _, row := range data.Cases {
		if got := literalRFC1808(row.Path); got != row.RFC1808 {
			t.Errorf("derived table row %q: RFC 1808 by the letter gives %q, table says %q", row.Path, got, row.RFC1808)
		}
		if got := literalRFC3986(row.Path); got != row.RFC3986 {
			t.Errorf("derived table row %q: RFC 3986 by the letter gives %q, table says %q", row.Path, got, row.RFC3986)
		}
		check := func(c *canon.Canonicalizer, want string) {
			in := "http://a" + row.Path
			if got, err := c.String(in); err != nil || got != "http://a"+want {
				t.Errorf("%s String(%q) = %q, %v; want %q", c.Profile(), in, got, err, "http://a"+want)
			}
		}
		check(pdf, row.RFC1808)
		check(pdf2, row.RFC3986)
		if !dotPathRFC3986Skips.skips(t, used, row.Path) {
			check(rfc, row.RFC3986)
			nrfc++
		}
	}
	dotPathRFC3986Skips.checkUsed(t, used)
	t.Logf("%d dot-path rows: pdf and pdf2 on every row, rfc3986 on %d (%d on its skip list)", len(data.Cases), nrfc, len(data.Cases)-nrfc)
}

// The rfc3986 profile also decodes %2E before step 7 and encodes '\\': the
// dot-path table holds for it only on paths with neither. These rows are
// checked under pdf and pdf2 alone.
const (
	skipDecodesDot       = "rfc3986 decodes %2E to '.' before step 7 (RFC 3986 §2.3, §6.2.2.2: unreserved characters are decoded); the table takes %2E as a plain character"
	skipEncodesBackslash = "rfc3986 encodes '\\' as %5C (RFC 3986 §2.2: '\\' is not a URL character); the table keeps it"
)

var dotPathRFC3986Skips = skipList{
	"/%2E./":      skipDecodesDot,
	"/%2E/":       skipDecodesDot,
	"/%2e./":      skipDecodesDot,
	"/%2e/":       skipDecodesDot,
	"/.%2E/":      skipDecodesDot,
	"/.%2e/":      skipDecodesDot,
	"/a/%2E/b":    skipDecodesDot,
	"/a/%2e%2e/b": skipDecodesDot,
	"/a/.%2e/b":   skipDecodesDot,
	`/..\`:        skipEncodesBackslash,
	`/..\.`:       skipEncodesBackslash,
	`/..\..`:      skipEncodesBackslash,
	`/..\foo`:     skipEncodesBackslash,
	`/.\`:         skipEncodesBackslash,
	`/.\.`:        skipEncodesBackslash,
	`/.\..`:       skipEncodesBackslash,
	`/.\foo`:      skipEncodesBackslash,
	`/\`:          skipEncodesBackslash,
	`/\.`:         skipEncodesBackslash,
	`/\..`:        skipEncodesBackslash,
	`/\foo`:       skipEncodesBackslash,
	`/foo\`:       skipEncodesBackslash,
	`/foo\.`:      skipEncodesBackslash,
	`/foo\..`:     skipEncodesBackslash,
	`/foo\foo`:    skipEncodesBackslash,
}

// literalRFC1808 applies RFC 1808 §4 step 6 a–d by string rewriting, exactly
// as the RFC words it, to an absolute path without its leading '/'.
func literalRFC1808(path string) string {
	p := path[1:]
	isSeg := func(p string, i int) bool { return i == 0 || p[i-1] == '/' } // i starts a complete segment
	// a) remove every "./" where "." is a complete segment.
	for i := 0; i+1 < len(p); {
		if p[i] == '.' && p[i+1] == '/' && isSeg(p, i) {
			p = p[:i] + p[i+2:]
			continue
		}
		i++
	}
	// b) a trailing "." segment is removed.
	if strings.HasSuffix(p, ".") && isSeg(p, len(p)-1) {
		p = p[:len(p)-1]
	}
	// c) remove "<segment>/../", leftmost first, until none is left.
	for again := true; again; {
		again = false
		for i := 0; i < len(p); i++ {
			if !isSeg(p, i) {
				continue
			}
			j := strings.IndexByte(p[i:], '/')
			if j < 0 {
				break
			}
			seg := p[i : i+j]
			if seg != ".." && strings.HasPrefix(p[i+j:], "/../") {
				p = p[:i] + p[i+j+4:]
				again = true
				break
			}
		}
	}
	// d) a trailing "<segment>/.." is removed.
	if strings.HasSuffix(p, "/..") {
		k := strings.LastIndexByte(p[:len(p)-3], '/') + 1
		if seg := p[k : len(p)-3]; seg != ".." {
			p = p[:k]
		}
	}
	return "/" + p
}

// literalRFC3986 is RFC 3986 §5.2.4 remove_dot_segments, step by step.
func literalRFC3986(in string) string {
	out := ""
	removeLast := func() {
		if i := strings.LastIndexByte(out, '/'); i >= 0 {
			out = out[:i]
		} else {
			out = ""
		}
	}
	for in != "" {
		switch {
		case strings.HasPrefix(in, "../"):
			in = in[3:]
		case strings.HasPrefix(in, "./"):
			in = in[2:]
		case strings.HasPrefix(in, "/./"):
			in = in[2:]
		case in == "/.":
			in = "/"
		case strings.HasPrefix(in, "/../"):
			in = in[3:]
			removeLast()
		case in == "/..":
			in = "/"
			removeLast()
		case in == "." || in == "..":
			in = ""
		default:
			i := strings.IndexByte(in[1:], '/')
			if i < 0 {
				out, in = out+in, ""
			} else {
				out, in = out+in[:i+1], in[i+1:]
			}
		}
	}
	return out
}

func TestConformanceRFC3986Section6(t *testing.T) {
	var data struct {
		Cases []struct {
			Section  string `json:"section"`
			Input    string `json:"input"`
			Expected string `json:"expected"`
		} `json:"cases"`
	}
	readJSON(t, conformanceFile("rfc3986_section6_examples.json"), &data)
	c := mustNew(t, canon.RFC3986)
	used := map[string]bool{}
	n := 0
	for _, row := range data.Cases {
		if section6Skips.skips(t, used, row.Input) {
			continue
		}
		n++
		if got, err := c.String(row.Input); err != nil || got != row.Expected {
			t.Errorf("§%s String(%q) = %q, %v; want %q", row.Section, row.Input, got, err, row.Expected)
		}
	}
	section6Skips.checkUsed(t, used)
	if n == 0 {
		t.Fatal("no cases decoded")
	}
	t.Logf("%d §6 rows checked, %d on the skip list", n, len(data.Cases)-n)
}

// The rows of rfc3986_section6_examples.json that are not URLs.
var section6Skips = skipList{
	"%3a":                "§6.2.2.1 compares the component '%3a' with '%3A'; canon takes whole URLs",
	"mid/content=5/../6": "§5.2.4 worked example of remove_dot_segments on a bare path, not a URL",
}

// allStrings collects every string of a JSON document, keys included.
func allStrings(v any, into map[string]bool) {
	switch v := v.(type) {
	case string:
		into[v] = true
	case []any:
		for _, e := range v {
			allStrings(e, into)
		}
	case map[string]any:
		for k, e := range v {
			into[k] = true
			allStrings(e, into)
		}
	}
}

// Every string of every file of testdata/conformance, as a URL, as a reference
// against a base and as a host, in every profile and encoding state: no
// panic, and every success is printable ASCII and idempotent.
func TestConformanceProperties(t *testing.T) {
	dir := conformanceFile()
	inputs := map[string]bool{}
	files := 0
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		var v any
		if err := json.Unmarshal(b, &v); err != nil {
			return fmt.Errorf("%s: %v", path, err)
		}
		strs := map[string]bool{}
		allStrings(v, strs)
		if len(strs) == 0 {
			t.Errorf("%s: no strings decoded", path)
		}
		maps.Copy(inputs, strs)
		files++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(inputs) == 0 {
		t.Fatal("no inputs decoded")
	}
	sorted := make([]string, 0, len(inputs))
	for s := range inputs {
		sorted = append(sorted, s)
	}
	sort.Strings(sorted)
	if testing.Short() && len(sorted) > 2000 {
		sorted = sorted[:2000]
	}
	ok, failed := 0, 0
	for _, p := range canon.Profiles() {
		plain := mustNew(t, p)
		for _, e := range []canon.Encoding{canon.Encoded, canon.Raw} {
			cs := []*canon.Canonicalizer{
				mustNew(t, p, canon.WithInput(e)),
				mustNew(t, p, canon.WithInput(e), canon.WithBase("http://a/b/c/d;p?q")),
			}
			for _, in := range sorted {
				for _, c := range cs {
					for _, u := range []string{in, "http://" + in + "/"} {
						got, err := c.String(u)
						if err != nil {
							var ce *canon.Error
							if !errors.As(err, &ce) {
								t.Errorf("%s %s String(%q): error %v is not an *Error", p, e, u, err)
							}
							failed++
							continue
						}
						ok++
						checkCanonical(t, plain, u, got)
					}
				}
			}
		}
	}
	t.Logf("%d files, %d distinct strings: %d canonicalized (all ASCII, idempotent), %d rejected", files, len(inputs), ok, failed)
}

func checkCanonical(t *testing.T, c *canon.Canonicalizer, in, got string) {
	t.Helper()
	for i := range len(got) {
		if got[i] <= 0x20 || got[i] >= 0x7f {
			t.Errorf("%s: String(%q) = %q holds byte 0x%02X", c.Profile(), in, got, got[i])
			return
		}
	}
	again, err := c.SlowString(got)
	if err != nil || again != got {
		t.Errorf("%s: not idempotent: %q -> %q -> %q, %v", c.Profile(), in, got, again, err)
	}
	if fast, ok := c.Fast(in); ok {
		if slow, err := c.SlowString(in); err != nil || slow != fast {
			t.Errorf("%s: fast path gives %q for %q; the full algorithm gives %q, %v", c.Profile(), fast, in, slow, err)
		}
	}
	if h, ok, herr := c.Head(in); ok {
		if slow, err := c.SlowString(in); err != nil || herr != nil || slow != h {
			t.Errorf("%s: after the fast path's head, %q gives %q, %v; the full algorithm gives %q, %v", c.Profile(), in, h, herr, slow, err)
		}
	}
}

// WPT urltestdata.json follows WHATWG, not us: report how many rows the
// rfc3986 profile agrees with (fragment stripped), and check robustness.
func TestConformanceWPTAgreement(t *testing.T) {
	var rows []any
	readJSON(t, conformanceFile("wpt", "urltestdata.json"), &rows)
	agree, total := 0, 0
	for _, r := range rows {
		m, ok := r.(map[string]any)
		if !ok {
			continue
		}
		in, _ := m["input"].(string)
		base, _ := m["base"].(string)
		var opts []canon.Option
		if base != "" {
			opts = append(opts, canon.WithBase(base))
		}
		total++
		c, err := canon.New(canon.RFC3986, opts...)
		if err != nil {
			continue // a base we reject: counted as disagreement
		}
		got, err := c.String(in)
		if fail, _ := m["failure"].(bool); fail {
			if err != nil {
				agree++
			}
			continue
		}
		href, _ := m["href"].(string)
		if err == nil && got == stripFragment(href) {
			agree++
		}
		if err == nil && !utf8.ValidString(got) {
			t.Errorf("String(%q) = %q is not UTF-8", in, got)
		}
	}
	if total == 0 {
		t.Fatal("no rows decoded")
	}
	t.Logf("rfc3986 profile agrees with WPT urltestdata.json on %d of %d rows (%.1f%%)", agree, total, 100*float64(agree)/float64(total))
}

// The vendored vectors are the files README.md describes, no more and no
// fewer, each with the size it gives and the digest SHA256SUMS records, so
// that they stay byte-identical to the copies they were taken from.
func TestConformanceProvenance(t *testing.T) {
	readme, err := os.ReadFile(conformanceFile("README.md"))
	if err != nil {
		t.Fatal(err)
	}
	sizes := map[string]int64{} // file → bytes, from README.md's table
	for line := range strings.Lines(string(readme)) {
		cells := strings.Split(line, "|")
		if len(cells) < 4 || !strings.HasPrefix(strings.TrimSpace(cells[1]), "`") {
			continue
		}
		name := strings.Trim(strings.TrimSpace(cells[1]), "`")
		var n int64
		if _, err := fmt.Sscan(strings.TrimSpace(cells[2]), &n); err != nil {
			t.Errorf("README.md row %q: bytes %q: %v", name, cells[2], err)
		}
		sizes[name] = n
	}
	sums, err := os.ReadFile(conformanceFile("SHA256SUMS"))
	if err != nil {
		t.Fatal(err)
	}
	digests := map[string]string{} // file → hex SHA-256
	for line := range strings.Lines(string(sums)) {
		sum, name, ok := strings.Cut(strings.TrimSpace(line), "  ")
		if !ok {
			t.Fatalf("SHA256SUMS: malformed line %q", line)
		}
		digests[name] = sum
	}
	var files []string
	err = filepath.WalkDir(conformanceFile(), func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
			return err
		}
		rel, err := filepath.Rel(conformanceFile(), path)
		files = append(files, filepath.ToSlash(rel))
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no data files found")
	}
	for _, name := range files {
		b, err := os.ReadFile(conformanceFile(filepath.FromSlash(name)))
		if err != nil {
			t.Fatal(err)
		}
		if n, ok := sizes[name]; !ok {
			t.Errorf("%s is not in README.md's provenance table", name)
		} else if n != int64(len(b)) {
			t.Errorf("%s: README.md gives %d bytes, the file has %d", name, n, len(b))
		}
		if sum := fmt.Sprintf("%x", sha256.Sum256(b)); digests[name] != sum {
			t.Errorf("%s: SHA-256 %s, SHA256SUMS records %q", name, sum, digests[name])
		}
		delete(sizes, name)
		delete(digests, name)
	}
	for _, name := range slices.Sorted(maps.Keys(sizes)) {
		t.Errorf("README.md lists %s, which is not in %s", name, conformanceDir)
	}
	for _, name := range slices.Sorted(maps.Keys(digests)) {
		t.Errorf("SHA256SUMS lists %s, which is not in %s", name, conformanceDir)
	}
	t.Logf("%d vendored files checked against README.md and SHA256SUMS", len(files))
}
