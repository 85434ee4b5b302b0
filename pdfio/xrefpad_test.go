package pdfio

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// A cross-reference stream that inflates to 500 MiB (13 entries, then
// zeros) is read as its entries only, and said to be damage; qpdf, the
// oracle, finds the same fault ("Cross-reference stream data has the
// wrong size"). pdfcpu alone inflated it whole: 940 MB to read a 500 KB
// file, and no word of it.
func TestXRefStreamPaddingReadAsEntries(t *testing.T) {
	b, err := pb.Hostile("huge-xref-stream")
	if err != nil {
		t.Fatal(err)
	}
	cut := withoutXRefPadding(b)
	if len(cut) != len(b) || bytes.Equal(cut, b) {
		t.Fatalf("the copy given to pdfcpu: %d bytes (the file's %d), changed %v; want as long, changed", len(cut), len(b), !bytes.Equal(cut, b))
	}
	d, err := ReadBytes(b, "xs.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sets) != 1 || d.IDS == nil || len(d.IDS.Entries) != 1 {
		t.Errorf("read %d sets and an IDS tree %v; want the one set, under its key", len(d.Sets), d.IDS)
	}
	said := false
	for _, dm := range d.Damage {
		said = said || dm.Kind == DamageXRef && strings.Contains(dm.Message, "inflates to more than its 13 entries need")
	}
	if !said {
		t.Errorf("damage %v: want the cross-reference stream said to inflate to more than its entries", d.Damage)
	}
	// A stream that is its entries alone is left as it is.
	plain := pb.ObjectStreamsOf(2, 16)
	if got := withoutXRefPadding(plain); !bytes.Equal(got, plain) {
		t.Error("a cross-reference stream of its entries only was changed")
	}
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed (apt-get install qpdf): the oracle's view is not checked")
	}
	p := filepath.Join(t.TempDir(), "xs.pdf")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(qpdf, "--check", p).CombinedOutput()
	if !bytes.Contains(out, []byte("Cross-reference stream data has the wrong size; expected = 65")) {
		t.Errorf("qpdf --check does not find the stream too long:\n%s", out)
	}
}
