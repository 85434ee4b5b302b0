package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"
)

// sameKnown holds decodeKnown to encoding/json, the way parseManifestBytes
// uses it: whatever decodeKnown takes, encoding/json decodes to the same
// Manifest, ending at the same offset with nothing after it, and
// uniqueNames finds no name given twice. It reports whether decodeKnown
// took data.
func sameKnown(t *testing.T, data []byte) bool {
	t.Helper()
	known := &Manifest{name: "m.json", dir: "."}
	end, keys, ok := decodeKnown(data, known)
	if !ok {
		return false
	}
	switch scanned, sure := scanManifestText(data[:end]); {
	case (keys != nil) != sure:
		t.Fatalf("decodeKnown's keys %v, scanManifestText's %v, %v:\n%s", keys, scanned, sure, data)
	case sure && *keys != *scanned:
		t.Fatalf("decodeKnown counts %v, scanManifestText %v:\n%s", *keys, *scanned, data)
	}
	m := &Manifest{name: "m.json", dir: "."}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	dec.UseNumber()
	presized := presizePageSets(m, data)
	if err := dec.Decode(m); err != nil {
		t.Fatalf("decodeKnown took what encoding/json refuses (%v):\n%s", err, data)
	}
	if presized && len(m.PageSets) == 0 {
		m.PageSets = nil
	}
	switch {
	case dec.More():
		t.Fatalf("decodeKnown took text after the object:\n%s", data)
	case end != dec.InputOffset():
		t.Fatalf("decodeKnown ends at %d, encoding/json at %d:\n%s", end, dec.InputOffset(), data)
	case !reflect.DeepEqual(known, m):
		t.Fatalf("decodeKnown: %+v\nencoding/json: %+v\n%s", known, m, data)
	case uniqueNames("m.json", data) != nil:
		t.Fatalf("decodeKnown took a name given twice:\n%s", data)
	}
	return true
}

func TestDecodeKnown(t *testing.T) {
	const ps = `"pageSets": [{"pages": "1", "url": "http://a/"}]`
	for _, tc := range []struct {
		name, json string
		ok         bool
	}{
		{"plain", `{"input": "a.pdf", ` + ps + `}`, true},
		{"every field but settings", `{"input": "a.pdf", "profile": "pdf2", "sources": "s", "warc": "w", "auxForm": "HEX", "version": 1.25e0,
			"commands": [{"name": "c", "url": "http://a/", "levels": 2, "sameSite": true, "samePath": false, "submit": true, "post": "", "contentType": "text/plain", "headers": "X: y\r\n"}],
			"pageSets": [{"pages": "1-2", "url": "http://a/", "redirects": [["http://b/", "http://c/"], []], "source": "a.html", "contentType": "text/html", "captured": "2026-11-21T10:30:00Z", "expires": "2026-12-21T10:30:00Z", "title": "T", "submission": "post", "command": "c"}],
			"imageSets": [{"url": "http://a/i.gif", "redirects": [], "source": "i.gif", "captured": "x", "expires": "y", "images": [{"page": 1, "name": "Im0"}, {"object": 7}, {}]}]}`, true},
		{"empty arrays", `{"input": "a.pdf", "commands": [], "pageSets": [], "imageSets": [{"url": "u", "images": []}]}`, true},
		{"empty pageSets, presized", `{"input": "a.pdf", "pageSets": [], "x": {"pages": 1, "pages": 2}}`, false},
		{"empty object", `{}`, true},
		{"white space", " \t\r\n{ \"input\" : \"a\" , \"pageSets\" : [ ] }\n\n", true},
		{"escapes", `{"input": "a\"\\\/\b\f\n\r\t\u0041\u00e9\u20ac\ud83d\ude00\u0000b", ` + ps + `}`, true},
		{"utf-8", `{"input": "café €😀", "pageSets": [{"pages": "1", "url": "http://a/", "title": "naïve"}]}`, true},
		{"negative numbers", `{"input": "a", "version": -0.5e-3, "commands": [{"name": "c", "url": "u", "levels": -3}], "imageSets": [{"url": "u", "images": [{"page": -1, "object": 0}]}]}`, true},
		{"version integer", `{"input": "a", "version": 2}`, true},
		// Not sure: the strict way.
		{"settings", `{"input": "a", "commands": [{"name": "c", "url": "u", "settings": {}}]}`, false},
		{"unknown field", `{"input": "a", "inputs": "b"}`, false},
		{"field in another case", `{"Input": "a"}`, false},
		{"long s", `{"input": "a", "pageSets": [{"pageſ": "1", "url": "u"}]}`, false},
		{"escaped name", `{"\u0069nput": "a"}`, false},
		{"name twice", `{"input": "a", "input": "b"}`, false},
		{"name twice in a set", `{"input": "a", "pageSets": [{"pages": "1", "url": "u", "url": "v"}]}`, false},
		{"null", `{"input": null}`, false},
		{"null manifest", `null`, false},
		{"number for a string", `{"input": 1}`, false},
		{"string for a number", `{"input": "a", "version": "1"}`, false},
		{"real levels", `{"input": "a", "commands": [{"name": "c", "url": "u", "levels": 1.0}]}`, false},
		{"exponent levels", `{"input": "a", "commands": [{"name": "c", "url": "u", "levels": 1e2}]}`, false},
		{"huge levels", `{"input": "a", "commands": [{"name": "c", "url": "u", "levels": 99999999999999999999}]}`, false},
		{"huge version", `{"input": "a", "version": 1e999}`, false},
		{"leading zero", `{"input": "a", "version": 01}`, false},
		{"bare point", `{"input": "a", "version": 1.}`, false},
		{"plus", `{"input": "a", "version": +1}`, false},
		{"invalid utf-8", "{\"input\": \"a\xffb\"}", false},
		{"invalid utf-8 with an escape", "{\"input\": \"\\n\xc3\"}", false},
		{"lone surrogate", `{"input": "\ud800"}`, false},
		{"surrogate then letter", `{"input": "\ud800\u0041"}`, false},
		{"bad escape", `{"input": "\x"}`, false},
		{"short \\u", `{"input": "\u12"}`, false},
		{"control character", "{\"input\": \"a\tb\"}", false},
		{"trailing comma", `{"input": "a",}`, false},
		{"trailing comma in an array", `{"input": "a", "commands": [{"name": "c", "url": "u"},]}`, false},
		{"text after", `{"input": "a"} {}`, false},
		{"brace after", `{"input": "a"}}`, false},
		{"cut", `{"input": "a", "pageSets": [`, false},
		{"cut in a string", `{"input": "a`, false},
		{"true cut", `{"input": "a", "commands": [{"name": "c", "url": "u", "submit": tru`, false},
		{"true glued", `{"input": "a", "commands": [{"name": "c", "url": "u", "submit": truex}]}`, false},
		{"bom", "\ufeff{\"input\": \"a\"}", false},
		{"array", `[]`, false},
		{"empty", ``, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameKnown(t, []byte(tc.json)); got != tc.ok {
				t.Errorf("decodeKnown(%s) took it: %v, want %v", tc.json, got, tc.ok)
			}
			sameParse(t, []byte(tc.json))
		})
	}
}

// TestDecodeKnownFields: decodeKnown's names are the types' JSON names.
func TestDecodeKnownFields(t *testing.T) {
	for _, tc := range []struct {
		t      reflect.Type
		fields []string
	}{
		{reflect.TypeOf(Manifest{}), manifestFields},
		{reflect.TypeOf(Command{}), commandFields},
		{reflect.TypeOf(PageSet{}), pageSetFields},
		{reflect.TypeOf(ImageSet{}), imageSetFields},
		{reflect.TypeOf(Image{}), imageFields},
	} {
		var want []string
		for name := range jsonFields(tc.t) {
			want = append(want, name)
		}
		sort.Strings(want)
		got := slices.Sorted(slices.Values(tc.fields))
		if !slices.Equal(got, want) {
			t.Errorf("%s: decodeKnown reads %v, want %v", tc.t, got, want)
		}
		if len(tc.fields) > 32 {
			t.Errorf("%s: more names than knownDecoder.object's mask holds", tc.t)
		}
	}
}

// The bench's manifests are read directly.
func TestDecodeKnownBuildCase(t *testing.T) {
	_, data := buildCase(t, 300)
	if !sameKnown(t, data) {
		t.Fatalf("decodeKnown did not take BuildCase's manifest")
	}
	paths, _ := filepath.Glob("../testdata/build/*.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil && !strings.Contains(string(b), `"settings"`) {
			sameKnown(t, b)
		}
	}
}

// FuzzDecodeKnown: on any bytes, what decodeKnown takes encoding/json
// decodes the same, and the whole parse gives what the strict way gives.
func FuzzDecodeKnown(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/build/*.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"input": "a\u00e9\ud83d\ude00", "version": 1.5, "commands": [{"name": "c", "url": "http://a/", "levels": 2, "post": "p"}], "pageSets": [{"pages": "1-2", "url": "http://a/", "redirects": [["http://b/"]], "title": "t\n"}], "imageSets": [{"url": "u", "images": [{"page": 1, "name": "Im0"}, {"object": 3}]}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sameKnown(t, data)
		sameParse(t, data)
	})
}

func TestElement(t *testing.T) {
	for _, tc := range []struct {
		array string
		i     int
	}{{"pageSets", 0}, {"pageSets", 99999}, {"imageSets", 7}, {"commands", 1 << 40}, {strings.Repeat("x", 40), 3}} {
		if got, want := element(tc.array, tc.i), fmt.Sprintf("%s[%d]", tc.array, tc.i); got != want {
			t.Errorf("element(%q, %d) = %q, want %q", tc.array, tc.i, got, want)
		}
	}
}
