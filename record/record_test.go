package record

import (
	"bytes"
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"
	"time"

	"encoding/json"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/docs"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/mirror"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

const example = "../testdata/build/manifest.json"

func loadExample(t *testing.T) *Manifest {
	t.Helper()
	f, err := os.Open(example)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	m, err := ParseManifest(f, example)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestRoundTrip builds the example into both cross-reference flavours and
// reads the result back: it holds exactly what the manifest says, audits
// with no errors (identifiers recomputed from the sources included), keeps
// the input's bytes as a prefix, and qpdf and pdfinfo accept it.
func TestRoundTrip(t *testing.T) {
	for _, xs := range []bool{false, true} {
		t.Run(fmt.Sprintf("xrefstream=%v", xs), func(t *testing.T) {
			m := loadExample(t)
			orig := pdfbuild.Web(xs)
			m.Input = filepath.Join(t.TempDir(), "web.pdf")
			if err := os.WriteFile(m.Input, orig, 0o644); err != nil {
				t.Fatal(err)
			}
			res, err := Apply(m, Options{ReadBack: true, AllowOutside: true}) // the input is in a temporary directory
			if err != nil {
				t.Fatal(err)
			}
			out := res.Output
			if !bytes.HasPrefix(out, orig) || res.Appended != len(out)-len(orig) {
				t.Fatal("the input's bytes are not a prefix of the output")
			}
			d := readBack(t, res)
			if len(d.Defects) > 0 {
				t.Errorf("defects: %v", d.Defects)
			}
			for _, f := range audit.Check(d, audit.Options{Sources: mirror.Dir{Path: "../testdata/build/site"}}) {
				if f.Severity >= audit.Caution {
					t.Errorf("audit: %s %s %s: %s", f.Severity, f.Rule, f.Object, f.Message)
				}
			}
			checkManifest(t, m, d)
			checkTools(t, out, 3)
		})
	}
}

// checkManifest compares what the file holds with the example manifest.
func checkManifest(t *testing.T, m *Manifest, d *pdfio.Document) {
	t.Helper()
	if d.Info == nil || d.Info.Version == nil || d.Info.Version.Value != 1.0 || len(d.Info.Commands) != 1 {
		t.Fatalf("SpiderInfo: %+v", d.Info)
	}
	c := d.Info.Commands[0]
	if c.URL != "http://example.com" || c.Depth() != 2 || c.FlagsOrDefault() != webcapture.SameSite || c.IsPost() {
		t.Errorf("command: %+v", c)
	}
	type got struct {
		kind, url, ct, ts, title string
		pages                    []int
		chains                   [][]string
		r                        []int64
		cmd                      bool
		tid                      bool
	}
	var sets []got
	for _, cs := range d.Sets {
		g := got{kind: string(cs.Subtype), pages: d.PageNumbers(cs), r: cs.RefCounts}
		si := cs.Sources[0]
		g.url, g.chains, g.cmd = si.URLs.URL, si.URLs.Chains, si.Command != nil && *si.Command == c.Ref
		if cs.ContentType != nil {
			g.ct = *cs.ContentType
		}
		if cs.Created != nil {
			g.ts = cs.Created.Time.UTC().Format("2006-01-02T15:04:05Z07:00")
			if si.Updated == nil || si.Updated.Raw != cs.Created.Raw {
				t.Errorf("%s: source /TS %v, set /TS %v", g.url, si.Updated, cs.Created)
			}
		}
		if cs.Title != nil {
			g.title = cs.Title.String()
		}
		g.tid = cs.TextID != nil
		sets = append(sets, g)
	}
	sort.Slice(sets, func(i, j int) bool { return sets[i].url < sets[j].url })
	want := []got{
		{kind: "SPS", url: "http://www.example.com/", ct: "text/html", ts: "2026-11-21T10:30:00Z", title: "Example Domain",
			pages: []int{1, 2}, chains: [][]string{{"http://example.com", "http://www.example.com/"}}, cmd: true, tid: true},
		{kind: "SPS", url: "http://www.example.com/docs/notes.txt", ct: "text/plain", ts: "2026-11-21T10:30:02Z", title: "notes.txt",
			pages: []int{3}, cmd: true, tid: true},
		{kind: "SIS", url: "http://www.example.com/logo.gif", ts: "2026-11-21T10:30:01Z", pages: []int{0}, r: []int64{2}},
	}
	if !reflect.DeepEqual(sets, want) {
		t.Errorf("sets:\n got %+v\nwant %+v", sets, want)
	}
	// URLS: the three sets' URLs, and http://example.com, which
	// redirected to the home page and finds it too.
	urls := map[string][]webcapture.Ref{}
	for _, e := range d.URLS.Entries {
		for _, cs := range e.Sets {
			urls[e.Key] = append(urls[e.Key], cs.Ref)
		}
	}
	if len(d.IDS.Entries) != 3 || len(d.URLS.Entries) != 4 || !slices.Equal(urls["http://example.com"], urls["http://www.example.com/"]) ||
		len(urls["http://example.com"]) != 1 {
		t.Errorf("IDS %d entries, URLS %v: want 3 IDS keys, and 4 URLS keys with http://example.com for the home page's set", len(d.IDS.Entries), urls)
	}
	for _, p := range d.Pages {
		if p.ID == nil {
			t.Errorf("page %d has no /ID", p.Number)
		}
	}
	if len(d.Images) != 1 || d.Images[0].ID == nil {
		t.Errorf("images: %+v", d.Images)
	}
}

func checkTools(t *testing.T, file []byte, pages int) {
	t.Helper()
	p := filepath.Join(t.TempDir(), "out.pdf")
	os.WriteFile(p, file, 0o644)
	if qpdf, err := exec.LookPath("qpdf"); err == nil {
		out, err := exec.Command(qpdf, "--check", p).CombinedOutput()
		if err != nil || !bytes.Contains(out, []byte("No syntax or stream encoding errors")) || bytes.Contains(out, []byte("WARNING")) {
			t.Errorf("qpdf --check: %v\n%s", err, out)
		}
	} else {
		t.Log("qpdf not installed: not checked")
	}
	if pdfinfo, err := exec.LookPath("pdfinfo"); err == nil {
		out, err := exec.Command(pdfinfo, p).CombinedOutput()
		if err != nil || !regexp.MustCompile(fmt.Sprintf(`(?m)^Pages:\s+%d$`, pages)).Match(out) {
			t.Errorf("pdfinfo: %v\n%s", err, out)
		}
	}
}

// Building twice adds to what the first build wrote: trees merge, commands
// append, and pages already in a set are refused.
func TestBuildOnBuilt(t *testing.T) {
	m := loadExample(t)
	res, err := Apply(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	first := filepath.Join(dir, "first.pdf")
	os.WriteFile(first, res.Output, 0o644)

	m2 := &Manifest{name: "second.json", dir: dir, Input: first,
		Commands: []Command{{Name: "again", URL: "http://www.example.com/logo.gif"}},
		PageSets: []PageSet{{Pages: "3", URL: "http://www.example.com/docs/notes.txt", Source: "../testdata/build/site/www.example.com/docs/notes.txt"}}}
	m2.PageSets[0].Source, _ = filepath.Abs(m2.PageSets[0].Source)
	if _, err := Apply(m2, Options{AllowOutside: true}); err == nil || !strings.Contains(err.Error(), "page 3 already belongs to the existing content set") {
		t.Fatalf("building over a claimed page: %v", err)
	}
	m2.PageSets = nil
	logo, _ := filepath.Abs("../testdata/build/site/www.example.com/logo.gif")
	m2.PageSets = []PageSet{{Pages: "1", URL: "http://www.example.com/logo.gif", Source: logo, Command: "again"}}
	// Page 1 is taken too; use a fresh input with a fourth page instead.
	if _, err := Apply(m2, Options{AllowOutside: true}); err == nil {
		t.Fatal("page 1 claimed twice")
	}
	m3 := loadExample(t)
	m3.PageSets = m3.PageSets[:1]
	m3.ImageSets[0].URL = "http://www.example.com/logo.gif?v=2"
	m3.ImageSets[0].Source = "site/www.example.com/logo.gif"
	res3, err := Apply(m3, Options{})
	if err != nil {
		t.Fatal(err)
	}
	first3 := filepath.Join(dir, "first3.pdf")
	os.WriteFile(first3, res3.Output, 0o644)
	m4 := &Manifest{name: "fourth.json", dir: dir, Input: first3, Version: 1.25,
		Commands: []Command{{Name: "notes", URL: "http://www.example.com/docs/notes.txt"}},
		PageSets: []PageSet{{Pages: "3", URL: "http://www.example.com/docs/notes.txt", Source: notesPath(t), Command: "notes"}}}
	res4, err := Apply(m4, Options{AllowOutside: true}) // sources in testdata, the input in a temporary directory
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.ReadBytes(res4.Output, "fourth.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Sets) != 3 || len(d.IDS.Entries) != 3 || len(d.URLS.Entries) != 4 {
		t.Errorf("after two builds: %d sets, %d IDS keys, %d URLS keys; want 3, 3 and 4 (the redirect's URL)", len(d.Sets), len(d.IDS.Entries), len(d.URLS.Entries))
	}
	if d.Info.Version.Value != 1.0 || len(d.Info.Commands) != 2 || d.Info.Commands[1].URL != "http://www.example.com/docs/notes.txt" {
		t.Errorf("SpiderInfo after two builds: version %v, commands %+v", d.Info.Version, d.Info.Commands)
	}
	for _, f := range audit.Check(d, audit.Options{}) {
		if f.Severity == audit.Serious {
			t.Errorf("audit: %s %s: %s", f.Rule, f.Object, f.Message)
		}
	}
}

func notesPath(t *testing.T) string {
	p, err := filepath.Abs("../testdata/build/site/www.example.com/docs/notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// "*" names every image XObject a page uses.
func TestEveryImageOfPage(t *testing.T) {
	m := loadExample(t)
	m.ImageSets[0].Images = []Image{{Page: 2, Name: "*"}}
	res, err := Apply(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if s := res.Sets[2]; len(s.Objects) != 1 || s.RefCount[0] != 2 {
		t.Errorf("image set %+v", s)
	}
	m = loadExample(t)
	m.ImageSets[0].Images = []Image{{Page: 3, Name: "*"}}
	if _, err := Apply(m, Options{}); err == nil || !strings.Contains(err.Error(), "page 3 uses no image XObject") {
		t.Errorf("page without images: %v", err)
	}
}

// A page and its image built from the same bytes share an IDS key: the
// value becomes an array of both sets (PDF 1.7 Figure 10.2).
func TestSharedKey(t *testing.T) {
	m := loadExample(t)
	m.PageSets = []PageSet{{Pages: "1", URL: "http://www.example.com/logo.gif", ContentType: "image/gif"}}
	res, err := Apply(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := pdfio.ReadBytes(res.Output, "out.pdf", pdfio.Options{})
	if len(d.IDS.Entries) != 1 || len(d.IDS.Entries[0].Sets) != 2 || !d.IDS.Entries[0].Array ||
		len(d.URLS.Entries) != 1 || len(d.URLS.Entries[0].Sets) != 2 {
		t.Fatalf("IDS %+v URLS %+v", d.IDS.Entries, d.URLS.Entries)
	}
}

func TestManifestErrors(t *testing.T) {
	for _, tc := range []struct {
		name, json, want string
	}{
		{"syntax", "{\n  \"input\": \"a.pdf\",\n  \"pageSets\": [}\n", "m.json:3:16: invalid character '}'"},
		{"unknown", "{\"input\": \"a.pdf\",\n \"page_sets\": []}", `m.json:2:2: unknown field "page_sets"`},
		{"case", "{\"input\": \"a.pdf\", \"pageSets\": [{\"Pages\": \"1\", \"url\": \"http://a/\"}]}", `m.json: pageSets[0].Pages: unknown field (field names are case-sensitive: pages)`},
		{"type", "{\"input\": \"a.pdf\", \"pageSets\": [{\"pages\": 3}]}", "m.json:1:44: pageSets.pages: is a JSON number, want a string"},
		{"empty", "", "m.json: empty manifest"},
		{"short", "{\"input\": ", "m.json:1:11: the manifest ends early"},
		{"trailing", "{\"input\": \"a.pdf\"} {}", "text after"},
		{"no input", `{"pageSets": [{"pages": "1", "url": "http://a/"}]}`, "m.json: input: missing"},
		{"nothing", `{"input": "a.pdf"}`, "nothing to build"},
		{"range", `{"input": "a.pdf", "pageSets": [{"pages": "3-1", "url": "http://a/"}]}`, `pageSets[0].pages: "3-1" is not a range`},
		{"range text", `{"input": "a.pdf", "pageSets": [{"pages": "one", "url": "http://a/"}]}`, `pageSets[0].pages: "one" is not a page range`},
		{"no url", `{"input": "a.pdf", "pageSets": [{"pages": "1"}]}`, "pageSets[0].url: missing"},
		{"non-ascii", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://ä/"}]}`, "pageSets[0].url: \"http://ä/\" is not ASCII"},
		{"time", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "captured": "yesterday"}]}`, `pageSets[0].captured: "yesterday" is not an RFC 3339 time`},
		{"submission", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "submission": "put"}]}`, `pageSets[0].submission: "put" is not none, get or post`},
		{"command", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "command": "x"}]}`, `pageSets[0].command: "x" names no command`},
		{"dup command", `{"input": "a.pdf", "commands": [{"name": "a", "url": "http://a/"}, {"name": "a", "url": "http://b/"}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, `commands[1].name: "a" names two commands`},
		{"redirect", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "redirects": [[]]}]}`, "pageSets[0].redirects[0]: an empty chain"},
		{"images", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif"}]}`, "imageSets[0].images: missing"},
		{"image both", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"object": 3, "page": 1}]}]}`, "imageSets[0].images[0]: give either object"},
		{"levels", `{"input": "a.pdf", "commands": [{"name": "a", "url": "http://a/", "levels": 0}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, "commands[0].levels: 0: levels count from 1"},
		{"ct without post", `{"input": "a.pdf", "commands": [{"name": "a", "url": "http://a/", "contentType": "text/plain"}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, "commands[0].contentType: is the posted data's type"},
		{"headers", `{"input": "a.pdf", "commands": [{"name": "a", "url": "http://a/", "headers": "X: y\n"}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, "commands[0].headers: each header line must end in CR LF"},
		{"settings null", `{"input": "a.pdf", "commands": [{"name": "a", "url": "http://a/", "settings": {"global": {"PS": [792, null]}}}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, "commands[0].settings: global.PS[1]: null is not a setting"},
		{"settings engine", `{"input": "a.pdf", "commands": [{"name": "a", "url": "http://a/", "settings": {"engines": {"ADBE": {}}}}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, `commands[0].settings: engines: "ADBE" is not an engine name`},
		{"settings key", `{"input": "a.pdf", "commands": [{"name": "a", "url": "http://a/", "settings": {"global": {"a b": 1}}}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, `commands[0].settings: global: "a b" cannot be a PDF name`},
		{"image name", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"page": 1}]}]}`, "imageSets[0].images[0]: give object, or page"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseManifest(strings.NewReader(tc.json), "m.json")
			var me *ManifestError
			if err == nil || !errors.As(err, &me) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want a *ManifestError containing %q", err, tc.want)
			}
		})
	}
}

// Errors that need the PDF or the sources name the field too.
func TestBuildErrors(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m *Manifest)
		want string
	}{
		{"pages", func(m *Manifest) { m.PageSets[1].Pages = "3-4" }, `pageSets[1].pages: "3-4": ../testdata/build/web.pdf has 3 pages`},
		{"twice", func(m *Manifest) { m.PageSets[1].Pages = "2" }, "pageSets[1].pages: page 2 already belongs to pageSets[0].pages"},
		{"input", func(m *Manifest) { m.Input = "nope.pdf" }, "input: open ../testdata/build/nope.pdf"},
		{"source file", func(m *Manifest) { m.PageSets[0].Source = "nope.html" }, "pageSets[0].source: open ../testdata/build/nope.html"},
		{"not in sources", func(m *Manifest) { m.PageSets[1].URL = "http://www.example.com/gone.txt" }, "pageSets[1].source: http://www.example.com/gone.txt is not in the sources"},
		{"no sources", func(m *Manifest) { m.Sources = "" }, "pageSets[0].source: missing, and no sources"},
		{"aux missing", func(m *Manifest) {
			m.Sources = ""
			m.PageSets[0].Source = "site/www.example.com/index.html"
		}, "pageSets[0].source: 1 of the 1 auxiliary files of http://www.example.com/ are missing from the sources (logo.gif)"},
		{"xobject", func(m *Manifest) { m.ImageSets[0].Images[0].Name = "Im9" }, "imageSets[0].images[0]: page 1: page"},
		{"object", func(m *Manifest) { m.ImageSets[0].Images[0] = Image{Object: 2} }, "imageSets[0].images[0].object: object 2 of ../testdata/build/web.pdf is not an image XObject"},
		{"bad url", func(m *Manifest) { m.ImageSets[0].URL = "http://[::1/" }, "imageSets[0].url: cannot be a URLS key"},
		{"profile", func(m *Manifest) { m.Profile = "nope" }, "profile:"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			m := loadExample(t)
			tc.edit(m)
			_, err := Apply(m, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error %v, want one containing %q", err, tc.want)
			}
		})
	}
}

// The schema documents every field the manifest accepts, and no other,
// each with the JSON type of the Go field.
func TestSchemaMatchesManifest(t *testing.T) {
	data, err := docs.Schema("manifest")
	if err != nil {
		t.Fatal(err)
	}
	var schema map[string]any
	if err := json.Unmarshal(data, &schema); err != nil {
		t.Fatal(err)
	}
	props := func(o any, path ...string) []string {
		for _, p := range path {
			o = o.(map[string]any)[p]
		}
		var out []string
		for k := range o.(map[string]any)["properties"].(map[string]any) {
			out = append(out, k)
		}
		sort.Strings(out)
		return out
	}
	fields := func(v any) []string {
		var out []string
		ty := reflect.TypeOf(v)
		for i := 0; i < ty.NumField(); i++ {
			if tag := ty.Field(i).Tag.Get("json"); tag != "" && tag != "-" {
				out = append(out, strings.Split(tag, ",")[0])
			}
		}
		sort.Strings(out)
		return out
	}
	for _, tc := range []struct {
		path []string
		v    any
	}{
		{nil, Manifest{}},
		{[]string{"properties", "commands", "items"}, Command{}},
		{[]string{"properties", "pageSets", "items"}, PageSet{}},
		{[]string{"properties", "imageSets", "items"}, ImageSet{}},
		{[]string{"properties", "imageSets", "items", "properties", "images", "items"}, Image{}},
	} {
		if got, want := props(schema, tc.path...), fields(tc.v); !reflect.DeepEqual(got, want) {
			t.Errorf("schema %v: properties %v, manifest fields %v", tc.path, got, want)
		}
		obj := schema
		for _, p := range tc.path {
			obj = obj[p].(map[string]any)
		}
		ty := reflect.TypeOf(tc.v)
		for i := 0; i < ty.NumField(); i++ {
			name := strings.Split(ty.Field(i).Tag.Get("json"), ",")[0]
			if name == "" || name == "-" {
				continue
			}
			p := obj["properties"].(map[string]any)[name].(map[string]any)
			if got, want := schemaType(schema, p), goJSONType(ty.Field(i).Type); got != want {
				t.Errorf("schema %v: %s is %q, the Go field %s %q", tc.path, name, got, ty.Field(i).Type, want)
			}
		}
	}
}

// schemaType is a property's JSON type: its "type", or the type of its
// enum's values, through a $ref to the schema's $defs.
func schemaType(schema, p map[string]any) string {
	if ref, ok := p["$ref"].(string); ok {
		p = schema["$defs"].(map[string]any)[strings.TrimPrefix(ref, "#/$defs/")].(map[string]any)
	}
	if ty, ok := p["type"].(string); ok {
		return ty
	}
	if enum, ok := p["enum"].([]any); ok && len(enum) > 0 {
		switch enum[0].(type) {
		case string:
			return "string"
		case float64:
			return "number"
		}
	}
	return "?"
}

// goJSONType is the JSON type encoding/json decodes into t.
func goJSONType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int64:
		return "integer"
	case reflect.Float64:
		return "number"
	case reflect.Slice:
		return "array"
	}
	return "object"
}

// A name given twice in one object is refused, named with its line and
// column (encoding/json would keep the last silently); so is what the
// schema forbids and the decoder lets through.
func TestManifestRefused(t *testing.T) {
	for _, tc := range []struct{ name, manifest, want string }{
		{"top-level", "{\"input\": \"a.pdf\",\n \"input\": \"b.pdf\"}", `m.json:2:2: input: "input" is given twice in one object`},
		{"nested", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "url": "http://b/"}]}`, `m.json:1:68: pageSets[0].url: "url" is given twice`},
		{"settings", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"global": {"K": 1, "K": 2}}}], "pageSets": [{"pages": "1", "url": "http://a/"}]}`, `commands[0].settings.global.K: "K" is given twice`},
		{"schema", `{"input": "a.pdf", "version": 0, "pageSets": [{"pages": "1", "url": "http://a/"}]}`, `m.json: version: exclusiveMinimum: got 0, want 0 (webcap help schema manifest)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParseManifest(strings.NewReader(tc.manifest), "m.json")
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("ParseManifest(%s) = %v, want an error containing %q", tc.manifest, err, tc.want)
			}
		})
	}
}

// Every example manifest in testdata/build builds into a file that audits
// with no error and no warning, identifiers recomputed from its sources.
func TestExamples(t *testing.T) {
	manifests, _ := filepath.Glob("../testdata/build/*.json")
	n := 0
	for _, path := range manifests {
		if strings.HasSuffix(path, ".schema.json") {
			continue
		}
		n++
		t.Run(filepath.Base(path), func(t *testing.T) {
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			m, err := ParseManifest(f, path)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Apply(m, Options{ReadBack: true})
			if err != nil {
				t.Fatal(err)
			}
			d := readBack(t, res)
			for _, f := range audit.Check(d, audit.Options{Sources: mirror.Dir{Path: filepath.Join(m.dir, m.Sources)}}) {
				if f.Severity >= audit.Caution {
					t.Errorf("audit: %s %s %s: %s", f.Severity, f.Rule, f.Object, f.Message)
				}
			}
			if len(d.Sets) != len(m.PageSets)+len(m.ImageSets) || len(d.Info.Commands) != len(m.Commands) {
				t.Errorf("%d sets and %d commands", len(d.Sets), len(d.Info.Commands))
			}
			checkTools(t, res.Output, len(d.Pages))
		})
	}
	if n < 2 {
		t.Errorf("%d example manifests, want at least 2", n)
	}
}

// form.json's POST command, headers and settings come back exactly.
func TestFormExample(t *testing.T) {
	f, _ := os.Open("../testdata/build/form.json")
	defer f.Close()
	m, err := ParseManifest(f, "../testdata/build/form.json")
	if err != nil {
		t.Fatal(err)
	}
	res, err := Apply(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	d, _ := pdfio.ReadBytes(res.Output, "out.pdf", pdfio.Options{})
	c := d.Info.Commands[0]
	if !c.IsPost() || string(*c.PostData) != "q=web+capture" || *c.ContentType != "application/x-www-form-urlencoded" ||
		*c.Headers != "Accept-Language: en\r\n" || c.FlagsOrDefault() != webcapture.Submit {
		t.Errorf("command: %+v", c)
	}
	if c.Settings == nil || len(c.Settings.Global) != 11 || len(c.Settings.Engines) != 1 || c.Settings.Engines[0].Engine.Company != "ADBE" {
		t.Fatalf("settings: %+v", c.Settings)
	}
	if !bytes.Contains(res.Output, []byte("/M [10.08 10.08 26 36]")) || !bytes.Contains(res.Output, []byte("/PS [792 612]")) {
		t.Errorf("settings numbers not written exactly:\n%s", res.Output[len(res.Output)-res.Appended:])
	}
	si := d.Sets[0].Sources[0]
	for _, cs := range d.Sets {
		if cs.IsPageSet() {
			si = cs.Sources[0]
		}
	}
	if si.SubmissionOrDefault() != webcapture.SubmitPOST || si.Expires == nil || si.Expires.Raw != "D:20261221110000+01'00'" {
		t.Errorf("source info: %+v", si)
	}
}

// Images made from the same bytes share one image set, whether they come
// from one manifest or from a later build on its output: the set's O and R
// grow, each new URL becomes one more source, and IDS keeps one key.
func TestSharedImageSet(t *testing.T) {
	b := pdfbuild.New()
	img := func() pdfbuild.Ref {
		return b.Add(&pdfbuild.Stream{Dict: pdfbuild.D("Type", pdfbuild.Name("XObject"), "Subtype", pdfbuild.Name("Image"), "Width", 1, "Height", 1,
			"ColorSpace", pdfbuild.Name("DeviceGray"), "BitsPerComponent", 8), Data: []byte{0x80}})
	}
	ims := []pdfbuild.Ref{img(), img(), img()}
	root, _ := b.PageTree(3, func(i int) pdfbuild.Dict {
		return pdfbuild.D("Resources", pdfbuild.D("XObject", pdfbuild.D("Im0", ims[i])))
	})
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", root))
	logo := []byte("GIF89a the same bytes under two URLs")
	m := &Manifest{Input: "three.pdf", InputData: b.Bytes(), ImageSets: []ImageSet{
		{URL: "http://a.example/logo.gif", Data: logo, Images: []Image{{Page: 1, Name: "Im0"}}},
		{URL: "http://b.example/copy.gif", Data: logo, Images: []Image{{Page: 2, Name: "Im0"}}},
	}}
	res, err := Apply(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Sets) != 2 || res.Sets[0].Shared || !res.Sets[1].Shared || res.Sets[0].Ref != res.Sets[1].Ref {
		t.Fatalf("sets %+v: want the second to join the first", res.Sets)
	}
	check := func(file []byte, images, sources int) {
		t.Helper()
		d, err := pdfio.ReadBytes(file, "out.pdf", pdfio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(d.Sets) != 1 || len(d.IDS.Entries) != 1 || len(d.URLS.Entries) != 2 {
			t.Fatalf("%d sets, %d IDS keys, %d URLS keys; want 1, 1, 2", len(d.Sets), len(d.IDS.Entries), len(d.URLS.Entries))
		}
		cs := d.Sets[0]
		if len(cs.Objects) != images || len(cs.RefCounts) != images || !cs.RefArray || len(cs.Sources) != sources {
			t.Errorf("set: O %v, R %v, %d sources; want %d images, %d sources", cs.Objects, cs.RefCounts, len(cs.Sources), images, sources)
		}
		for _, e := range d.URLS.Entries {
			if len(e.Sets) != 1 || e.Sets[0].Ref != cs.Ref {
				t.Errorf("URLS %q -> %v, want the one set", e.Key, e.Sets)
			}
		}
		for _, f := range audit.Check(d, audit.Options{}) {
			if f.Severity != audit.Notice {
				t.Errorf("audit: %s %s %s: %s", f.Severity, f.Rule, f.Object, f.Message)
			}
		}
		checkTools(t, file, 3)
	}
	check(res.Output, 2, 2)
	// A later build: the same image under a known URL joins the set
	// without a new source.
	m2 := &Manifest{Input: "shared.pdf", InputData: res.Output, ImageSets: []ImageSet{
		{URL: "http://a.example/logo.gif", Data: logo, Images: []Image{{Page: 3, Name: "Im0"}}},
	}}
	res2, err := Apply(m2, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res2.Sets) != 1 || !res2.Sets[0].Shared || res2.Sets[0].Ref != res.Sets[0].Ref {
		t.Fatalf("second build: sets %+v", res2.Sets)
	}
	check(res2.Output, 3, 2)
}

// A page reached through two redirect chains is one set: its source's URL
// alias dictionary holds both chains, and every URL of them is a URLS key
// of the set. A page set whose auxiliary files are missing is refused,
// unless Partial (a capture that reports them).
func TestRedirectChainsAndPartial(t *testing.T) {
	b := pdfbuild.New()
	root, _ := b.PageTree(2, nil)
	b.Root = b.Add(pdfbuild.D("Type", pdfbuild.Name("Catalog"), "Pages", root))
	page := []byte(`<html><body><img src="gone.gif"><p>About</p></body></html>`)
	m := &Manifest{Input: "two.pdf", InputData: b.Bytes(), PageSets: []PageSet{
		{Pages: "1", URL: "http://h.example/about.html", ContentType: "text/html", Data: page,
			Redirects: [][]string{{"http://h.example/old-page"}, {"http://h.example/r1", "HTTP://H.example:80/r2", "http://h.example/old-page"}}},
	}}
	if _, err := Apply(m, Options{}); err == nil || !strings.Contains(err.Error(), "auxiliary files") {
		t.Fatalf("a page set without its image: %v, want it refused", err)
	}
	m.PageSets[0].Partial = true
	res, err := Apply(m, Options{})
	if err != nil {
		t.Fatal(err)
	}
	set := res.Sets[0]
	if want := []string{"http://h.example/old-page", "http://h.example/r1", "http://h.example/r2"}; !slices.Equal(set.Aliases, want) || set.Missing != 1 {
		t.Errorf("aliases %q, missing %d; want %q, 1", set.Aliases, set.Missing, want)
	}
	d, err := pdfio.ReadBytes(res.Output, "out.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range d.URLS.Entries {
		if len(e.Sets) != 1 || e.Sets[0].Ref != set.Ref {
			t.Errorf("URLS %q: %d sets", e.Key, len(e.Sets))
		}
		keys = append(keys, e.Key)
	}
	if want := []string{"http://h.example/about.html", "http://h.example/old-page", "http://h.example/r1", "http://h.example/r2"}; !slices.Equal(keys, want) {
		t.Errorf("URLS keys %q, want %q", keys, want)
	}
	au := d.Sets[0].Sources[0].URLs
	if !au.Alias || len(au.Chains) != 2 || !slices.Equal(au.Chains[1], []string{"http://h.example/r1", "HTTP://H.example:80/r2", "http://h.example/old-page", "http://h.example/about.html"}) {
		t.Errorf("alias dictionary %+v", au)
	}
	if id := md5.Sum(page); set.ID != webcapture.ID(id) {
		t.Errorf("ID %s, want the MD5 of the page alone (its image is missing)", set.ID)
	}
	for _, f := range audit.Check(d, audit.Options{}) {
		if f.Severity == audit.Serious {
			t.Errorf("audit: %s %s: %s", f.Rule, f.Object, f.Message)
		}
	}
	checkTools(t, res.Output, 2)
}

// Each source information gets the SHA-256 of its source's bytes
// (/WCSHA256), as sha256sum computes it over the example's files, and qpdf
// reads the same digests from the file.
func TestBuildSHA256(t *testing.T) {
	sum, err := exec.LookPath("sha256sum")
	if err != nil {
		t.Skip("sha256sum not installed: not checked")
	}
	res, err := Apply(loadExample(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"http://www.example.com/":               "index.html",
		"http://www.example.com/logo.gif":       "logo.gif",
		"http://www.example.com/docs/notes.txt": "docs/notes.txt",
	}
	want := map[string]string{} // by URL, from sha256sum
	for u, f := range files {
		out, err := exec.Command(sum, filepath.Join("../testdata/build/site/www.example.com", f)).Output()
		if err != nil {
			t.Fatalf("sha256sum %s: %v", f, err)
		}
		want[u] = strings.Fields(string(out))[0]
	}
	d, err := pdfio.ReadBytes(res.Output, "out.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, cs := range d.Sets {
		for _, si := range cs.Sources {
			if si.SHA256 == nil {
				t.Errorf("%s: no /WCSHA256", si.URLs.URL)
				continue
			}
			got[si.URLs.URL] = fmt.Sprintf("%x", []byte(*si.SHA256))
		}
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("/WCSHA256 by source:\n got %v\nwant %v (sha256sum)", got, want)
	}
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf not installed: the file is not read by it")
	}
	p := filepath.Join(t.TempDir(), "out.pdf")
	if err := os.WriteFile(p, res.Output, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(qpdf, "--json", "--json-key=qpdf", p).Output()
	if err != nil {
		t.Fatalf("qpdf --json: %v", err)
	}
	var inQPDF []string
	for _, m := range regexp.MustCompile(`"/WCSHA256": "b:([0-9a-f]{64})"`).FindAllSubmatch(out, -1) {
		inQPDF = append(inQPDF, string(m[1]))
	}
	var sums []string
	for _, s := range want {
		sums = append(sums, s)
	}
	slices.Sort(inQPDF)
	slices.Sort(sums)
	if !slices.Equal(inQPDF, sums) {
		t.Errorf("qpdf --json shows /WCSHA256 %v, want %v (sha256sum)", inQPDF, sums)
	}
	checkTools(t, res.Output, 3)
}

// TestReadAllAsIOReadAll: the manifest's read is io.ReadAll of a
// LimitReader, whether or not the reader says its length, at, under and
// over the limit.
func TestReadAllAsIOReadAll(t *testing.T) {
	for _, tc := range []struct {
		name  string
		data  string
		limit int
	}{
		{"empty", "", 8}, {"under", "abc", 8}, {"at", "abcdefgh", 8}, {"over", "abcdefghij", 8}, {"long", strings.Repeat("x", 5000), 4097},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want, _ := io.ReadAll(io.LimitReader(strings.NewReader(tc.data), int64(tc.limit)))
			for _, r := range []io.Reader{strings.NewReader(tc.data), bytes.NewReader([]byte(tc.data)), io.MultiReader(strings.NewReader(tc.data))} {
				got, err := readAll(r, tc.limit)
				if err != nil || string(got) != string(want) {
					t.Errorf("readAll(%T of %d bytes, %d) = %d bytes, %v; want %d bytes", r, len(tc.data), tc.limit, len(got), err, len(want))
				}
			}
		})
	}
}

// A manifest over MaxManifest is refused as such, by its size, whether or
// not the reader says its length; one of MaxManifest bytes is parsed.
func TestManifestTooLarge(t *testing.T) {
	head := `{"input": "a.pdf"`
	for _, tc := range []struct {
		name string
		size int
		want string
	}{
		{"at the limit", MaxManifest, "nothing to build"},
		{"one byte over", MaxManifest + 1, "m.json: larger than 64 MiB, the most a manifest may be"},
	} {
		data := make([]byte, tc.size)
		copy(data, head)
		for i := len(head); i < tc.size-1; i++ {
			data[i] = ' '
		}
		data[tc.size-1] = '}'
		for _, r := range []io.Reader{bytes.NewReader(data), io.MultiReader(bytes.NewReader(data))} {
			_, err := ParseManifest(r, "m.json")
			var me *ManifestError
			if err == nil || !errors.As(err, &me) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s (%T): error %v, want a *ManifestError containing %q", tc.name, r, err, tc.want)
			}
		}
	}
}

// TestUTCPDFDate: utcPDFDate gives what time.Parse and Format give, and
// leaves every other form (or no time at all) to them.
func TestUTCPDFDate(t *testing.T) {
	for _, tc := range []struct {
		in   string
		fast bool
	}{
		{"2026-11-21T10:30:00Z", true},
		{"2024-02-29T23:59:59Z", true},
		{"0000-01-01T00:00:00Z", true},
		{"2023-02-29T00:00:00Z", false},
		{"2026-13-01T00:00:00Z", false},
		{"2026-11-21T24:00:00Z", false},
		{"2026-11-21T10:30:60Z", false},
		{"2026-11-21t10:30:00z", false},
		{"2026-11-21T10:30:00+01:00", false},
		{"2026-11-21T10:30:00.5Z", false},
		{"2026-1a-21T10:30:00Z", false},
		{"+026-11-21T10:30:00Z", false},
	} {
		got, ok := utcPDFDate(tc.in)
		if ok != tc.fast {
			t.Errorf("utcPDFDate(%q) fast = %v, want %v", tc.in, ok, tc.fast)
		}
		if !ok {
			continue
		}
		tm, err := time.Parse(time.RFC3339, tc.in)
		if want := tm.Format("D:20060102150405Z"); err != nil || got != want {
			t.Errorf("utcPDFDate(%q) = %q; time.Format: %q (%v)", tc.in, got, want, err)
		}
	}
}
