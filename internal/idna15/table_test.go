package idna15

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"os"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcap/webcap/internal/idna15/internal/bidi"
	"github.com/webcap/webcap/internal/idna15/internal/norm"
)

// mappingTable is UTS #46's IdnaMappingTable.txt for Unicode 15.0.0, the
// normative data the tables of this package are generated from (provenance in
// PROVENANCE.md).
const (
	mappingTable       = "testdata/IdnaMappingTable.txt"
	mappingTableSHA256 = "cc8522199541d60326a42a8f91f8748fd15630a42502dd2cf4878e81e2066ead"
)

// The package, its bidi and its norm tables are all of Unicode 15.0.0, and
// the algorithm is the one that goes with them (unicode16 is false).
func TestUnicodeVersion(t *testing.T) {
	for name, v := range map[string]string{"idna15": UnicodeVersion, "bidi": bidi.UnicodeVersion, "norm": norm.Version} {
		if v != "15.0.0" {
			t.Errorf("%s tables are Unicode %s, want 15.0.0", name, v)
		}
	}
	if unicode16 {
		t.Error("unicode16 is true: the Unicode 16 algorithm is selected")
	}
}

// One row of IdnaMappingTable.txt: a status and, for mapped, deviation and
// disallowed_STD3_mapped, the mapping.
type mappingRow struct {
	status  string
	mapping string
	idna08  string // NV8 or XV8 for some valid rows
}

// readMappingTable returns the status of every code point from 0 to 10FFFF.
func readMappingTable(t *testing.T) []mappingRow {
	t.Helper()
	b, err := os.ReadFile(mappingTable)
	if err != nil {
		t.Fatal(err)
	}
	if sum := fmt.Sprintf("%x", sha256.Sum256(b)); sum != mappingTableSHA256 {
		t.Fatalf("%s: SHA-256 %s, want %s (the Unicode 15.0.0 file)", mappingTable, sum, mappingTableSHA256)
	}
	if !strings.Contains(string(b[:1000]), "# Version: 15.0.0") {
		t.Fatalf("%s is not the Unicode 15.0.0 table", mappingTable)
	}
	rows := make([]mappingRow, utf8.MaxRune+1)
	seen := make([]bool, utf8.MaxRune+1)
	sc := bufio.NewScanner(strings.NewReader(string(b)))
	for sc.Scan() {
		line, _, _ := strings.Cut(sc.Text(), "#")
		if strings.TrimSpace(line) == "" {
			continue
		}
		f := strings.Split(line, ";")
		for i := range f {
			f[i] = strings.TrimSpace(f[i])
		}
		lo, hi, ok := strings.Cut(f[0], "..")
		if !ok {
			hi = lo
		}
		first, err1 := strconv.ParseUint(lo, 16, 32)
		last, err2 := strconv.ParseUint(hi, 16, 32)
		if err1 != nil || err2 != nil || last > utf8.MaxRune || first > last {
			t.Fatalf("bad range in %q", line)
		}
		r := mappingRow{status: f[1]}
		if len(f) > 2 {
			for _, cp := range strings.Fields(f[2]) {
				v, err := strconv.ParseUint(cp, 16, 32)
				if err != nil {
					t.Fatalf("bad mapping in %q", line)
				}
				r.mapping += string(rune(v))
			}
		}
		if len(f) > 3 {
			r.idna08 = f[3]
		}
		for cp := first; cp <= last; cp++ {
			if seen[cp] {
				t.Fatalf("U+%04X listed twice", cp)
			}
			rows[cp], seen[cp] = r, true
		}
	}
	for cp, ok := range seen {
		if !ok {
			t.Fatalf("U+%04X is not in the table", cp)
		}
	}
	return rows
}

// Every code point has in the trie the status and mapping that
// IdnaMappingTable.txt 15.0.0 gives it, so that tables of any other version
// fail this test (Unicode 15.1 maps U+1E9E to U+00DF where 15.0 maps it to
// "ss", and every later version assigns new code points).
func TestMappingTable(t *testing.T) {
	rows := readMappingTable(t)
	want := map[string]category{
		"valid":                  valid,
		"mapped":                 mapped,
		"deviation":              deviation,
		"ignored":                ignored,
		"disallowed":             disallowed,
		"disallowed_STD3_valid":  disallowedSTD3Valid,
		"disallowed_STD3_mapped": disallowedSTD3Mapped,
	}
	counts := map[string]int{}
	bad := 0
	for cp := rune(0); cp <= utf8.MaxRune; cp++ {
		if cp >= 0xD800 && cp <= 0xDFFF {
			continue // surrogates: no UTF-8 form to look up (the table says disallowed)
		}
		row := rows[cp]
		s := string(cp)
		v, sz := trie.lookupString(s)
		if sz != len(s) {
			t.Fatalf("U+%04X: trie lookup took %d of %d bytes", cp, sz, len(s))
		}
		c := info(v).category()
		wantCat, ok := want[row.status]
		if !ok {
			t.Fatalf("U+%04X: unknown status %q", cp, row.status)
		}
		if row.status == "valid" {
			switch row.idna08 {
			case "NV8":
				wantCat = validNV8
			case "XV8":
				wantCat = validXV8
			}
		}
		got := ""
		if c == mapped || c == deviation || c == disallowedSTD3Mapped {
			got = string(info(v).appendMapping(nil, s))
		}
		if c != wantCat || got != row.mapping {
			if bad++; bad <= 20 {
				t.Errorf("U+%04X: trie has category %#x mapping %+q; IdnaMappingTable 15.0.0 has %s %+q", cp, c, got, row.status, row.mapping)
			}
		}
		counts[row.status]++
	}
	if bad > 20 {
		t.Errorf("... %d code points in all differ from IdnaMappingTable 15.0.0", bad)
	}
	t.Logf("code points checked by status: %v", counts)
}
