package warc

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httputil"
	"net/url"
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
	Records  int         // records read
	digests  []Problem   // the records whose digests do not verify (DigestProblems)
	ra       io.ReaderAt // the file, when LoadReaderAt read it (path is then its name)
	size     int64
}

// Load reads the WARC file at path (gzip or not) into a Source, with URLs
// canonicalized under p (PDF if nil), with DefaultLimits and no deadline.
func Load(path string, p *canon.Profile) (*Source, error) {
	return LoadFile(path, Options{Profile: p})
}

// Options are how LoadFile reads a WARC file: the bounds of a hostile
// input, as a PDF's.
type Options struct {
	Profile *canon.Profile // URLs are canonicalized under it; nil: PDF
	Limits  Limits
	// MaxFileSize refuses a larger file before it is read (a
	// *limits.SizeError); 0: any size.
	MaxFileSize int64
	// Context stops the reading: its cause (a deadline passed, a memory
	// ceiling) is the error, as the file gave it. nil: none.
	Context context.Context
}

// LoadFile reads the WARC file at path into a Source, as a stream: a
// record's block is read once, its digests checked and its content
// decoded as it is read, and only where each response is is kept (it is
// read again when opened). What it holds is the index of the archive's
// URLs, whatever the size of its records.
func LoadFile(path string, o Options) (*Source, error) {
	f, _, err := limits.Open(path, o.MaxFileSize, "") // a regular file (a pipe would block the open)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var r io.Reader = f
	if o.Context != nil {
		r = ctxReader{o.Context, f}
	}
	return load(r, path, path, o.Profile, o.Limits)
}

// LoadReaderAt is LoadFile for the size bytes of ra (a WARC embedded in
// a PDF, held in memory): only where each response is is kept, and it is
// read from ra again when opened. name names it in messages.
func LoadReaderAt(ra io.ReaderAt, size int64, name string, o Options) (*Source, error) {
	var r io.Reader = io.NewSectionReader(ra, 0, size)
	if o.Context != nil {
		r = ctxReader{o.Context, r}
	}
	s, err := load(r, name, name, o.Profile, o.Limits)
	if err != nil {
		return nil, err
	}
	s.ra, s.size = ra, size
	return s, nil
}

// LoadReader reads a WARC file from r, keeping every content in memory;
// name names it in messages.
func LoadReader(r io.Reader, name string, p *canon.Profile, lim Limits) (*Source, error) {
	return load(r, name, "", p, lim)
}

// A FileError is a WARC file that could not be read whole: the file, and
// Err, which names the record and where it starts ("record 3 at byte
// 1024: not a valid WARC file: …"); Err wraps ErrFormat for a fault of
// the file or a limit of this package passed, else what stopped the
// reading (an I/O error, the cause of Options.Context).
type FileError struct {
	File string
	Err  error
}

func (e *FileError) Error() string { return e.File + ": " + e.Err.Error() }
func (e *FileError) Unwrap() error { return e.Err }

// ctxReader is r until ctx is done, and then ctx's cause.
type ctxReader struct {
	ctx context.Context
	r   io.Reader
}

func (c ctxReader) Read(p []byte) (int, error) {
	if c.ctx.Err() != nil {
		return 0, context.Cause(c.ctx)
	}
	return c.r.Read(p)
}

// An entry is where a URL's content is: in the record at at in the file,
// or data.
type entry struct {
	at   position // offset -1: data
	id   string   // the record's ID, checked when it is read again
	data []byte
	date time.Time  // the WARC-Date of the response or revisit record (Captured)
	rec  RecordInfo // the response record that holds it (RecordOf)
}

func load(r io.Reader, name, path string, p *canon.Profile, lim Limits) (*Source, error) {
	c, err := canon.New(p)
	if err != nil {
		return nil, err
	}
	lim = lim.orDefault()
	s := &Source{name: name, path: path, lim: lim, content: map[string]entry{}, redirects: map[string]string{}}
	byID := map[string]entry{}     // record ID: a 200 response
	byDigest := map[string]entry{} // payload digest: a 200 response
	rd := NewReaderLimits(r, lim)
	for {
		rec, err := rd.NextHeader()
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &FileError{File: name, Err: err}
		}
		s.Records++
		sc, err := scan(rd, rec, lim, path == "")
		if err != nil {
			return nil, &FileError{File: name, Err: err}
		}
		if sc.digestErr != nil {
			s.problem(rec, "%v", sc.digestErr)
			s.digests = append(s.digests, Problem{RecordID: rec.ID(), Type: rec.Type(), TargetURI: rec.TargetURI(), Err: sc.digestErr})
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
		resp := sc.resp
		if sc.respErr != nil {
			s.problem(rec, "%v", sc.respErr)
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
			if sc.contentErr != nil {
				s.problem(rec, "%v", sc.contentErr)
				continue
			}
			e = entry{at: position{offset: -1}, data: sc.content}
			if path != "" {
				e = entry{at: rd.at, id: rec.ID()} // read again when opened
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

// A scanned record is what load needs of a record's block, read once as
// a stream.
type scanned struct {
	digestErr  error         // a digest that does not match (wraps ErrDigest)
	resp       *HTTPResponse // an HTTP response's status and header (no body)
	respErr    error         // why it is not one
	content    []byte        // a 200 response's content, when kept
	contentErr error         // why its content cannot be decoded
}

// scan reads the block of rec, the record rd is at, to its end: it checks
// the block's and payload's digests (VerifyDigests, streaming) and, for
// an HTTP response, parses its header (at most MaxHTTPHeader bytes) and
// decodes a 200 response's content (at most MaxBlock bytes), keeping it
// if keep. The error is the file's or a limit's (the load stops); what is
// wrong with one record only is said in scanned.
func scan(rd *Reader, rec *Record, lim Limits, keep bool) (*scanned, error) {
	sc := &scanned{}
	bd := newDigester(rec.Header.Get(FieldBlockDigest))
	var pd *digester // the payload's as it follows the header
	if d := rec.Header.Get(FieldPayloadDigest); d != "" && rec.Type() != TypeRevisit {
		pd = newDigester(d)
	}
	block := io.TeeReader(rd, bd)
	isResp := (rec.Type() == TypeResponse || rec.Type() == TypeRevisit) && rec.IsHTTP("response")
	var dechunked *digester // the payload's with the transfer coding removed
	if isResp || (pd != nil && rec.IsHTTP("request")) {
		br := bufio.NewReaderSize(block, 32<<10)
		head, err := readHead(br, lim.MaxHTTPHeader)
		if errors.Is(err, ErrHTTPHeader) {
			return nil, rd.fail(rd.n, rd.at, err)
		}
		if err == nil && isResp {
			status, h, isChunked, perr := parseHead(head)
			sc.resp = &HTTPResponse{Status: status, Header: h}
			if perr == nil {
				body := io.TeeReader(br, pd)
				var payload io.Reader = body
				if isChunked && rec.Type() == TypeRevisit {
					_, perr := br.Peek(1) // io.EOF: header only, nothing to dechunk
					isChunked = !headerOnly(rec, perr == io.EOF)
				}
				if isChunked {
					dechunked = newDigester(rec.Header.Get(FieldPayloadDigest))
					payload = io.TeeReader(httputil.NewChunkedReader(body), dechunked)
				}
				if status == 200 && rec.Type() == TypeResponse {
					sc.content, sc.contentErr = decode(h, payload, lim, keep)
				}
				if _, cerr := io.Copy(io.Discard, payload); cerr != nil && isChunked && rd.err == nil {
					sc.respErr = fmt.Errorf("HTTP response: chunked body: %w", cerr)
					dechunked = nil
				}
			} else {
				sc.respErr = perr
			}
		} else if err != nil {
			sc.respErr = err
		}
		if err != nil && pd != nil {
			sc.digestErr = fmt.Errorf("%w: WARC-Payload-Digest %s: no HTTP header", ErrDigest, pd.label)
			pd = nil
		}
		block = io.TeeReader(br, pd) // the rest, if any
	} else {
		block = io.TeeReader(block, pd)
	}
	io.Copy(io.Discard, block)
	if rd.err != nil {
		return nil, rd.err
	}
	switch {
	case !bd.ok():
		sc.digestErr = fmt.Errorf("%w: WARC-Block-Digest %s", ErrDigest, bd.label)
	case sc.digestErr == nil && !pd.ok() && !(dechunked != nil && dechunked.ok()):
		sc.digestErr = fmt.Errorf("%w: WARC-Payload-Digest %s", ErrDigest, pd.label)
	}
	return sc, nil
}

// decode reads payload's content (contentReader) to its end, and returns
// it if keep.
func decode(h http.Header, payload io.Reader, lim Limits, keep bool) ([]byte, error) {
	r, err := contentReader(h, payload, lim)
	if err != nil {
		return nil, err
	}
	if keep {
		b, err := io.ReadAll(r)
		if b == nil {
			b = []byte{}
		}
		return b, err
	}
	_, err = io.Copy(io.Discard, r)
	return nil, err
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
// canonical URL u, read from the file as it is read (at most
// Limits.MaxBlock bytes).
func (s *Source) Open(u string) (io.ReadCloser, error) {
	e, ok := s.content[u]
	if !ok {
		return nil, fmt.Errorf("%w in %s", webcapture.ErrNotFound, s.name)
	}
	if e.at.offset < 0 {
		return io.NopCloser(bytes.NewReader(e.data)), nil
	}
	rc, err := s.reread(e)
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %w", s.name, u, err)
	}
	return rc, nil
}

// reread opens the content of e's response record again in the file.
func (s *Source) reread(e entry) (io.ReadCloser, error) {
	if s.ra != nil {
		r, err := s.openContent(io.NewSectionReader(s.ra, 0, s.size), e)
		if err != nil {
			return nil, err
		}
		return io.NopCloser(r), nil
	}
	f, _, err := limits.Open(s.path, 0, "")
	if err != nil {
		return nil, err
	}
	r, err := s.openContent(f, e)
	if err != nil {
		f.Close()
		return nil, err
	}
	return struct {
		io.Reader
		io.Closer
	}{r, f}, nil
}

func (s *Source) openContent(f io.ReadSeeker, e entry) (io.Reader, error) {
	if _, err := f.Seek(e.at.offset, io.SeekStart); err != nil {
		return nil, err
	}
	rd := NewReaderLimits(f, s.lim)
	if err := rd.discard(e.at.skip); err != nil {
		return nil, err
	}
	rec, err := rd.NextHeader()
	if err != nil {
		return nil, err
	}
	if rec.ID() != e.id {
		return nil, fmt.Errorf("the file has changed since it was read: record %s is not %v", e.id, e.at)
	}
	br := bufio.NewReaderSize(rd, 32<<10)
	head, err := readHead(br, s.lim.MaxHTTPHeader)
	if err != nil {
		return nil, err
	}
	_, h, isChunked, err := parseHead(head)
	if err != nil {
		return nil, err
	}
	var payload io.Reader = br
	if isChunked {
		payload = httputil.NewChunkedReader(br)
	}
	return contentReader(h, payload, s.lim)
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
