package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// sameParse parses data both ways, the fast path allowed and not, and
// fails unless both give the same manifest or the same error. It returns
// whether schemaSure took the manifest.
func sameParse(t *testing.T, data []byte) (sure bool) {
	t.Helper()
	fast, ferr := parseManifest(bytes.NewReader(data), "m.json", true)
	slow, serr := parseManifest(bytes.NewReader(data), "m.json", false)
	switch {
	case (ferr == nil) != (serr == nil):
		t.Fatalf("fast: %v, whole way: %v\n%s", ferr, serr, data)
	case ferr != nil && ferr.Error() != serr.Error():
		t.Fatalf("fast: %v\nwhole way: %v\n%s", ferr, serr, data)
	case ferr == nil && !reflect.DeepEqual(fast, slow):
		t.Fatalf("fast: %+v\nwhole way: %+v", fast, slow)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	var m Manifest
	if dec.Decode(&m) != nil {
		return false
	}
	return schemaSure(&m, data, dec.InputOffset())
}

// The fast path gives what the whole way gives, on manifests the schema
// accepts and on ones that only the schema (or exactNames, or the generic
// decode) refuses, each of what the structs cannot show.
func TestManifestFastPathSame(t *testing.T) {
	const ps = `"pageSets": [{"pages": "1", "url": "http://a/"}]`
	for _, tc := range []struct {
		name, json string
		sure       bool // schemaSure takes it (and validate then has the last word)
	}{
		{"plain", `{"input": "a.pdf", ` + ps + `}`, true},
		{"all fields", `{"input": "a.pdf", "profile": "pdf2", "sources": "s", "auxForm": "HEX", "version": 1.25,
			"commands": [{"name": "c", "url": "http://a/", "levels": 2, "sameSite": true, "samePath": true, "submit": true, "post": "q=1", "contentType": "text/plain", "headers": "X: y\r\n",
				"settings": {"global": {"M": [1.5, 2], "Url": "x"}, "engines": {"ADBE:H2PDF:1.0:HTML": {"K": 1}}}}],
			"pageSets": [{"pages": "1-2", "url": "http://a/", "redirects": [["http://b/", "http://c/"]], "source": "a.html", "contentType": "text/html", "captured": "2026-11-21T10:30:00Z", "expires": "2026-12-21T10:30:00Z", "title": "T", "submission": "post", "command": "c"}],
			"imageSets": [{"url": "http://a/i.gif", "source": "i.gif", "images": [{"page": 1, "name": "Im0"}, {"object": 7}]}]}`, false},
		{"all fields, settings keys exact", `{"input": "a.pdf", "profile": "pdf2", "sources": "s", "auxForm": "HEX", "version": 1.25,
			"commands": [{"name": "c", "url": "http://a/", "levels": 2, "post": "q=1", "settings": {"global": {"M": [1.5, 2]}, "engines": {"ADBE:H2PDF:1.0:HTML": {"K": 1}}}}],
			"pageSets": [{"pages": "1-2", "url": "http://a/", "redirects": [["http://b/"]], "submission": "get", "command": "c"}],
			"imageSets": [{"url": "http://a/i.gif", "images": [{"page": 1, "name": "Im0"}, {"object": 7}]}]}`, true},
		{"trailing space", "{\"input\": \"a.pdf\", " + ps + "}\n\t \r\n", true},
		{"trailing brace", `{"input": "a.pdf", ` + ps + `} }`, false},
		{"trailing bracket", `{"input": "a.pdf", ` + ps + `}]`, false},
		{"null member", `{"input": "a.pdf", "commands": null, ` + ps + `}`, false},
		{"null profile", `{"input": "a.pdf", "profile": null, ` + ps + `}`, false},
		{"null manifest", `null`, false},
		{"null levels", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "levels": null}], ` + ps + `}`, false},
		{"null in settings", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"global": {"A": null}}}], ` + ps + `}`, false},
		{"n in a string", `{"input": "none.pdf", "pageSets": [{"pages": "1", "url": "http://n/", "title": "null"}]}`, true},
		{"empty profile", `{"input": "a.pdf", "profile": "", ` + ps + `}`, false},
		{"empty auxForm", `{"input": "a.pdf", "auxForm": "", ` + ps + `}`, false},
		{"empty submission", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "submission": ""}]}`, false},
		{"empty sources with warc", `{"input": "a.pdf", "sources": "", "warc": "w.warc", ` + ps + `}`, false},
		{"empty title", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "title": ""}]}`, false},
		{"empty command name", `{"input": "a.pdf", "commands": [{"name": "", "url": "http://a/"}], ` + ps + `}`, false},
		{"bad profile", `{"input": "a.pdf", "profile": "PDF", ` + ps + `}`, false},
		{"bad auxForm", `{"input": "a.pdf", "auxForm": "Hex", ` + ps + `}`, false},
		{"submission upper", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "submission": "GET"}]}`, false},
		{"version 0", `{"input": "a.pdf", "version": 0, ` + ps + `}`, false},
		{"version -0", `{"input": "a.pdf", "version": -0, ` + ps + `}`, false},
		{"version tiny", `{"input": "a.pdf", "version": 1e-400, ` + ps + `}`, false},
		{"version negative", `{"input": "a.pdf", "version": -1, ` + ps + `}`, false},
		{"version in settings", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"global": {"version": 1}}}], ` + ps + `}`, false},
		{"pages spaced", `{"input": "a.pdf", "pageSets": [{"pages": " 1", "url": "http://a/"}]}`, false},
		{"pages plus", `{"input": "a.pdf", "pageSets": [{"pages": "+1", "url": "http://a/"}]}`, false},
		{"pages range spaced", `{"input": "a.pdf", "pageSets": [{"pages": "1 - 2", "url": "http://a/"}]}`, false},
		{"pages open", `{"input": "a.pdf", "pageSets": [{"pages": "1-", "url": "http://a/"}]}`, false},
		{"pages zero", `{"input": "a.pdf", "pageSets": [{"pages": "0", "url": "http://a/"}]}`, true}, // validate refuses it
		{"pages 007", `{"input": "a.pdf", "pageSets": [{"pages": "007", "url": "http://a/"}]}`, true},
		{"engine pattern", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"engines": {"A:B:C:D:E": {}}}}], ` + ps + `}`, false},
		{"engine empty version", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"engines": {"A::C:D": {}}}}], ` + ps + `}`, true},
		{"engine empty product", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"engines": {":B:C:D": {}}}}], ` + ps + `}`, false},
		{"case", `{"input": "a.pdf", "pageSets": [{"Pages": "1", "url": "http://a/"}]}`, false},
		{"case top", `{"Input": "a.pdf", ` + ps + `}`, false},
		{"case settings", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"Global": {}}}], ` + ps + `}`, false},
		{"kelvin", "{\"input\": \"a.pdf\", \"pageSets\": [{\"pages\": \"1\", \"url\": \"http://a/\", \"\u212Aontenttype\": \"x\"}]}", false},
		{"long s", "{\"input\": \"a.pdf\", \"pageSets\": [{\"pages\": \"1\", \"url\": \"http://a/\", \"\u017Fource\": \"x\"}]}", false},
		{"escaped name", `{"input": "a.pdf", "pageSets": [{"\u0070ages": "1", "url": "http://a/"}]}`, false},
		{"escaped case", `{"input": "a.pdf", "pageSets": [{"\u0050ages": "1", "url": "http://a/"}]}`, false},
		{"escaped value", `{"input": "a\"b.pdf", ` + ps + `}`, true},
		{"image page 0", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"object": 3, "page": 0}]}]}`, false},
		{"image object 0", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"object": 0, "page": 1, "name": "Im0"}]}]}`, false},
		{"image page only", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"page": 1}]}]}`, false},
		{"image name only", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"name": "Im0"}]}]}`, false},
		{"image object and name", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"object": 3, "name": "Im0"}]}]}`, true}, // validate refuses it
		{"image page in settings", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"global": {"page": 0}}}], "imageSets": [{"url": "http://a/i.gif", "images": [{"object": 3}]}]}`, false},
		{"images empty", `{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": []}]}`, true},                      // validate refuses it
		{"redirect chain empty", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "redirects": [[]]}]}`, true}, // validate refuses it
		{"levels 0", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "levels": 0}], ` + ps + `}`, true},        // validate refuses it
		{"levels real", `{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "levels": 1.0}], ` + ps + `}`, false},
		{"captured not a time", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "captured": "then"}]}`, true}, // validate refuses it
		{"captured offset", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/", "captured": "2026-11-21T10:30:00+01:00"}]}`, true},
		{"sources and warc", `{"input": "a.pdf", "sources": "s", "warc": "w.warc", ` + ps + `}`, true},  // validate refuses it
		{"url not ascii", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://ä/"}]}`, true}, // validate refuses it
		{"url newline", `{"input": "a.pdf", "pageSets": [{"pages": "1", "url": "http://a/\n"}]}`, true},
		{"invalid utf-8 title", "{\"input\": \"a.pdf\", \"pageSets\": [{\"pages\": \"1\", \"url\": \"http://a/\", \"title\": \"\xff\"}]}", true},
		{"no input", `{` + ps + `}`, true},                                // validate refuses it
		{"dup", `{"input": "a.pdf", "input": "b.pdf", ` + ps + `}`, true}, // validate refuses it
		{"unknown", `{"input": "a.pdf", "x": 1, ` + ps + `}`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameParse(t, []byte(tc.json)); got != tc.sure {
				t.Errorf("schemaSure = %v, want %v", got, tc.sure)
			}
		})
	}
}

// The example manifests and a generated one take the fast path.
func TestManifestFastPathTaken(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/build/*.json")
	sure := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if sameParse(t, b) {
			sure++
		}
	}
	var b strings.Builder
	b.WriteString(`{"input": "a.pdf", "sources": "s", "commands": [{"name": "c", "url": "http://a/", "levels": 3, "sameSite": true}], "pageSets": [`)
	for i := range 200 {
		if i > 0 {
			b.WriteString(",\n")
		}
		b.WriteString(`{"pages": "` + strings.Repeat("1", 1+i%3) + `", "url": "https://a/x.html", "redirects": [["http://a/x.html"]], "contentType": "text/html", "captured": "2026-11-21T10:30:00Z", "title": "Story", "command": "c"}`)
	}
	b.WriteString("]}\n")
	if !sameParse(t, []byte(b.String())) {
		t.Error("a generated manifest does not take the fast path")
	}
	if sure == 0 {
		t.Errorf("none of the %d example manifests takes the fast path", len(paths))
	}
}

// No two names of the manifest's fields differ only in case: a member
// named exactly as some field is then no other field's case variant, the
// ground of scanManifestText's case check.
func TestManifestNamesFoldApart(t *testing.T) {
	names := manifestNames()
	if len(names) < 30 {
		t.Fatalf("%d names", len(names))
	}
	for a := range names {
		for b := range names {
			if a != b && strings.EqualFold(a, b) {
				t.Errorf("%q and %q differ only in case", a, b)
			}
		}
	}
}

// ParseManifestBytes is ParseManifest of the same bytes, and leaves them
// as they were.
func TestParseManifestBytes(t *testing.T) {
	paths, _ := filepath.Glob("../testdata/build/*.json")
	for _, in := range append(paths, "", `{"input": "a.pdf", "version": 0, "pageSets": [{"pages": "1", "url": "http://a/"}]}`) {
		data := []byte(in)
		if strings.HasSuffix(in, ".json") {
			data, _ = os.ReadFile(in)
		}
		orig := bytes.Clone(data)
		want, werr := ParseManifest(bytes.NewReader(data), "m.json")
		got, gerr := ParseManifestBytes(data, "m.json")
		if fmt.Sprint(gerr) != fmt.Sprint(werr) || !reflect.DeepEqual(got, want) {
			t.Errorf("%.40q: ParseManifestBytes = %+v, %v; ParseManifest %+v, %v", in, got, gerr, want, werr)
		}
		if !bytes.Equal(data, orig) {
			t.Errorf("%.40q: ParseManifestBytes changed its input", in)
		}
	}
}
