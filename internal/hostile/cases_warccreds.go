package hostile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
)

// A WARC written beside a capture is shared as the PDF is: it holds no
// credential the browser sent or was given. Before, the request records
// kept the Cookie header the page's session cookie was sent in, and the
// response records the Set-Cookie that set it.

// sessionSecret is the value of the session cookie sessionSite sets.
const sessionSecret = "S3SSION-5ecret-value"

// sessionSite sets an HttpOnly session cookie on its first page, which
// links to a second page that says whether it was asked for with it
// ("Signed in: yes"). Pages are rendered apart unless --session: only
// with it does the browser send the cookie, so the case asks for it.
var sessionSite = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	switch r.URL.Path {
	case "/":
		http.SetCookie(w, &http.Cookie{Name: "sid", Value: sessionSecret, Path: "/", HttpOnly: true})
		io.WriteString(w, `<!doctype html><title>One</title><a href="/two">two</a>`)
	case "/two":
		in := "no"
		if c, err := r.Cookie("sid"); err == nil && c.Value == sessionSecret {
			in = "yes"
		}
		io.WriteString(w, `<!doctype html><title>Two</title><p>Signed in: `+in+`</p>`)
	default:
		http.NotFound(w, r)
	}
})

// noSecretIn says that the file name in dir holds no byte of the
// session cookie's value.
func noSecretIn(name string) func(dir string) error {
	return func(dir string) error {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if i := bytes.Index(b, []byte(sessionSecret)); i >= 0 {
			return fmt.Errorf("%s holds the session cookie's value %d times (first at byte %d)", name, bytes.Count(b, []byte(sessionSecret)), i)
		}
		return nil
	}
}

func init() {
	Register(Case{
		Name:    "warc-session-cookie",
		Part:    Outputs,
		Browser: true,
		Setup:   serve(sessionSite, "capture", "--session", "--levels", "2", "--jobs", "1", "--ignore-robots", "--warc", "out.warc", "-o", "out.pdf", "{url}/"),
		Exit:    0,
		// Page two was asked for with the cookie (its answer, in the
		// WARC, says so), and neither that Cookie nor page one's
		// Set-Cookie is in the WARC.
		Check: All(noSecretIn("out.warc"), func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, "out.warc"))
			if err == nil && !bytes.Contains(b, []byte("Signed in: yes")) {
				err = errors.New("out.warc: page two was not asked for with the session cookie (its answer is not \"Signed in: yes\")")
			}
			return err
		}),
		Before: "exit 0, 1.25 s CPU, 220 MB (tree 298 MB): out.warc holds the session cookie's value 2 times (page one's Set-Cookie, page two's Cookie)",
	})
}
