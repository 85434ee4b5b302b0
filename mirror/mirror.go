// Package mirror reads captured files from disk for the identifier rules:
// a directory in the layout "wget --mirror" writes (Dir), or a JSON
// manifest of URL: file (Manifest). Both are webcapture.AuxSource values,
// keyed by canonical URL, for "webcap id --aux", "webcap audit --sources"
// and a build manifest's "sources".
//
// What a mirror or a manifest names is read inside its directory only
// (OpenIn, on the standard library's os.Root): a symbolic link, a "..",
// an absolute path or a file: URL that leads outside is refused with an
// *OutsideError, unless Options.AllowOutside. record reads a build
// manifest's own paths through OpenIn too.
package mirror

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/jsonstrict"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/webcapture"
)

// Dir is a directory in the layout "wget --mirror" and "wget -x" make:
// DIR/host[:port]/path, with "index.html" for a path that ends in '/', and
// the query (if any) kept in the file name after a '?'. A percent-escaped
// path is tried decoded first (as wget saves it) and then as written. A URL
// never reaches outside its host's directory through a "..", and a file
// is read inside the directory only (OpenIn): a symbolic link that leaves
// it is refused. A file: URL names a file by its absolute path on the
// machine that captured it (Acrobat captured local files so): it is read
// when that path lies inside the directory, refused when it does not,
// unless Options.AllowOutside.
type Dir struct {
	Path string
	Options

	h *dirHandle // the directory held open for Open's fast path (Load sets it)
}

// Open implements webcapture.AuxSource: the file the URL u was saved to,
// or an error wrapping webcapture.ErrNotFound, or an *OutsideError.
func (d Dir) Open(u string) (io.ReadCloser, error) {
	var why error // a file that is there but no regular file
	var one [1]string
	cands := one[:0]
	if rel, ok := plainCandidate(u); ok {
		cands = append(cands, rel) // (candidates' answer, without its slice)
	} else {
		cands = slowCandidates(u)
	}
	for _, p := range cands {
		if data, ok := d.h.readBeneath(d.Path, p, d.Options); ok {
			f := &bytesFile{data: data}
			f.Reset(data)
			return f, nil
		}
		f, err := OpenIn(d.Path, p, d.Options)
		var oe *OutsideError
		switch {
		case err == nil:
			return f, nil
		case errors.As(err, &oe):
			return nil, err
		case why == nil && (errors.Is(err, ErrNotRegular) || errors.Is(err, syscall.EISDIR)):
			why = err
		}
	}
	if why != nil {
		return nil, fmt.Errorf("%w in %s: %v", webcapture.ErrNotFound, d.Path, why)
	}
	return nil, fmt.Errorf("%w in %s", webcapture.ErrNotFound, d.Path)
}

// ReadFast reads the file the URL u was saved to whole, when Open would
// read it on its fast path (a plain http or https URL, one file read
// beneath the directory, Linux's openat2): the bytes Open's file holds,
// read into buf's array when it has room (else a new one), which the
// caller may then reuse for another file. ok false says nothing of the
// file: Open finds it, or says why not, as ever.
func (d Dir) ReadFast(buf []byte, u string) (data []byte, ok bool) {
	if d.h == nil || d.AllowOutside {
		return nil, false
	}
	var a [256]byte
	p, ok := appendPlainCandidate(a[:0], u)
	if !ok {
		return nil, false
	}
	return d.h.read(d.Path, append(p, 0), d.Options, buf)
}

// A bytesFile is a file read whole, to read from: its Len says how much
// is left, so a reader reads it into one buffer of its size; or its Bytes
// are taken as they are, without a copy.
type bytesFile struct {
	bytes.Reader
	data []byte
}

func (*bytesFile) Close() error { return nil }

// Bytes are the file's bytes not yet read, not a copy: the buffer the
// file was read into, which nothing else holds. They must not be changed.
func (f *bytesFile) Bytes() []byte { return f.data[len(f.data)-f.Len():] }

// candidates are the files u may have been saved to: paths relative to
// the directory, or a file: URL's absolute path.
func (d Dir) candidates(u string) []string {
	if rel, ok := plainCandidate(u); ok {
		return []string{rel}
	}
	return slowCandidates(u)
}

// plainCandidate is candidates' one file for a plain http(s) URL, the
// kind a build reads 100,000 of, without net/url's parse and
// filepath.Join's clean: a host of letters, digits, '.' and '-' that
// starts with a letter or digit; a path of unreserved characters and '/'
// without "//" or "/." (no escape, nothing Clean changes, one spelling);
// a query without '/' of printable ASCII; no fragment. Anything else
// (false) is slowCandidates' (TestPlainCandidate, FuzzCandidates).
func plainCandidate(u string) (string, bool) {
	var a [128]byte
	p, ok := appendPlainCandidate(a[:0], u)
	if !ok {
		return "", false
	}
	return string(p), true
}

// appendPlainCandidate appends plainCandidate's file to dst. What it
// appends is clean and local (filepath.Clean leaves it as it is, IsLocal),
// without a NUL (FuzzCandidates).
func appendPlainCandidate(dst []byte, u string) ([]byte, bool) {
	rest, ok := strings.CutPrefix(u, "http://")
	if !ok {
		if rest, ok = strings.CutPrefix(u, "https://"); !ok {
			return dst, false
		}
	}
	h := 0
	for h < len(rest) && rest[h] != '/' && rest[h] != '?' {
		c := rest[h]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || (c == '.' || c == '-') && h > 0) {
			return dst, false
		}
		h++
	}
	if h == 0 || filepath.Separator != '/' {
		return dst, false
	}
	host, rest := rest[:h], rest[h:]
	path, query, hasQuery := strings.Cut(rest, "?")
	for i := 0; i < len(path); i++ {
		c := path[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '-', c == '_', c == '~':
		case c == '.':
			if path[i-1] == '/' { // (path starts with '/': i > 0)
				return dst, false
			}
		case c == '/':
			if i > 0 && path[i-1] == '/' {
				return dst, false
			}
		default:
			return dst, false
		}
	}
	for i := 0; i < len(query); i++ {
		if c := query[i]; c <= ' ' || c >= 0x7f || c == '/' || c == '#' {
			return dst, false
		}
	}
	if path == "" {
		path = "/"
	}
	dst = append(append(dst, host...), path...)
	if strings.HasSuffix(path, "/") {
		dst = append(dst, "index.html"...)
	}
	if hasQuery && query != "" {
		dst = append(append(dst, '?'), query...)
	}
	return dst, true
}

// slowCandidates is candidates by net/url's parse.
func slowCandidates(u string) []string {
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
	for i, p := range []string{pu.Path, pu.EscapedPath()} {
		if i == 1 && p == pu.Path {
			break // (the path needs no escape: the same file, already a candidate)
		}
		if p == "" || strings.HasSuffix(p, "/") {
			p += "index.html"
		}
		if pu.RawQuery != "" {
			p += "?" + pu.RawQuery
		}
		rel := filepath.Join(pu.Host, filepath.FromSlash(p))
		inside := strings.HasPrefix(rel, pu.Host+string(filepath.Separator)) && filepath.IsLocal(pu.Host) && filepath.Base(pu.Host) == pu.Host
		if inside && !contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}

// Check says whether path, a file inside the directory, is one the
// directory may read (StatIn): nil, or an *OutsideError. A path that is
// not inside the directory by its spelling is not the directory's to
// check (nil).
func (d Dir) Check(path string) error {
	if _, ok := d.URLOf(path); d.Path == "" || !ok {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	_, err = StatIn(d.Path, abs, d.Options)
	var oe *OutsideError
	if errors.As(err, &oe) {
		oe.Name = path
		return err
	}
	return nil
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
	root, err := filepath.Abs(d.Path)
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
// relative paths are relative to the manifest's directory, and every file
// is read inside that directory only (OpenIn): a path with "..", an
// absolute path or a symbolic link that leaves it is refused, unless
// Options.AllowOutside. Keys are
// canonicalized when the manifest is loaded, so that a file listed under
// any spelling of its URL is found.
type Manifest struct {
	dir   string
	opts  Options
	files map[string]string // canonical URL: the path as written
}

// LoadManifest reads a manifest, canonicalizing its URLs under p (PDF if
// nil); o says whether its files may be outside its directory.
func LoadManifest(path string, p *canon.Profile, o Options) (*Manifest, error) {
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
	dir := filepath.Dir(path)
	m := &Manifest{dir: dir, opts: o, files: make(map[string]string, len(raw))}
	spelled := make(map[string]string, len(raw)) // canonical key: the URL as written
	for _, u := range slices.Sorted(maps.Keys(raw)) {
		f := raw[u]
		key, err := c.String(u)
		if err != nil {
			return nil, fmt.Errorf("manifest %s: %w", path, err)
		}
		if prev, ok := m.files[key]; ok && m.full(prev) != m.full(f) {
			// Two spellings of one URL: which file is meant cannot be told.
			return nil, fmt.Errorf("manifest %s: %q and %q are one URL, %s, given two files (%s, %s)", path, spelled[key], u, key, m.full(prev), m.full(f))
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
	return OpenIn(m.dir, f, m.opts)
}

// full is a file's path: relative to the manifest's directory, or absolute.
func (m *Manifest) full(f string) string {
	if filepath.IsAbs(f) {
		return filepath.Clean(f)
	}
	return filepath.Join(m.dir, f)
}

// Load opens what path names: a directory is a Dir, a file
// a JSON manifest (LoadManifest, PDF profile); o says whether what they
// name may be read outside their directory.
func Load(path string, o Options) (webcapture.AuxSource, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if fi.IsDir() {
		return Dir{Path: path, Options: o, h: newDirHandle()}, nil
	}
	return LoadManifest(path, nil, o)
}
