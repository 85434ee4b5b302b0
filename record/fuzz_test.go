package record

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzParseManifest: any bytes give a manifest or a *ManifestError, never
// a panic, and an accepted manifest passes its own checks again.
func FuzzParseManifest(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/build/*.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"input": "a.pdf", "pageSets": [{"pages": "1-2", "url": "http://a/", "redirects": [["http://b/"]]}]}`))
	f.Add([]byte(`{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"object": 3}]}], "commands": [{"name": "c", "url": "http://a/", "settings": {"global": {"M": [1.5, 2]}}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ParseManifest(strings.NewReader(string(data)), "fuzz.json")
		if err != nil {
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %T %v is not a *ManifestError", err, err)
			}
			if me.Line < 0 || me.Col < 0 {
				t.Fatalf("bad position in %v", me)
			}
			return
		}
		if err := m.validate(); err != nil {
			t.Fatalf("accepted, then rejected: %v", err)
		}
	})
}

// FuzzManifestFastPath: the fast path (schemaSure) and the whole way
// (generic decode, exactNames, schema) give the same manifest or the same
// error on any bytes.
func FuzzManifestFastPath(f *testing.F) {
	paths, _ := filepath.Glob("../testdata/build/*.json")
	for _, p := range paths {
		if b, err := os.ReadFile(p); err == nil {
			f.Add(b)
		}
	}
	f.Add([]byte(`{"input": "a.pdf", "version": 0, "pageSets": [{"pages": "1", "url": "http://a/", "submission": "get"}]}`))
	f.Add([]byte(`{"input": "a.pdf", "imageSets": [{"url": "http://a/i.gif", "images": [{"object": 3, "page": 0}]}]}`))
	f.Add([]byte(`{"input": "a.pdf", "commands": [{"name": "c", "url": "http://a/", "settings": {"engines": {"A::C:D": {"page": 1}}}}], "pageSets": [{"pages": "1-2", "url": "http://a/"}]} `))
	f.Fuzz(func(t *testing.T, data []byte) { sameParse(t, data) })
}
