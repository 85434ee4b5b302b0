package warc

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base32"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"net/http"
	"net/http/httputil"
	"strings"
)

// An HTTPResponse is the HTTP response in a response (or revisit) record.
type HTTPResponse struct {
	Status  int
	Header  http.Header
	Payload []byte // the entity body, transfer coding removed
	Body    []byte // the body as it follows the header in the block
}

// ParseResponse parses a record's block as an HTTP response. A revisit
// record's block may stop after the header: its Payload is then empty,
// whatever the header says of the body (Transfer-Encoding: chunked, as
// wget --warc-dedup writes, has no chunks to decode: headerOnly).
// The header is at most lim.MaxHTTPHeader bytes (ErrHTTPHeader past it).
func (r *Record) ParseResponse(lim Limits) (*HTTPResponse, error) {
	lim = lim.orDefault()
	head, err := readHead(bufio.NewReader(bytes.NewReader(r.Block)), lim.MaxHTTPHeader)
	if err != nil {
		return nil, err
	}
	status, h, isChunked, err := parseHead(head)
	if err != nil {
		return nil, err
	}
	out := &HTTPResponse{Status: status, Header: h, Body: r.Block[len(head):]}
	if isChunked && !headerOnly(r, len(out.Body) == 0) {
		p, err := io.ReadAll(io.LimitReader(newChunked(out.Body), lim.MaxBlock+1))
		if err != nil {
			return nil, fmt.Errorf("HTTP response: chunked body: %w", err)
		}
		if int64(len(p)) > lim.MaxBlock {
			return nil, fmt.Errorf("HTTP response: payload over the limit of %d bytes", lim.MaxBlock)
		}
		out.Payload = p
	} else {
		out.Payload = out.Body
	}
	return out, nil
}

// headerOnly reports whether rec is a revisit record whose block stops
// after the HTTP header (empty: nothing follows it). Its header describes
// the original's body (Content-Length, Transfer-Encoding), which the
// revisit does not hold (ISO 28500 §6.7: the block of an
// identical-payload-digest or server-not-modified revisit may be
// truncated to the header), so no body is decoded from it.
func headerOnly(rec *Record, empty bool) bool {
	return empty && rec.Type() == TypeRevisit
}

// ErrHTTPHeader is wrapped by the error of an HTTP message whose header
// is longer than Limits.MaxHTTPHeader: a limit of the format, as a block
// over MaxBlock is.
var ErrHTTPHeader = errors.New("HTTP header over the size limit")

// readHead reads an HTTP message's header from br, its start line and
// fields up to and with the blank line that ends them (CRLF or LF), at
// most max bytes; br is then at the body.
func readHead(br *bufio.Reader, max int) ([]byte, error) {
	var head []byte
	line := 0 // where the line being read starts in head
	for {
		frag, err := br.ReadSlice('\n')
		if len(head)+len(frag) > max {
			return nil, fmt.Errorf("%w: more than %d bytes", ErrHTTPHeader, max)
		}
		head = append(head, frag...)
		switch {
		case err == bufio.ErrBufferFull:
			continue
		case err != nil:
			return nil, errors.New("HTTP response header without an end")
		}
		if l := head[line:]; len(l) <= 2 && (string(l) == "\n" || string(l) == "\r\n") && line > 0 {
			return head, nil
		}
		line = len(head)
	}
}

// parseHead parses an HTTP response's header (as readHead reads it).
func parseHead(head []byte) (status int, h http.Header, isChunked bool, err error) {
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(head)), nil)
	if err != nil {
		return 0, nil, false, fmt.Errorf("HTTP response: %w", err)
	}
	resp.Body.Close()
	return resp.StatusCode, resp.Header, chunked(resp.Header, resp.TransferEncoding), nil
}

func chunked(h http.Header, te []string) bool {
	for _, v := range append(te, h.Values("Transfer-Encoding")...) {
		if strings.Contains(strings.ToLower(v), "chunked") {
			return true
		}
	}
	return false
}

// headerEnd returns the offset just past the blank line that ends an HTTP
// header (CRLFCRLF, or LFLF), or -1.
func headerEnd(b []byte) int {
	crlf, lf := bytes.Index(b, []byte("\r\n\r\n")), bytes.Index(b, []byte("\n\n"))
	switch {
	case crlf >= 0 && (lf < 0 || crlf < lf):
		return crlf + 4
	case lf >= 0:
		return lf + 2
	}
	return -1
}

// newChunked decodes RFC 9112 §7.1 chunked transfer coding (the trailer
// section is left unread).
func newChunked(b []byte) io.Reader {
	return httputil.NewChunkedReader(bytes.NewReader(b))
}

// ErrCoding: a Content-Encoding this package does not decode (br, zstd, a
// stack of codings).
var ErrCoding = errors.New("unsupported content coding")

// Content returns the bytes a Web Capture identifier is computed over: the
// payload with its content coding removed (gzip, x-gzip, deflate as zlib or
// raw; identity or none as is), at most lim.MaxBlock bytes. This is the one
// place that decides it (contentReader); see the package documentation.
func (h *HTTPResponse) Content(lim Limits) ([]byte, error) {
	lim = lim.orDefault()
	ce := strings.ToLower(strings.TrimSpace(h.Header.Get("Content-Encoding")))
	if ce == "" || ce == "identity" {
		return h.Payload, nil
	}
	r, err := contentReader(h.Header, bytes.NewReader(h.Payload), lim)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(r)
}

// contentReader is payload with the content coding header says removed,
// at most lim.MaxBlock bytes (an error past it).
func contentReader(header http.Header, payload io.Reader, lim Limits) (io.Reader, error) {
	var zr io.Reader
	enc := header.Get("Content-Encoding")
	switch ce := strings.ToLower(strings.TrimSpace(enc)); ce {
	case "", "identity":
		zr = payload
	case "gzip", "x-gzip":
		z, err := gzip.NewReader(payload)
		if err != nil {
			return nil, fmt.Errorf("Content-Encoding gzip: %w", err)
		}
		zr = z
	case "deflate":
		// zlib, or raw deflate (which some servers send): the first two
		// bytes tell, as zlib.NewReader checks them (a preset dictionary,
		// which no HTTP coding has, is read as raw deflate).
		br := bufio.NewReader(payload)
		if b, err := br.Peek(2); err == nil && (uint16(b[0])<<8|uint16(b[1]))%31 == 0 && b[0]&0x0f == 8 && b[1]&0x20 == 0 {
			z, err := zlib.NewReader(br)
			if err != nil {
				return nil, fmt.Errorf("Content-Encoding deflate: %w", err)
			}
			zr = z
		} else {
			zr = flate.NewReader(br)
		}
	default:
		return nil, fmt.Errorf("%w %q", ErrCoding, ce)
	}
	return &capped{r: zr, max: lim.MaxBlock, enc: enc}, nil
}

// capped is a content that fails past max bytes, or with its decoder's
// error said with the coding.
type capped struct {
	r   io.Reader
	n   int64
	max int64
	enc string
}

func (c *capped) Read(p []byte) (int, error) {
	if int64(len(p)) > c.max-c.n+1 {
		p = p[:c.max-c.n+1]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	switch {
	case c.n > c.max:
		return 0, fmt.Errorf("content over the limit of %d bytes", c.max)
	case err != nil && err != io.EOF && c.enc != "":
		return n, fmt.Errorf("Content-Encoding %s: %w", c.enc, err)
	}
	return n, err
}

// ErrDigest is wrapped by a digest that does not match.
var ErrDigest = errors.New("digest mismatch")

// VerifyDigests checks WARC-Block-Digest against the block and
// WARC-Payload-Digest against the payload (an HTTP message's body with the
// transfer coding removed, or as it follows the header; another block
// whole; a revisit's is its original's, not checked here). Digests in
// algorithms other than sha1 and sha256 are not checked.
func (r *Record) VerifyDigests() error {
	if d := r.Header.Get(FieldBlockDigest); d != "" {
		if ok, known := digestMatches(d, r.Block); known && !ok {
			return fmt.Errorf("%w: WARC-Block-Digest %s", ErrDigest, d)
		}
	}
	d := r.Header.Get(FieldPayloadDigest)
	if d == "" || r.Type() == TypeRevisit {
		return nil // a revisit's payload digest is its original's
	}
	candidates := [][]byte{r.Block}
	if r.IsHTTP("response") || r.IsHTTP("request") {
		i := headerEnd(r.Block)
		if i < 0 {
			return fmt.Errorf("%w: WARC-Payload-Digest %s: no HTTP header", ErrDigest, d)
		}
		candidates = [][]byte{r.Block[i:]}
		if p, err := io.ReadAll(io.LimitReader(newChunked(r.Block[i:]), int64(len(r.Block)))); err == nil {
			candidates = append(candidates, p)
		}
	}
	for _, c := range candidates {
		if ok, known := digestMatches(d, c); ok || !known {
			return nil
		}
	}
	return fmt.Errorf("%w: WARC-Payload-Digest %s", ErrDigest, d)
}

// digestMatches compares a labelled digest (ALGORITHM:VALUE, VALUE in
// base32 or hex) with data; known is false for an algorithm not checked.
func digestMatches(d string, data []byte) (ok, known bool) {
	g := newDigester(d)
	if g.h == nil {
		return false, false
	}
	g.Write(data)
	return g.ok(), true
}

// A digester checks a labelled digest (ALGORITHM:VALUE, VALUE in base32
// or hex) against the bytes written to it; a nil one, and one of an
// algorithm not checked, accepts any.
type digester struct {
	label string
	h     hash.Hash // nil: not checked
}

func newDigester(label string) *digester {
	d := &digester{label: label}
	alg, _, _ := strings.Cut(label, ":")
	switch strings.ToLower(alg) {
	case "sha1":
		d.h = sha1.New()
	case "sha256", "sha-256":
		d.h = sha256.New()
	}
	return d
}

func (d *digester) Write(p []byte) (int, error) {
	if d != nil && d.h != nil {
		d.h.Write(p)
	}
	return len(p), nil
}

// ok reports whether what was written matches (or is not checked).
func (d *digester) ok() bool {
	if d == nil || d.h == nil {
		return true
	}
	_, val, _ := strings.Cut(d.label, ":")
	sum := d.h.Sum(nil)
	return strings.EqualFold(val, hex.EncodeToString(sum)) ||
		strings.EqualFold(strings.TrimRight(val, "="), strings.TrimRight(base32.StdEncoding.EncodeToString(sum), "="))
}

// SHA256 returns the digest of data as this package writes it: "sha256:"
// and lower-case hex.
func SHA256(data []byte) string {
	s := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(s[:])
}
