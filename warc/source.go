package warc

import (
	"bytes"
	"fmt"
	"io"
	"net/url"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/webcapture"
)

// A Source is a WARC file's HTTP responses by canonical URL, a
// webcapture.AuxSource: a URL's data is the content (HTTPResponse.Content)
// of the last 200 response archived for it, a revisit record standing for
// the response it refers to. A Source loaded from a file keeps where each
// response is, and reads it again when it is opened (a record in a gzip
// member of its own, or in an uncompressed file); the others' contents are
// held in memory.
type Source struct {
	name      string
	path      string // the file, to read records again; "": all in memory
	lim       Limits
	content   map[string]entry  // canonical URL: its response
	redirects map[string]string // canonical URL: canonical Location of its last 3xx
	// Problems are what was skipped while loading: a record that does not
	// parse, a digest that does not match, a revisit whose original is
	// missing. The records and the other responses are served all the same.
	Problems []string
	Records  int       // records read
	digests  []Problem // the records whose digests do not verify (DigestProblems)
}

// Load reads the WARC file at path (gzip or not) into a Source, with URLs
// canonicalized under p (PDF if nil).
func Load(path string, p *canon.Profile) (*Source, error) {
	f, _, err := limits.Open(path, 0, "") // a regular file (a pipe would block the open), of any size: it is read as a stream
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return load(f, path, path, p, Limits{})
}

// LoadReader reads a WARC file from r, keeping every content in memory;
// name names it in messages.
func LoadReader(r io.Reader, name string, p *canon.Profile, lim Limits) (*Source, error) {
	return load(r, name, "", p, lim)
}

// An entry is where a URL's content is: at off in the file, or data.
type entry struct {
	off  int64  // -1: data
	id   string // the record's ID, checked when it is read again
	data []byte
	date time.Time  // the WARC-Date of the response or revisit record (Captured)
	rec  RecordInfo // the response record that holds it (RecordOf)
}

func load(r io.Reader, name, path string, p *canon.Profile, lim Limits) (*Source, error) {
	c, err := canon.New(p)
	if err != nil {
		return nil, err
	}
	s := &Source{name: name, path: path, lim: lim, content: map[string]entry{}, redirects: map[string]string{}}
	byID := map[string]entry{}     // record ID: a 200 response
	byDigest := map[string]entry{} // payload digest: a 200 response
	rd := NewReaderLimits(r, lim)
	for {
		rec, err := rd.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		s.Records++
		if err := rec.VerifyDigests(); err != nil {
			s.problem(rec, "%v", err)
			s.digests = append(s.digests, Problem{RecordID: rec.ID(), Type: rec.Type(), TargetURI: rec.TargetURI(), Err: err})
		}
		typ := rec.Type()
		if (typ != TypeResponse && typ != TypeRevisit) || !rec.IsHTTP("response") {
			continue
		}
		key, err := c.String(rec.TargetURI())
		if err != nil {
			s.problem(rec, "target URI: %v", err)
			continue
		}
		resp, err := rec.ParseResponse(lim)
		if err != nil {
			s.problem(rec, "%v", err)
			continue
		}
		if resp.Status >= 300 && resp.Status < 400 {
			if loc := resp.Header.Get("Location"); loc != "" {
				if to, err := resolve(c, rec.TargetURI(), loc); err == nil {
					s.redirects[key] = to
				}
			}
			continue
		}
		if resp.Status != 200 {
			continue
		}
		var e entry
		if typ == TypeRevisit {
			var ok bool
			if e, ok = byID[rec.Header.Get(FieldRefersTo)]; !ok {
				if e, ok = byDigest[rec.Header.Get(FieldPayloadDigest)]; !ok {
					s.problem(rec, "revisit of a response that is not in the file")
					continue
				}
			}
		} else {
			data, err := resp.Content(lim)
			if err != nil {
				s.problem(rec, "%v", err)
				continue
			}
			e = entry{off: -1, data: data}
			if path != "" && rd.Offset() >= 0 {
				e = entry{off: rd.Offset(), id: rec.ID()} // read again when opened
			}
			e.rec = recordInfo(rec, resp)
		}
		e.date, _ = rec.Date()
		s.content[key] = e
		delete(s.redirects, key)
		byID[rec.ID()] = e
		if d := rec.Header.Get(FieldPayloadDigest); d != "" {
			byDigest[d] = e
		}
	}
	return s, nil
}

func (s *Source) problem(rec *Record, format string, args ...any) {
	what := rec.TargetURI()
	if what == "" {
		what = rec.ID()
	}
	s.Problems = append(s.Problems, fmt.Sprintf("%s record %s: %s", rec.Type(), what, fmt.Sprintf(format, args...)))
}

func resolve(c *canon.Canonicalizer, base, loc string) (string, error) {
	b, err := url.Parse(base)
	if err != nil {
		return "", err
	}
	l, err := url.Parse(loc)
	if err != nil {
		return "", err
	}
	return c.String(b.ResolveReference(l).String())
}

// Open implements webcapture.AuxSource: the content archived for the
// canonical URL u.
func (s *Source) Open(u string) (io.ReadCloser, error) {
	e, ok := s.content[u]
	if !ok {
		return nil, fmt.Errorf("%w in %s", webcapture.ErrNotFound, s.name)
	}
	if e.off < 0 {
		return io.NopCloser(bytes.NewReader(e.data)), nil
	}
	b, err := s.reread(e)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", s.name, u, err)
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}

// reread reads the content of e's response record again from the file.
func (s *Source) reread(e entry) ([]byte, error) {
	f, err := os.Open(s.path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if _, err := f.Seek(e.off, io.SeekStart); err != nil {
		return nil, err
	}
	rec, err := NewReaderLimits(f, s.lim).Next()
	if err != nil {
		return nil, err
	}
	if rec.ID() != e.id {
		return nil, fmt.Errorf("the file has changed since it was read: record %s is not at offset %d", e.id, e.off)
	}
	resp, err := rec.ParseResponse(s.lim)
	if err != nil {
		return nil, err
	}
	return resp.Content(s.lim)
}

// URLs returns the canonical URLs that have content, sorted.
func (s *Source) URLs() []string {
	out := make([]string, 0, len(s.content))
	for u := range s.content {
		out = append(out, u)
	}
	slices.Sort(out)
	return out
}

// Redirect returns where the archive's last answer for the canonical URL u
// redirected to (canonical), if it was a redirect.
func (s *Source) Redirect(u string) (string, bool) {
	to, ok := s.redirects[u]
	return to, ok
}

// Chain returns the redirect chain that starts at u: u, each URL it was
// redirected to, up to one with content, a URL not in the archive, or a
// loop (at most 20 steps, as browsers follow).
func (s *Source) Chain(u string) []string {
	chain := []string{u}
	for len(chain) <= 20 {
		to, ok := s.redirects[chain[len(chain)-1]]
		if !ok || slices.Contains(chain, to) {
			break
		}
		chain = append(chain, to)
	}
	return chain
}

// IsWARC reports whether path is named as a WARC file (.warc, .warc.gz).
func IsWARC(path string) bool {
	p := strings.ToLower(path)
	return strings.HasSuffix(p, ".warc") || strings.HasSuffix(p, ".warc.gz")
}
