package audit_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// On signed files other tools made (testdata/seals) and on the signed files
// of ../shared/realworld, the auditor's verdict on every signature and
// document timestamp agrees with the oracle's (sealoracle_test.go: qpdf +
// openssl, no project code), read from the golden files, and a file whose
// last seal is followed by changes gets the WC-SEAL-AFTER that names them.
//
// Agreement, per seal (the oracle's openssl and range columns):
//   - digest-ok over a well-formed range: WC-SEAL-VERIFIED, and no
//     WC-SEAL-FORMAT, -RANGE or -DIGEST;
//   - digest-ok over a range that is not [0 a b c] around /Contents up to
//     its revision's end, or whose signature dictionary was rewritten after
//     it (a spoofing attack: the dictionary read is not the one signed):
//     WC-SEAL-RANGE, not verified;
//   - digest-bad: WC-SEAL-DIGEST (or WC-SEAL-RANGE when the range is also
//     wrong), not verified;
//   - a range openssl cannot cut: WC-SEAL-RANGE, not verified;
//   - a CMS or token openssl cannot read: WC-SEAL-FORMAT, not verified;
//   - a signature timestamp whose imprint is not the digest of the
//     signature value: WC-SEAL-DIGEST (one that openssl verifies, or none,
//     changes nothing of the above).
//
// And per file (the last column): "changes: …" after the last seal is one
// WC-SEAL-AFTER naming each of those objects; "allowed …" or "-" is none.
// Where the auditor and the oracle disagree on purpose, sealDisagreements
// says why; a listed disagreement that no longer happens fails the test too.
func TestSealCorpusAgreesWithOracle(t *testing.T) {
	files, _ := filepath.Glob(filepath.Join("testdata", "seals", "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no files in testdata/seals")
	}
	compareWithOracle(t, files, readGolden(t, filepath.Join("testdata", "seals", "verdicts.txt")))
}

func TestSealRealWorldAgreesWithOracle(t *testing.T) {
	dir := sharedtest.Dir(t, "realworld")
	oracle := readGolden(t, filepath.Join("testdata", "seals", "realworld.txt"))
	seen := map[string]bool{}
	var files []string
	for _, s := range oracle {
		if !seen[s.File] {
			seen[s.File] = true
			files = append(files, filepath.Join(dir, s.File))
		}
	}
	compareWithOracle(t, files, oracle)
}

// sealDisagreements are the known differences between the auditor and the
// oracle: "file|field|what" → why, each reported to the seal rules' owner.
var sealDisagreements = map[string]string{
	// The last cross-reference section's /Prev is 0: qpdf (the oracle)
	// reads only the document timestamp (Signature6). The auditor finds
	// the revisions by their "startxref N %%EOF" markers and sees the 5
	// signatures too; their ranges end at revisions, and it verifies all
	// 5 (WC-SEAL-VERIFIED), as `openssl cms -verify -binary -noverify`
	// does with each range's bytes (checked by hand, 2026-11-28; their
	// signed attributes are not in DER order, and are verified as
	// written). The oracle, reading through qpdf, has no row for them.
	"dss__pades-5-signatures-and-1-document-timestamp.pdf|Signature1|extra": "qpdf does not see it; the auditor and openssl verify it",
	"dss__pades-5-signatures-and-1-document-timestamp.pdf|Signature2|extra": "qpdf does not see it; the auditor and openssl verify it",
	"dss__pades-5-signatures-and-1-document-timestamp.pdf|Signature3|extra": "qpdf does not see it; the auditor and openssl verify it",
	"dss__pades-5-signatures-and-1-document-timestamp.pdf|Signature4|extra": "qpdf does not see it; the auditor and openssl verify it",
	"dss__pades-5-signatures-and-1-document-timestamp.pdf|Signature5|extra": "qpdf does not see it; the auditor and openssl verify it",
	// The file's first 7 bytes (%PDF-1.) are overwritten; qpdf reads it
	// anyway and openssl finds the signature's digest bad. The reader
	// refuses the file (no %PDF- header): `webcap audit` exits 4
	// (unreadable), so the tampering is caught, but not as WC-SEAL-DIGEST.
	"dss__malformed-pades.pdf|*|unreadable": "refused before any seal is read",
}

// sealSeen is what the auditor said of one seal.
type sealSeen struct {
	field string // the field's name as pdfio gives it
	ref   webcapture.Ref
	rules map[string]bool
	msgs  []string
}

func compareWithOracle(t *testing.T, files []string, oracle []oracleSeal) {
	t.Helper()
	byFile := map[string][]oracleSeal{}
	for _, s := range oracle {
		byFile[s.File] = append(byFile[s.File], s)
	}
	happened, ran := map[string]bool{}, map[string]bool{}
	for _, f := range files {
		name := filepath.Base(f)
		t.Run(name, func(t *testing.T) {
			ran[name] = true
			want := byFile[name]
			if len(want) == 0 {
				t.Fatalf("the golden file has no seal of %s: run go test ./audit -run SealOracle -update-seals", name)
			}
			disagree := func(field, what, format string, args ...any) {
				key := name + "|" + field + "|" + what
				happened[key] = true
				if _, known := sealDisagreements[key]; !known {
					t.Errorf("%s, field %q: %s", name, field, fmt.Sprintf(format, args...))
				}
			}
			seals, afters, err := auditSeals(f)
			if err != nil {
				disagree("*", "unreadable", "the oracle reads %d seal(s) (openssl: %s); the reader refuses the file: %v", len(want), want[0].OpenSSL, err)
				return
			}
			for _, o := range want {
				got, ok := seals[o.Field]
				if !ok {
					disagree(o.Field, "unseen", "openssl says %s (%s), the auditor does not see this seal (pdfio.Document.Seals has no such field)", o.OpenSSL, o.SubFilter)
					continue
				}
				delete(seals, o.Field)
				if got.field != o.Field && !(got.field == "" && o.Field == "-") {
					disagree(o.Field, "name", "the auditor names the field %q", got.field)
				}
				t.Logf("%s | %s | %s | openssl %s, signature timestamp %s | pdfsig %s | range %s | auditor %v", name, o.Field, o.SubFilter, o.OpenSSL, o.SigTST, o.Pdfsig, o.Range, sortedRules(got.rules))
				for _, d := range sealAgreement(o, got) {
					disagree(o.Field, d.what, "openssl says %s (signature timestamp: %s), range %s; %s", o.OpenSSL, o.SigTST, o.Range, d.msg)
				}
			}
			for field, got := range seals {
				disagree(field, "extra", "the auditor sees a seal (%s, %q) the oracle does not", got.ref, got.msgs)
			}
			last := want[len(want)-1]
			switch {
			case strings.HasPrefix(last.Later, "changes: "):
				if len(afters) == 0 {
					disagree(last.Field, "after", "after the last seal the oracle finds %s; the auditor gives no WC-SEAL-AFTER", last.Later)
					break
				}
				for _, obj := range laterObjects(last.Later) {
					if !strings.Contains(strings.Join(afters, "\n"), obj) {
						disagree(last.Field, "after "+obj, "after the last seal the oracle finds %s changed; WC-SEAL-AFTER does not name it: %q", obj, afters)
					}
				}
			case len(afters) > 0:
				disagree(last.Field, "after", "after the last seal the oracle finds %q; the auditor says WC-SEAL-AFTER %q", last.Later, afters)
			}
		})
	}
	for key, why := range sealDisagreements {
		file := strings.SplitN(key, "|", 2)[0]
		if ran[file] && !happened[key] {
			t.Errorf("sealDisagreements[%q] (%s) no longer happens: remove it", key, why)
		}
	}
}

type agreementGap struct{ what, msg string }

// sealAgreement lists how the auditor's findings on one seal differ from
// what the oracle's verdict asks for.
func sealAgreement(o oracleSeal, got sealSeen) []agreementGap {
	rangeOK := (o.Range == "whole" || strings.HasPrefix(o.Range, "after=")) && !strings.Contains(o.Range, "dict-after-seal")
	var need, forbid []string
	switch {
	case o.OpenSSL == "digest-ok" || strings.HasPrefix(o.OpenSSL, "digest-ok ("):
		if rangeOK {
			need, forbid = []string{"WC-SEAL-VERIFIED"}, []string{"WC-SEAL-FORMAT", "WC-SEAL-RANGE", "WC-SEAL-DIGEST"}
		} else {
			need, forbid = []string{"WC-SEAL-RANGE"}, []string{"WC-SEAL-VERIFIED", "WC-SEAL-DIGEST"}
		}
	case strings.HasPrefix(o.OpenSSL, "digest-bad"):
		forbid = []string{"WC-SEAL-VERIFIED"}
		if rangeOK {
			need = []string{"WC-SEAL-DIGEST"}
		} else if !got.rules["WC-SEAL-DIGEST"] {
			need = []string{"WC-SEAL-RANGE"}
		}
	case strings.HasPrefix(o.OpenSSL, "unsupported: ByteRange"):
		need, forbid = []string{"WC-SEAL-RANGE"}, []string{"WC-SEAL-VERIFIED"}
	default: // openssl cannot read the CMS or the token
		need, forbid = []string{"WC-SEAL-FORMAT"}, []string{"WC-SEAL-VERIFIED"}
	}
	if strings.HasPrefix(o.SigTST, "digest-bad") {
		need = append(need, "WC-SEAL-DIGEST")
	}
	var gaps []agreementGap
	for _, r := range need {
		if !got.rules[r] {
			gaps = append(gaps, agreementGap{"no " + r, fmt.Sprintf("the auditor gives no %s (it says %v: %q)", r, sortedRules(got.rules), got.msgs)})
		}
	}
	for _, r := range forbid {
		if got.rules[r] {
			gaps = append(gaps, agreementGap{r, fmt.Sprintf("the auditor says %s (%v: %q)", r, sortedRules(got.rules), got.msgs)})
		}
	}
	return gaps
}

// auditSeals audits one file with its bytes, and returns the seal findings
// by field name (the oracle's: "-" when no field holds the seal) and the
// messages of WC-SEAL-AFTER.
func auditSeals(path string) (map[string]sealSeen, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	d, err := pdfio.ReadBytes(b, filepath.Base(path), pdfio.Options{})
	if err != nil {
		return nil, nil, err
	}
	seals := map[string]sealSeen{}
	fieldOf := map[webcapture.Ref]string{}
	for _, s := range d.Seals {
		// Matched by the decoded name; a name pdfio left undecoded is a
		// disagreement of its own (compareWithOracle).
		field := textString([]byte(s.Field))
		if field == "" {
			field = "-"
		}
		fieldOf[s.Ref] = field
		seals[field] = sealSeen{field: s.Field, ref: s.Ref, rules: map[string]bool{}}
	}
	var afters []string
	for _, f := range audit.Check(d, audit.Options{File: bytes.NewReader(b), FileSize: int64(len(b))}) {
		if !strings.HasPrefix(f.Rule, "WC-SEAL-") {
			continue
		}
		if f.Rule == "WC-SEAL-AFTER" && f.Severity == audit.Serious {
			// (a warning names the metadata changed, which the oracle
			// calls allowed)
			afters = append(afters, f.Message)
		}
		field, ok := fieldOf[f.Object]
		if !ok {
			continue
		}
		s := seals[field]
		s.rules[f.Rule] = true
		s.msgs = append(s.msgs, f.Rule+": "+f.Message)
		seals[field] = s
	}
	return seals, afters, nil
}

// laterObjects reads the objects of an oracle's "changes: N G R (Kind); …"
// (the info/metadata and unreferenced lists after the first comma are not
// WC-SEAL-AFTER's).
func laterObjects(later string) []string {
	later = strings.TrimPrefix(later, "changes: ")
	later, _, _ = strings.Cut(later, ", ")
	var out []string
	for _, p := range strings.Split(later, "; ") {
		if f := strings.Fields(p); len(f) >= 3 {
			out = append(out, strings.Join(f[:3], " "))
		}
	}
	return out
}

func sortedRules(m map[string]bool) []string {
	var out []string
	for r := range m {
		out = append(out, r)
	}
	sort.Strings(out)
	return out
}
