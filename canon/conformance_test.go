package canon_test

import (
	"encoding/json"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/sharedtest"
)

// Conformance over ../shared/testdata/url (see its README for provenance).

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
// profile, with canon.md's answer where the RFCs disagree.
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
	readJSON(t, sharedtest.Dir(t, "testdata", "url", "rfc_resolution_examples.json"), &data)
	if len(data.Cases) == 0 {
		t.Fatal("no cases decoded")
	}
	// canon.md "Where the RFCs disagree": pdf keeps RFC 1808's ".." above
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
	readJSON(t, sharedtest.Dir(t, "testdata", "url", "derived_rfc1808_vs_rfc3986_dot_paths.json"), &data)
	if len(data.Cases) == 0 {
		t.Fatal("no cases decoded")
	}
	pdf, pdf2, rfc := mustNew(t, canon.PDF), mustNew(t, canon.PDF2), mustNew(t, canon.RFC3986)
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
		// rfc3986 also decodes %2E before step 7 and encodes '\\': the table
		// holds for it only on paths with neither.
		if !strings.ContainsAny(row.Path, "%\\") {
			check(rfc, row.RFC3986)
		}
	}
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
	readJSON(t, sharedtest.Dir(t, "testdata", "url", "rfc3986_section6_examples.json"), &data)
	c := mustNew(t, canon.RFC3986)
	n := 0
	for _, row := range data.Cases {
		if !strings.Contains(row.Input, ":") {
			t.Logf("skip %s %q: a component or path example, not a URL", row.Section, row.Input)
			continue
		}
		n++
		if got, err := c.String(row.Input); err != nil || got != row.Expected {
			t.Errorf("§%s String(%q) = %q, %v; want %q", row.Section, row.Input, got, err, row.Expected)
		}
	}
	if n == 0 {
		t.Fatal("no cases decoded")
	}
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

// Every string of every file of testdata/url, as a URL, as a reference
// against a base and as a host, in every profile and encoding state: no
// panic, and every success is printable ASCII and idempotent.
func TestConformanceProperties(t *testing.T) {
	dir := sharedtest.Dir(t, "testdata", "url")
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
			return err
		}
		allStrings(v, inputs)
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
	if c.IsCanonicalFast(in) {
		if slow, err := c.SlowString(in); err != nil || slow != in {
			t.Errorf("%s: fast path takes %q as canonical; the full algorithm gives %q, %v", c.Profile(), in, slow, err)
		}
	}
}

// WPT urltestdata.json follows WHATWG, not us: report how many rows the
// rfc3986 profile agrees with (fragment stripped), and check robustness.
func TestConformanceWPTAgreement(t *testing.T) {
	var rows []any
	readJSON(t, sharedtest.Dir(t, "testdata", "url", "wpt", "urltestdata.json"), &rows)
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
