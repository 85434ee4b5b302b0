package cli

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/pdfio"
)

// A real Acrobat 10 capture: its URLS key (and source URL) holds the raw
// byte FD, Windows-1250 for "ý" ("Nový textový dokument.txt").
const pdfbox1538 = "pdfbox__PDFBOX1538-redig_test_textAdded_annot.pdf"

// jsonBytes reads a value of --json's byte strings independently of the
// types that write them: a JSON string is its UTF-8, {"hex"} its bytes.
func jsonBytes(t *testing.T, v any) string {
	t.Helper()
	switch v := v.(type) {
	case string:
		return v
	case map[string]any:
		h, ok := v["hex"].(string)
		if len(v) != 1 || !ok {
			t.Fatalf("not a string of bytes: %v", v)
		}
		b, err := hex.DecodeString(h)
		if err != nil || strings.ToUpper(h) != h {
			t.Fatalf("{\"hex\": %q}: not upper-case hex", h)
		}
		return string(b)
	}
	t.Fatalf("not a string of bytes: %#v", v)
	return ""
}

// get walks a decoded JSON value: keys of objects, indexes of arrays.
func get(t *testing.T, v any, path ...any) any {
	t.Helper()
	for _, p := range path {
		switch p := p.(type) {
		case string:
			v = v.(map[string]any)[p]
		case int:
			v = v.([]any)[p]
		}
	}
	return v
}

// runJSONLines runs a webcap command and decodes each line of its output.
func runJSONLines(t *testing.T, wantCode int, args ...string) []any {
	t.Helper()
	ios, _, out, errOut := Test()
	if code := Main(context.Background(), args, ios); code != wantCode {
		t.Fatalf("webcap %q: exit %d, want %d: %s", args, code, wantCode, errOut)
	}
	checkSchema(t, out.Bytes())
	var vs []any
	for _, line := range strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n") {
		var v any
		if err := json.Unmarshal([]byte(line), &v); err != nil {
			t.Fatalf("%v: %s", err, line)
		}
		vs = append(vs, v)
	}
	return vs
}

func writeSample(t *testing.T, name string) string {
	t.Helper()
	b, err := pdfbuild.Sample(name)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), name+".pdf")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkInfoJSON compares every string info --json takes from the file with
// what pdfio reads, byte for byte.
func checkInfoJSON(t *testing.T, file string, d *pdfio.Document) {
	rep := runJSONLines(t, 0, "info", "--json", file)[0]
	eq := func(what string, v any, want string) {
		t.Helper()
		if got := jsonBytes(t, v); got != want {
			t.Errorf("%s = %q, want %q", what, got, want)
		}
	}
	for i, e := range d.URLS.Entries {
		eq("urls.keys[].key", get(t, rep, "urls", "keys", i, "key"), e.Key)
	}
	for i, cs := range d.Sets {
		set := get(t, rep, "contentSets", i)
		eq("subtype", get(t, set, "subtype"), string(cs.Subtype))
		for j, k := range cs.URLSKeys {
			eq("urlsKeys[]", get(t, set, "urlsKeys", j), k)
		}
		for j, si := range cs.Sources {
			eq("sources[].url", get(t, set, "sources", j, "url"), si.URLs.URL)
			for k, chain := range si.URLs.Chains {
				for l, u := range chain {
					eq("chains", get(t, set, "sources", j, "chains", k, l), u)
				}
			}
			if si.Updated != nil {
				eq("updated.raw", get(t, set, "sources", j, "updated", "raw"), si.Updated.Raw)
			}
		}
		if cs.ContentType != nil {
			eq("contentType", get(t, set, "contentType"), *cs.ContentType)
		}
		if cs.Title != nil {
			want := cs.Title.String() // decoded when it decodes exactly, else the bytes
			if strings.ContainsRune(want, utf8.RuneError) {
				want = string(*cs.Title)
				if _, ok := get(t, set, "title").(map[string]any); !ok {
					t.Errorf("title %q does not decode, but is shown as text", string(*cs.Title))
				}
			}
			eq("title", get(t, set, "title"), want)
		}
	}
	if d.Info == nil {
		return
	}
	for i, c := range d.Info.Commands {
		cmd := get(t, rep, "spiderInfo", "commands", i)
		eq("command url", get(t, cmd, "url"), c.URL)
		if c.PostData != nil {
			eq("postData", get(t, cmd, "postData"), string(*c.PostData))
		}
		if c.Headers != nil {
			eq("headers", get(t, cmd, "headers"), *c.Headers)
		}
		if c.Settings != nil {
			keys := dictKeys(c.Settings.Global)
			for j, k := range keys {
				eq("settings.global[]", get(t, cmd, "settings", "global", j), string(k))
			}
		}
	}
}

// noReplacement fails when a string of the report holds U+FFFD, the mark of
// a byte lost (the defects' messages, text for people, aside).
func noReplacement(t *testing.T, v any, path string) {
	t.Helper()
	switch v := v.(type) {
	case string:
		if strings.ContainsRune(v, utf8.RuneError) {
			t.Errorf("%s = %q: a byte was lost", path, v)
		}
	case []any:
		for i, e := range v {
			noReplacement(t, e, path+"["+strconv.Itoa(i)+"]")
		}
	case map[string]any:
		for k, e := range v {
			if k != "defects" {
				noReplacement(t, e, path+"."+k)
			}
		}
	}
}

// info --json keeps every byte of keys, URLs, titles, dates, commands: a
// built file with Latin-1 bytes, NUL, bytes that are not UTF-8 and raw
// UTF-8 in them.
func TestInfoJSONKeepsEveryByte(t *testing.T) {
	file := writeSample(t, "rawbytes")
	d, err := pdfio.Open(file, pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	// The sample holds what it says it holds.
	var keys []string
	for _, e := range d.URLS.Entries {
		keys = append(keys, e.Key)
	}
	for _, want := range []string{"http://www.example.com/caf\xe9", "http://www.example.com/nul\x00byte", "http://www.example.com/\xff\xfe\xfd", "http://www.example.com/\u00fc"} {
		if !strings.Contains(strings.Join(keys, "\n"), want) {
			t.Fatalf("the sample has no URLS key %q: %q", want, keys)
		}
	}
	checkInfoJSON(t, file, d)
	rep := runJSONLines(t, 0, "info", "--json", file)[0]
	noReplacement(t, rep, "")
	// The forms themselves, as docs/commands.md shows them.
	if got := get(t, rep, "urls", "keys", 0, "key"); jsonBytes(t, got) != "http://www.example.com/caf\xe9" || got.(map[string]any)["hex"] != "687474703A2F2F7777772E6578616D706C652E636F6D2F636166E9" {
		t.Errorf("Latin-1 key = %v", got)
	}
	if got := get(t, rep, "urls", "keys", 1, "key"); got != "http://www.example.com/nul\x00byte" {
		t.Errorf("NUL key = %#v, want a JSON string", got)
	}
	if got := get(t, rep, "contentSets", 2, "title"); got != "Nov\u00fd" {
		t.Errorf("PDFDocEncoding title = %#v, want \"Nový\"", got)
	}
}

// The real Acrobat 10 key with a raw FD: info --json gives its bytes back.
func TestInfoJSONRealAcrobatRawKey(t *testing.T) {
	file := sharedtest.Dir(t, "realworld", pdfbox1538)
	d, err := pdfio.Open(file, pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d.URLS == nil || len(d.URLS.Entries) != 1 || !strings.Contains(d.URLS.Entries[0].Key, "\xfd") {
		t.Fatalf("%s: expected one URLS key holding the byte FD", pdfbox1538)
	}
	checkInfoJSON(t, file, d)
	rep := runJSONLines(t, 0, "info", "--json", file)[0]
	if got := jsonBytes(t, get(t, rep, "urls", "keys", 0, "key")); got != d.URLS.Entries[0].Key {
		t.Errorf("key = %q, pdfio reads %q", got, d.URLS.Entries[0].Key)
	}
}

// lookup finds a key with raw bytes by those bytes and by its canonical
// form, and shows the key losslessly in --json.
func TestLookupRawKeys(t *testing.T) {
	file := writeSample(t, "rawbytes")
	cases := []struct {
		name, query, key string
		set              float64
	}{
		{"Latin-1 key by its bytes", "http://www.example.com/caf\xe9", "http://www.example.com/caf\xe9", 1},
		{"Latin-1 key by its canonical form", "http://www.example.com/caf%E9", "http://www.example.com/caf\xe9", 1},
		{"bytes that are not UTF-8, by the bytes", "http://www.example.com/\xff\xfe\xfd", "http://www.example.com/\xff\xfe\xfd", 3},
		{"bytes that are not UTF-8, by the canonical form", "http://www.example.com/%FF%FE%FD", "http://www.example.com/\xff\xfe\xfd", 3},
		{"raw UTF-8, by the bytes", "http://www.example.com/\u00fc", "http://www.example.com/\u00fc", 4},
		{"raw UTF-8, by the canonical form", "http://www.example.com/%C3%BC", "http://www.example.com/\u00fc", 4},
		{"NUL, by the canonical form", "http://www.example.com/nul%00byte", "http://www.example.com/nul\x00byte", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			q := runJSONLines(t, 0, "lookup", "--json", file, tc.query)[0]
			if got := jsonBytes(t, get(t, q, "query")); got != tc.query {
				t.Errorf("query = %q, want %q", got, tc.query)
			}
			if got := jsonBytes(t, get(t, q, "key")); got != tc.key {
				t.Errorf("key = %q, want %q", got, tc.key)
			}
			if got := get(t, q, "sets", 0, "index"); got != tc.set {
				t.Errorf("set = %v, want %v", got, tc.set)
			}
			ios, _, out, errOut := Test()
			if code := Main(context.Background(), []string{"lookup", file, tc.query}, ios); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if !strings.Contains(out.String(), displayInput(tc.key)) {
				t.Errorf("plain output does not show the key %s:\n%s", displayInput(tc.key), out)
			}
		})
	}
}

// The real key with a raw FD is found by its bytes and by its canonical
// form (FD percent-encoded).
func TestLookupRealAcrobatRawKey(t *testing.T) {
	file := sharedtest.Dir(t, "realworld", pdfbox1538)
	const key = "file:///C|/Users/asvetlik/Desktop/Nov\xfd%20textov\xfd%20dokument.txt"
	for _, query := range []string{key, "file:///C|/Users/asvetlik/Desktop/Nov%FD%20textov%FD%20dokument.txt"} {
		q := runJSONLines(t, 0, "lookup", "--json", file, query)[0]
		if got := jsonBytes(t, get(t, q, "key")); got != key {
			t.Errorf("lookup %q: key = %q, want %q", query, got, key)
		}
		if got := get(t, q, "sets", 0, "id"); got != "778B5356974E9D3CCD3433F74199F458" {
			t.Errorf("lookup %q: set ID = %v", query, got)
		}
	}
}

// A URL that several non-canonical keys canonicalize to is not found: which
// key it means is not known.
func TestLookupAmbiguousKey(t *testing.T) {
	file := writeSample(t, "collide")
	q := runJSONLines(t, exitFailed, "lookup", "--json", file, "http://example.com/a")[0]
	if get(t, q, "found") != false || !strings.Contains(get(t, q, "error").(map[string]any)["message"].(string), `2 keys canonicalize to it: "HTTP://Example.com/a", "http://example.com:80/a"`) {
		t.Errorf("lookup of a collision = %v", q)
	}
	// Each key as written is still found.
	q = runJSONLines(t, 0, "lookup", "--json", file, "http://example.com:80/a")[0]
	if jsonBytes(t, get(t, q, "key")) != "http://example.com:80/a" {
		t.Errorf("lookup of a key as written = %v", q)
	}
}
