package hostile

import (
	"strings"
)

// Issue 30, build's manifest (round 4): an ordinary manifest is read by
// record's decodeKnown, a reader of its known shape, and anything it is
// not sure encoding/json reads the same way goes the strict way (the
// duplicate check, encoding/json, the schema). Escapes it decodes itself
// (\u escapes such as \u00e9, surrogate pairs, \/), and what it leaves to encoding/json (a
// lone surrogate, invalid UTF-8, a name given twice, nesting where a
// string belongs, an integer written as a real, a trailing comma) must
// give the session-start binary's verdicts, messages and bytes; a 10 MiB
// string costs no more than before.

// knownManifest is schemaOnlyManifest with the first page set's title.
func knownManifest(title string) map[string]string {
	return schemaOnlyFiles(schemaOnlyManifest(`, "title": "`+title+`"`, "", `{"page": 1, "name": "Im0"}`))
}

func init() {
	build := []string{"build", "m/manifest.json", "-o", "out.pdf"}
	Register(
		Case{
			Name: "build-manifest-known-escapes", Part: Inputs,
			Setup: confine(schemaOnlyFiles(strings.Replace(schemaOnlyManifest(`, "title": "caf\u00e9 \ud83d\ude00 \"q\" \/ \\ \t\u0041"`, "", `{"page": 1, "name": "Im0"}`),
				`"url": "http://www.example.com/"`, `"url": "http:\/\/www.example.com\u002f"`, 1)), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "bad4538bad8b3dd444e8dce69c87ea77"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,446 bytes, MD5 bad4538b… (encoding/json's decode)",
		},
		Case{
			Name: "build-manifest-lone-surrogate", Part: Inputs,
			Setup:  confine(knownManifest(`a\ud800b\udc00\ud800\u0041`), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "53e04a387895725079497166295d5625"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,421 bytes, MD5 53e04a38… (each lone half U+FFFD)",
		},
		Case{
			Name: "build-manifest-invalid-utf8", Part: Inputs,
			Setup:  confine(knownManifest("caf\xe9 \xf0\x9f\x98 \xc0\xaf"), build...),
			Exit:   0,
			Check:  sameMD5("out.pdf", "941770e92165aae475900f99c8198777"),
			Before: "exit 0, 0.02 s CPU, 23 MB: out.pdf of 3,431 bytes, MD5 941770e9… (each bad byte U+FFFD)",
		},
		Case{
			Name: "build-manifest-url-twice", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest(`, "url": "http://www.example.com/other"`, "", `{"page": 1, "name": "Im0"}`)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json:2:142: pageSets\[0\]\.url: "url" is given twice in one object \(JSON keeps only one\)$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.01 s CPU, 23 MB: the same refusal",
		},
		Case{
			Name: "build-manifest-ten-mib-title", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) { // (10 MiB: made when the case runs)
				return confine(knownManifest(strings.Repeat("ab\\u00e9", 10<<20/8)), build...)(dir)
			},
			Exit:   0,
			MaxRSS: 150 << 20,
			Check:  sameMD5("out.pdf", "2a34f7b352b6d9caae0b72c95ee25f81"),
			Before: "exit 0, 0.16–0.18 s CPU, 73 MB: out.pdf of 3,935,570 bytes, MD5 2a34f7b3…",
		},
		Case{
			Name: "build-manifest-deep-redirects", Part: Inputs,
			Setup: func(dir string) ([]string, func(), error) {
				return confine(schemaOnlyFiles(schemaOnlyManifest(`, "redirects": `+strings.Repeat("[", 100000)+strings.Repeat("]", 100000), "", `{"page": 1, "name": "Im0"}`)), build...)(dir)
			},
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json:2:10152: invalid character '\[' exceeded max depth$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 23 MB: the same refusal",
		},
		Case{
			Name: "build-manifest-real-page", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest("", "", `{"page": 1.0, "name": "Im0"}`)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json:4:104: imageSets\.images\.page: is a JSON number 1\.0, want a number$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.01 s CPU, 23 MB: the same refusal",
		},
		Case{
			Name: "build-manifest-trailing-comma", Part: Inputs,
			Setup:  confine(schemaOnlyFiles(schemaOnlyManifest(`, "title": "t",`, "", `{"page": 1, "name": "Im0"}`)), build...),
			Exit:   1,
			Stderr: []string{`^webcap: build: m/manifest\.json:2:155: invalid character '}' looking for beginning of object key string$`},
			Check:  nothingWritten(),
			Before: "exit 1, 0.02 s CPU, 23 MB: the same refusal",
		},
	)
}
