package canon_test

import (
	"bufio"
	"crypto/sha256"
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/idna15"
	"github.com/webcap/webcap/internal/sharedtest"
)

// The UTS #46 conformance vectors of the Unicode version the profiles pin,
// IdnaTestV2.txt 15.0.0: the vendored copy in testdata/idna if there is one,
// else the shared folder's (the project's shared URL vectors). Either must be
// the file Unicode published (its SHA-256 below).
const (
	idnaTestName   = "IdnaTestV2-15.0.0.txt"
	idnaTestSHA256 = "d11c684f5dd04605c9b3f429d31f8ec68843739706b556365cc481f8553712d2"
	// mappingTable is IdnaMappingTable.txt 15.0.0, vendored with internal/idna15.
	mappingTable = "../internal/idna15/testdata/IdnaMappingTable.txt"
)

func idnaTestFile(t *testing.T) string {
	t.Helper()
	p := filepath.Join("testdata", "idna", idnaTestName)
	if _, err := os.Stat(p); err == nil {
		return p
	}
	return sharedtest.Dir(t, "testdata", "url", idnaTestName)
}

// An idnaRow is one line of IdnaTestV2.txt, reduced to what step 4 uses:
// the source and its non-transitional ToASCII result and status codes
// (columns 1, 4 and 5, with the file's rules for blank columns).
type idnaRow struct {
	line    int
	source  string
	toASCII string
	status  []string
}

func readIdnaTest(t *testing.T, path string) []idnaRow {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256(b)); sum != idnaTestSHA256 {
		t.Fatalf("%s: SHA-256 %s, want %s (IdnaTestV2.txt of Unicode 15.0.0)", path, sum, idnaTestSHA256)
	}
	var rows []idnaRow
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for n := 1; sc.Scan(); n++ {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, ";")
		if len(f) != 7 {
			t.Fatalf("%s:%d: %d columns, want 7", path, n, len(f))
		}
		for i := range f {
			f[i] = unescapeIdna(t, strings.TrimSpace(f[i]))
		}
		r := idnaRow{line: n, source: f[0], toASCII: f[3]}
		toUnicode := f[1]
		if toUnicode == "" {
			toUnicode = r.source
		}
		if r.toASCII == "" {
			r.toASCII = toUnicode
		}
		status := f[4]
		if status == "" {
			status = f[2] // blank: as toUnicodeStatus; "[]": no errors
		}
		r.status = strings.FieldsFunc(strings.Trim(status, "[]"), func(r rune) bool { return r == ',' || r == ' ' })
		rows = append(rows, r)
	}
	if len(rows) == 0 {
		t.Fatalf("%s: no rows decoded", path)
	}
	return rows
}

// unescapeIdna decodes the file's \uXXXX and \x{XXXX} escapes.
func unescapeIdna(t *testing.T, s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		hex := ""
		switch {
		case strings.HasPrefix(s[i:], `\u`) && len(s) >= i+6:
			hex, i = s[i+2:i+6], i+5
		case strings.HasPrefix(s[i:], `\x{`):
			j := strings.IndexByte(s[i:], '}')
			if j < 0 {
				t.Fatalf("unterminated escape in %q", s)
			}
			hex, i = s[i+3:i+j], i+j
		default:
			b.WriteByte(s[i])
			continue
		}
		v, err := strconv.ParseUint(hex, 16, 32)
		if err != nil {
			t.Fatalf("bad escape in %q", s)
		}
		b.WriteRune(rune(v))
	}
	return b.String()
}

// std3Sensitive returns the code points whose IdnaMappingTable 15.0.0 status
// depends on UseSTD3ASCIIRules (disallowed_STD3_valid, disallowed_STD3_mapped).
func std3Sensitive(t *testing.T) map[rune]bool {
	t.Helper()
	b, err := os.ReadFile(mappingTable)
	if err != nil {
		t.Fatal(err)
	}
	set := map[rune]bool{}
	for line := range strings.Lines(string(b)) {
		line, _, _ = strings.Cut(line, "#")
		f := strings.Split(line, ";")
		if len(f) < 2 || !strings.HasPrefix(strings.TrimSpace(f[1]), "disallowed_STD3_") {
			continue
		}
		lo, hi, ok := strings.Cut(strings.TrimSpace(f[0]), "..")
		if !ok {
			hi = lo
		}
		first, err1 := strconv.ParseUint(lo, 16, 32)
		last, err2 := strconv.ParseUint(hi, 16, 32)
		if err1 != nil || err2 != nil {
			t.Fatalf("%s: bad range %q", mappingTable, f[0])
		}
		for cp := first; cp <= last; cp++ {
			set[rune(cp)] = true
		}
	}
	if len(set) == 0 {
		t.Fatalf("%s: no disallowed_STD3 code points", mappingTable)
	}
	return set
}

// Status codes that the profiles' options turn off (IdnaTestV2.txt: "would
// ignore the corresponding status codes").
var idnaIgnored = map[string]string{
	"V2":   "CheckHyphens is off",
	"V3":   "CheckHyphens is off",
	"A4_1": "VerifyDnsLength is off",
	"A4_2": "VerifyDnsLength is off",
	"X4_2": "an empty label, A4_2 in ToASCII: VerifyDnsLength is off",
}

// usesSTD3 reports whether s, or one of its xn-- labels decoded, holds a code
// point that UseSTD3ASCIIRules disallows.
func usesSTD3(s string, std3 map[rune]bool) bool {
	for _, label := range strings.FieldsFunc(s, func(r rune) bool { return r == '.' || r == '。' || r == '．' || r == '｡' }) {
		if len(label) > 4 && strings.EqualFold(label[:4], "xn--") {
			if u, err := idna15.Punycode.ToUnicode(strings.ToLower(label)); err == nil {
				label += u
			}
		}
		for _, r := range label {
			if std3[r] {
				return true
			}
		}
	}
	return false
}

// TestIdnaTestV2 runs the UTS #46 conformance vectors of Unicode 15.0.0, the
// version the profiles pin, through step 4's IDNA and, for hosts with
// non-ASCII characters, through every profile. The profiles' options decide
// which rows and codes apply: the non-transitional ToASCII column (toAsciiN);
// CheckBidi and CheckJoiners on, as the file assumes; CheckHyphens and
// VerifyDnsLength off, so their codes are ignored; UseSTD3ASCIIRules off where
// the file assumes it on, so a row that expects an error and holds a code
// point whose status depends on it is skipped.
func TestIdnaTestV2(t *testing.T) {
	rows := readIdnaTest(t, idnaTestFile(t))
	std3 := std3Sensitive(t)
	var run, std3Rows, viaURL int
	notURL := map[string]int{} // rows run through ToASCII but not as a URL, by reason
	for _, r := range rows {
		var errs []string
		for _, c := range r.status {
			if _, ok := idnaIgnored[c]; !ok {
				errs = append(errs, c)
			}
		}
		wantErr := len(errs) > 0
		toASCII, std3On := canon.HostToASCII, false
		if wantErr && usesSTD3(r.source, std3) {
			// Whether the row fails with UseSTD3ASCIIRules off, the file
			// does not say: run it with the option on, as the file assumes.
			toASCII, std3On = canon.HostToASCIISTD3, true
			std3Rows++
		} else {
			run++
		}
		got, err := toASCII(r.source)
		switch {
		case wantErr && err == nil:
			t.Errorf("line %d: ToASCII(%+q) = %q; want an error %v", r.line, r.source, got, errs)
			continue
		case !wantErr && err != nil:
			t.Errorf("line %d: ToASCII(%+q): %v; want %q (ignored: %v)", r.line, r.source, err, r.toASCII, r.status)
			continue
		case !wantErr && got != r.toASCII:
			t.Errorf("line %d: ToASCII(%+q) = %q, want %q", r.line, r.source, got, r.toASCII)
			continue
		}
		// The same row as the host of a URL, in every profile: step 4 runs
		// IDNA only on a host with non-ASCII characters, and a source that
		// holds a URL delimiter is not all host.
		switch {
		case std3On:
			continue // the URL would be canonicalized with the option off
		case isASCII(r.source):
			notURL["an ASCII host: step 4 lower-cases it without IDNA, so its xn-- labels are neither decoded nor checked"]++
			continue
		case strings.ContainsAny(r.source, "/?#@:[]%\\"):
			notURL["holds a URL delimiter, so it is not all host"]++
			continue
		}
		viaURL++
		for _, p := range canon.Profiles() {
			u := "http://" + r.source + "/"
			key, err := p.Canonical(u)
			if wantErr {
				if !errors.Is(err, canon.ErrBadHost) {
					t.Errorf("line %d: %s Canonical(%+q) = %q, %v; want a bad-host error %v", r.line, p, u, key, err, errs)
				}
				continue
			}
			if want := "http://" + r.toASCII + "/"; err != nil || key != want {
				t.Errorf("line %d: %s Canonical(%+q) = %q, %v; want %q", r.line, p, u, key, err, want)
			}
		}
	}
	if run == 0 || viaURL == 0 {
		t.Fatal("no rows run")
	}
	t.Logf("IdnaTestV2.txt 15.0.0: %d rows; %d run with the profiles' options, %d of them also as the host of a URL in every profile; "+
		"%d that expect an error and depend on UseSTD3ASCIIRules run with it on", len(rows), run, viaURL, std3Rows)
	for _, why := range slices.Sorted(maps.Keys(notURL)) {
		t.Logf("not run as a URL (%d rows): %s", notURL[why], why)
	}
}

func isASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}
