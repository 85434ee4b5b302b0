// Package mirror reads captured files from disk for the identifier rules:
// a directory in the layout "wget --mirror" writes (Dir), or a JSON
// manifest of URL: file (Manifest). Both are webcapture.AuxSource values,
// keyed by canonical URL, for "webcap id --aux", "webcap audit --sources"
// and a build manifest's "sources".
package mirror

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/jsonstrict"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/webcapture"
)

// Dir is a directory in the layout "wget --mirror" and "wget -x" make:
// DIR/host[:port]/path, with "index.html" for a path that ends in '/', and
// the query (if any) kept in the file name after a '?'. A percent-escaped
// path is tried decoded first (as wget saves it) and then as written. file:
// URLs name local files directly. A URL never reaches outside its host's
// directory through a "..".
type Dir string

// Open implements webcapture.AuxSource.
func (d Dir) Open(u string) (io.ReadCloser, error) {
	for _, p := range d.candidates(u) {
		// A regular file only, its type checked before the open: a named
		// pipe would block it.
		if f, _, err := limits.Open(p, 0, ""); err == nil {
			return f, nil
		}
	}
	return nil, fmt.Errorf("%w in %s", webcapture.ErrNotFound, string(d))
}

func (d Dir) candidates(u string) []string {
	pu, err := url.Parse(u)
	if err != nil {
		return nil
	}
	if pu.Scheme == "file" {
		if pu.Host != "" || !strings.HasPrefix(pu.Path, "/") {
			return nil
		}
		return []string{filepath.Clean(filepath.FromSlash(pu.Path))}
	}
	if pu.Host == "" {
		return nil
	}
	var out []string
	for _, p := range []string{pu.Path, pu.EscapedPath()} {
		if p == "" || strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		if pu.RawQuery != "" {
			p += "?" + pu.RawQuery
		}
		hostDir := filepath.Join(filepath.Clean(string(d)), pu.Host)
		full := filepath.Join(hostDir, filepath.FromSlash(p))
		inside := strings.HasPrefix(full, hostDir+string(filepath.Separator)) && filepath.Base(hostDir) == pu.Host
		if inside && !contains(out, full) {
			out = append(out, full)
		}
	}
	return out
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// URLOf returns the http URL that a file inside the mirror was saved from
// ("DIR/www.example.com/a/index.html" gives "http://www.example.com/a/index.html").
func (d Dir) URLOf(path string) (string, bool) {
	root, err := filepath.Abs(string(d))
	if err != nil {
		return "", false
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", false
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return "", false
	}
	host, p, ok := strings.Cut(filepath.ToSlash(rel), "/")
	if !ok {
		return "", false
	}
	return "http://" + host + "/" + p, true
}

// A Manifest maps URLs to files, from a JSON object {"URL": "path", ...};
// relative paths are relative to the manifest's directory. Keys are
// canonicalized when the manifest is loaded, so that a file listed under
// any spelling of its URL is found.
type Manifest struct {
	files map[string]string
}

// LoadManifest reads a manifest, canonicalizing its URLs under p (PDF if nil).
func LoadManifest(path string, p *canon.Profile) (*Manifest, error) {
	b, err := limits.ReadFile(path, limits.DefaultMaxFileSize, "")
	if err != nil {
		return nil, err
	}
	if dup := jsonstrict.Unique(b); dup != nil {
		return nil, fmt.Errorf("manifest %s:%w", path, dup)
	}
	var raw map[string]string
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&raw); err != nil {
		return nil, fmt.Errorf("manifest %s: %w (want a JSON object of URL: file)", path, err)
	}
	c, err := canon.New(p)
	if err != nil {
		return nil, err
	}
	m := &Manifest{files: make(map[string]string, len(raw))}
	spelled := make(map[string]string, len(raw)) // canonical key: the URL as written
	dir := filepath.Dir(path)
	for _, u := range slices.Sorted(maps.Keys(raw)) {
		f := raw[u]
		key, err := c.String(u)
		if err != nil {
			return nil, fmt.Errorf("manifest %s: %w", path, err)
		}
		if !filepath.IsAbs(f) {
			f = filepath.Join(dir, f)
		}
		if prev, ok := m.files[key]; ok && prev != f {
			// Two spellings of one URL: which file is meant cannot be told.
			return nil, fmt.Errorf("manifest %s: %q and %q are one URL, %s, given two files (%s, %s)", path, spelled[key], u, key, prev, f)
		}
		m.files[key], spelled[key] = f, u
	}
	return m, nil
}

// Open implements webcapture.AuxSource.
func (m *Manifest) Open(u string) (io.ReadCloser, error) {
	f, ok := m.files[u]
	if !ok {
		return nil, fmt.Errorf("%w in the manifest", webcapture.ErrNotFound)
	}
	f2, _, err := limits.Open(f, 0, "")
	return f2, err
}

// Load opens what path names: a directory is a Dir, a file
// a JSON manifest (LoadManifest, PDF profile).
func Load(path string) (webcapture.AuxSource, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return Dir(path), nil
	}
	return LoadManifest(path, nil)
}
