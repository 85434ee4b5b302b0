//go:build unix

package hostile

import "fmt"

// A revisit record may hold only the HTTP header of the response it
// repeats (wget --warc-dedup writes them so), a header that says how the
// original's body came: Transfer-Encoding: chunked. Such a revisit is read
// without a body to decode and stands for its original (issue 28). Before,
// its missing chunks were "chunked body: unexpected EOF", the revisit was
// dropped, and the URL it archived had no response.

// chunkedRevisitWARC is an uncompressed WARC of a chunked response for
// http://a.example/one and a header-only revisit of it for /two.
func chunkedRevisitWARC() string {
	const head = "HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n"
	const body = "<html><body>twice</body></html>"
	rec := func(typ, uri, id, block, extra string) string {
		return "WARC/1.1\r\nWARC-Type: " + typ + "\r\nWARC-Record-ID: <urn:uuid:" + id + ">\r\nWARC-Target-URI: " + uri +
			"\r\nWARC-Date: 2026-11-28T12:00:00Z\r\nContent-Type: application/http; msgtype=response\r\n" + extra +
			fmt.Sprintf("Content-Length: %d\r\n\r\n", len(block)) + block + "\r\n\r\n"
	}
	const orig = "00000000-0000-4000-8000-000000000001"
	return rec("response", "http://a.example/one", orig, head+fmt.Sprintf("%x\r\n%s\r\n0\r\n\r\n", len(body), body), "") +
		rec("revisit", "http://a.example/two", "00000000-0000-4000-8000-000000000002", head,
			"WARC-Profile: http://netpreserve.org/warc/1.1/revisit/identical-payload-digest\r\nWARC-Refers-To: <urn:uuid:"+orig+">\r\n")
}

func init() {
	Register(Case{Name: "warc-revisit-chunked-header-only", Part: Inputs,
		Setup:     inputSetup(map[string]string{"r.warc": chunkedRevisitWARC()}, "id", "--warc", "r.warc", "http://a.example/two"),
		Exit:      0,
		Stdout:    []string{`^A8898327071B39CF211C105396221465  http://a\.example/two  sha256:\S+  <urn:uuid:00000000-0000-4000-8000-000000000001>`},
		NotStderr: []string{`chunked`, `no 200 response`},
		MaxCPU:    cpuQuick, MaxRSS: rssQuick,
		Before: `exit 1: "r.warc: revisit record http://a.example/two: HTTP response: chunked body: unexpected EOF", ` +
			`then "no 200 response for http://a.example/two in r.warc"`})
}
