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
// record's block may stop after the header: its Payload is then empty.
func (r *Record) ParseResponse(lim Limits) (*HTTPResponse, error) {
	lim = lim.orDefault()
	i := headerEnd(r.Block)
	if i < 0 {
		return nil, errors.New("HTTP response header without an end")
	}
	resp, err := http.ReadResponse(bufio.NewReader(bytes.NewReader(r.Block[:i])), nil)
	if err != nil {
		return nil, fmt.Errorf("HTTP response: %w", err)
	}
	out := &HTTPResponse{Status: resp.StatusCode, Header: resp.Header, Body: r.Block[i:]}
	resp.Body.Close()
	if chunked(resp.Header, resp.TransferEncoding) {
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
// place that decides it; see the package documentation.
func (h *HTTPResponse) Content(lim Limits) ([]byte, error) {
	lim = lim.orDefault()
	var zr io.Reader
	switch ce := strings.ToLower(strings.TrimSpace(h.Header.Get("Content-Encoding"))); ce {
	case "", "identity":
		return h.Payload, nil
	case "gzip", "x-gzip":
		z, err := gzip.NewReader(bytes.NewReader(h.Payload))
		if err != nil {
			return nil, fmt.Errorf("Content-Encoding gzip: %w", err)
		}
		zr = z
	case "deflate":
		if z, err := zlib.NewReader(bytes.NewReader(h.Payload)); err == nil {
			zr = z
		} else {
			zr = flate.NewReader(bytes.NewReader(h.Payload))
		}
	default:
		return nil, fmt.Errorf("%w %q", ErrCoding, ce)
	}
	b, err := io.ReadAll(io.LimitReader(zr, lim.MaxBlock+1))
	if err != nil {
		return nil, fmt.Errorf("Content-Encoding %s: %w", h.Header.Get("Content-Encoding"), err)
	}
	if int64(len(b)) > lim.MaxBlock {
		return nil, fmt.Errorf("content over the limit of %d bytes", lim.MaxBlock)
	}
	return b, nil
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
	alg, val, _ := strings.Cut(d, ":")
	var h hash.Hash
	switch strings.ToLower(alg) {
	case "sha1":
		h = sha1.New()
	case "sha256", "sha-256":
		h = sha256.New()
	default:
		return false, false
	}
	h.Write(data)
	sum := h.Sum(nil)
	return strings.EqualFold(val, hex.EncodeToString(sum)) ||
		strings.EqualFold(strings.TrimRight(val, "="), strings.TrimRight(base32.StdEncoding.EncodeToString(sum), "=")), true
}

// SHA256 returns the digest of data as this package writes it: "sha256:"
// and lower-case hex.
func SHA256(data []byte) string {
	s := sha256.Sum256(data)
	return "sha256:" + hex.EncodeToString(s[:])
}
