package seal

import (
	"bytes"
	"context"
	"crypto"
	"crypto/rand"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"time"

	"github.com/digitorus/timestamp"
)

// ErrService: a time-stamping authority, an OCSP responder or a CRL server
// could not be reached, or gave an answer that cannot be used. Nothing is
// written; trying again later may work.
var ErrService = errors.New("a signing service failed")

// A ServiceError is one request to a service that failed.
type ServiceError struct {
	Service string // "time-stamping authority", "OCSP responder", "CRL server"
	URL     string
	Err     error
}

func (e *ServiceError) Error() string {
	return fmt.Sprintf("the %s at %s: %v", e.Service, e.URL, e.Err)
}

// Unwrap gives both ErrService and the cause.
func (e *ServiceError) Unwrap() []error { return []error{ErrService, e.Err} }

// Bounds on what a service may answer.
const (
	maxTSAResponse  = 1 << 20  // a token with its chain: a few kB
	maxOCSPResponse = 1 << 20  // a response: a few kB
	maxCRLResponse  = 32 << 20 // a large CA's CRL: some MB
	// DefaultTimeout bounds each request to a service (Options.Timeout).
	DefaultTimeout = 30 * time.Second
)

// client makes the requests to the services: each bounded by a timeout
// (the whole exchange, the body included) and the context.
type client struct {
	http    *http.Client
	timeout time.Duration
}

func newClient(o *Options) *client {
	c := &client{http: o.HTTPClient, timeout: o.Timeout}
	if c.timeout <= 0 {
		c.timeout = DefaultTimeout
	}
	if c.http == nil {
		c.http = &http.Client{CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("more than 3 redirects")
			}
			return nil
		}}
	}
	return c
}

// do sends a request (POST when body is not nil) and returns the answer's
// body, read whole up to max bytes: a longer answer is an error, read no
// further.
func (c *client) do(ctx context.Context, service, url, ctype string, body []byte, max int64) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	method := http.MethodGet
	var rd io.Reader
	if body != nil {
		method, rd = http.MethodPost, bytes.NewReader(body)
	}
	req, err := http.NewRequestWithContext(ctx, method, url, rd)
	if err != nil {
		return nil, &ServiceError{service, url, err}
	}
	if body != nil {
		req.Header.Set("Content-Type", ctype)
	}
	resp, err := c.http.Do(req)
	if err != nil {
		return nil, &ServiceError{service, url, c.why(ctx, err)}
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return nil, &ServiceError{service, url, fmt.Errorf("HTTP status %s", resp.Status)}
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, max+1))
	if err != nil {
		return nil, &ServiceError{service, url, c.why(ctx, err)}
	}
	if int64(len(b)) > max {
		return nil, &ServiceError{service, url, fmt.Errorf("the answer is larger than %d bytes", max)}
	}
	return b, nil
}

// why names a deadline passed.
func (c *client) why(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no complete answer within %v (%w)", c.timeout, context.DeadlineExceeded)
	}
	return err
}

// oidTimeStamping is the extended key usage of a TSA's certificate.
var oidTimeStamping = x509.ExtKeyUsageTimeStamping

// token asks the TSA at url for a timestamp token over digest (SHA-256),
// with a nonce and the TSA's certificate requested (RFC 3161 §2.4.1), and
// checks the answer before it is used: granted, the token's signature
// valid, by a certificate for time-stamping, over this imprint, with this
// nonce.
func (c *client) token(ctx context.Context, url string, digest []byte) (*timestamp.Timestamp, error) {
	nonce, err := rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 64))
	if err != nil {
		return nil, err
	}
	req, err := (&timestamp.Request{HashAlgorithm: crypto.SHA256, HashedMessage: digest, Certificates: true, Nonce: nonce}).Marshal()
	if err != nil {
		return nil, err
	}
	const service = "time-stamping authority"
	resp, err := c.do(ctx, service, url, "application/timestamp-query", req, maxTSAResponse)
	if err != nil {
		return nil, err
	}
	ts, err := parseResponse(resp)
	if err != nil {
		return nil, &ServiceError{service, url, err}
	}
	if err := checkToken(ts, digest, nonce); err != nil {
		return nil, &ServiceError{service, url, err}
	}
	return ts, nil
}

// parseResponse is timestamp.ParseResponse, a panic of the parser on a
// hostile answer recovered into an error.
func parseResponse(b []byte) (ts *timestamp.Timestamp, err error) {
	defer func() {
		if p := recover(); p != nil {
			ts, err = nil, fmt.Errorf("the answer does not parse (%v)", p)
		}
	}()
	ts, err = timestamp.ParseResponse(b)
	if err != nil {
		return nil, fmt.Errorf("the answer is not a granted timestamp: %w", err)
	}
	return ts, nil
}

// checkToken checks a token parsed (and its signature verified by
// timestamp.Parse) against what was asked.
func checkToken(ts *timestamp.Timestamp, digest []byte, nonce *big.Int) error {
	switch {
	case ts.HashAlgorithm != crypto.SHA256 || !bytes.Equal(ts.HashedMessage, digest):
		return fmt.Errorf("the token is for another digest (%v %x, asked SHA-256 %x)", ts.HashAlgorithm, ts.HashedMessage, digest)
	case nonce != nil && (ts.Nonce == nil || ts.Nonce.Cmp(nonce) != 0):
		return fmt.Errorf("the token's nonce %v is not the request's %v (a replayed answer?)", ts.Nonce, nonce)
	case !ts.AddTSACertificate || len(ts.Certificates) == 0:
		return errors.New("the token carries no certificate, though one was asked for")
	}
	tsa := tsaCert(ts)
	if tsa == nil {
		return errors.New("the token's signer is not among its certificates")
	}
	for _, u := range tsa.ExtKeyUsage {
		if u == oidTimeStamping {
			return nil
		}
	}
	return fmt.Errorf("the token's signer %q is not certified for time-stamping (extended key usage)", tsa.Subject.CommonName)
}

// tsaCert is the certificate that signed the token (its SignerInfo's
// issuer and serial number), or nil.
func tsaCert(ts *timestamp.Timestamp) *x509.Certificate {
	p7, err := parsePKCS7(ts.RawToken)
	if err != nil {
		return nil
	}
	return p7.GetOnlySigner()
}
