// The manifest's fast path: a manifest that encoding/json decoded, shown
// to pass the exact-name check and the schema without the schema's own
// decode and validation (1 s and 300 MB for 100,000 page sets).

package record

import (
	"reflect"
	"strings"
	"sync"
)

// schemaSure reports whether m, decoded by encoding/json from data (whose
// top-level value ends at end), is sure to pass exactNames, and the schema
// too when it passes m.validate: what the generic decode, exactNames and
// validateSchema would find is then nothing, and ParseManifest skips them.
// false says only "not sure": the manifest goes the whole way, and its
// error (if any) comes from where it always came. So every check here may
// be stricter than the schema, never looser; what the struct cannot tell
// (a member given as null, or as "", or present with a zero value) is
// found in the text.
//
// What encoding/json already holds to the schema: every type (a member of
// the wrong JSON type is its error), additionalProperties (unknown fields
// are refused; their case is checked below), integers (1.0 is refused).
// What validate holds to it: input, name, url and pages present; url and
// redirect URLs ASCII and not empty; redirect chains not empty; images not
// empty; levels from 1. The rest is checked here, rule by rule, against
// the schema's own words (docs/schemas/manifest.schema.json).
func schemaSure(m *Manifest, data []byte, end int64) bool {
	if end < 0 || end > int64(len(data)) || !jsonSpace(data[end:]) {
		return false // jsonschema.UnmarshalJSON refuses text after the value ("{} }")
	}
	keys, ok := scanManifestText(data[:end])
	return ok && structSure(m, keys)
}

// structSure is schemaSure of m, given keys, the members of its text named
// version, page and object counted (by scanManifestText or decodeKnown).
func structSure(m *Manifest, keys *[nameCount]int) bool {
	// "profile": {"enum": ["pdf", "pdf2", "rfc3986"]}, "auxForm": {"enum": ["raw", "HEX", "hex"]}
	// ("" is absent: the text holds no empty string).
	if !oneOf(m.Profile, "", "pdf", "pdf2", "rfc3986") || !oneOf(m.AuxForm, "", "raw", "HEX", "hex") {
		return false
	}
	// "version": {"type": "number", "exclusiveMinimum": 0}; 0 is absent
	// only when no member of the text is named version.
	if m.Version < 0 || m.Version == 0 && keys[nameVersion] > 0 {
		return false
	}
	for _, c := range m.Commands {
		if c.Settings == nil {
			continue
		}
		// "engines": {"propertyNames": {"pattern": "^[^:]+:[^:]*:[^:]+:[^:]+$"}}
		for k := range c.Settings.Engines {
			if !engineNamePattern(k) {
				return false
			}
		}
	}
	for _, s := range m.PageSets {
		// "pages": {"pattern": "^[0-9]+(-[0-9]+)?$"}; "submission": {"enum": ["none", "get", "post"]}
		if !pagesPattern(s.Pages) || !oneOf(s.Submission, "", "none", "get", "post") {
			return false
		}
	}
	return imagesSure(m.ImageSets, keys)
}

// imagesSure checks images[]: "page" and "object" are integers from 1,
// and "oneOf": [{"required": ["page", "name"]}, {"required": ["object"]}].
// A page or object member is present when it is not 0 only if the text
// holds no more members of the name than images with one not 0 (a member
// given as 0 would be one more).
func imagesSure(sets []ImageSet, keys *[nameCount]int) bool {
	pages, objects := 0, 0
	for _, s := range sets {
		for _, im := range s.Images {
			if im.Page < 0 || im.Object < 0 {
				return false
			}
			byPage, byObject := im.Page > 0 && im.Name != "", im.Object > 0
			if byPage == byObject {
				return false
			}
			if im.Page > 0 {
				pages++
			}
			if im.Object > 0 {
				objects++
			}
		}
	}
	return keys[namePage] == pages && keys[nameObject] == objects
}

func oneOf(s string, list ...string) bool {
	for _, x := range list {
		if s == x {
			return true
		}
	}
	return false
}

// pagesPattern is ^[0-9]+(-[0-9]+)?$.
func pagesPattern(s string) bool {
	a, b, isRange := strings.Cut(s, "-")
	return digits(a) && (!isRange || digits(b))
}

func digits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// engineNamePattern is ^[^:]+:[^:]*:[^:]+:[^:]+$: four parts, the second
// may be empty. (A Go regexp's $ is the end of the text.)
func engineNamePattern(s string) bool {
	p := strings.Split(s, ":")
	return len(p) == 4 && p[0] != "" && p[2] != "" && p[3] != ""
}

func jsonSpace(b []byte) bool {
	for _, c := range b {
		if c != ' ' && c != '\t' && c != '\n' && c != '\r' {
			return false
		}
	}
	return true
}

// The member names scanManifestText counts (manifestNames' indexes).
const (
	nameVersion = iota
	namePage
	nameObject
	nameCount
)

// manifestNames are the JSON names of every field of the manifest's
// types (Manifest, Command, Settings, PageSet, ImageSet, Image), and the
// index of the ones counted.
var manifestNames = sync.OnceValue(func() map[string]int {
	names := map[string]int{}
	var walk func(t reflect.Type)
	walk = func(t reflect.Type) {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		if t.Kind() != reflect.Struct {
			return
		}
		for name, ft := range jsonFields(t) {
			if _, ok := names[name]; !ok {
				names[name] = -1
				walk(ft)
			}
		}
	}
	walk(reflect.TypeOf(Manifest{}))
	names["version"], names["page"], names["object"] = nameVersion, namePage, nameObject
	return names
})

// scanManifestText reads data, a JSON value encoding/json decoded, for
// what the decoded structs cannot show: false when a value is null (the
// schema's types refuse it; encoding/json leaves the field as it was),
// when a string is empty (a member given as "" looks absent), when a
// member's name is written with an escape, or differs only in case from a
// field's name (exactNames' case); else it counts the members named
// version, page and object.
func scanManifestText(data []byte) (keys *[nameCount]int, ok bool) {
	names := manifestNames()
	keys = new([nameCount]int)
	for i := 0; i < len(data); i++ {
		switch data[i] {
		case 'n': // outside a string only null has an n
			return nil, false
		case '"':
		default:
			continue
		}
		start, escaped := i+1, false
		for i++; i < len(data) && data[i] != '"'; i++ {
			if data[i] == '\\' {
				escaped = true
				i++
			}
		}
		s := data[start:min(i, len(data))]
		if len(s) == 0 {
			return nil, false
		}
		j := i + 1
		for j < len(data) && (data[j] == ' ' || data[j] == '\t' || data[j] == '\n' || data[j] == '\r') {
			j++
		}
		if j == len(data) || data[j] != ':' {
			continue // a value
		}
		if escaped {
			return nil, false
		}
		if n, known := names[string(s)]; known {
			if n >= 0 {
				keys[n]++
			}
			continue
		}
		for name := range names {
			if strings.EqualFold(name, string(s)) {
				return nil, false
			}
		}
	}
	return keys, true
}
