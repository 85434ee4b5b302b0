package pdfio

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// A /Prev chain that loops is read as qpdf reads it (qpdf, the oracle,
// warns "loop detected following xref tables" and reconstructs): the same
// SpiderInfo (the update's /V 1.0, not the original's 1.25) and the same
// tree keys; the loop is damage, and an update, which would chain into the
// loop again, is refused with advice.
func TestPrevLoopReadAsQPDF(t *testing.T) {
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed (apt-get install qpdf)")
	}
	for _, name := range []string{"prev-loop", "prev-self"} {
		t.Run(name, func(t *testing.T) {
			b, err := pb.Hostile(name)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), name+".pdf")
			if err := os.WriteFile(p, b, 0o644); err != nil {
				t.Fatal(err)
			}
			q := qpdfRead(t, qpdf, p)
			d, err := ReadBytes(b, name+".pdf", Options{})
			if err != nil {
				t.Fatalf("ReadBytes: %v (qpdf reads it)", err)
			}
			loop := false
			for _, dm := range d.Damage {
				loop = loop || dm.Kind == DamageXRef && strings.Contains(dm.Message, "the /Prev chain loops")
			}
			if !loop {
				t.Errorf("no damage says the /Prev chain loops: %+v", d.Damage)
			}
			cat := q.deref(q.trailer()["/Root"])
			info := q.deref(cat["/SpiderInfo"])
			if d.Info == nil || d.Info.Version == nil || d.Info.Version.Value != info["/V"] {
				t.Errorf("SpiderInfo %+v, qpdf reads /V %v", d.Info, info["/V"])
			}
			names := q.deref(cat["/Names"])
			for _, tr := range []*Tree{d.IDS, d.URLS} {
				leaf := q.deref(names["/"+tr.Name])
				keys, _ := leaf["/Names"].([]any)
				if len(tr.Entries) != len(keys)/2 || len(keys) == 0 {
					t.Errorf("%s: %d keys, qpdf reads %d", tr.Name, len(tr.Entries), len(keys)/2)
				}
			}
			_, err = NewUpdate(b, name+".pdf", Options{})
			var pe *Error
			if !errors.As(err, &pe) || !strings.Contains(err.Error(), "/Prev chain loops") || !strings.Contains(err.Error(), "qpdf in.pdf out.pdf") {
				t.Errorf("NewUpdate: %v, want a refusal that names the loop and the way out", err)
			}
		})
	}
}

// qpdfJSON is what qpdf --json=2 says of a file's objects.
type qpdfJSON map[string]any

func qpdfRead(t *testing.T, qpdf, path string) qpdfJSON {
	t.Helper()
	out, err := exec.Command(qpdf, "--json=2", "--json-key=qpdf", path).Output()
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 3) { // 3: warnings (it reconstructed)
		t.Fatalf("qpdf --json: %v", err)
	}
	var doc struct {
		QPDF []json.RawMessage `json:"qpdf"`
	}
	var objs qpdfJSON
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.QPDF) != 2 {
		t.Fatalf("qpdf --json: %v", err)
	}
	if err := json.Unmarshal(doc.QPDF[1], &objs); err != nil {
		t.Fatal(err)
	}
	return objs
}

func (q qpdfJSON) trailer() map[string]any {
	o, _ := q["trailer"].(map[string]any)
	v, _ := o["value"].(map[string]any)
	return v
}

// deref is the dictionary a reference ("5 0 R") names.
func (q qpdfJSON) deref(v any) map[string]any {
	if s, ok := v.(string); ok {
		o, _ := q["obj:"+s].(map[string]any)
		v = o["value"]
	}
	d, _ := v.(map[string]any)
	return d
}
