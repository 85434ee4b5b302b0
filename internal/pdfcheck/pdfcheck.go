// Package pdfcheck checks PDF files the way other tools see them (qpdf,
// poppler), for tests, and changes them as a tamperer would.
package pdfcheck

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webcap/webcap/pdfio"
)

// InternalLinks reads every link of a capture back with qpdf's JSON: a
// GoTo action's named destination must lead to the first page of the page
// set its /PA URI names, and no link to a captured page may be left a URI
// action. It returns the number of GoTo links with /PA (0 without qpdf).
func InternalLinks(t testing.TB, pdf []byte) int {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Log("qpdf not installed: internal links not checked")
		return 0
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "c.pdf")
	os.WriteFile(in, pdf, 0o644)
	out, err := exec.Command(qpdf, "--check", in).CombinedOutput()
	if err != nil || strings.Contains(string(out), "WARNING") {
		t.Errorf("qpdf --check: %v\n%s", err, out)
	}
	d, err := pdfio.ReadBytes(pdf, "c.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	firstPage := map[string]string{}
	setPages := map[string][]string{}
	for _, cs := range d.Sets {
		if cs.IsPageSet() {
			for _, u := range cs.SourceURLs() {
				firstPage[u] = cs.Objects[0].String()
				for _, o := range cs.Objects {
					setPages[u] = append(setPages[u], o.String())
				}
			}
		}
	}
	js, err := exec.Command(qpdf, "--json=2", "--json-key=qpdf", in).Output()
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Qpdf []json.RawMessage `json:"qpdf"`
	}
	if err := json.Unmarshal(js, &doc); err != nil || len(doc.Qpdf) < 2 {
		t.Fatalf("qpdf json: %v", err)
	}
	objs, obj := objects(doc.Qpdf[1])
	// The /Dests tree: name -> page.
	dest := map[string]string{}
	var walk func(ref string, depth int)
	walk = func(ref string, depth int) {
		node := obj(ref)
		if depth > 16 || node == nil {
			return
		}
		kids, _ := node["/Kids"].([]any)
		for _, k := range kids {
			walk(k.(string), depth+1)
		}
		names, _ := node["/Names"].([]any)
		for i := 0; i+1 < len(names); i += 2 {
			arr, _ := objs["obj:"+names[i+1].(string)].Value.([]any)
			if len(arr) >= 2 && (arr[1] == "/Fit" || arr[1] == "/XYZ") {
				dest[names[i].(string)] = arr[0].(string)
			}
		}
	}
	for _, o := range objs {
		m, _ := o.Value.(map[string]any)
		if d, ok := m["/Dests"].(string); ok && m["/Type"] != "/Catalog" {
			walk(d, 0)
		}
	}
	checked := 0
	for _, o := range objs {
		m, _ := o.Value.(map[string]any)
		a, _ := m["/A"].(map[string]any)
		pa, _ := m["/PA"].(map[string]any)
		if m["/Subtype"] != "/Link" || a["/S"] != "/GoTo" {
			continue
		}
		uri, _ := pa["/URI"].(string)
		target, frag, _ := strings.Cut(strings.TrimPrefix(uri, "u:"), "#")
		name, _ := a["/D"].(string)
		got := dest[name]
		switch {
		case got == "":
			t.Errorf("link to %s goes to %q, which is no destination of the /Dests tree", uri, name)
		case frag == "" && got != firstPage[target]:
			t.Errorf("link to %s goes to %s, want %s (its page set's first page)", uri, got, firstPage[target])
		case !slices.Contains(setPages[target], got):
			t.Errorf("link to %s goes to %s, which is not a page of its page set %v", uri, got, setPages[target])
		}
		checked++
	}
	u, err := pdfio.NewUpdate(pdf, "c.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// After the update no link to a captured page is left as a URI action.
	for _, p := range d.Pages {
		links, _ := u.LinkURIs(p.Ref)
		for _, l := range links {
			target, _, _ := strings.Cut(l.URI, "#")
			if _, captured := firstPage[target]; captured {
				t.Errorf("page %d: link to captured %s is still a URI action", p.Number, l.URI)
			}
		}
	}
	return checked
}

// Render renders every page with poppler's pdftoppm at low resolution and
// checks that it made one image per page (pages is the expected count).
func Render(t testing.TB, pdf []byte, pages int) {
	t.Helper()
	pdftoppm, err := exec.LookPath("pdftoppm")
	if err != nil {
		t.Log("pdftoppm not installed: rendering not checked")
		return
	}
	dir := t.TempDir()
	in := filepath.Join(dir, "capture.pdf")
	os.WriteFile(in, pdf, 0o644)
	if out, err := exec.Command(pdftoppm, "-r", "20", "-png", in, filepath.Join(dir, "p")).CombinedOutput(); err != nil {
		t.Errorf("pdftoppm: %v\n%s", err, out)
	}
	pngs, _ := filepath.Glob(filepath.Join(dir, "p*.png"))
	if len(pngs) != pages {
		t.Errorf("pdftoppm rendered %d of %d pages", len(pngs), pages)
	}
}

// qpdfObject is an object of qpdf's JSON (--json=2).
type qpdfObject struct {
	Value any `json:"value"`
}

// objects reads the objects of qpdf's JSON, and returns them with a
// function that gives the dictionary a reference ("12 0 R") names (nil if
// it is none).
func objects(raw json.RawMessage) (map[string]qpdfObject, func(ref string) map[string]any) {
	var objs map[string]qpdfObject
	json.Unmarshal(raw, &objs)
	return objs, func(ref string) map[string]any {
		m, _ := objs["obj:"+ref].Value.(map[string]any)
		return m
	}
}
