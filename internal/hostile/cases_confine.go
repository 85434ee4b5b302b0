package hostile

import (
	"crypto/md5"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// Part Confine: a mirror, a manifest of URL: file or a build manifest
// (often made by someone else) names files by symbolic links, "..",
// absolute paths and file: URLs; webcap must read only inside the
// directory the user gave, unless --allow-outside. Each case lays out
// DIR/secret, a file outside the mirror or manifest directory (and uses
// /etc/passwd where a path outside everything is wanted: never anything
// more private), and checks that nothing was written or changed in DIR.

// secret is the outside file's content; secretMD5 its identifier, which a
// refused case must not print.
const secret = "a file outside the mirror, which webcap must not read\n"

var secretMD5 = func() string {
	s := md5.Sum([]byte(secret))
	return strings.ToUpper(hex.EncodeToString(s[:]))
}()

// refused is the rule's wording, after the path and where it leads.
const refused = `: refused: sources are read inside their directory only \(--allow-outside reads it\)`

// layout writes files (name: content) and symbolic links (name: "-> target")
// in dir, and DIR/secret.
func layout(dir string, files map[string]string) error {
	if err := Write(dir, "secret", []byte(secret)); err != nil {
		return err
	}
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range files {
			if !yield(n) {
				return
			}
		}
	}) {
		content := files[name]
		if target, ok := strings.CutPrefix(content, "-> "); ok {
			p := filepath.Join(dir, name)
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				return err
			}
			if err := os.Symlink(strings.ReplaceAll(target, "DIR", dir), p); err != nil {
				return err
			}
			continue
		}
		if err := Write(dir, name, []byte(strings.ReplaceAll(content, "DIR", dir))); err != nil {
			return err
		}
	}
	return nil
}

// listings holds, by case directory, what Setup left there, for
// nothingWritten.
var listings sync.Map

// confine is a Setup laying out files (layout) and running webcap with
// args; what it leaves is what nothingWritten expects after the run (plus
// the outputs named by want).
func confine(files map[string]string, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		if err := layout(dir, files); err != nil {
			return nil, nil, err
		}
		l, err := listing(dir)
		listings.Store(dir, l)
		return args, nil, err
	}
}

// listing is every name under dir with its size and type (links not
// followed).
func listing(dir string) (map[string]string, error) {
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := d.Info()
		if err != nil {
			return err
		}
		out[p] = fmt.Sprintf("%v %d", fi.Mode(), fi.Size())
		return nil
	})
	return out, err
}

// nothingWritten is a Check that the case's directory holds what Setup
// left, unchanged (the outside file included), and besides only the
// outputs named.
func nothingWritten(outputs ...string) func(dir string) error {
	return func(dir string) error {
		v, ok := listings.Load(dir)
		if !ok {
			return fmt.Errorf("no listing of %s", dir)
		}
		before := v.(map[string]string)
		after, err := listing(dir)
		if err != nil {
			return err
		}
		for p, was := range before {
			if now, ok := after[p]; !ok || now != was {
				return fmt.Errorf("%s changed: %q, was %q", p, now, was)
			}
		}
		for p := range after {
			if _, ok := before[p]; !ok && !slices.Contains(outputs, filepath.Base(p)) {
				return fmt.Errorf("%s was written", p)
			}
		}
		if b, err := os.ReadFile(filepath.Join(dir, "secret")); err != nil || string(b) != secret {
			return fmt.Errorf("secret changed: %v", err)
		}
		return nil
	}
}

// manifestJSON is a build manifest: web.pdf's third page (plain text) as
// a page set from http://www.example.com/notes.txt, with fields set.
func manifestJSON(fields map[string]any) string {
	m := map[string]any{
		"input": "web.pdf",
		"pageSets": []map[string]any{{"pages": "3", "url": "http://www.example.com/notes.txt",
			"contentType": "text/plain", "captured": "2026-11-21T10:30:02Z"}},
	}
	for k, v := range fields {
		if k == "source" {
			m["pageSets"].([]map[string]any)[0]["source"] = v
			continue
		}
		m[k] = v
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// buildCase lays out m/ (a manifest, web.pdf, a mirror m/site) beside the
// secret and a mirror outside it (DIR/outside), with files added.
func buildCase(manifest string, extra map[string]string, args ...string) func(dir string) ([]string, func(), error) {
	files := map[string]string{
		"m/manifest.json":                   manifest,
		"m/web.pdf":                         string(pdfbuild.Web(false)),
		"m/site/www.example.com/notes.txt":  "Notes, captured.\n",
		"outside/www.example.com/notes.txt": "Notes, outside.\n",
		"web.pdf":                           string(pdfbuild.Web(false)),
	}
	for k, v := range extra {
		files[k] = v
	}
	return confine(files, args...)
}

// webPDF is a PDF as a browser prints a small site (pdfbuild.Web).
func webPDF() []byte { return pdfbuild.Web(false) }

func init() {
	capturePDF, _ := pdfbuild.Sample("capture")
	Register(
		// id: a file of the mirror named as an argument.
		Case{
			Name: "id-mirror-file-link", Part: Confine,
			Setup: confine(map[string]string{"mirror/www.example.com/index.html": "-> ../../secret"},
				"id", "--json", "--aux", "mirror", "mirror/www.example.com/index.html"),
			Exit:      4,
			Stdout:    []string{`"input":"mirror/www.example.com/index.html","error":\{"message":"mirror/www.example.com/index.html: leads to .*/secret, outside mirror` + refused + `","kind":"invalid"\}`},
			NotStdout: []string{secretMD5},
			Check:     nothingWritten(),
			Before:    "exit 0 (0.01 s, 20 MB): id --json printed the MD5 of DIR/secret, the file the link leads to, complete",
		},
		Case{
			Name: "id-mirror-file-link-allowed", Part: Confine,
			Setup: confine(map[string]string{"mirror/www.example.com/index.html": "-> ../../secret"},
				"id", "--allow-outside", "--aux", "mirror", "mirror/www.example.com/index.html"),
			Exit:   0,
			Stdout: []string{`^` + secretMD5 + `  mirror/www.example.com/index.html$`},
			Check:  nothingWritten(),
			Before: "no --allow-outside (exit 2); without it the file was read anyway",
		},
		// id: an auxiliary file that is a link out, and a host's
		// subdirectory that is a link out.
		Case{
			Name: "id-aux-link", Part: Confine,
			Setup: confine(map[string]string{
				"mirror/www.example.com/page.html": `<html><body><img src="logo.gif"><img src="/img/x.gif"></body></html>`,
				"mirror/www.example.com/logo.gif":  "-> ../../secret",
				"mirror/www.example.com/img":       "-> ../../outside",
				"outside/x.gif":                    "GIF89a outside",
			}, "id", "--json", "--aux", "mirror", "mirror/www.example.com/page.html"),
			Exit: 1,
			Stdout: []string{
				`"url":"http://www.example.com/logo.gif",.*"found":false,"reason":"mirror/www.example.com/logo.gif: leads to .*/secret, outside mirror` + refused,
				`"url":"http://www.example.com/img/x.gif",.*"found":false,"reason":"mirror/www.example.com/img/x.gif: leads to .*/outside/x.gif, outside mirror` + refused,
				`"complete":false`,
			},
			NotStdout: []string{secretMD5},
			Check:     nothingWritten(),
			Before:    "exit 0 (0.01 s, 19 MB): identifier complete, over DIR/secret and DIR/outside/x.gif, both listed found with their MD5s",
		},
		// id: file: URLs in a page.
		Case{
			Name: "id-file-url", Part: Confine,
			Setup: confine(map[string]string{
				"mirror/www.example.com/page.html": `<html><body><img src="file:///etc/passwd"><a href="x"><img src="file://DIR/secret"></a><img src="file://DIR/mirror/www.example.com/in.gif"></body></html>`,
				"mirror/www.example.com/in.gif":    "GIF89a inside",
			}, "id", "--aux", "mirror", "mirror/www.example.com/page.html"),
			Exit: 1,
			Stderr: []string{`^webcap: id: mirror/www.example.com/page.html: identifier incomplete: 2 of 3 auxiliary files not read: ` +
				`file:///etc/passwd \(/etc/passwd: outside mirror` + refused + `\); file://.*/secret \(.*/secret: outside mirror` + refused + `\)$`},
			NotStdout: []string{secretMD5},
			Check:     nothingWritten(),
			Before:    "exit 0 (0.01 s, 20 MB): identifier complete, /etc/passwd and DIR/secret read and hashed into it",
		},
		Case{
			Name: "id-file-url-allowed", Part: Confine,
			Setup: confine(map[string]string{
				"mirror/www.example.com/page.html": `<html><body><img src="file://DIR/secret"></body></html>`,
			}, "id", "--json", "--allow-outside", "--aux", "mirror", "mirror/www.example.com/page.html"),
			Exit:   0,
			Stdout: []string{`"id":"` + secretMD5 + `","found":true`, `"complete":true`},
			Check:  nothingWritten(),
			Before: "no --allow-outside (exit 2); without it the file was read anyway",
		},
		// id: a manifest of URL: file whose paths leave its directory.
		Case{
			Name: "id-manifest-paths", Part: Confine,
			Setup: confine(map[string]string{
				"m/page.html":  `<html><body><img src="a.gif"><img src="b.gif"><img src="c.gif"></body></html>`,
				"m/files.json": `{"http://www.example.com/a.gif": "../secret", "http://www.example.com/b.gif": "/etc/passwd", "http://www.example.com/c.gif": "c-link"}`,
				"m/c-link":     "-> DIR/secret",
			}, "id", "--url", "http://www.example.com/", "--aux", "m/files.json", "m/page.html"),
			Exit: 1,
			Stderr: []string{`identifier incomplete: 3 of 3 auxiliary files not read: ` +
				`http://www.example.com/a.gif \(m/\.\./secret: leads to .*/secret, outside m` + refused + `\); ` +
				`http://www.example.com/b.gif \(/etc/passwd: outside m` + refused + `\); ` +
				`http://www.example.com/c.gif \(m/c-link: leads to .*/secret, outside m` + refused + `\)$`},
			Check:  nothingWritten(),
			Before: "exit 0 (0.01 s, 20 MB): identifier complete, over ../secret, /etc/passwd and a link to DIR/secret",
		},
		// audit --sources: a source that is a link out of the mirror.
		Case{
			Name: "audit-sources-link", Part: Confine,
			Setup: confine(map[string]string{
				"capture.pdf":                     string(capturePDF),
				"mirror/www.example.com/logo.gif": "-> ../../secret",
			}, "audit", "--sources", "mirror", "capture.pdf"),
			Exit:      0,
			Stdout:    []string{`^capture\.pdf: info WC-SOURCE-MISSING object 17 0 R /SI: none of the set's source URLs \(http://www\.example\.com/logo\.gif\) is among the sources: mirror/www\.example\.com/logo\.gif: leads to .*/secret, outside mirror` + refused},
			NotStdout: []string{secretMD5, "WC-SOURCE-MISMATCH"},
			Check:     nothingWritten(),
			Before:    "exit 0 (0.03 s, 20 MB): WC-SOURCE-MISMATCH printed the MD5 of DIR/secret (54 bytes) as the logo's identifier now",
		},
		Case{
			Name: "audit-sources-link-allowed", Part: Confine,
			Setup: confine(map[string]string{
				"capture.pdf":                     string(capturePDF),
				"mirror/www.example.com/logo.gif": "-> ../../secret",
			}, "audit", "--in-process", "--allow-outside", "--sources", "mirror", "capture.pdf"),
			Exit:   0,
			Stdout: []string{`WC-SOURCE-MISMATCH object 17 0 R /ID: .* now has the identifier <` + secretMD5 + `>`},
			Check:  nothingWritten(),
			Before: "no --allow-outside (exit 2); without it the file was read anyway",
		},
		Case{
			Name: "audit-sources-manifest", Part: Confine,
			Setup: confine(map[string]string{
				"capture.pdf":  string(capturePDF),
				"m/files.json": `{"http://www.example.com/logo.gif": "/etc/passwd", "http://www.example.com/": "../secret"}`,
			}, "audit", "--sources", "m/files.json", "capture.pdf"),
			Exit: 0,
			Stdout: []string{
				`WC-SOURCE-MISSING object 17 0 R /SI: .*: /etc/passwd: outside m` + refused,
				`WC-SOURCE-MISSING object 15 0 R /SI: .*: m/\.\./secret: leads to .*/secret, outside m` + refused,
			},
			NotStdout: []string{secretMD5, "WC-SOURCE-MISMATCH"},
			Check:     nothingWritten(),
			Before:    "exit 0 (0.02 s, 20 MB): WC-SOURCE-MISMATCH printed the MD5 of /etc/passwd (its size too) and a page-set identifier that is the MD5 of DIR/secret",
		},
		// build: the manifest's own paths.
		Case{
			Name: "build-manifest-input", Part: Confine,
			Setup: buildCase(manifestJSON(map[string]any{"input": "../web.pdf", "sources": "site"}), nil,
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: m/manifest\.json: input: m/\.\./web\.pdf: leads to .*/web\.pdf, outside m` + refused + `$`},
			Check:  nothingWritten(),
			Before: "exit 0 (0.02 s, 21 MB): out.pdf written, the PDF outside the manifest's directory its first bytes",
		},
		Case{
			Name: "build-manifest-source", Part: Confine,
			Setup: buildCase(manifestJSON(map[string]any{"source": "/etc/passwd"}), nil,
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.source: /etc/passwd: outside m` + refused + `$`},
			Check:  nothingWritten(),
			Before: "exit 0 (0.02 s, 21 MB): out.pdf written with the MD5 of /etc/passwd as a page set's /ID",
		},
		Case{
			Name: "build-manifest-source-allowed", Part: Confine,
			Setup: buildCase(manifestJSON(map[string]any{"source": "../secret"}), nil,
				"build", "--allow-outside", "--json", "m/manifest.json", "-o", "out.pdf"),
			Exit:   0,
			Stdout: []string{`"id": "` + secretMD5 + `"`},
			Check:  nothingWritten("out.pdf"),
			Before: "no --allow-outside (exit 2); without it the file was read anyway",
		},
		Case{
			Name: "build-manifest-sources-link", Part: Confine,
			Setup: buildCase(manifestJSON(map[string]any{"sources": "elsewhere"}), map[string]string{"m/elsewhere": "-> ../outside"},
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: m/manifest\.json: sources: m/elsewhere: leads to .*/outside, outside m` + refused + `$`},
			Check:  nothingWritten(),
			Before: "exit 0 (0.02 s, 21 MB): out.pdf written from the mirror outside the manifest's directory",
		},
		Case{
			Name: "build-manifest-warc", Part: Confine,
			Setup: buildCase(manifestJSON(map[string]any{"warc": "../site.warc"}), map[string]string{"site.warc": "WARC/1.1\r\n"},
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: m/manifest\.json: warc: m/\.\./site\.warc: leads to .*/site\.warc, outside m` + refused + `$`},
			Check:  nothingWritten(),
			Before: "exit 1 (0.01 s, 20 MB): the file outside the manifest's directory opened and parsed as a WARC (not a valid WARC file; a valid one was read)",
		},
		// build: a link out inside the mirror the manifest names, and in
		// one --sources names.
		Case{
			Name: "build-mirror-link", Part: Confine,
			Setup: buildCase(manifestJSON(map[string]any{"sources": "site2"}), map[string]string{"m/site2/www.example.com/notes.txt": "-> ../../../secret"},
				"build", "m/manifest.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.source: http://www\.example\.com/notes\.txt: m/site2/www\.example\.com/notes\.txt: leads to .*/secret, outside m/site2` + refused + `$`},
			Check:  nothingWritten(),
			Before: "exit 0 (0.02 s, 21 MB): out.pdf written with the MD5 of DIR/secret as the page set's /ID",
		},
		Case{
			Name: "build-sources-host-link", Part: Confine,
			Setup: buildCase(manifestJSON(nil), map[string]string{"mirror2/www.example.com": "-> ../outside/www.example.com"},
				"build", "--sources", "mirror2", "m/manifest.json", "-o", "out.pdf"),
			Exit:   4,
			Stderr: []string{`^webcap: build: m/manifest\.json: pageSets\[0\]\.source: http://www\.example\.com/notes\.txt: mirror2/www\.example\.com/notes\.txt: leads to .*/outside/www\.example\.com/notes\.txt, outside mirror2` + refused + `$`},
			Check:  nothingWritten(),
			Before: "exit 0 (0.02 s, 21 MB): out.pdf written from DIR/outside through the host directory link",
		},
		// capture reads no local file: a file: start URL is a usage error.
		Case{
			Name: "capture-file-url", Part: Confine,
			Setup:  confine(nil, "capture", "file:///etc/passwd", "-o", "out.pdf"),
			Exit:   2,
			Stderr: []string{`^webcap: capture: file:///etc/passwd: not http or https$`},
			Check:  nothingWritten(),
			Before: "exit 2 (0.01 s, 19 MB), the same: capture fetches only http and https, no browser started",
		},
	)
}
