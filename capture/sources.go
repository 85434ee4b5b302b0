package capture

import (
	"io"
	"strings"

	"github.com/webcap/webcap/webcapture"
)

// fetched holds the whole (200) bodies a crawl fetched, for identifiers,
// by canonical URL without user information: credentials let a request
// through, they do not make another resource, so a page fetched as
// http://user:pw@host/ finds its image /logo.gif whether its identifier is
// computed with its URL as fetched or as written into the PDF (without
// them, unless KeepCredentials).
type fetched map[string][]byte

// Open implements webcapture.AuxSource.
func (f fetched) Open(u string) (io.ReadCloser, error) {
	return webcapture.MapSource(f).Open(withoutUserinfo(u))
}

func (f fetched) put(u string, body []byte) { f[withoutUserinfo(u)] = body }

// withoutUserinfo removes the user information from a URL's authority
// ("http://user:pw@host/x" becomes "http://host/x"), leaving every other
// byte as it is (a canonical URL stays canonical).
func withoutUserinfo(u string) string {
	i := strings.Index(u, "://")
	if i < 0 {
		return u
	}
	auth := u[i+3:]
	if end := strings.IndexAny(auth, "/?#"); end >= 0 {
		auth = auth[:end]
	}
	at := strings.LastIndexByte(auth, '@')
	if at < 0 {
		return u
	}
	return u[:i+3] + u[i+3+at+1:]
}
