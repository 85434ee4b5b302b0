package hostile

import (
	"strings"
)

// Issue 30, build's inputs: a manifest the decoded structs show valid
// skips the schema's generic decode and validation (record's schemaSure),
// and what the structs cannot show (a member given as null, as "", as 0,
// text after the object, a name that differs only in case) sends it the
// whole way, to be refused with the schema's or the decoder's own
// message; and ToUTF8 looks for the charset labels that change ASCII in
// one pass over a page's first 1024 bytes. The verdicts, messages and
// bytes written are the session-start binary's.

// schemaOnlyManifest is strayIDManifest's first page set with the members
// extra inside its object, and its image named by what images holds.
func schemaOnlyManifest(extra, top, images string) string {
	return `{"input": "web.pdf"` + top + `, "pageSets": [
  {"pages": "1-2", "url": "http://www.example.com/", "contentType": "text/html", "captured": "2026-11-21T10:30:00Z", "source": "index.html"` + extra + `},
  {"pages": "3", "url": "http://www.example.com/notes.txt", "contentType": "text/plain", "source": "notes.txt"}],
 "imageSets": [{"url": "http://www.example.com/logo.gif", "source": "logo.gif", "images": [` + images + `]}]}`
}

// schemaOnlyFiles are strayIDFiles with manifest as the manifest.
func schemaOnlyFiles(manifest string) map[string]string {
	f := strayIDFiles("Example")
	f["m/manifest.json"] = manifest
	return f
}

// labelPages are strayIDFiles with index.html as the first page: ASCII
// pages whose encoding a label in their first 1024 bytes decides.
func labelPages(index string) map[string]string {
	f := strayIDFiles("Example")
	f["m/index.html"] = index
	return f
}

// mirrorFiles are strayIDFiles with the sources in a mirror (site) the
// manifest names, the first page's source index.html.
func mirrorFiles(index string) map[string]string {
	f := strayIDFiles("Example")
	f["m/manifest.json"] = `{"input": "web.pdf", "sources": "site", "pageSets": [
  {"pages": "1-2", "url": "http://www.example.com/", "contentType": "text/html", "captured": "2026-11-21T10:30:00Z"},
  {"pages": "3", "url": "http://www.example.com/notes.txt", "contentType": "text/plain"}],
 "imageSets": [{"url": "http://www.example.com/logo.gif", "images": [{"page": 1, "name": "Im0"}]}]}`
	for _, n := range []string{"index.html", "notes.txt", "logo.gif"} {
		f["m/site/www.example.com/"+n] = f["m/"+n]
		delete(f, "m/"+n)
	}
	f["m/site/www.example.com/index.html"] = index
	return f
}

// pagesInSettings is a manifest of one page set whose command's settings
// hold n objects with a member named pages: each counted by the page
// sets' presize, which is bounded by the manifest's length.
func pagesInSettings(n int) string {
	return strings.Replace(strayIDManifest("Example"), `{"input": "web.pdf",`, `{"input": "web.pdf", "commands": [{"name": "c", "url": "http://www.example.com/", "settings": {"global": {"A": [`+
		strings.TrimSuffix(strings.Repeat(`{"pages":1},`, n), ",")+`]}}}],`, 1)
}

func init() {
	const image = `{"page": 1, "name": "Im0"}`
	build := []string{"build", "m/manifest.json", "-o", "out.pdf"}
	Register(
		// Refused by the schema only: the structs cannot tell a member
		// given as 0, "" or null from one not given.
		Case{
			Name: "build-manifest-version-zero", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest("", `, "version": 0`, image)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: version: exclusiveMinimum: got 0, want 0 \(webcap help schema manifest\)$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 63 MB: the same refusal",
		},
		Case{
			Name: "build-manifest-image-page-zero", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest("", "", `{"object": 4, "page": 0}`)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: imageSets\[0\]\.images\[0\]\.page: minimum: got 0, want 1 \(webcap help schema manifest\)$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 62 MB: the same refusal",
		},
		Case{
			Name: "build-manifest-empty-submission", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest(`, "submission": ""`, "", image)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.submission: value must be one of 'none', 'get', 'post' \(webcap help schema manifest\)$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 63 MB: the same refusal",
		},
		Case{
			Name: "build-manifest-null-title", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest(`, "title": null`, "", image)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.title: got null, want string \(webcap help schema manifest\)$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 62 MB: the same refusal",
		},
		// Text after the object that the decoder's More lets through (a
		// closing brace): the generic decode refuses it.
		Case{
			Name: "build-manifest-trailing-brace", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest("", "", image)+"\n}\n"), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: invalid character after top-level value$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 62 MB: the same refusal",
		},
		// A member named with a long s (U+017F), which encoding/json and
		// strings.EqualFold take for "source": refused, case-sensitive.
		Case{
			Name: "build-manifest-long-s-name", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(strings.Replace(schemaOnlyManifest("", "", image), `"source": "notes.txt"`, `"ſource": "notes.txt"`, 1)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[1\]\.ſource: unknown field \(field names are case-sensitive: source\)$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 63 MB: the same refusal",
		},
		// ASCII pages whose first 1024 bytes name an encoding that changes
		// ASCII, in mixed case, or cut at byte 1024, or past it: the
		// identifiers and texts (the bytes written) are as before.
		Case{
			Name: "build-page-label-mixed-case", Part: Inputs,
			Setup:  confine(labelPages(`<html><head><META CHARSET="Hz-Gb-2312"><title>x</title></head><body><p>~{<:Ky2;S{#,NpJ)l6HK!#~} and ~~</p></body></html>`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "ee5b82c1c6b818c29600971b890f3e9f"),
			Before: "exit 0, 0.02 s CPU, 63 MB: out.pdf of 3,506 bytes, MD5 ee5b82c1…, the first set's ID 4912FF8B…",
		},
		Case{
			Name: "build-page-label-past-1024", Part: Inputs,
			Setup:  confine(labelPages(`<html><head><title>x</title></head><body><p>`+strings.Repeat("word ", 205)+`<meta charset=iso-2022-jp><p>~{x~} &amp;</p></body></html>`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "8a767c784642e1ed28b7319a259ba9dd"),
			Before: "exit 0, 0.02 s CPU, 61 MB: out.pdf of 3,506 bytes, MD5 8a767c78…, the first set's ID E082E431…",
		},
		Case{
			Name: "build-page-label-cut-at-1024", Part: Inputs,
			Setup:  confine(labelPages(`<html><head><!--`+strings.Repeat("-", 1024-len(`<html><head><!--`)-len(`REPLACEM`))+`REPLACEMENT--><meta charset=replacement></head><body><p>text</p></body></html>`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "5448f13ddd5bcf7d9d7d978c1d6d5e2e"),
			Before: "exit 0, 0.02 s CPU, 62 MB: out.pdf of 3,506 bytes, MD5 5448f13d…, the first set's ID 3F21FF70…",
		},
		// Sources read from a mirror by the fast path, which stops at the
		// size fstat gave: an empty page (size 0: read to the end as
		// before), and a page at the size limit and one byte past it.
		Case{
			Name: "build-mirror-empty-page", Part: Inputs,
			Setup:  confine(mirrorFiles(""), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "35e9373403605066b20363fd450914d4"),
			Before: "exit 0, 0.02 s CPU, 63 MB: out.pdf of 3,363 bytes, MD5 35e93734…",
		},
		Case{
			Name: "build-mirror-page-at-size-limit", Part: Bounds,
			Setup:  confine(mirrorFiles("<p>"+strings.Repeat("x", 2000-len("<p>"))), "build", "--max-file-size", "2000", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Check:  sameMD5("out.pdf", "49658e4650c760a6d4c8958453788cf3"),
			Before: "exit 0, 0.02 s CPU, 61 MB: out.pdf of 3,402 bytes, MD5 49658e46…",
		},
		Case{
			Name: "build-mirror-page-past-size-limit", Part: Bounds,
			Setup:  confine(mirrorFiles("<p>"+strings.Repeat("x", 2001-len("<p>"))), "build", "--max-file-size", "2000", "m/manifest.json", "-o", "out.pdf"),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.source: http://www\.example\.com/ is not in the sources: not found in m/site$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 63 MB: the same refusal (the fast path leaves a file past the limit to OpenIn)",
		},
		// 200,000 members named pages in a command's settings and one page
		// set: the page sets' room is bounded by the manifest's length (one
		// per 23 bytes), not by the members counted.
		Case{
			Name: "build-manifest-pages-in-settings", Part: Bounds,
			Setup: func(dir string) ([]string, func(), error) { // (2.4 MB: made when the case runs, not at init)
				return confine(schemaOnlyFiles(pagesInSettings(200000)), build...)(dir)
			},
			Exit:   1,
			Stdout: []string{`^out\.pdf: errors remain: WC-LIMIT \(1\); see webcap audit$`},
			Check:  sameMD5("out.pdf", "6f095fd1836f791b04749b82c9d9ae5b"),
			MaxRSS: 400 << 20,
			Before: "exit 1 (the audit's WC-LIMIT on the 200,000-element array), 1.09-1.21 s CPU, 320-376 MB: out.pdf of 2,603,610 bytes, MD5 6f095fd1…",
		},
	)
}
