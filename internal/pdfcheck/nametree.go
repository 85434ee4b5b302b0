package pdfcheck

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A TreeWalk is what NameTrees found in one name tree of the catalog's
// /Names: its keys (in the order of its leaves), its depth (1: the root
// holds /Names) and its nodes.
type TreeWalk struct {
	Keys  [][]byte
	Depth int
	Nodes int
	// Intermediate counts the nodes with /Kids other than the root.
	Intermediate int
}

// NameTrees walks every name tree of the catalog's /Names dictionary
// (/URLS, /IDS, /Dests, /EmbeddedFiles...) as qpdf's JSON (version 2)
// shows it, independently of pdfio's reader, and returns the walk of each
// and every violation of ISO 32000-1 §7.9.6 it found: a node other than the
// root without /Limits, or whose /Limits are not the least and greatest
// keys under it; the root with /Limits; a leaf's keys not strictly
// ascending by bytes, or a kid's keys not all above the kid before it; a
// node with both /Kids and /Names or neither, a /Names array of odd
// length, a key that is not a string, a cycle, depth over 32. ok is false
// when qpdf is not installed (then nothing is checked).
func NameTrees(t testing.TB, pdf []byte) (trees map[string]*TreeWalk, problems []string, ok bool) {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		return nil, nil, false
	}
	in := filepath.Join(t.TempDir(), "trees.pdf")
	if err := os.WriteFile(in, pdf, 0o600); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(qpdf, "--json=2", "--json-key=qpdf", in).Output()
	if ee, isExit := err.(*exec.ExitError); isExit && ee.ExitCode() == 3 && len(out) > 0 {
		err = nil // qpdf's "succeeded with warnings": the trees are still shown
	}
	if err != nil {
		t.Fatalf("qpdf --json=2: %v", err)
	}
	var doc struct {
		Qpdf []json.RawMessage `json:"qpdf"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Qpdf) < 2 {
		t.Fatalf("qpdf --json=2: %v", err)
	}
	objs, _ := objects(doc.Qpdf[1])
	qdf := filepath.Join(filepath.Dir(in), "trees.qdf")
	if out, err := exec.Command(qpdf, "--qdf", "--object-streams=disable", "--decode-level=none", in, qdf).CombinedOutput(); err != nil {
		if ee, isExit := err.(*exec.ExitError); !isExit || ee.ExitCode() != 3 {
			t.Fatalf("qpdf --qdf: %v\n%s", err, out)
		}
	}
	qdfBytes, err := os.ReadFile(qdf)
	if err != nil {
		t.Fatal(err)
	}
	w := &treeWalker{objs: objs, qdf: qdfObjects(qdfBytes)}
	trailer, _ := objs["trailer"].Value.(map[string]any)
	cat, _ := w.resolve(trailer["/Root"]).(map[string]any)
	names, _ := w.resolve(cat["/Names"]).(map[string]any)
	trees = map[string]*TreeWalk{}
	for name, root := range names {
		tw := &TreeWalk{}
		w.tree, w.walk, w.seen = name, tw, map[string]bool{}
		w.node(root, true, 1, "root")
		trees[strings.TrimPrefix(name, "/")] = tw
	}
	return trees, w.problems, true
}

type treeWalker struct {
	qdf      map[string]string // object text by "N G R", from qpdf --qdf
	objs     map[string]qpdfObject
	tree     string
	walk     *TreeWalk
	seen     map[string]bool
	problems []string
}

var refRE = regexp.MustCompile(`^\d+ \d+ R$`)

func (w *treeWalker) resolve(v any) any {
	if s, ok := v.(string); ok && refRE.MatchString(s) {
		return w.objs["obj:"+s].Value
	}
	return v
}

func (w *treeWalker) fail(where, format string, args ...any) {
	w.problems = append(w.problems, fmt.Sprintf("%s %s: ", w.tree, where)+fmt.Sprintf(format, args...))
}

// key is a string's bytes: "b:" is hex (every string exact gives);
// "u:" is text qpdf's JSON decoded, taken as its bytes when it is ASCII.
func (w *treeWalker) key(where string, v any) ([]byte, bool) {
	s, _ := v.(string)
	if refRE.MatchString(s) { // a string object, as Acrobat shares one between an IDS key and its set's /ID
		if text, ok := w.qdf[s]; ok {
			if sv, err := parseShown(text); err == nil {
				s, _ = sv.(string)
			}
		}
	}
	switch {
	case strings.HasPrefix(s, "b:"):
		b, err := hex.DecodeString(s[2:])
		if err == nil {
			return b, true
		}
	case strings.HasPrefix(s, "u:") && !nonASCII(s):
		return []byte(s[2:]), true
	}
	w.fail(where, "key %v is not a string", v)
	return nil, false
}

func nonASCII(s string) bool {
	for i := range len(s) {
		if s[i] >= 0x80 {
			return true
		}
	}
	return false
}

// exact is node ref with the /Names and /Limits that qpdf's QDF output
// (`qpdf --qdf`, each object after its "%% Original object ID" comment)
// writes for it, every string with its bytes: qpdf's JSON shows a string
// as "u:" text when it decodes, from UTF-16 after either byte-order mark,
// from UTF-8 after its mark or from PDFDocEncoding alike, so "u:ABC" may
// be three bytes or eight (an MD5 identifier starting FE FF or FF FE).
func (w *treeWalker) exact(ref string, d map[string]any) map[string]any {
	text, ok := w.qdf[ref]
	if !ok {
		w.fail(ref, "not in qpdf's QDF output")
		return d
	}
	v, err := parseShown(text)
	shown, isDict := v.(map[string]any)
	if err != nil || !isDict {
		w.fail(ref, "qpdf's QDF output: %v (%T)", err, v)
		return d
	}
	out := map[string]any{}
	for k, v := range d {
		out[k] = v
	}
	// The strings of direct /Names and /Limits arrays, from QDF; all else
	// as the JSON has it (QDF renumbers the objects its references name).
	for _, k := range []string{"/Names", "/Limits"} {
		a, direct := shown[k].([]any)
		j, _ := d[k].([]any)
		if !direct || len(a) != len(j) {
			continue
		}
		merged := make([]any, len(j))
		for i, v := range j {
			merged[i] = v
			if s, isString := v.(string); isString && (strings.HasPrefix(s, "u:") || strings.HasPrefix(s, "b:")) {
				merged[i] = a[i]
			}
		}
		out[k] = merged
	}
	return out
}

var qdfObject = regexp.MustCompile(`(?s)%% Original object ID: (\d+) (\d+)\n\d+ \d+ obj\n(.*?)\nendobj\n`)

// qdfObjects maps each object of a QDF file, by its original "N G R", to
// its text; streams are left out (no tree node or key is one).
func qdfObjects(qdf []byte) map[string]string {
	m := map[string]string{}
	for _, o := range qdfObject.FindAllSubmatch(qdf, -1) {
		if bytes.Contains(o[3], []byte("\nstream\n")) {
			continue
		}
		m[string(o[1])+" "+string(o[2])+" R"] = string(o[3])
	}
	return m
}

// node checks the subtree at v and returns its least and greatest keys
// (nil when it holds none).
func (w *treeWalker) node(v any, root bool, depth int, where string) (lo, hi []byte) {
	if s, isRef := v.(string); isRef && refRE.MatchString(s) {
		where = s
		if w.seen[s] {
			w.fail(where, "is reached twice (a cycle or a shared node)")
			return nil, nil
		}
		w.seen[s] = true
	}
	if depth > 32 {
		w.fail(where, "deeper than 32 levels")
		return nil, nil
	}
	d, isDict := w.resolve(v).(map[string]any)
	if !isDict {
		w.fail(where, "is not a dictionary")
		return nil, nil
	}
	if s, isRef := v.(string); isRef && refRE.MatchString(s) {
		d = w.exact(s, d)
	}
	w.walk.Nodes++
	w.walk.Depth = max(w.walk.Depth, depth)
	kids, hasKids := w.resolve(d["/Kids"]).([]any)
	names, hasNames := w.resolve(d["/Names"]).([]any)
	switch {
	case hasKids && hasNames:
		w.fail(where, "has both /Kids and /Names")
	case !hasKids && !hasNames:
		w.fail(where, "has neither /Kids nor /Names")
	}
	if hasKids {
		if !root {
			w.walk.Intermediate++
		}
		for i, k := range kids {
			klo, khi := w.node(k, false, depth+1, fmt.Sprintf("%s /Kids[%d]", where, i))
			if klo == nil {
				continue
			}
			if hi != nil && bytes.Compare(klo, hi) <= 0 {
				w.fail(where, "kid %d's least key %q is not above the greatest key before it, %q", i, klo, hi)
			}
			if lo == nil {
				lo = klo
			}
			hi = khi
		}
	} else if hasNames {
		if len(names)%2 != 0 {
			w.fail(where, "/Names has an odd length, %d", len(names))
		}
		for i := 0; i < len(names); i += 2 {
			k, ok := w.key(where, names[i])
			if !ok {
				continue
			}
			if hi != nil && bytes.Compare(k, hi) <= 0 {
				w.fail(where, "key %q is not above the key before it, %q", k, hi)
			}
			if lo == nil {
				lo = k
			}
			hi = k
			w.walk.Keys = append(w.walk.Keys, k)
		}
	}
	limits, hasLimits := w.resolve(d["/Limits"]).([]any)
	switch {
	case root && hasLimits:
		w.fail(where, "the root has /Limits")
	case !root && !hasLimits:
		w.fail(where, "has no /Limits")
	case !root && len(limits) != 2:
		w.fail(where, "/Limits has %d elements", len(limits))
	case !root && lo != nil:
		l, ok1 := w.key(where, limits[0])
		h, ok2 := w.key(where, limits[1])
		if ok1 && ok2 && (!bytes.Equal(l, lo) || !bytes.Equal(h, hi)) {
			w.fail(where, "/Limits [%q %q], but its keys span [%q %q]", l, h, lo, hi)
		}
	}
	return lo, hi
}

// CheckNameTrees fails t on every problem NameTrees finds in pdf, and
// returns its walks (nil, with a log line, without qpdf).
func CheckNameTrees(t testing.TB, pdf []byte) map[string]*TreeWalk {
	t.Helper()
	trees, problems, ok := NameTrees(t, pdf)
	if !ok {
		t.Log("qpdf not installed: name trees not checked by it")
		return nil
	}
	for i, p := range problems {
		if i == 20 {
			t.Errorf("... and %d more", len(problems)-i)
			break
		}
		t.Errorf("qpdf's view of the name trees: %s", p)
	}
	return trees
}
