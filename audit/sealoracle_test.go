package audit_test

// The seal oracle: what qpdf, openssl and pdfsig say about every signature
// and document timestamp of the files in testdata/seals (made by other
// signing tools) and in ../shared/realworld, written without any of the
// project's code (only the standard library and those three programs), so
// that the auditor can be compared with it (sealcorpus_test.go).
//
// Per seal: qpdf --json=2 gives the signature dictionary (/ByteRange,
// /Contents, /SubFilter, /Cert) and the field whose /V it is; the ByteRange
// bytes are cut from the file and handed to openssl:
//
//	adbe.pkcs7.detached, ETSI.CAdES.detached:
//	    openssl cms -verify -binary -inform DER -in sig.der -content data -noverify
//	adbe.pkcs7.sha1: openssl cms -verify -inform DER -in sig.der -noverify -out econtent,
//	    econtent = openssl dgst -sha1 -binary data
//	adbe.x509.rsa_sha1: openssl x509 -inform DER -in cert.der -pubkey (the first /Cert),
//	    openssl dgst -sha1 -verify pub.pem -signature sig.bin data
//	ETSI.RFC3161: openssl cms -verify -inform DER -in tok.der -noverify -out tstinfo.der
//	    (the token's own signature), and the TSTInfo's messageImprint =
//	    openssl dgst -<its algorithm> -binary data
//
// Trust is not asked (-noverify): the verdict is integrity only. The range
// column is what the ByteRange covers: "whole" (from 0 to the end of the
// file, its gap exactly the /Contents string), "after=N" (it ends with a
// %%EOF and N bytes of later updates follow), or what is wrong with it
// ("inside-revision,after=N": it stops short of its revision's %%EOF;
// ",dict-after-seal": the signature dictionary the file now reads, by
// qpdf --show-xref, is written after the bytes its range covers;
// "gap-not-contents", "beyond-eof", "overlap", "not-from-0",
// "has-N-numbers"). The last column, on a file's last seal, says what the
// updates after it change (afterLastSeal). `go test ./audit -run SealOracle -update-seals`
// rewrites the golden files.

import (
	"bytes"
	"encoding/asn1"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/webcap/webcap/internal/sharedtest"
)

var updateSeals = flag.Bool("update-seals", false, "rewrite testdata/seals/verdicts.txt and realworld.txt from qpdf, openssl and pdfsig")

// oracleSeal is one signature or document timestamp as the three programs
// see it: one line of a golden file.
type oracleSeal struct {
	File      string
	Field     string // the field's fully qualified name, "-" if no field holds it
	SubFilter string
	OpenSSL   string // "digest-ok", "digest-bad: why", "unsupported: why"
	SigTST    string // the signature timestamp's (an unsigned attribute), the same words; "-" when none
	Pdfsig    string // pdfsig's "Signature Validation", shortened
	Range     string // "whole", "after=N", or what is wrong with the ByteRange
	Later     string // on a file's last seal: what the updates after it change ("-": none)
	End       int64  // where the ByteRange ends (not written: orders the seals)
}

func (s oracleSeal) line() string {
	return strings.Join([]string{s.File, s.Field, s.SubFilter, s.OpenSSL, s.SigTST, s.Pdfsig, s.Range, s.Later}, "\t")
}

const oracleHeader = "# file\tfield\tsubfilter\topenssl\tsignature-timestamp\tpdfsig\trange\tafter-last-seal\n" +
	"# written by `go test ./audit -run SealOracle -update-seals` (audit/sealoracle_test.go): qpdf --json + openssl (integrity, no trust) + pdfsig -nocert\n"

// oracleTools are the programs the oracle needs, or a reason to skip.
func oracleTools(t *testing.T) {
	t.Helper()
	for _, p := range []string{"qpdf", "openssl", "pdfsig"} {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("skipping: %s is not installed (the seal oracle is qpdf + openssl + pdfsig)", p)
		}
	}
}

func TestSealOracleVendored(t *testing.T) {
	oracleTools(t)
	files, _ := filepath.Glob(filepath.Join("testdata", "seals", "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no files in testdata/seals")
	}
	checkOracleGolden(t, files, filepath.Join("testdata", "seals", "verdicts.txt"))
}

func TestSealOracleRealWorld(t *testing.T) {
	oracleTools(t)
	dir := sharedtest.Dir(t, "realworld")
	all, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	var files []string
	for _, f := range all {
		if b, err := os.ReadFile(f); err == nil && bytes.Contains(b, []byte("/ByteRange")) {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatal("no file with /ByteRange in", dir)
	}
	checkOracleGolden(t, files, filepath.Join("testdata", "seals", "realworld.txt"))
}

// checkOracleGolden runs the oracle on files and compares with the golden
// file (or rewrites it with -update-seals).
func checkOracleGolden(t *testing.T, files []string, golden string) {
	t.Helper()
	var b strings.Builder
	b.WriteString(oracleHeader)
	for _, f := range files {
		seals, err := oracleFile(f, t.TempDir())
		if err != nil {
			fmt.Fprintf(&b, "%s\t-\t-\tunsupported: %v\t-\t-\t-\t-\n", filepath.Base(f), err)
			continue
		}
		for _, s := range seals {
			b.WriteString(s.line() + "\n")
		}
	}
	got := b.String()
	if *updateSeals {
		if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := 0; i < max(len(gl), len(wl)); i++ {
			g, w := "", ""
			if i < len(gl) {
				g = gl[i]
			}
			if i < len(wl) {
				w = wl[i]
			}
			if g != w {
				t.Errorf("%s line %d:\n got  %q\n want %q", golden, i+1, g, w)
			}
		}
	}
}

// readGolden reads a golden file's lines into seals.
func readGolden(t *testing.T, golden string) []oracleSeal {
	t.Helper()
	b, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	var out []oracleSeal
	for _, l := range strings.Split(string(b), "\n") {
		if l == "" || strings.HasPrefix(l, "#") {
			continue
		}
		c := strings.Split(l, "\t")
		if len(c) != 8 {
			t.Fatalf("%s: %q has %d columns, want 8", golden, l, len(c))
		}
		out = append(out, oracleSeal{File: c[0], Field: c[1], SubFilter: c[2], OpenSSL: c[3], SigTST: c[4], Pdfsig: c[5], Range: c[6], Later: c[7]})
	}
	if len(out) == 0 {
		t.Fatalf("%s holds no seal", golden)
	}
	return out
}

// qpdfSeal is a signature dictionary as qpdf's JSON shows it.
type qpdfSeal struct {
	ref       string // "N G R"
	field     string
	subFilter string
	byteRange []int64
	contents  []byte
	certs     [][]byte
}

// oracleFile gives the seals of one file, in the order their ranges end.
func oracleFile(path, tmp string) ([]oracleSeal, error) {
	file, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	qs, certs, err := qpdfSeals(path)
	if err != nil {
		return nil, err
	}
	certfile, err := pemBundle(tmp, certs)
	if err != nil {
		return nil, err
	}
	ps := pdfsigVerdicts(path)
	at := qpdfXref(path)
	var out []oracleSeal
	for i, q := range qs {
		s := oracleSeal{File: filepath.Base(path), Field: q.field, SubFilter: q.subFilter, Pdfsig: "not-listed", SigTST: "-"}
		if v, ok := ps[q.field]; ok {
			s.Pdfsig = v
		}
		data, rng, end := cutRange(file, q.byteRange, len(q.contents))
		if off, ok := at[q.ref]; ok && end > 0 && off >= end {
			// The dictionary the document now reads was written after the
			// bytes the range covers: not the one that was signed.
			rng += ",dict-after-seal"
		}
		s.Range, s.End = rng, end
		if data == nil {
			s.OpenSSL = "unsupported: ByteRange " + rng
		} else {
			dir := filepath.Join(tmp, strconv.Itoa(i))
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return nil, err
			}
			s.OpenSSL = opensslVerdict(dir, data, q, certfile)
			s.SigTST = sigTimestampVerdict(dir, q, certfile)
		}
		out = append(out, s)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].End < out[j].End })
	for i := range out {
		out[i].Later = "-"
	}
	if n := len(out); n > 0 && out[n-1].End > 0 {
		out[n-1].Later = afterLastSeal(path, file, out[n-1].End, tmp)
	}
	return out, nil
}

// cutRange returns the bytes a ByteRange covers, and what the range covers
// of the file; nil bytes when the range cannot be cut. A range of other than
// four numbers is still cut, pair by pair (pdfsig and openssl accept it).
func cutRange(file []byte, br []int64, contents int) ([]byte, string, int64) {
	n := int64(len(file))
	if len(br) == 0 || len(br)%2 != 0 {
		return nil, fmt.Sprintf("has-%d-numbers", len(br)), 0
	}
	var data []byte
	end := int64(0)
	for i := 0; i < len(br); i += 2 {
		a, b := br[i], br[i+1]
		if a < 0 || b < 0 || a > n || b > n-a {
			return nil, "beyond-eof", 0
		}
		if a < end {
			return nil, "overlap", 0
		}
		data = append(data, file[a:a+b]...)
		end = a + b
	}
	if len(br) != 4 {
		return data, fmt.Sprintf("has-%d-numbers", len(br)), end
	}
	a, b, c := br[0], br[1], br[2]
	switch {
	case a != 0:
		return data, "not-from-0", end
	case c-(a+b) != int64(2*contents+2) || file[a+b] != '<' || file[c-1] != '>':
		return data, "gap-not-contents", end
	case end < n && !bytes.HasSuffix(bytes.TrimRight(file[:end], "\r\n"), []byte("%%EOF")):
		return data, fmt.Sprintf("inside-revision,after=%d", n-end), end
	case end < n:
		return data, fmt.Sprintf("after=%d", n-end), end
	}
	return data, "whole", end
}

// afterLastSeal says what the updates after the last seal change: qpdf's
// objects of the file against those of the file cut just after the first
// %%EOF at or after the seal's range (the end of the seal's revision). A
// change is allowed when it only adds a DSS, a document timestamp or a
// signature field (the plan's WC-SEAL-AFTER; ISO 32000-2 Table 257): objects
// reachable from the catalog's /DSS or from a signature field, the
// catalog's /DSS /AcroForm /Extensions /Version /Metadata, the AcroForm's
// /SigFlags /DR /DA and /Fields (only gaining signature fields), a page's
// /Annots (the same), and arrays that only gain such objects. It answers "-" (no later update), "allowed (N objects)", or
// "changes: " and the objects that are not allowed, with their /Type; the
// Info dictionary and XMP metadata, which signing tools rewrite, and
// objects nothing refers to, are listed apart.
func afterLastSeal(path string, file []byte, end int64, tmp string) string {
	// The range usually ends after its revision's %%EOF and end-of-line.
	from := max(end-8, 0)
	i := bytes.Index(file[from:], []byte("%%EOF"))
	if i < 0 {
		return "-"
	}
	cut := from + int64(i) + 5
	if len(bytes.TrimSpace(bytes.Trim(file[cut:], "\x00"))) == 0 {
		return "-"
	}
	for cut < int64(len(file)) && (file[cut] == '\r' || file[cut] == '\n') {
		cut++
	}
	prefix := filepath.Join(tmp, "revision.pdf")
	if err := os.WriteFile(prefix, file[:cut], 0o644); err != nil {
		return "unsupported: " + err.Error()
	}
	_, beforeText, err := qpdfObjects(prefix, true)
	if err != nil {
		return "unsupported: the revision: " + err.Error()
	}
	after, afterText, err := qpdfObjects(path, true)
	if err != nil {
		return "unsupported: " + err.Error()
	}
	var changed []string
	for r, text := range afterText {
		if r != "trailer R" && beforeText[r] != text {
			changed = append(changed, r)
		}
	}
	sort.Slice(changed, func(i, j int) bool { return refLess(changed[i], changed[j]) })
	before, _, _ := qpdfObjects(prefix, false)
	ok := allowedLater(after, before, afterText, beforeText)
	used := reachable(after, afterText, after["trailer R"], nil)
	var bad, meta, unused []string
	for _, r := range changed {
		switch {
		case !used[r] && after[r]["/Type"] != "/XRef" && after[r]["/Type"] != "/ObjStm":
			unused = append(unused, r)
		case ok(r):
		case objectKind(after, r) == "(Info)" || after[r]["/Type"] == "/Metadata":
			meta = append(meta, r+" "+objectKind(after, r))
		default:
			bad = append(bad, r+" "+objectKind(after, r))
		}
	}
	note := ""
	if len(meta) > 0 {
		note += ", info/metadata " + strings.Join(meta, " ")
	}
	if len(unused) > 0 {
		note += ", unreferenced " + strings.Join(unused, " ")
	}
	if len(bad) == 0 {
		return fmt.Sprintf("allowed (%d objects%s)", len(changed), note)
	}
	return "changes: " + strings.Join(bad, "; ") + note
}

// refLess orders "N G R" by object number.
func refLess(a, b string) bool {
	na, _ := strconv.Atoi(strings.Fields(a)[0])
	nb, _ := strconv.Atoi(strings.Fields(b)[0])
	return na < nb
}

// objectKind names an object by its /Type (or /Subtype, or Info).
func objectKind(dicts map[string]map[string]any, ref string) string {
	if info, _ := dicts["trailer R"]["/Info"].(string); info == ref {
		return "(Info)"
	}
	m := dicts[ref]
	for _, k := range []string{"/Type", "/Subtype"} {
		if t, ok := m[k].(string); ok {
			return "(" + strings.TrimPrefix(t, "/") + ")"
		}
	}
	return "(untyped)"
}

// reachable adds to reach (a new set if nil) every object reachable from
// v, not following the keys skip.
func reachable(dicts map[string]map[string]any, texts map[string]string, v any, reach map[string]bool, skip ...string) map[string]bool {
	if reach == nil {
		reach = map[string]bool{}
	}
	var walk func(v any, depth int)
	walk = func(v any, depth int) {
		if depth > 256 {
			return
		}
		switch x := v.(type) {
		case string:
			if strings.HasSuffix(x, " R") && !reach[x] && texts[x] != "" {
				reach[x] = true
				if m, ok := dicts[x]; ok {
					walk(m, depth+1)
				} else {
					walk(arrayOf(texts[x]), depth+1)
				}
			}
		case []any:
			for _, e := range x {
				walk(e, depth+1)
			}
		case map[string]any:
			for k, e := range x {
				if !slicesContains(skip, k) {
					walk(e, depth+1)
				}
			}
		}
	}
	walk(v, 0)
	return reach
}

// allowedLater returns the test of one changed object (see afterLastSeal).
func allowedLater(after, before map[string]map[string]any, afterText, beforeText map[string]string) func(string) bool {
	rootRef, _ := after["trailer R"]["/Root"].(string)
	root := after[rootRef]
	reach := reachable(after, afterText, root["/DSS"], nil)
	for r, m := range after {
		if m["/FT"] == "/Sig" || m["/ByteRange"] != nil {
			reach[r] = true
			reachable(after, afterText, m, reach, "/P", "/Parent", "/Reference", "/Data")
		}
	}
	acroRef, _ := root["/AcroForm"].(string)
	onlyKeys := func(r string, keys ...string) bool {
		a, b := after[r], before[r]
		if b == nil {
			return false
		}
		for k := range union(a, b) {
			if !slicesContains(keys, k) && jsonText(a[k]) != jsonText(b[k]) {
				return false
			}
		}
		return true
	}
	return func(r string) bool {
		m := after[r]
		switch {
		case reach[r], m["/Type"] == "/XRef", m["/Type"] == "/ObjStm":
			return true
		case r == rootRef:
			return onlyKeys(r, "/DSS", "/AcroForm", "/Extensions", "/Version", "/Metadata")
		case r == acroRef:
			return onlyKeys(r, "/Fields", "/SigFlags", "/DR", "/DA") &&
				gainsOnly(arrayOf2(after, afterText, m["/Fields"]), arrayOf2(before, beforeText, before[r]["/Fields"]), reach)
		case m["/Type"] == "/Page":
			return onlyKeys(r, "/Annots") && gainsOnly(arrayOf2(after, afterText, m["/Annots"]), arrayOf2(before, beforeText, before[r]["/Annots"]), reach)
		case m == nil:
			return gainsOnly(arrayOf(afterText[r]), arrayOf(beforeText[r]), reach)
		}
		return false
	}
}

// arrayOf reads an array object's JSON text ({"value": [...]}).
func arrayOf(text string) []any {
	var o struct {
		Value []any `json:"value"`
	}
	_ = json.Unmarshal([]byte(text), &o)
	return o.Value
}

// arrayOf2 gives an array held directly or by reference.
func arrayOf2(dicts map[string]map[string]any, texts map[string]string, v any) []any {
	switch x := v.(type) {
	case []any:
		return x
	case string:
		return arrayOf(texts[x])
	}
	return nil
}

// gainsOnly says whether the array after keeps every element of the array
// before and only adds references in reach.
func gainsOnly(after, before []any, reach map[string]bool) bool {
	has := map[string]bool{}
	for _, e := range after {
		has[jsonText(e)] = true
	}
	had := map[string]bool{}
	for _, e := range before {
		if !has[jsonText(e)] {
			return false
		}
		had[jsonText(e)] = true
	}
	for _, e := range after {
		if had[jsonText(e)] {
			continue
		}
		if r, _ := e.(string); !reach[r] {
			return false
		}
	}
	return true
}

func union(a, b map[string]any) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

func slicesContains(s []string, x string) bool {
	for _, e := range s {
		if e == x {
			return true
		}
	}
	return false
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// qpdfSeals reads every signature dictionary (a dictionary with /ByteRange)
// and the field whose /V it is from qpdf --json=2.
func qpdfSeals(path string) ([]qpdfSeal, [][]byte, error) {
	dicts, _, err := qpdfObjects(path, false)
	if err != nil {
		return nil, nil, err
	}
	fieldOf := map[string]string{}
	for _, m := range dicts {
		if ref, ok := m["/V"].(string); ok {
			if sig, ok := dicts[ref]; ok && sig["/ByteRange"] != nil {
				fieldOf[ref] = fieldName(dicts, m)
			}
		}
	}
	var seals []qpdfSeal
	refs := make([]string, 0, len(dicts))
	for r := range dicts {
		refs = append(refs, r)
	}
	sort.Strings(refs)
	for _, r := range refs {
		m := dicts[r]
		if m["/ByteRange"] == nil || m["/Contents"] == nil {
			continue
		}
		q := qpdfSeal{ref: r, field: "-", subFilter: "-"}
		if f, ok := fieldOf[r]; ok {
			q.field = f
		}
		if sf, ok := m["/SubFilter"].(string); ok {
			q.subFilter = strings.TrimPrefix(sf, "/")
		}
		if arr, ok := m["/ByteRange"].([]any); ok {
			for _, x := range arr {
				n, _ := x.(json.Number)
				v, err := strconv.ParseInt(string(n), 10, 64)
				if err != nil {
					v = -1
				}
				q.byteRange = append(q.byteRange, v)
			}
		}
		q.contents = qpdfString(m["/Contents"])
		switch c := m["/Cert"].(type) {
		case string:
			q.certs = [][]byte{qpdfString(c)}
		case []any:
			for _, x := range c {
				q.certs = append(q.certs, qpdfString(x))
			}
		}
		seals = append(seals, q)
	}
	return seals, dssCerts(path, dicts), nil
}

// dssCerts reads the certificates of the catalog's /DSS /Certs (ETSI EN
// 319 142-1 §5.4.2): a document timestamp's token may leave its TSA
// certificate there.
func dssCerts(path string, dicts map[string]map[string]any) [][]byte {
	deref := func(v any) map[string]any {
		if m, ok := v.(map[string]any); ok {
			return m
		}
		r, _ := v.(string)
		return dicts[r]
	}
	root := deref(deref(dicts["trailer R"])["/Root"])
	arr, _ := deref(root["/DSS"])["/Certs"].([]any)
	var certs [][]byte
	for _, x := range arr {
		r, _ := x.(string)
		num, _, ok := strings.Cut(r, " ")
		if !ok {
			continue
		}
		b, err := exec.Command("qpdf", "--show-object="+num, "--filtered-stream-data", path).Output()
		if err == nil && len(b) > 0 {
			certs = append(certs, b)
		}
	}
	return certs
}

// qpdfObjects reads qpdf --json=2's objects: each dictionary (a stream's
// dictionary for a stream) by "N G R" (the trailer as "trailer R"), and each
// object's JSON as qpdf wrote it (with its raw stream data when withData).
func qpdfObjects(path string, withData bool) (map[string]map[string]any, map[string]string, error) {
	data := "none"
	if withData {
		data = "inline"
	}
	out, err := exec.Command("qpdf", "--json=2", "--json-key=qpdf", "--json-stream-data="+data, "--decode-level=none", path).Output()
	if err != nil && len(out) == 0 {
		return nil, nil, fmt.Errorf("qpdf --json: %v", err)
	}
	var doc struct {
		Qpdf []json.RawMessage `json:"qpdf"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Qpdf) < 2 {
		return nil, nil, fmt.Errorf("qpdf --json: unreadable output (%v)", err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(doc.Qpdf[1], &raw); err != nil {
		return nil, nil, fmt.Errorf("qpdf --json objects: %v", err)
	}
	dicts, texts := map[string]map[string]any{}, map[string]string{}
	for k, v := range raw {
		ref := strings.TrimSuffix(strings.TrimPrefix(k, "obj:"), " R") + " R"
		texts[ref] = string(v)
		var o struct {
			Value  any `json:"value"`
			Stream struct {
				Dict map[string]any `json:"dict"`
			} `json:"stream"`
		}
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		if err := d.Decode(&o); err != nil {
			return nil, nil, fmt.Errorf("qpdf --json %s: %v", k, err)
		}
		if m, ok := o.Value.(map[string]any); ok {
			dicts[ref] = m
		} else if o.Stream.Dict != nil {
			dicts[ref] = o.Stream.Dict
		}
	}
	return dicts, texts, nil
}

// qpdfXref reads where qpdf --show-xref says each object is defined: its
// offset, or its object stream's for an object in one.
func qpdfXref(path string) map[string]int64 {
	out, _ := exec.Command("qpdf", "--show-xref", path).Output()
	offsets, inStream := map[string]int64{}, map[string]string{}
	for _, l := range strings.Split(string(out), "\n") {
		ref, rest, ok := strings.Cut(l, ": ")
		num, gen, ok2 := strings.Cut(ref, "/")
		if !ok || !ok2 {
			continue
		}
		r := num + " " + gen + " R"
		if _, v, ok := strings.Cut(rest, "offset = "); ok {
			n, _ := strconv.ParseInt(strings.TrimSpace(v), 10, 64)
			offsets[r] = n
		} else if _, v, ok := strings.Cut(rest, "stream = "); ok {
			stream, _, _ := strings.Cut(v, ",")
			inStream[r] = strings.TrimSpace(stream) + " 0 R"
		}
	}
	for r, st := range inStream {
		if off, ok := offsets[st]; ok {
			offsets[r] = off
		}
	}
	return offsets
}

// fieldName joins the /T of a field and its parents with dots.
func fieldName(dicts map[string]map[string]any, m map[string]any) string {
	var parts []string
	for depth := 0; m != nil && depth < 32; depth++ {
		if t := m["/T"]; t != nil {
			parts = append([]string{textString(qpdfString(t))}, parts...)
		}
		ref, _ := m["/Parent"].(string)
		m = dicts[ref]
	}
	if len(parts) == 0 {
		return "-"
	}
	return strings.Join(parts, ".")
}

// qpdfString decodes a string of qpdf's JSON v2 ("u:text" or "b:hex").
func qpdfString(v any) []byte {
	s, _ := v.(string)
	switch {
	case strings.HasPrefix(s, "u:"):
		return []byte(s[2:])
	case strings.HasPrefix(s, "b:"):
		b, _ := hex.DecodeString(s[2:])
		return b
	}
	return nil
}

// textString reads UTF-16BE with its BOM; anything else is kept as it is.
func textString(b []byte) string {
	if len(b) >= 2 && b[0] == 0xfe && b[1] == 0xff {
		u := make([]uint16, 0, len(b)/2)
		for i := 2; i+1 < len(b); i += 2 {
			u = append(u, uint16(b[i])<<8|uint16(b[i+1]))
		}
		return string(utf16.Decode(u))
	}
	return string(b)
}

// pemBundle writes the certificates as one PEM file for openssl's
// -certfile, or returns "" when there are none.
func pemBundle(dir string, certs [][]byte) (string, error) {
	var pem []byte
	for i, c := range certs {
		p := filepath.Join(dir, fmt.Sprintf("dss%d.der", i))
		if err := os.WriteFile(p, c, 0o644); err != nil {
			return "", err
		}
		if out, _, err := openssl("x509", "-inform", "DER", "-in", p); err == nil {
			pem = append(pem, out...)
		}
	}
	if len(pem) == 0 {
		return "", nil
	}
	p := filepath.Join(dir, "dss.pem")
	return p, os.WriteFile(p, pem, 0o644)
}

// opensslVerdict asks openssl whether the seal's value matches the data;
// certfile (if any) offers the DSS's certificates for a signer the CMS
// itself does not carry.
func opensslVerdict(dir string, data []byte, q qpdfSeal, certfile string) string {
	// openssl reads one BER value and ignores the zero padding after it.
	der := q.contents
	if len(bytes.TrimRight(der, "\x00")) == 0 {
		return "unsupported: /Contents is empty"
	}
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, b, 0o644); err != nil {
			panic(err) // the test's own temporary directory
		}
		return p
	}
	dataP, sigP := write("data", data), write("sig.der", der)
	cms := func(args ...string) (string, error) {
		args = append([]string{"cms", "-verify", "-binary", "-inform", "DER", "-in", sigP, "-noverify"}, args...)
		if certfile != "" {
			args = append(args, "-certfile", certfile)
		}
		_, msg, err := openssl(args...)
		return msg, err
	}
	switch q.subFilter {
	case "adbe.pkcs7.detached", "ETSI.CAdES.detached":
		return cmsVerdict(cms("-content", dataP, "-out", os.DevNull))
	case "adbe.pkcs7.sha1":
		econ := filepath.Join(dir, "econtent")
		if v := cmsVerdict(cms("-out", econ)); v != "digest-ok" {
			return v
		}
		return compareDigest(dataP, "sha1", econ)
	case "adbe.x509.rsa_sha1":
		if len(q.certs) == 0 {
			return "unsupported: no /Cert"
		}
		var sig []byte
		if _, err := asn1.Unmarshal(der, &sig); err != nil {
			return "unsupported: /Contents is not an OCTET STRING"
		}
		pub, msg, err := openssl("x509", "-inform", "DER", "-in", write("cert.der", q.certs[0]), "-pubkey", "-noout")
		if err != nil {
			return "unsupported: /Cert: " + msg
		}
		pubP := write("pub.pem", pub)
		for _, alg := range []string{"sha1", "sha256", "sha384", "sha512"} {
			if _, _, err := openssl("dgst", "-"+alg, "-verify", pubP, "-signature", write("sig.bin", sig), dataP); err == nil {
				if alg != "sha1" {
					return "digest-ok (" + alg + ")"
				}
				return "digest-ok"
			}
		}
		return "digest-bad: RSA signature does not verify"
	case "ETSI.RFC3161":
		tst := filepath.Join(dir, "tstinfo.der")
		if v := cmsVerdict(cms("-out", tst)); v != "digest-ok" {
			return v
		}
		return imprintVerdict(dir, dataP, tst)
	}
	return "unsupported: SubFilter " + q.subFilter
}

func openssl(args ...string) ([]byte, string, error) {
	cmd := exec.Command("openssl", args...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	return out, stderr.String(), err
}

// sigTimestampVerdict checks a CMS signature's signature timestamp (the
// unsigned attribute id-aa-timeStampToken, RFC 3161 Appendix A; ETSI EN
// 319 122-1 §5.3): openssl verifies the token's own signature, and its
// imprint must be the digest of the SignerInfo's signature value (the
// OCTET STRING's contents). The CMS is walked with a BER reader written
// here (signers' CMS are often BER, which encoding/asn1 refuses).
func sigTimestampVerdict(dir string, q qpdfSeal, certfile string) string {
	switch q.subFilter {
	case "adbe.pkcs7.detached", "ETSI.CAdES.detached", "adbe.pkcs7.sha1":
	default:
		return "-"
	}
	sigValue, token, ok := signerTimestamp(q.contents)
	if !ok {
		return "-"
	}
	tokP, valP := filepath.Join(dir, "sigtst.der"), filepath.Join(dir, "sigvalue")
	if os.WriteFile(tokP, token, 0o644) != nil || os.WriteFile(valP, sigValue, 0o644) != nil {
		return "unsupported: cannot write"
	}
	tst := filepath.Join(dir, "sigtst-info.der")
	args := []string{"cms", "-verify", "-binary", "-inform", "DER", "-in", tokP, "-noverify", "-out", tst}
	if certfile != "" {
		args = append(args, "-certfile", certfile)
	}
	_, msg, err := openssl(args...)
	if v := cmsVerdict(msg, err); v != "digest-ok" {
		return v
	}
	return imprintVerdict(dir, valP, tst)
}

// signerTimestamp finds, in a CMS ContentInfo (RFC 5652 §5), the first
// SignerInfo's signature value and the token of its id-aa-timeStampToken
// unsigned attribute.
func signerTimestamp(cms []byte) (sigValue, token []byte, ok bool) {
	ci, _, ok := berNext(cms)
	if !ok || len(ci.kids()) < 2 {
		return nil, nil, false
	}
	wrap := ci.kids()[1].kids() // [0] EXPLICIT SignedData
	if len(wrap) == 0 {
		return nil, nil, false
	}
	sd := wrap[0].kids()
	if len(sd) == 0 {
		return nil, nil, false
	}
	infos := sd[len(sd)-1].kids() // signerInfos SET
	if len(infos) == 0 {
		return nil, nil, false
	}
	for _, e := range infos[0].kids() {
		switch {
		case e.class == 0 && e.tag == 4 && !e.constructed:
			sigValue = e.body
		case e.class == 2 && e.tag == 1: // [1] IMPLICIT unsignedAttrs
			for _, attr := range e.kids() {
				a := attr.kids()
				if len(a) == 2 && bytes.Equal(a[0].body, oidTimeStampToken) && len(a[1].kids()) > 0 {
					token = a[1].kids()[0].raw
				}
			}
		}
	}
	return sigValue, token, sigValue != nil && token != nil
}

// oidTimeStampToken is id-aa-timeStampToken, 1.2.840.113549.1.9.16.2.14,
// as its DER contents.
var oidTimeStampToken = []byte{0x2a, 0x86, 0x48, 0x86, 0xf7, 0x0d, 0x01, 0x09, 0x10, 0x02, 0x0e}

// berValue is one BER TLV (X.690 §8.1): raw is the whole encoding, body
// the contents (for an indefinite length, without the end-of-contents).
type berValue struct {
	class, tag  int
	constructed bool
	raw, body   []byte
}

// kids reads a constructed value's elements.
func (v berValue) kids() []berValue {
	if !v.constructed {
		return nil
	}
	var out []berValue
	for b := v.body; len(b) > 0 && len(out) < 4096; {
		k, rest, ok := berNext(b)
		if !ok {
			break
		}
		out = append(out, k)
		b = rest
	}
	return out
}

// berNext reads one TLV from b: tags of one byte or more, definite lengths
// of up to four bytes, and indefinite lengths (their end found by reading
// the elements, at most 64 deep).
func berNext(b []byte) (berValue, []byte, bool) {
	return berNextDepth(b, 0)
}

func berNextDepth(b []byte, depth int) (berValue, []byte, bool) {
	if len(b) < 2 || depth > 64 {
		return berValue{}, nil, false
	}
	v := berValue{class: int(b[0] >> 6), constructed: b[0]&0x20 != 0, tag: int(b[0] & 0x1f)}
	i := 1
	if v.tag == 0x1f {
		v.tag = 0
		for ; i < len(b) && i < 6; i++ {
			v.tag = v.tag<<7 | int(b[i]&0x7f)
			if b[i]&0x80 == 0 {
				break
			}
		}
		i++
	}
	if i >= len(b) {
		return berValue{}, nil, false
	}
	l := int(b[i])
	i++
	switch {
	case l == 0x80: // indefinite: elements until 00 00
		if !v.constructed {
			return berValue{}, nil, false
		}
		start := i
		for {
			if i+1 < len(b) && b[i] == 0 && b[i+1] == 0 {
				v.body, v.raw = b[start:i], b[:i+2]
				return v, b[i+2:], true
			}
			_, rest, ok := berNextDepth(b[i:], depth+1)
			if !ok {
				return berValue{}, nil, false
			}
			i = len(b) - len(rest)
		}
	case l > 0x80:
		n := l & 0x7f
		if n > 4 || i+n > len(b) {
			return berValue{}, nil, false
		}
		l = 0
		for _, c := range b[i : i+n] {
			l = l<<8 | int(c)
		}
		i += n
	}
	if l < 0 || i+l > len(b) {
		return berValue{}, nil, false
	}
	v.body, v.raw = b[i:i+l], b[:i+l]
	return v, b[i+l:], true
}

// opensslReason is the reason part of openssl's first error line
// ("...:error:XXXX:CMS routines:func:reason:file:line:"), or its first line.
var opensslReason = regexp.MustCompile(`error:[0-9A-F]+:[^:]*:[^:]*:([^:\n]*)`)

func cmsVerdict(stderr string, err error) string {
	if err == nil {
		return "digest-ok"
	}
	reason := strings.TrimSpace(strings.SplitN(stderr, "\n", 2)[0])
	if m := opensslReason.FindStringSubmatch(stderr); m != nil {
		reason = m[1]
	}
	switch {
	case strings.Contains(stderr, "digest failure"), strings.Contains(stderr, "content verify error"),
		strings.Contains(stderr, "signature failure"), strings.Contains(stderr, "verification failure"):
		return "digest-bad: " + reason
	}
	return "unsupported: " + reason
}

// compareDigest checks that file want holds openssl's alg digest of data.
func compareDigest(dataP, alg, wantP string) string {
	got, msg, err := openssl("dgst", "-"+alg, "-binary", dataP)
	if err != nil {
		return "unsupported: dgst -" + alg + ": " + msg
	}
	want, err := os.ReadFile(wantP)
	if err != nil {
		return "unsupported: " + err.Error()
	}
	if !bytes.Equal(got, want) {
		return "digest-bad: the signed " + alg + " is not the data's"
	}
	return "digest-ok"
}

// hashNames are the imprint algorithms the oracle knows (RFC 5754, RFC 3279).
var hashNames = map[string]string{
	"1.3.14.3.2.26":          "sha1",
	"2.16.840.1.101.3.4.2.1": "sha256",
	"2.16.840.1.101.3.4.2.2": "sha384",
	"2.16.840.1.101.3.4.2.3": "sha512",
}

// imprintVerdict compares the TSTInfo's messageImprint (RFC 3161 §2.4.2)
// with openssl's digest of the data.
func imprintVerdict(dir, dataP, tstP string) string {
	b, err := os.ReadFile(tstP)
	if err != nil {
		return "unsupported: " + err.Error()
	}
	var info struct {
		Version int
		Policy  asn1.ObjectIdentifier
		Imprint struct {
			Alg struct {
				Algorithm asn1.ObjectIdentifier
				Params    asn1.RawValue `asn1:"optional"`
			}
			Hashed []byte
		}
	}
	if _, err := asn1.Unmarshal(b, &info); err != nil {
		return "unsupported: TSTInfo: " + err.Error()
	}
	alg, ok := hashNames[info.Imprint.Alg.Algorithm.String()]
	if !ok {
		return "unsupported: imprint algorithm " + info.Imprint.Alg.Algorithm.String()
	}
	want := filepath.Join(dir, "imprint")
	if err := os.WriteFile(want, info.Imprint.Hashed, 0o644); err != nil {
		return "unsupported: " + err.Error()
	}
	v := compareDigest(dataP, alg, want)
	if strings.HasPrefix(v, "digest-bad") {
		return "digest-bad: the token's imprint is not the data's " + alg
	}
	return v
}

// pdfsigLine finds pdfsig's field names and verdicts.
var pdfsigLine = regexp.MustCompile(`(?m)^\s*- (Signature Field Name|Signature Validation): (.*)$`)

// pdfsigVerdicts maps each field pdfsig lists to its verdict, shortened:
// "valid", "invalid", "digest-mismatch", "not-verified", or its words.
func pdfsigVerdicts(path string) map[string]string {
	out, _ := exec.Command("pdfsig", "-nocert", path).Output()
	m := map[string]string{}
	field := ""
	for _, g := range pdfsigLine.FindAllStringSubmatch(string(out), -1) {
		if g[1] == "Signature Field Name" {
			field = strings.TrimSpace(g[2])
			continue
		}
		v := strings.TrimSpace(g[2])
		switch {
		case strings.HasPrefix(v, "Signature is Valid"):
			v = "valid"
		case strings.HasPrefix(v, "Signature is Invalid"):
			v = "invalid"
		case strings.HasPrefix(v, "Digest Mismatch"):
			v = "digest-mismatch"
		case strings.HasPrefix(v, "Signature has not yet been verified"):
			v = "not-verified"
		}
		if _, dup := m[field]; !dup {
			m[field] = v
		}
	}
	return m
}

// The oracle can fail: one byte changed inside the ranges both seals of a
// B-LTA file cover makes openssl call both digests bad (not the signature
// timestamp, which covers the signature value only), and one hex digit
// changed in the signature value (the signature's own /Contents, which the
// document timestamp covers) breaks all three.
func TestSealOracleCatchesTampering(t *testing.T) {
	oracleTools(t)
	orig, err := os.ReadFile(filepath.Join("testdata", "seals", "pdfcpu__testPAdES_BLTA.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	seals, err := oracleFile(filepath.Join("testdata", "seals", "pdfcpu__testPAdES_BLTA.pdf"), t.TempDir())
	if err != nil || len(seals) != 2 || seals[0].SigTST != "digest-ok" {
		t.Fatalf("oracle of the untouched file: %+v, %v", seals, err)
	}
	qs, _, err := qpdfSeals(filepath.Join("testdata", "seals", "pdfcpu__testPAdES_BLTA.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	at := -1
	for _, q := range qs {
		if q.subFilter == "ETSI.CAdES.detached" {
			sigValue, _, _ := signerTimestamp(q.contents)
			gap := bytes.ToLower(orig[q.byteRange[1]:q.byteRange[2]])
			if i := bytes.Index(gap, []byte(hex.EncodeToString(sigValue[:16]))); i >= 0 {
				at = int(q.byteRange[1]) + i
			}
		}
	}
	if at < 0 {
		t.Fatal("the signature value is not in its /Contents as hex")
	}
	flip := func(b []byte, i int, to byte) []byte {
		c := append([]byte{}, b...)
		c[i] = to
		return c
	}
	hexDigit := byte('0')
	if orig[at+20] == '0' {
		hexDigit = '1'
	}
	tests := []struct {
		name string
		file []byte
		want []string // each seal's openssl, then the first's signature timestamp
	}{
		{"a byte both ranges cover", flip(orig, 100, orig[100]^0x20), []string{"digest-bad", "digest-bad", "digest-ok"}},
		{"a hex digit of the signature value", flip(orig, at+20, hexDigit), []string{"digest-bad", "digest-bad", "digest-bad"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			p := filepath.Join(t.TempDir(), "tampered.pdf")
			if err := os.WriteFile(p, tc.file, 0o644); err != nil {
				t.Fatal(err)
			}
			got, err := oracleFile(p, t.TempDir())
			if err != nil || len(got) != 2 {
				t.Fatalf("oracleFile = %+v, %v", got, err)
			}
			for i, v := range []string{got[0].OpenSSL, got[1].OpenSSL, got[0].SigTST} {
				if !strings.HasPrefix(v, tc.want[i]) {
					t.Errorf("verdict %d = %q, want %s", i, v, tc.want[i])
				}
			}
		})
	}
}

// The two oracles agree where both judge: a signature pdfsig calls valid
// openssl finds intact, and one whose digest pdfsig finds mismatched
// openssl finds bad (pdfsig cannot verify document timestamps and
// adbe.x509.rsa_sha1: "not-verified").
func TestSealOraclePdfsigAgrees(t *testing.T) {
	for _, golden := range []string{"verdicts.txt", "realworld.txt"} {
		for _, s := range readGolden(t, filepath.Join("testdata", "seals", golden)) {
			switch {
			case s.Pdfsig == "valid" && !strings.HasPrefix(s.OpenSSL, "digest-ok"),
				s.Pdfsig == "digest-mismatch" && !strings.HasPrefix(s.OpenSSL, "digest-bad"):
				t.Errorf("%s %s, field %q: pdfsig says %s, openssl %s", golden, s.File, s.Field, s.Pdfsig, s.OpenSSL)
			}
		}
	}
}
