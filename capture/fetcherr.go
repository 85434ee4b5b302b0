package capture

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"strconv"
	"strings"
	"syscall"
)

// A FetchErrorKind says why a fetch failed, as one word for grouping and
// for programs (String).
type FetchErrorKind uint8

// The kinds of fetch failure. The zero value is Other.
const (
	Other       FetchErrorKind = iota // none of the others
	Refused                           // the connection was refused: nothing listens there
	DNS                               // the name does not resolve, or its lookup failed
	TLS                               // the TLS handshake failed: a certificate, a protocol
	Timeout                           // connecting or the answer took too long, or the deadline passed
	Reset                             // the connection was reset or closed mid-answer
	Blocked                           // refused by webcap: the address guard (*BlockedAddressError), a method a dry run does not send
	Scheme                            // not an http or https URL (*SchemeError)
	HTTPStatus                        // the server answered with a status that is not usable
	TooLarge                          // the body is over the limit
	NotModified                       // a 304 or 206 to a request that asked for neither: no whole body
	Interrupted                       // the fetch was canceled (context.Canceled)
)

// kindNames are the kinds' names: stable, they are written to JSON.
var kindNames = [...]string{
	Other:       "other",
	Refused:     "refused",
	DNS:         "dns",
	TLS:         "tls",
	Timeout:     "timeout",
	Reset:       "reset",
	Blocked:     "blocked",
	Scheme:      "scheme",
	HTTPStatus:  "http",
	TooLarge:    "too-large",
	NotModified: "not-modified",
	Interrupted: "interrupted",
}

// String gives the kind's stable name: "refused", "dns", "tls",
// "timeout", "reset", "blocked", "scheme", "http", "too-large",
// "not-modified", "interrupted" or "other".
func (k FetchErrorKind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "FetchErrorKind(" + strconv.Itoa(int(k)) + ")"
}

// A FetchError says why fetching a URL gave no usable response, in words
// a user understands. Its Error is short and does not repeat the URL or
// Go's "Get ...: dial tcp ...:" prefixes; the cause stays reachable with
// errors.Is and errors.As (syscall.ECONNREFUSED, *BlockedAddressError,
// *x509.UnknownAuthorityError, ...).
type FetchError struct {
	URL    string
	Kind   FetchErrorKind
	Status int   // the HTTP status, for HTTPStatus and NotModified
	Err    error // the cause, as net/http, the guard or StatusError gave it
}

func (e *FetchError) Unwrap() error { return e.Err }

// Gone reports whether the server says the resource is gone: a 404 or a
// 410. Every other failure means only that it could not be checked.
func (e *FetchError) Gone() bool {
	return e.Kind == HTTPStatus && (e.Status == http.StatusNotFound || e.Status == http.StatusGone)
}

// bareMessages say the kinds whose message needs the cause, when a
// FetchError has none.
var bareMessages = [...]string{
	Other:   "failed",
	DNS:     "DNS lookup failed",
	TLS:     "TLS: the handshake failed",
	Reset:   "connection reset",
	Blocked: "refused by webcap",
	Scheme:  "only http and https URLs are fetched",
}

func (e *FetchError) Error() string {
	if e.Err == nil && int(e.Kind) < len(bareMessages) && bareMessages[e.Kind] != "" {
		return bareMessages[e.Kind]
	}
	switch e.Kind {
	case Refused:
		return "connection refused" + at(e.Err)
	case DNS:
		return dnsMessage(e.Err)
	case TLS:
		return "TLS: " + tlsMessage(e.Err)
	case Timeout:
		if l := (*lateError)(nil); errors.As(e.Err, &l) {
			return l.Error()
		}
		return "timed out"
	case Reset:
		return resetMessage(e.Err)
	case Blocked, Scheme:
		// The guard's errors say it all; a dry run's refusal is a plain
		// error.
		var b *BlockedAddressError
		var s *SchemeError
		switch {
		case errors.As(e.Err, &b):
			return b.Error()
		case errors.As(e.Err, &s):
			return s.Error()
		}
	case HTTPStatus:
		return "the server answered " + e.statusLine()
	case NotModified:
		if e.Status == http.StatusPartialContent {
			return "the server answered " + e.statusLine() + " to a request without a range: no whole body to record"
		}
		return "the server answered " + e.statusLine() + " to a request without validators: no body to record"
	case TooLarge:
		if e.Err != nil {
			return "too large: " + e.Err.Error()
		}
		return "too large"
	case Interrupted:
		return "interrupted"
	}
	if e.Err == nil {
		return e.Kind.String() // a kind added without a message
	}
	return cause(e.Err).Error() + at(e.Err)
}

// statusLine is the status's code and text, as StatusError was given them.
func (e *FetchError) statusLine() string {
	var s *statusLine
	if errors.As(e.Err, &s) {
		return s.Error()
	}
	return (&statusLine{e.Status, http.StatusText(e.Status)}).Error()
}

// A statusLine is an HTTP status and its text: StatusError's cause.
type statusLine struct {
	code int
	text string
}

func (s *statusLine) Error() string {
	if s.text == "" {
		return strconv.Itoa(s.code)
	}
	return strconv.Itoa(s.code) + " " + s.text
}

// StatusError is the failure of a fetch the server answered with a status
// that gives no usable body (statusText is its text, as
// http.StatusText gives it): NotModified for 304 and 206, which answer
// conditions or ranges webcap never sends, HTTPStatus for the others.
func StatusError(u string, status int, statusText string) *FetchError {
	kind := HTTPStatus
	if status == http.StatusNotModified || status == http.StatusPartialContent {
		kind = NotModified
	}
	return &FetchError{URL: u, Kind: kind, Status: status, Err: &statusLine{status, statusText}}
}

// ClassifyFetch says why fetching u failed, from the error of
// http.Client.Do or of reading the body; nil if err is nil. A *FetchError
// is returned as it is (with u as its URL if it has none).
func ClassifyFetch(u string, err error) *FetchError {
	if err == nil {
		return nil
	}
	var fe *FetchError
	if errors.As(err, &fe) {
		c := *fe
		if c.URL == "" {
			c.URL = u
		}
		return &c
	}
	return &FetchError{URL: u, Kind: fetchKind(u, err), Err: err}
}

// fetchKind classifies err. The order matters: a deadline or a
// cancellation is said as such whatever it interrupted; a DNS lookup's
// failure is DNS even when it timed out; a TLS handshake that timed out
// is a Timeout.
func fetchKind(u string, err error) FetchErrorKind {
	var (
		blocked *BlockedAddressError
		scheme  *SchemeError
		dns     *net.DNSError
		ne      net.Error
	)
	switch {
	case errors.Is(err, context.Canceled):
		return Interrupted
	case errors.Is(err, context.DeadlineExceeded):
		return Timeout
	case errors.As(err, &blocked):
		return Blocked
	case errors.As(err, &scheme):
		return Scheme
	case errors.As(err, &dns):
		return DNS
	case errors.Is(err, syscall.ECONNREFUSED):
		return Refused
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED),
		errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF):
		return Reset
	case errors.As(err, &ne) && ne.Timeout():
		return Timeout
	case isTLS(err), cause(err).Error() == plainHTTP:
		return TLS
	}
	// A client without the scheme guard says so in an unexported error.
	if p, perr := url.Parse(u); perr == nil && p.Scheme != "http" && p.Scheme != "https" {
		return Scheme
	}
	return Other
}

// plainHTTP is net/http's error for an https URL whose server answered in
// plain HTTP: an unexported errors.New, recognized by its text.
const plainHTTP = "http: server gave HTTP response to HTTPS client"

// isTLS reports whether err is a failed TLS handshake: a certificate
// that does not verify, a server that does not speak TLS, an alert.
func isTLS(err error) bool {
	var (
		verify   *tls.CertificateVerificationError
		record   tls.RecordHeaderError
		alert    tls.AlertError
		unknown  x509.UnknownAuthorityError
		hostname x509.HostnameError
		invalid  x509.CertificateInvalidError
		roots    x509.SystemRootsError
		op       *net.OpError
	)
	switch {
	case errors.As(err, &verify), errors.As(err, &record), errors.As(err, &alert),
		errors.As(err, &unknown), errors.As(err, &hostname), errors.As(err, &invalid), errors.As(err, &roots):
		return true
	case errors.As(err, &op):
		// crypto/tls reports alerts, sent or received, so.
		return op.Op == "remote error" || op.Op == "local error"
	}
	return false
}

// tlsMessage says what in the handshake failed, without the "tls: " and
// "x509: " prefixes.
func tlsMessage(err error) string {
	var (
		verify *tls.CertificateVerificationError
		record tls.RecordHeaderError
		op     *net.OpError
		msg    string
	)
	switch {
	case cause(err).Error() == plainHTTP:
		return "the server answered in plain HTTP"
	case errors.As(err, &verify) && verify.Err != nil:
		msg = verify.Err.Error()
	case errors.As(err, &record):
		msg = record.Msg
	case errors.As(err, &op) && op.Op == "remote error" && op.Err != nil:
		msg = "the server refused the handshake: " + strings.TrimPrefix(op.Err.Error(), "tls: ")
	default:
		msg = cause(err).Error()
	}
	msg = strings.TrimPrefix(msg, "tls: ")
	return strings.TrimPrefix(msg, "x509: ")
}

// dnsMessage says why a name did not resolve.
func dnsMessage(err error) string {
	var d *net.DNSError
	switch {
	case !errors.As(err, &d):
		return "DNS: " + cause(err).Error()
	case d.IsNotFound:
		return "no such host (" + d.Name + ")"
	case d.IsTimeout:
		return "DNS lookup timed out (" + d.Name + ")"
	}
	return "DNS lookup failed (" + d.Name + "): " + d.Err
}

// resetMessage says how the connection broke.
func resetMessage(err error) string {
	switch {
	case errors.Is(err, syscall.ECONNRESET):
		return "connection reset" + at(err)
	case errors.Is(err, syscall.EPIPE):
		return "connection broken" + at(err)
	case errors.Is(err, syscall.ECONNABORTED):
		return "connection aborted" + at(err)
	case errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before the answer was complete"
	case errors.Is(err, io.EOF):
		return "the server closed the connection without answering"
	}
	return "connection reset: " + cause(err).Error()
}

// at gives " (address)" for the remote address of err's socket
// operation, if it has one.
func at(err error) string {
	var op *net.OpError
	if !errors.As(err, &op) || op.Addr == nil {
		return ""
	}
	if s := op.Addr.String(); s != "" && s != "<nil>" {
		return " (" + s + ")"
	}
	return ""
}

// cause strips the wrappers that only repeat the request or the socket
// operation (*url.Error, *net.OpError, *os.SyscallError) from err.
func cause(err error) error {
	for {
		switch e := err.(type) {
		case *url.Error:
			err = e.Err
		case *net.OpError:
			err = e.Err
		case *os.SyscallError:
			err = e.Err
		default:
			return err
		}
		if err == nil {
			return errors.New("failed")
		}
	}
}
