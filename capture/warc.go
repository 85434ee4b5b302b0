package capture

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/webcap/webcap/warc"
)

// WARCInfo is what a capture's warcinfo record says (WARC/1.1 §6.4).
type WARCInfo struct {
	Filename string // WARC-Filename: the WARC's base name
	Software string // "webcap/v1.2.3"
	// Command is the command ("webcap capture"), Args its arguments
	// (FILE, start URLs): the description field gives them joined by
	// spaces, each URL without its user information (no password in an
	// archive).
	Command string
	Args    []string
	Date    time.Time // the PDF's resource record's WARC-Date; now if zero
	// KeepCredentials (--warc-keep-credentials) writes the credentials a
	// request carried as they were: the values of the header fields in
	// redactedHeaders, and the user information (user:password@) of
	// every URL. Without it, each of those fields is written with its
	// name and the value Redacted, the warcinfo record's
	// webcap-redacted-headers field names them, and URLs are written
	// without their user information.
	KeepCredentials bool
}

// Redacted is the value a WARC request record gives a header field that
// carried a credential (WARCInfo.KeepCredentials): the name stays, so a
// reader sees that a cookie or a password was sent, not which.
const Redacted = "(redacted)"

// redactedHeaders are the header fields that carry credentials: a
// session cookie (often HttpOnly, which no script of the page could
// read), a password or token for the server or for a proxy in requests,
// and in responses the Set-Cookie that gave the cookie its value (the
// request's Cookie redacted alone would leave the session in the
// response that set it).
var redactedHeaders = [...]string{"Cookie", "Authorization", "Proxy-Authorization", "Set-Cookie"}

// credentials is the writeFields filter of the fields redacted: those
// of redactedHeaders, none if keep.
func credentials(keep bool) func(name string) bool {
	if keep {
		return nil
	}
	return func(name string) bool {
		for _, h := range redactedHeaders {
			if name == h {
				return true
			}
		}
		return false
	}
}

// url is u as the WARC writes it: without its user information unless
// KeepCredentials.
func (info WARCInfo) url(u string) string {
	if info.KeepCredentials {
		return u
	}
	return withoutUserinfo(u)
}

// WriteWARC writes the web archive of a capture's pages (Result.Pages,
// RefreshResult.Pages) and of the PDF made from them to w, one gzip member
// per record when gz: a warcinfo record; for every response webcap fetched
// (pageExchanges: in the order they were fetched), its request and response records tied by
// WARC-Concurrent-To, or a revisit record (identical-payload-digest) for a
// payload written before; and the PDF as a resource record (urn:pdf: and
// the first start URL, the ArchiveWeb.page convention) with a
// WARC-Refers-To for each 200 response a page set's identifier covers.
//
// A response record's body is exactly the Body an identifier is computed
// over, so every page set's identifier can be recomputed from the WARC.
// The HTTP messages are rebuilt from what Go's client returns, not copied
// from the wire: the status line and the header fields as received (in
// sorted order; a field's values in the order received), without
// Transfer-Encoding (the body is written whole, not chunked), without the
// Content-Encoding Go removed when it decoded a gzip body it asked for,
// and with Content-Length the body's length. A request is its method,
// target, Host, and the header fields sent (Accept-Encoding: gzip when
// Go asked for it), then its body. Credentials are redacted unless
// info.KeepCredentials: a request's Cookie, Authorization and
// Proxy-Authorization, and a response's Set-Cookie, are written
// "Name: (redacted)", one line per value, and user
// information is left out of every URL (WARC-Target-URI, the warcinfo's
// description, the resource record's URI), as the PDF leaves it out
// without --keep-credentials. A record's block digest is
// computed over the block as written, redacted; a response's payload (and
// so its payload digest) is never changed.
//
// WARC/1.1 §5.11 describes WARC-Refers-To as naming a single record;
// the resource record repeats it, one per response, as issue 16 asks (a
// reader that takes one field finds the first page's response). A request
// that got no response (refused, failed) is not archived.
//
// Every answer the capture received is archived (pageExchanges): each
// redirect and error answer as a response, a repeated fetch as a revisit
// when its payload was written before, robots.txt, and each hop of an
// auxiliary file webcap fetched itself (Page.Aux). An answer received over
// TLS is followed by metadata records of its connection's TLS facts
// (version, cipher suite, ALPN, server name, the server's certificates in
// PEM), once per origin and TLS state (warctls.go).
func WriteWARC(w io.Writer, gz bool, pages []*Page, pdf []byte, info WARCInfo) error {
	ww := warc.NewWriter(w, gz)
	fields := warc.Header{
		{Name: "software", Value: info.Software},
		{Name: "format", Value: "WARC File Format 1.1"},
		{Name: "conformsTo", Value: "http://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/"},
	}
	if !info.KeepCredentials {
		// A free-form warcinfo field (WARC/1.1 §6.4 lists none for
		// this; application/warc-fields allows any name).
		fields = append(fields, warc.Field{Name: "webcap-redacted-headers", Value: strings.Join(redactedHeaders[:], ", ")})
	}
	if info.Command != "" {
		line := []string{info.Command}
		for _, a := range info.Args {
			line = append(line, strings.Join(strings.Fields(info.url(a)), "%20"))
		}
		fields = append(fields, warc.Field{Name: "description", Value: strings.Join(line, " ")})
	}
	if _, err := ww.WriteInfo(info.Filename, fields); err != nil {
		return fmt.Errorf("writing the WARC: %w", err)
	}
	byDigest := map[string]*warc.Record{} // payload digest → the first response holding it
	tlsSeen := map[string]bool{}          // origin and TLS state recorded (tlsRecords)
	var refers []string
	seen := map[string]bool{}
	for _, p := range pages {
		for i, r := range pageExchanges(p) {
			if r == nil || r.Status == 0 {
				continue // no response: nothing was received
			}
			rec, err := writeExchange(ww, r, byDigest, tlsSeen, info)
			if err != nil {
				return fmt.Errorf("writing the WARC: %s: %w", r.URL, err)
			}
			if id := rec.ID(); r.Usable() && i >= len(p.Others) && !seen[id] {
				seen[id] = true
				refers = append(refers, id)
			}
		}
	}
	var start string
	if len(pages) > 0 {
		start = info.url(pages[0].Requested)
	}
	rec := warc.NewResource("urn:pdf:"+start, info.Date, "application/pdf", pdf)
	for _, id := range refers {
		rec.Header = append(rec.Header, warc.Field{Name: warc.FieldRefersTo, Value: id})
	}
	if err := ww.Write(rec); err != nil {
		return fmt.Errorf("writing the WARC: the PDF: %w", err)
	}
	return nil
}

// writeExchange writes r's request and its response (or a revisit of a
// payload in byDigest), then the TLS facts of its connection unless
// tlsSeen has them (tlsRecords), and returns the record that holds r's
// payload: its response, or the revisit's original.
func writeExchange(ww *warc.Writer, r *Response, byDigest map[string]*warc.Record, tlsSeen map[string]bool, info WARCInfo) (*warc.Record, error) {
	uri := info.url(r.URL)
	head := responseHead(r, info.KeepCredentials)
	digest := warc.SHA256(r.Body)
	var resp, holder *warc.Record
	if orig := byDigest[digest]; orig != nil && len(r.Body) > 0 {
		resp, holder = warc.NewRevisit(uri, r.Fetched, head, orig), orig
	} else {
		resp = warc.NewResponse(uri, r.Fetched, append(head, r.Body...))
		holder = resp
	}
	req := warc.NewRequest(uri, r.Fetched, requestMessage(r, info.KeepCredentials)).ConcurrentTo(resp)
	if err := ww.Write(req); err != nil {
		return nil, err
	}
	if err := ww.Write(resp); err != nil {
		return nil, err
	}
	for _, rec := range tlsRecords(r, resp, tlsSeen, info) {
		if err := ww.Write(rec); err != nil {
			return nil, err
		}
	}
	if holder == resp && len(r.Body) > 0 {
		byDigest[digest] = resp
	}
	return holder, nil
}

// responseHead is r's status line and header, as WriteWARC says: its
// Set-Cookie redacted unless keep.
func responseHead(r *Response, keep bool) []byte {
	var b bytes.Buffer
	proto, status := r.Proto, r.StatusLine
	if proto == "" {
		proto = "HTTP/1.1"
	}
	if status == "" {
		status = strconv.Itoa(r.Status) + " " + http.StatusText(r.Status)
	}
	fmt.Fprintf(&b, "%s %s\r\n", proto, status)
	writeFields(&b, r.Header, func(k string) bool {
		return k == "Content-Length" || k == "Transfer-Encoding" || (r.Uncompressed && k == "Content-Encoding")
	}, credentials(keep))
	fmt.Fprintf(&b, "Content-Length: %d\r\n\r\n", len(r.Body))
	return b.Bytes()
}

// requestMessage is r's request, as WriteWARC says: its credentials
// redacted unless keep.
func requestMessage(r *Response, keep bool) []byte {
	var b bytes.Buffer
	method, target, host := r.Method, r.URL, ""
	if method == "" {
		method = http.MethodGet
	}
	if u, err := url.Parse(withoutUserinfo(r.URL)); err == nil {
		target, host = u.RequestURI(), u.Host
	}
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: %s\r\n", method, target, host)
	writeFields(&b, r.Sent, func(k string) bool { return k == "Host" || k == "Content-Length" }, credentials(keep))
	if r.Uncompressed && r.Sent.Get("Accept-Encoding") == "" {
		b.WriteString("Accept-Encoding: gzip\r\n")
	}
	if len(r.SentBody) > 0 {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(r.SentBody))
	}
	b.WriteString("\r\n")
	b.Write(r.SentBody)
	return b.Bytes()
}

// writeFields writes h's fields in sorted order, but those skip names,
// with the value Redacted for those hide names (nil: none); a value with
// a line break (which Go's client would not send) is left out.
func writeFields(b *bytes.Buffer, h http.Header, skip, hide func(string) bool) {
	keys := make([]string, 0, len(h))
	for k := range h {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		ck := http.CanonicalHeaderKey(k)
		if skip(ck) {
			continue
		}
		for _, v := range h[k] {
			if hide != nil && hide(ck) {
				v = Redacted
			}
			if !strings.ContainsAny(v, "\r\n") {
				fmt.Fprintf(b, "%s: %s\r\n", k, v)
			}
		}
	}
}

// pageExchanges are the answers WriteWARC archives for p, in order: those
// received before it that belong to no captured page (Page.Others:
// robots.txt, renderings that joined a page captured before, or whose
// document was an error), its rendering's, then those of its auxiliary
// files webcap fetched itself, each redirect included.
func pageExchanges(p *Page) []*Response {
	out := make([]*Response, 0, len(p.Others)+len(p.Responses)+len(p.Aux))
	out = append(out, p.Others...)
	out = append(out, p.Responses...)
	return append(out, p.Aux...)
}
