package pdfio

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/webcapture"
)

// The signed real files: each seal's field, subfilter and /ByteRange as
// qpdf shows them, its /Contents found where the range leaves a gap, its
// range ending at a revision's end; the revisions in file order.
func TestRealWorldSeals(t *testing.T) {
	dir := sharedtest.Dir(t, "realworld")
	for _, tc := range []struct {
		file, field, subFilter string
		byteRange              [4]int64
		revisions              int
		dssCerts               int
	}{
		{"dss__DSS-2025.pdf", "SigCS-1432220495366", "adbe.pkcs7.detached", [4]int64{0, 44522, 64524, 821}, 4, 0},
		{"dss__Signature-P-IT_ETSI-3.pdf", "Signature2", "ETSI.CAdES.detached", [4]int64{0, 60752, 82082, 8928}, 2, 0},
		{"dss__test-with-vri.pdf", "TestSignature", "ETSI.CAdES.detached", [4]int64{0, 530633, 555403, 7198}, 5, 3},
		{"endesive__pdf-adobe-webcapture-x509.rsa_sha1.pdf", "Alice-1-1096825554", "adbe.x509.rsa_sha1", [4]int64{0, 30700, 30964, 181761}, 1, 0},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := Open(filepath.Join(dir, tc.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			if len(d.Seals) != 1 {
				t.Fatalf("%d seals, want 1", len(d.Seals))
			}
			s := d.Seals[0]
			if s.Field != tc.field || s.SubFilter != tc.subFilter || [4]int64(s.ByteRange) != tc.byteRange {
				t.Errorf("seal %q %s %v, want %q %s %v", s.Field, s.SubFilter, s.ByteRange, tc.field, tc.subFilter, tc.byteRange)
			}
			if s.ContentsAt != tc.byteRange[1] || s.ContentsAt+s.ContentsLen != tc.byteRange[2] || len(s.Contents) == 0 {
				t.Errorf("/Contents at %d, %d bytes (%d decoded), want the range's gap", s.ContentsAt, s.ContentsLen, len(s.Contents))
			}
			if len(d.Revisions) != tc.revisions {
				t.Errorf("%d revisions, want %d", len(d.Revisions), tc.revisions)
			}
			end, found := tc.byteRange[2]+tc.byteRange[3], false
			for i, r := range d.Revisions {
				found = found || r.End == end
				if i > 0 && r.Start != d.Revisions[i-1].End {
					t.Errorf("revision %d starts at %d, the one before ends at %d", i, r.Start, d.Revisions[i-1].End)
				}
			}
			if !found {
				t.Errorf("the range ends at %d, no revision's end", end)
			}
			got := 0
			if d.DSS != nil {
				got = len(d.DSS.Certs)
			}
			if got != tc.dssCerts {
				t.Errorf("%d /DSS certificates, want %d", got, tc.dssCerts)
			}
		})
	}
}

// The signed files of other tools (audit/testdata/seals): the seals each
// holds, their fields' names decoded (UTF-16BE with a BOM in DSS-3226).
func TestVendoredSeals(t *testing.T) {
	for _, tc := range []struct {
		file   string
		fields []string // each seal's Field, in order
	}{
		{"dss__DSS-3226.pdf", []string{"Signaturefield", "Signaturefield_1"}},
		{"pdfcpu__usageRights.pdf", []string{"(UR3)"}}, // /Perms /UR3, no field
		// Sig1's field is taken out of /Fields by the last update (2).
		{"dss__pdf-spoofing-attack.pdf", []string{"Sig2", "Sig1(dropped in 2)"}},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := Open(filepath.Join("..", "audit", "testdata", "seals", tc.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, s := range d.Seals {
				f := s.Field
				if s.UsageRights {
					f += "(UR3)"
				}
				if s.DroppedIn > 0 {
					f += fmt.Sprintf("(dropped in %d)", s.DroppedIn)
				}
				got = append(got, f)
			}
			if !slices.Equal(got, tc.fields) {
				t.Errorf("seals %q, want %q", got, tc.fields)
			}
		})
	}
}

// What the updates after the first revision hold, as Revision.Roles says:
// an object nothing reachable refers to is "unreferenced" (pdfcpu's B-LT
// sample: its DSS update adds an Info-like dictionary, object 28, that
// nothing refers to).
func TestVendoredRevisionRoles(t *testing.T) {
	for _, tc := range []struct {
		file string
		ref  webcapture.Ref
		role string
	}{
		{"pdfcpu__testPAdES_BLT.pdf", webcapture.Ref{Num: 28}, "unreferenced object"},
		{"pdfcpu__testPAdES_BLT.pdf", webcapture.Ref{Num: 1}, "catalog"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			d, err := Open(filepath.Join("..", "audit", "testdata", "seals", tc.file), Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := ""
			for _, rv := range d.Revisions {
				if i := slices.Index(rv.Objects, tc.ref); i >= 0 && i < len(rv.Roles) {
					got = rv.Roles[i]
				}
			}
			if got != tc.role {
				t.Errorf("%s is %q, want %q", tc.ref, got, tc.role)
			}
		})
	}
}

// A last cross-reference section whose /Prev points at no section (DSS's
// pades-5-signatures-and-1-document-timestamp.pdf has /Prev 0): the
// revisions are found all the same, by the "startxref N %%EOF" markers.
func TestRevisionsBrokenPrev(t *testing.T) {
	for _, file := range []string{"dss__doc-firmado.pdf", "pyhanko__pades-lta-dss-indirect-arrs-test-2.pdf"} {
		t.Run(file, func(t *testing.T) {
			b, err := os.ReadFile(filepath.Join("..", "audit", "testdata", "seals", file))
			if err != nil {
				t.Fatal(err)
			}
			ends := func(b []byte) []int64 {
				d, err := ReadBytes(b, file, Options{})
				if err != nil {
					t.Fatal(err)
				}
				var out []int64
				for _, r := range d.Revisions {
					out = append(out, r.End)
				}
				return out
			}
			want := ends(b)
			m := regexp.MustCompile(`/Prev\s+\d+`).FindAllIndex(b, -1)
			if len(want) < 2 || len(m) == 0 {
				t.Fatalf("%d revisions, %d /Prev", len(want), len(m))
			}
			broken := bytes.Clone(b)
			at := m[len(m)-1]
			copy(broken[at[0]:at[1]], fmt.Sprintf("%-*s", at[1]-at[0], "/Prev 0"))
			if got := ends(broken); !slices.Equal(got, want) {
				t.Errorf("with /Prev 0 the revisions end at %v, want %v", got, want)
			}
		})
	}
}
