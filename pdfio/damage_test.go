package pdfio

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
)

// damaged are crafted files, intact and damaged in the ways real files
// are: each is read, and the reader's verdict (damage found, or the file
// unreadable) must be qpdf's (qpdf --check fails or warns).
func damaged(t *testing.T) map[string][]byte {
	t.Helper()
	classic, xstream := plain(3, false), plain(3, true)
	withStream := func() []byte {
		b := pb.New()
		s := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("Metadata"), "Subtype", pb.Name("XML")), Data: []byte("<x:xmpmeta xmlns:x='adobe:ns:meta/'/>")})
		root, _ := b.PageTree(1, nil)
		b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root, "Metadata", s))
		return b.Bytes()
	}()
	// Data that ends in an end-of-line, then CR LF and "endstream" (as in
	// pikepdf__378014596.pdf): pdfcpu takes the data's own LF for the EOL
	// before "endstream"; the /Length is right.
	eolData := func() []byte {
		b := pb.New()
		s := b.Add(&pb.Stream{Dict: pb.D("Type", pb.Name("Metadata"), "Subtype", pb.Name("XML")), Data: []byte("0 TL\nq\nQ\n\r")})
		root, _ := b.PageTree(1, nil)
		b.Root = b.Add(pb.D("Type", pb.Name("Catalog"), "Pages", root, "Metadata", s))
		f := b.Bytes()
		return bytes.Replace(f, []byte("/Length 10"), []byte("/Length 9 "), 1)
	}()
	startxref := func(b []byte, delta int) []byte {
		i := bytes.LastIndex(b, []byte("startxref"))
		f := bytes.Fields(b[i+len("startxref"):])
		off, _ := strconv.Atoi(string(f[0]))
		return append(append([]byte{}, b[:i]...), fmt.Sprintf("startxref\n%d\n%%%%EOF\n", off+delta)...)
	}
	// shiftEntry moves object 2's table entry 7 bytes off.
	shiftEntry := func(b []byte) []byte {
		re := regexp.MustCompile(`(?m)^(\d{10}) 00000 n\s*$`)
		n := 0
		return re.ReplaceAllFunc(b, func(m []byte) []byte {
			if n++; n != 3 { // entries 0 (free), 1, then 2
				return m
			}
			off, _ := strconv.Atoi(string(m[:10]))
			return []byte(fmt.Sprintf("%010d 00000 n ", off+7))
		})
	}
	length := func(b []byte, d int) []byte {
		re := regexp.MustCompile(`/Length (\d+)`)
		return re.ReplaceAllFunc(b, func(m []byte) []byte {
			n, _ := strconv.Atoi(string(m[len("/Length "):]))
			return []byte(fmt.Sprintf("/Length %d", n+d))
		})
	}
	out := map[string][]byte{
		"startxref 7 bytes off, data ending in an EOL": startxref(eolData, 7),
		"intact, table":                  classic,
		"intact, cross-reference stream": xstream,
		"intact, a stream":               withStream,
		"intact, data ending in an EOL":  eolData,
		"startxref 7 bytes off":          startxref(classic, 7),
		"startxref 7 bytes off, stream":  startxref(xstream, 7),
		"no startxref":                   bytes.Replace(classic, []byte("startxref"), []byte("startxrex"), 1),
		"an entry 7 bytes off":           shiftEntry(classic),
		"a /Length too short":            length(withStream, -5),
		"a /Length too long":             length(withStream, 5),
		"truncated":                      classic[:len(classic)*2/3],
	}
	// An update whose cross-reference stream has /W [0 0 0]: it locates
	// nothing.
	zeroW := append(append([]byte{}, xstream...), []byte(fmt.Sprintf(
		"\n99 0 obj\n<</Type/XRef/Size 100/W[0 0 0]/Index[99 1]/Root 1 0 R/Prev %d/Length 0>>\nstream\n\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n",
		mustStartXRef(t, xstream), len(xstream)+1))...)
	out["an update with /W [0 0 0]"] = zeroW
	for _, name := range []string{"deep-nesting", "truncated"} {
		b, err := pb.Hostile(name)
		if err != nil {
			t.Fatal(err)
		}
		out["hostile "+name] = b
	}
	return out
}

// qpdfDamaged is qpdf's verdict: --check fails, or warns.
func qpdfDamaged(t *testing.T, qpdf string, b []byte) (bool, string) {
	p := filepath.Join(t.TempDir(), "f.pdf")
	os.WriteFile(p, b, 0o644)
	out, err := exec.Command(qpdf, "--check", p).CombinedOutput()
	return err != nil || bytes.Contains(out, []byte("WARNING")), string(out)
}

// The reader reports what qpdf reports: a file that needed repair, or
// could not be read, is damaged by both; an intact one by neither.
func TestDamageAgreesWithQPDF(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	for name, b := range damaged(t) {
		t.Run(name, func(t *testing.T) {
			want, qout := qpdfDamaged(t, qpdf, b)
			d, err := ReadBytes(b, name, Options{})
			got := err != nil || len(d.Damage) > 0
			var what []string
			if err != nil {
				var pe *Error
				if !errors.As(err, &pe) {
					t.Errorf("not a *pdfio.Error: %v", err)
				}
				what = append(what, "unreadable: "+err.Error())
			} else {
				for _, dm := range d.Damage {
					what = append(what, string(dm.Kind))
				}
			}
			t.Logf("qpdf damaged %v, webcap %v %q", want, got, what)
			if got != want {
				t.Errorf("webcap says damaged=%v (%q), qpdf %v:\n%s", got, what, want, qout)
			}
		})
	}
}

func mustStartXRef(t *testing.T, b []byte) int64 {
	t.Helper()
	off, err := lastStartXRef(b)
	if err != nil {
		t.Fatal(err)
	}
	return off
}

// On real files the reader finds damage where qpdf says the file is
// damaged, and nowhere else (qpdf's warnings about linearization hints
// are not damage).
func TestRealWorldDamageAgreesWithQPDF(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	files, _ := filepath.Glob(filepath.Join(sharedtest.Dir(t, "realworld"), "*.pdf"))
	damagedFiles := 0
	for _, f := range files {
		t.Run(filepath.Base(f), func(t *testing.T) {
			out, err := exec.Command(qpdf, "--password=1234", "--check", f).CombinedOutput()
			var ee *exec.ExitError
			want := bytes.Contains(out, []byte("file is damaged")) || (errors.As(err, &ee) && ee.ExitCode() == 2)
			b, _ := os.ReadFile(f)
			d, rerr := ReadBytes(b, f, Options{Password: "1234"})
			got := rerr != nil || len(d.Damage) > 0
			if got != want {
				t.Errorf("webcap damaged=%v (%v), qpdf %v:\n%s", got, rerr, want, out)
			}
			if got {
				damagedFiles++
			}
		})
	}
	t.Logf("%d real files, %d damaged by both", len(files), damagedFiles)
}

// A file whose cross-reference table is rebuilt has each stream read up to
// "endstream" by pdfcpu, which trims an end-of-line of the data itself
// from a right /Length: the reader checks the /Length the file writes, and
// finds only the cross-reference damage (pikepdf__378014596.pdf's object
// 48 was reported as a wrong /Length).
func TestRebuiltKeepsRightLength(t *testing.T) {
	b := damaged(t)["startxref 7 bytes off, data ending in an EOL"]
	d, err := ReadBytes(b, "eol.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []DamageKind
	for _, dm := range d.Damage {
		kinds = append(kinds, dm.Kind)
	}
	if len(kinds) != 1 || kinds[0] != DamageXRef {
		t.Errorf("damage %v, want only %s", kinds, DamageXRef)
	}
}

// TestFirstFields: objectAt's split is bytes.Fields's, white space and
// bytes that are not ASCII included (the oracle is bytes.Fields itself).
func TestFirstFields(t *testing.T) {
	for _, w := range []string{
		"", " ", "1 0 obj", "  12 0 obj<<", "12\t0\nobj", "12\v0\fobj\r", "1 0", "1\x000 obj",
		"1 0 obj\xc2\xa0x", "1\xc2\xa00 obj", "1\xc2\x850 obj", "1\xe2\x80\x830 obj", "\xff1 0 obj", "1 0 \xc2",
		"1 0 obj 2 0 obj 3 0 obj", "+7 0 obj", "007 0 objx",
	} {
		var got [3][]byte
		ok := firstFields([]byte(w), &got)
		want := bytes.Fields([]byte(w))
		if ok != (len(want) >= 3) {
			t.Errorf("firstFields(%q) = %v, want %v", w, ok, len(want) >= 3)
			continue
		}
		for i := 0; ok && i < 3; i++ {
			if !bytes.Equal(got[i], want[i]) {
				t.Errorf("firstFields(%q)[%d] = %q, want %q", w, i, got[i], want[i])
			}
		}
	}
}
