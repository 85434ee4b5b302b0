package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/sharedtest"
)

// qpdf, an independent reader, agrees with "webcap info --json" on what
// info shows beyond the Web Capture dictionaries, in every real file: each
// page's /PZ, each link annotation's /PA (its /S and /URI), and the value
// of every global setting of every command, in PDF syntax. A string qpdf
// gives only as decoded non-ASCII text is not compared (its bytes are not
// in qpdf's JSON).
func TestQPDFAgreesOnInfoExtras(t *testing.T) {
	if _, err := exec.LookPath("qpdf"); err != nil {
		t.Skip("qpdf is not installed (apt-get install qpdf)")
	}
	if testing.Short() {
		t.Skip("46 files through qpdf: not in -short")
	}
	files, _ := filepath.Glob(filepath.Join(sharedtest.Dir(t, "realworld"), "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no real files")
	}
	var zooms, actions, values int
	for _, f := range files {
		if strings.Contains(f, "encrypted") {
			continue // its strings are encrypted in qpdf's JSON too
		}
		t.Run(filepath.Base(f), func(t *testing.T) {
			ios, _, out, errOut := Test()
			if code := Main(context.Background(), []string{"info", "--json", f}, ios); code != 0 {
				t.Fatalf("webcap info: exit %d: %s", code, errOut)
			}
			var rep infoReport
			if err := json.Unmarshal(out.Bytes(), &rep); err != nil {
				t.Fatal(err)
			}
			q := readQPDF(t, f)
			var zoom []pageZoomJSON
			var pas []priorActionJSON
			for i, ref := range q.pages {
				page, _ := q.deref(ref).(map[string]any)
				if pz, ok := q.deref(page["/PZ"]).(float64); ok {
					zoom = append(zoom, pageZoomJSON{Page: i + 1, PZ: pz})
				}
				annots, _ := q.deref(page["/Annots"]).([]any)
				for _, a := range annots {
					ad, _ := q.deref(a).(map[string]any)
					pa, has := ad["/PA"]
					if ad["/Subtype"] != "/Link" || !has {
						continue
					}
					j := priorActionJSON{Page: i + 1, Annot: "direct"}
					if s, ok := a.(string); ok {
						j.Annot = s
					}
					pd, _ := q.deref(pa).(map[string]any)
					s, _ := q.deref(pd["/S"]).(string)
					j.Action = strings.TrimPrefix(s, "/")
					if u, ok := q.deref(pd["/URI"]).(string); ok {
						b := bytesJSON(q.stringBytes(u))
						j.URI = &b
					}
					pas = append(pas, j)
				}
			}
			if !slices.Equal(rep.PageZoom, zoom) && !(len(zoom) == 0 && len(rep.PageZoom) == 0) {
				t.Errorf("/PZ: webcap %v, qpdf %v", rep.PageZoom, zoom)
			}
			if len(rep.PriorActions) != len(pas) {
				t.Fatalf("/PA: webcap %d, qpdf %d", len(rep.PriorActions), len(pas))
			}
			for i, ours := range rep.PriorActions {
				theirs := pas[i]
				if ours.Page != theirs.Page || ours.Annot != theirs.Annot || ours.Action != theirs.Action || (ours.URI == nil) != (theirs.URI == nil) ||
					ours.URI != nil && q.comparable(string(*theirs.URI)) && *ours.URI != *theirs.URI {
					t.Errorf("/PA %d: webcap %+v, qpdf %+v", i, ours, theirs)
				}
			}
			zooms, actions = zooms+len(zoom), actions+len(pas)
			if rep.SpiderInfo == nil {
				return
			}
			for _, c := range rep.SpiderInfo.Commands {
				cmd, _ := q.deref(c.Object).(map[string]any)
				s, _ := q.deref(cmd["/S"]).(map[string]any)
				g, _ := q.deref(s["/G"]).(map[string]any)
				if c.Settings == nil || len(c.Settings.Values) != len(g) {
					t.Fatalf("command %s: webcap settings %+v, qpdf /G %v", c.Object, c.Settings, g)
				}
				for _, v := range c.Settings.Values {
					theirs, ok := q.format(g["/"+string(v.Key)], 0)
					if ok && v.Value != theirs {
						t.Errorf("command %s /G /%s: webcap %s, qpdf %s", c.Object, v.Key, v.Value, theirs)
					}
					values++
				}
			}
		})
	}
	t.Logf("compared %d /PZ, %d /PA, %d setting values", zooms, actions, values)
	if zooms == 0 || actions == 0 || values == 0 {
		t.Errorf("nothing to compare: %d /PZ, %d /PA, %d setting values", zooms, actions, values)
	}
}

type qpdfDoc struct {
	objs  map[string]any
	pages []string
}

// readQPDF reads a file's objects and pages with qpdf; exit 3 is qpdf's
// warnings (it recovered), exit 2 a file it cannot read, skipped.
func readQPDF(t *testing.T, path string) *qpdfDoc {
	out, err := exec.Command("qpdf", "--json=2", "--json-key=qpdf", "--json-key=pages", path).Output()
	var ee *exec.ExitError
	if errors.As(err, &ee) && ee.ExitCode() == 2 {
		t.Skipf("qpdf cannot read it: %s", ee.Stderr)
	} else if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 3) {
		t.Fatalf("qpdf --json: %v", err)
	}
	var doc struct {
		QPDF  []json.RawMessage `json:"qpdf"`
		Pages []struct {
			Object string `json:"object"`
		} `json:"pages"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.QPDF) != 2 {
		t.Fatalf("qpdf --json: %v", err)
	}
	q := &qpdfDoc{}
	if err := json.Unmarshal(doc.QPDF[1], &q.objs); err != nil {
		t.Fatal(err)
	}
	for _, p := range doc.Pages {
		q.pages = append(q.pages, p.Object)
	}
	return q
}

func (q *qpdfDoc) deref(v any) any {
	for range 10 {
		s, ok := v.(string)
		if !ok || !refRE.MatchString(s) {
			return v
		}
		o, _ := q.objs["obj:"+s].(map[string]any)
		v = o["value"]
		if st, ok := o["stream"].(map[string]any); ok {
			v = st["dict"]
		}
	}
	return nil
}

// stringBytes is a string of qpdf's JSON: "b:" hex bytes, or "u:" text.
func (q *qpdfDoc) stringBytes(s string) string {
	if h, ok := strings.CutPrefix(s, "b:"); ok {
		b, _ := hex.DecodeString(h)
		return string(b)
	}
	return strings.TrimPrefix(s, "u:")
}

// comparable: the bytes of a string are in qpdf's JSON (hex, or ASCII
// text, which no text encoding changes).
func (q *qpdfDoc) comparable(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

var qpdfNameEscape = regexp.MustCompile(`#[0-9a-f]{2}`)

// format writes a qpdf JSON value as webcapture.Format does; false when it
// holds a string whose bytes qpdf's JSON does not give.
func (q *qpdfDoc) format(v any, depth int) (string, bool) {
	if depth > 32 {
		return "", false
	}
	if s, ok := v.(string); ok && refRE.MatchString(s) {
		v = q.deref(s)
	}
	switch v := v.(type) {
	case nil:
		return "null", true
	case bool:
		return strconv.FormatBool(v), true
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64), true
	case string:
		if strings.HasPrefix(v, "/") {
			return qpdfNameEscape.ReplaceAllStringFunc(v, strings.ToUpper), true
		}
		if strings.HasPrefix(v, "u:") && !q.comparable(v) {
			return "", false
		}
		b := q.stringBytes(v)
		for i := 0; i < len(b); i++ {
			if b[i] < ' ' || b[i] > '~' {
				return "<" + strings.ToUpper(hex.EncodeToString([]byte(b))) + ">", true
			}
		}
		r := strings.NewReplacer(`\`, `\\`, "(", `\(`, ")", `\)`)
		return "(" + r.Replace(b) + ")", true
	case []any:
		parts := make([]string, len(v))
		for i, e := range v {
			s, ok := q.format(e, depth+1)
			if !ok {
				return "", false
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, " ") + "]", true
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		var b strings.Builder
		b.WriteString("<<")
		for _, k := range keys {
			s, ok := q.format(v[k], depth+1)
			if !ok {
				return "", false
			}
			b.WriteString(" " + k + " " + s)
		}
		b.WriteString(" >>")
		return b.String(), true
	}
	return "", false
}
