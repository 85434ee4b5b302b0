//go:build unix

package hostile

import (
	"bytes"
	"path/filepath"
	"time"

	"github.com/webcap/webcap/warc"
)

// Issue 28, item 1's rest: audit --sources follows a WARC's redirect
// chains, and a capture's WARC records the TLS facts of each HTTPS origin,
// bounded whatever certificate chain the server presents.

// movedLogo writes a WARC in which the capture sample's logo URL
// (http://www.example.com/logo.gif) was answered with a 301 to
// /img/logo.gif, answered 200 with 13 bytes (MD5 c9eef186...).
func movedLogo(path string) error {
	var b bytes.Buffer
	w := warc.NewWriter(&b, true)
	at := time.Date(2026, 11, 28, 12, 0, 0, 0, time.UTC)
	for _, r := range []*warc.Record{
		warc.NewResponse("http://www.example.com/logo.gif", at, []byte("HTTP/1.1 301 Moved Permanently\r\nLocation: /img/logo.gif\r\nContent-Length: 0\r\n\r\n")),
		warc.NewResponse("http://www.example.com/img/logo.gif", at, []byte("HTTP/1.1 200 OK\r\nContent-Type: image/gif\r\nContent-Length: 13\r\n\r\nGIF89a a logo")),
	} {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	return Write(filepath.Dir(path), filepath.Base(path), b.Bytes())
}

func init() {
	Register(Case{Name: "audit-sources-warc-redirect", Part: Loss,
		Setup: warcSetup(map[string]func(string) error{"r.warc.gz": movedLogo}, nil, "audit", "--sources", "r.warc.gz", "cap.pdf"),
		Exit:  0,
		// The image set's bytes are found at the chain's end: its (made
		// up) /ID differs from their MD5, which the message gives.
		Stdout:    []string{`^cap\.pdf: warning WC-SOURCE-MISMATCH object 17 0 R /ID: .* http://www\.example\.com/img/logo\.gif now has the identifier <C9EEF1867BB9256F304BDFFE9B48FD32> \(MD5 of its 13 bytes; WARC record <urn:uuid:`},
		NotStdout: []string{`WC-SOURCE-MISSING .*logo\.gif`},
		MaxCPU:    cpuQuick, MaxRSS: rssQuick,
		Before: "exit 0 (0.02 s, 20 MB): WC-SOURCE-MISSING object 17 0 R: none of the set's source URLs (http://www.example.com/logo.gif) is among the sources; the 301 to /img/logo.gif was not followed"})
}
