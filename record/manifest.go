// The build manifest: what Apply adds, read from JSON.

package record

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/webcap/webcap/internal/jsonstrict"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// A Manifest says what to build.
type Manifest struct {
	Input     string     `json:"input"`             // the PDF to add to, relative to the manifest
	Profile   string     `json:"profile,omitempty"` // canonicalization profile for URLS keys: pdf (default), pdf2, rfc3986
	Sources   string     `json:"sources,omitempty"` // a mirror directory or aux manifest holding auxiliary files
	WARC      string     `json:"warc,omitempty"`    // a WARC file: sources, redirect chains and capture times (instead of sources)
	AuxForm   string     `json:"auxForm,omitempty"` // how auxiliary identifiers are hashed: raw (default), hex, HEX
	Version   float64    `json:"version,omitempty"` // SpiderInfo /V; default 1.0 (ISO 32000-1)
	Commands  []Command  `json:"commands,omitempty"`
	PageSets  []PageSet  `json:"pageSets,omitempty"`
	ImageSets []ImageSet `json:"imageSets,omitempty"`

	// InputData, when set, is the input PDF's bytes (Input then only
	// names it): for programs that build without files.
	InputData []byte `json:"-"`
	// Checked, for programs that refresh a capture: content sets of the
	// input found up to date with their sources.
	Checked []Checked `json:"-"`

	dir  string // the manifest's directory
	name string // the manifest's file name, for errors
}

// A Command is one Web Capture command, in execution order.
type Command struct {
	Name        string    `json:"name"`             // how page sets refer to it
	URL         string    `json:"url"`              // the initial URL
	Levels      *int64    `json:"levels,omitempty"` // levels of links followed (default 1)
	SameSite    bool      `json:"sameSite,omitempty"`
	SamePath    bool      `json:"samePath,omitempty"`
	Submit      bool      `json:"submit,omitempty"`      // a form submission
	Post        *string   `json:"post,omitempty"`        // POST data; present = POST
	ContentType string    `json:"contentType,omitempty"` // of the POST data
	Headers     string    `json:"headers,omitempty"`     // extra request header lines
	Settings    *Settings `json:"settings,omitempty"`
}

// Settings is a command's settings dictionary (/S): free-form values for
// every conversion engine (/G) and per engine (/C, keyed by engine name
// company:product:version:contentType). JSON objects become dictionaries
// (their keys names), strings strings, numbers integers or reals, arrays
// arrays.
type Settings struct {
	Global  map[string]any            `json:"global,omitempty"`
	Engines map[string]map[string]any `json:"engines,omitempty"`
}

// A PageSet is the pages made from one source.
type PageSet struct {
	Pages       string     `json:"pages"`                 // "1", "2-4"
	URL         string     `json:"url"`                   // the source's final URL
	Redirects   [][]string `json:"redirects,omitempty"`   // redirect chains that led to URL, each in order, without URL
	Source      string     `json:"source,omitempty"`      // the captured bytes, relative to the manifest; default: URL from sources
	ContentType string     `json:"contentType,omitempty"` // default: sniffed
	Captured    string     `json:"captured,omitempty"`    // RFC 3339: the set's TS and the source's TS
	Expires     string     `json:"expires,omitempty"`     // RFC 3339: the source's E
	Title       string     `json:"title,omitempty"`
	Submission  string     `json:"submission,omitempty"` // none (default), get, post
	Command     string     `json:"command,omitempty"`    // the name of the command that fetched it

	Data []byte `json:"-"` // the captured bytes, for programs: overrides source
	// Partial, for programs that capture: the page's identifier covers the
	// auxiliary files found, and the ones missing (which the program could
	// not or must not fetch, and reports) are left out, instead of the set
	// being refused.
	Partial bool `json:"-"`
	// For programs that refresh a capture: the page set of the input this
	// one replaces (its object is rewritten, so every reference to it
	// stays good; its IDS key moves), and the input's command that
	// fetched it (overrides Command).
	Replaces   webcapture.Ref `json:"-"`
	CommandRef webcapture.Ref `json:"-"`
}

// Checked is a content set of the input found up to date with its sources
// at a time: its sources' /TS become that time, their /E Expires.
type Checked struct {
	Set     webcapture.Ref
	Time    string // RFC 3339
	Expires string // RFC 3339, or ""
}

// An ImageSet is the image XObjects made from one image.
type ImageSet struct {
	URL       string     `json:"url"`
	Redirects [][]string `json:"redirects,omitempty"`
	Source    string     `json:"source,omitempty"`
	Captured  string     `json:"captured,omitempty"`
	Expires   string     `json:"expires,omitempty"`
	Images    []Image    `json:"images"`

	Data []byte `json:"-"` // the image's bytes, for programs: overrides source
	// Replaces, for programs that refresh a capture: the image set of the
	// input this one replaces, as PageSet.Replaces.
	Replaces webcapture.Ref `json:"-"`
}

// An Image names an image XObject: by a page's resource name, or by object number.
type Image struct {
	Page   int    `json:"page,omitempty"`
	Name   string `json:"name,omitempty"`
	Object int    `json:"object,omitempty"`
}

// A ManifestError is a manifest that cannot be used: where, and why.
type ManifestError struct {
	File  string
	Line  int // 0 when the problem is not at one place in the text
	Col   int
	Field string // e.g. pageSets[1].pages
	Err   error
}

func (e *ManifestError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Line > 0 {
		fmt.Fprintf(&b, ":%d:%d", e.Line, e.Col)
	}
	if e.Field != "" {
		b.WriteString(": " + e.Field)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *ManifestError) Unwrap() error { return e.Err }

// MaxManifest is the most bytes a manifest may be: 100,000 page sets
// take about 60 MB.
const MaxManifest = 64 << 20

// ParseManifest reads a manifest. name is the manifest's path: errors name
// it, and the input and sources are relative to its directory.
func ParseManifest(r io.Reader, name string) (*Manifest, error) {
	return parseManifest(r, name, true)
}

// ParseManifestBytes is ParseManifest of a manifest already read: data,
// which it neither changes nor keeps (the CLI reads the file first; read
// again from a bytes.Reader, it was copied whole).
func ParseManifestBytes(data []byte, name string) (*Manifest, error) {
	return parseManifestBytes(data, name, true)
}

// parseManifest is ParseManifest; fast lets an ordinary manifest be read
// by decodeKnown instead of encoding/json, and one schemaSure accepts skip
// the generic decode, exactNames and the schema (false: the whole way, for
// the tests that compare both).
func parseManifest(r io.Reader, name string, fast bool) (*Manifest, error) {
	data, err := readAll(r, MaxManifest+1)
	if err != nil {
		return nil, &ManifestError{File: name, Err: err}
	}
	return parseManifestBytes(data, name, fast)
}

func parseManifestBytes(data []byte, name string, fast bool) (*Manifest, error) {
	if len(data) > MaxManifest {
		// Refused as it is, not parsed cut at the limit (a JSON error
		// somewhere in the middle, "ends early", after a parse that
		// took four times its size).
		return nil, &ManifestError{File: name, Err: fmt.Errorf("larger than %d MiB, the most a manifest may be", MaxManifest>>20)}
	}
	m := &Manifest{name: name, dir: filepath.Dir(name)}
	if fast {
		// An ordinary manifest is read directly; its checks are then the
		// fast path's below. Anything else goes the strict way.
		if _, keys, ok := decodeKnown(data, m); ok && keys != nil && structSure(m, keys) {
			if err := m.validate(); err != nil {
				return nil, err
			}
			return m, nil
		}
		*m = Manifest{name: name, dir: filepath.Dir(name)}
	}
	if err := uniqueNames(name, data); err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber() // settings keep integers and reals apart
	presized := presizePageSets(m, data)
	if err := dec.Decode(m); err != nil {
		return nil, decodeError(name, data, dec, err)
	}
	if presized && len(m.PageSets) == 0 {
		m.PageSets = nil // (as when none are given)
	}
	if dec.More() {
		return nil, at(name, data, dec.InputOffset(), "", errors.New("text after the manifest's object"))
	}
	if fast && schemaSure(m, data, dec.InputOffset()) {
		if err := m.validate(); err != nil {
			return nil, err
		}
		return m, nil
	}
	// encoding/json matches field names regardless of case; the schema
	// does not. (One generic decode serves this check and the schema's.)
	raw, rawErr := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if rawErr == nil {
		if err := exactNames(name, "", raw, reflect.TypeOf(*m)); err != nil {
			return nil, err
		}
	}
	if err := m.validate(); err != nil {
		return nil, err
	}
	// What the checks above let through, the schema does not: the
	// manifest is valid against docs/schemas/manifest.schema.json too.
	if rawErr != nil {
		return nil, &ManifestError{File: name, Err: rawErr}
	}
	if err := validateSchema(name, raw); err != nil {
		return nil, err
	}
	return m, nil
}

// presizePageSets gives m.PageSets room for as many page sets as data has
// members named pages (a string followed by a colon is a member's name:
// a string cannot hold a bare quote), at most one per 23 bytes (the
// shortest page set, {"pages":"1","url":"a"}), so that encoding/json
// appends 100,000 page sets without growing the slice seventeen times
// (128 MB made and copied for 25 MB). It reports whether it did.
func presizePageSets(m *Manifest, data []byte) bool {
	n := bytes.Count(data, []byte(`"pages":`)) + bytes.Count(data, []byte(`"pages" :`))
	if n < 2 {
		return false
	}
	m.PageSets = make([]PageSet, 0, min(n, len(data)/23+1))
	return true
}

// readAll is io.ReadAll(io.LimitReader(r, limit)), in one buffer of the
// right size when r says how much it holds (a bytes.Reader: the CLI reads
// the file first; a mirror's file comes read). A manifest of 100,000 page
// sets is 60 MB: read in doubling steps, 130 MB.
func readAll(r io.Reader, limit int) ([]byte, error) {
	size := 0
	if l, ok := r.(interface{ Len() int }); ok {
		size = min(max(l.Len(), 0), limit)
	}
	return limits.ReadSized(io.LimitReader(r, int64(limit)), int64(size))
}

func decodeError(name string, data []byte, dec *json.Decoder, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return at(name, data, se.Offset-1, "", errors.New(strings.TrimPrefix(se.Error(), "json: ")))
	case errors.As(err, &te):
		return at(name, data, te.Offset, te.Field, fmt.Errorf("is a JSON %s, want %s", te.Value, jsonType(te.Type.String())))
	case strings.HasPrefix(err.Error(), "json: unknown field "):
		f, _ := strconv.Unquote(strings.TrimPrefix(err.Error(), "json: unknown field "))
		off := dec.InputOffset()
		if i := bytes.LastIndex(data[:min(off, int64(len(data)))], []byte(strconv.Quote(f))); i >= 0 {
			off = int64(i) // the key itself
		}
		return at(name, data, off, "", fmt.Errorf("unknown field %q (see webcap help schema manifest)", f))
	case errors.Is(err, io.EOF):
		return &ManifestError{File: name, Err: errors.New("empty manifest")}
	case errors.Is(err, io.ErrUnexpectedEOF):
		return at(name, data, int64(len(data)), "", errors.New("the manifest ends early"))
	}
	return &ManifestError{File: name, Err: err}
}

func jsonType(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "an array"
	case t == "string" || t == "*string":
		return "a string"
	case strings.Contains(t, "int") || strings.Contains(t, "float"):
		return "a number"
	case t == "bool":
		return "true or false"
	}
	return "an object"
}

// at makes an error at a byte offset of the manifest.
func at(name string, data []byte, off int64, field string, err error) *ManifestError {
	line, col := jsonstrict.Position(data, off)
	return &ManifestError{File: name, Line: line, Col: col, Field: field, Err: err}
}

func (m *Manifest) fail(field string, format string, args ...any) error {
	return &ManifestError{File: m.name, Field: field, Err: fmt.Errorf(format, args...)}
}

// validate checks what does not need the PDF.
func (m *Manifest) validate() error {
	if m.Input == "" {
		return m.fail("input", "missing: name the PDF to add to")
	}
	if m.Version < 0 {
		return m.fail("version", "%v is negative", m.Version)
	}
	if m.Sources != "" && m.WARC != "" {
		return m.fail("warc", "give sources or warc, not both: a WARC file is the sources")
	}
	names := map[string]bool{}
	for i, c := range m.Commands {
		f := element("commands", i)
		switch {
		case c.Name == "":
			return m.fail(f+".name", "missing: page sets refer to commands by name")
		case names[c.Name]:
			return m.fail(f+".name", "%q names two commands", c.Name)
		case c.URL == "":
			return m.fail(f+".url", "missing: the command's initial URL")
		case !isASCII(c.URL):
			return m.fail(f+".url", "%q is not ASCII (PDF stores it as an ASCII string)", c.URL)
		case c.Levels != nil && *c.Levels < 1:
			return m.fail(f+".levels", "%d: levels count from 1 (the initial URL only)", *c.Levels)
		case c.ContentType != "" && c.Post == nil:
			return m.fail(f+".contentType", "is the posted data's type, and the command posts nothing (give post)")
		case c.Headers != "" && !crlfLines(c.Headers):
			return m.fail(f+".headers", "each header line must end in CR LF (\\r\\n)")
		}
		if c.Settings != nil {
			if _, err := c.Settings.toModel(); err != nil {
				return m.fail(f+".settings", "%v", err)
			}
		}
		names[c.Name] = true
	}
	for i, s := range m.PageSets {
		f := element("pageSets", i)
		if _, _, err := parseRange(s.Pages); err != nil {
			return m.fail(f+".pages", "%v", err)
		}
		if err := m.source(f, s.URL, s.Redirects, s.Captured, s.Expires); err != nil {
			return err
		}
		if _, err := submission(s.Submission); err != nil {
			return m.fail(f+".submission", "%v", err)
		}
		if s.Command != "" && !names[s.Command] {
			return m.fail(f+".command", "%q names no command in commands", s.Command)
		}
		if s.ContentType != "" && !isASCII(s.ContentType) {
			return m.fail(f+".contentType", "%q is not ASCII", s.ContentType)
		}
	}
	for i, s := range m.ImageSets {
		f := element("imageSets", i)
		if err := m.source(f, s.URL, s.Redirects, s.Captured, s.Expires); err != nil {
			return err
		}
		if len(s.Images) == 0 {
			return m.fail(f+".images", "missing: name the image XObjects made from %s", s.URL)
		}
		for j, im := range s.Images {
			g := fmt.Sprintf("%s.images[%d]", f, j)
			switch {
			case im.Object != 0 && (im.Page != 0 || im.Name != ""):
				return m.fail(g, "give either object, or page and name, not both")
			case im.Object < 0:
				return m.fail(g+".object", "%d is not an object number", im.Object)
			case im.Object == 0 && (im.Page < 1 || im.Name == ""):
				return m.fail(g, "give object, or page (from 1) and name (the /XObject resource name, without /)")
			}
		}
	}
	if len(m.PageSets)+len(m.ImageSets)+len(m.Checked) == 0 {
		return m.fail("", "no pageSets and no imageSets: nothing to build")
	}
	return nil
}

// InputPath is the path of the PDF the manifest adds to: Input, relative
// to the manifest's directory ("" when InputData holds the bytes).
func (m *Manifest) InputPath() string {
	switch {
	case m.InputData != nil, m.Input == "":
		return ""
	case filepath.IsAbs(m.Input):
		return m.Input
	}
	return filepath.Join(m.dir, m.Input)
}

// Files are the files the manifest names, which building it reads: its
// input PDF, its sources (a directory all of whose files are inputs) or
// WARC, and each set's source, relative to the manifest's directory (for
// pdfio.CheckRun: no output of the build may be one of them).
func (m *Manifest) Files() []pdfio.RunFile {
	var files []pdfio.RunFile
	add := func(field, p string, dir bool) {
		if p == "" {
			return
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(m.dir, p)
		}
		if dir {
			fi, err := os.Stat(p)
			dir = err == nil && fi.IsDir()
		}
		files = append(files, pdfio.RunFile{Flag: "the manifest's " + field, Path: p, Dir: dir})
	}
	if m.InputData == nil {
		add("input", m.Input, false)
	}
	add("sources", m.Sources, true)
	add("warc", m.WARC, false)
	for _, s := range m.PageSets {
		add("source", s.Source, false)
	}
	for _, s := range m.ImageSets {
		add("source", s.Source, false)
	}
	return files
}

func (m *Manifest) source(f, url string, redirects [][]string, captured, expires string) error {
	switch {
	case url == "":
		return m.fail(f+".url", "missing: the source's URL")
	case !isASCII(url):
		return m.fail(f+".url", "%q is not ASCII (PDF stores source URLs as ASCII strings; percent-encode it)", url)
	}
	for i, c := range redirects {
		if len(c) == 0 {
			return m.fail(fmt.Sprintf("%s.redirects[%d]", f, i), "an empty chain")
		}
		for j, u := range c {
			if u == "" || !isASCII(u) {
				return m.fail(fmt.Sprintf("%s.redirects[%d][%d]", f, i, j), "%q is not a non-empty ASCII URL", u)
			}
		}
	}
	for _, d := range []struct{ name, v string }{{"captured", captured}, {"expires", expires}} {
		if d.v == "" {
			continue
		}
		if _, err := time.Parse(time.RFC3339, d.v); err != nil {
			return m.fail(f+"."+d.name, "%q is not an RFC 3339 time such as 2026-11-21T10:30:00Z", d.v)
		}
	}
	return nil
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// parseRange parses "N" or "N-M" (1-based, inclusive).
func parseRange(s string) (int, int, error) {
	if s == "" {
		return 0, 0, errors.New(`missing: the set's pages, such as "1" or "2-4"`)
	}
	a, b, isRange := strings.Cut(s, "-")
	first, err1 := strconv.Atoi(strings.TrimSpace(a))
	last := first
	var err2 error
	if isRange {
		last, err2 = strconv.Atoi(strings.TrimSpace(b))
	}
	switch {
	case err1 != nil || err2 != nil:
		return 0, 0, fmt.Errorf(`%q is not a page range such as "1" or "2-4"`, s)
	case first < 1 || last < first:
		return 0, 0, fmt.Errorf("%q is not a range of pages counted from 1", s)
	}
	return first, last, nil
}

func submission(s string) (int64, error) {
	switch strings.ToLower(s) {
	case "", "none":
		return 0, nil
	case "get":
		return 1, nil
	case "post":
		return 2, nil
	}
	return 0, fmt.Errorf("%q is not none, get or post", s)
}

// exactNames checks that every object key in raw is spelled exactly as a
// field of t's JSON tags.
func exactNames(file, path string, raw any, t reflect.Type) error {
	for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
		if t.Kind() == reflect.Slice {
			if a, ok := raw.([]any); ok {
				for i, e := range a {
					// (The path is made only for an element that is wrong:
					// a manifest has a page set per page.)
					if err := exactNames(file, "", e, t.Elem()); err != nil {
						var me *ManifestError
						if errors.As(err, &me) {
							me.Field = joinField(fmt.Sprintf("%s[%d]", path, i), me.Field)
						}
						return err
					}
				}
			}
			return nil
		}
		t = t.Elem()
	}
	obj, ok := raw.(map[string]any)
	if !ok || t.Kind() != reflect.Struct {
		return nil
	}
	fields := jsonFields(t)
	for k, v := range obj {
		ft, ok := fields[k]
		if !ok {
			for f := range fields {
				if strings.EqualFold(f, k) {
					return &ManifestError{File: file, Field: joinField(path, k), Err: fmt.Errorf("unknown field (field names are case-sensitive: %s)", f)}
				}
			}
			continue
		}
		if err := exactNames(file, joinField(path, k), v, ft); err != nil {
			return err
		}
	}
	return nil
}

// element is the field path of an array's element i: "pageSets[3]" (one
// string made, not fmt's two: a build makes one per page set, twice).
func element(array string, i int) string {
	var buf [32]byte
	return string(append(strconv.AppendInt(append(append(buf[:0], array...), '['), int64(i), 10), ']'))
}

// joinField is the field path of field inside path ("pageSets[3]",
// "url" or "[0]").
func joinField(path, field string) string {
	switch {
	case path == "":
		return field
	case field == "":
		return path
	case field[0] == '[':
		return path + field
	}
	return path + "." + field
}

// jsonFields maps a struct type's JSON names to their field types, once
// per type.
func jsonFields(t reflect.Type) map[string]reflect.Type {
	if f, ok := fieldsOf.Load(t); ok {
		return f.(map[string]reflect.Type)
	}
	fields := map[string]reflect.Type{}
	for i := 0; i < t.NumField(); i++ {
		if tag := t.Field(i).Tag.Get("json"); tag != "" && tag != "-" {
			fields[strings.Split(tag, ",")[0]] = t.Field(i).Type
		}
	}
	fieldsOf.Store(t, fields)
	return fields
}

var fieldsOf sync.Map // reflect.Type -> map[string]reflect.Type

func crlfLines(h string) bool {
	if !strings.HasSuffix(h, "\r\n") {
		return false
	}
	for _, line := range strings.Split(strings.TrimSuffix(h, "\r\n"), "\r\n") {
		if line == "" || strings.ContainsAny(line, "\r\n") {
			return false
		}
	}
	return true
}

// toModel makes the command's settings, engines in name order.
func (s *Settings) toModel() (*webcapture.Settings, error) {
	st := &webcapture.Settings{}
	if s.Global != nil {
		g, err := settingValue(map[string]any(s.Global), "global", 0)
		if err != nil {
			return nil, err
		}
		st.Global = g.(webcapture.Dict)
	}
	names := make([]string, 0, len(s.Engines))
	for k := range s.Engines {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		name, err := webcapture.ParseEngineName(k)
		if err != nil {
			return nil, fmt.Errorf("engines: %q is not an engine name company:product:version:contentType (%v)", k, err)
		}
		e, err := settingValue(map[string]any(s.Engines[k]), "engines."+k, 0)
		if err != nil {
			return nil, err
		}
		st.Engines = append(st.Engines, webcapture.EngineSettings{Key: webcapture.Name(k), Engine: name, Settings: e})
	}
	return st, nil
}

func settingValue(v any, path string, depth int) (webcapture.Object, error) {
	if depth > 32 {
		return nil, fmt.Errorf("%s: nested deeper than 32 levels", path)
	}
	switch v := v.(type) {
	case string:
		return webcapture.String(v), nil
	case bool:
		return v, nil
	case int:
		return int64(v), nil
	case int64:
		return v, nil
	case float64: // from programs; JSON numbers come as json.Number
		return v, nil
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i, nil
		}
		f, err := v.Float64()
		if err != nil {
			return nil, fmt.Errorf("%s: %s is not a number PDF can hold", path, v)
		}
		return f, nil
	case []any:
		out := make([]webcapture.Object, len(v))
		for i, e := range v {
			o, err := settingValue(e, fmt.Sprintf("%s[%d]", path, i), depth+1)
			if err != nil {
				return nil, err
			}
			out[i] = o
		}
		return out, nil
	case map[string]any:
		out := webcapture.Dict{}
		for k, e := range v {
			if k == "" || len(k) > 127 || strings.ContainsAny(k, " \t\r\n\x00") {
				return nil, fmt.Errorf("%s: %q cannot be a PDF name (1 to 127 bytes, no white space)", path, k)
			}
			o, err := settingValue(e, path+"."+k, depth+1)
			if err != nil {
				return nil, err
			}
			out[webcapture.Name(k)] = o
		}
		return out, nil
	case nil:
		return nil, fmt.Errorf("%s: null is not a setting", path)
	}
	return nil, fmt.Errorf("%s: %T is not a setting", path, v)
}
