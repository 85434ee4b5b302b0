package hostile

import (
	"crypto/md5"
	"fmt"
	"os/exec"
)

// Issue 30, build's CPU (the sets written, session 37): a content set
// AddContentSet writes is no longer made a dictionary: its keys' values
// are written straight from its key table in the order its dictionary
// was written in, and Result's reader takes the set from its model
// without the dictionary (pdfio's writekeys.go, result_model.go). Sets
// whose values test that: a title with an unbalanced parenthesis and a
// backslash (its bytes do not read back as written by the fast parser:
// the set is read from its bytes), a title outside ASCII, a source
// reached through a redirect chain (a URL alias dictionary), an expiry
// date, a source submitted by POST under a command, and an image set.
// The bytes, the build's audit and info --json are the session-start
// binary's.

// oddSetFiles are a build over strayIDPDF whose sets' values are odd.
func oddSetFiles() map[string]string {
	files := strayIDFiles(`Odd (title\\\\ with ) a backslash`)
	files["m/manifest.json"] = `{"input": "web.pdf",
 "commands": [{"name": "site", "url": "http://www.example.com/", "levels": 2, "submit": true, "post": "q=a&b=(c)"}],
 "pageSets": [
  {"pages": "1", "url": "http://www.example.com/a(1)#x", "redirects": [["http://example.com/a", "https://example.com/a"], ["http://www.example.com/b"]],
   "contentType": "text/html", "captured": "2026-11-21T10:30:00Z", "expires": "2027-01-01T00:00:00+02:00", "source": "index.html",
   "title": "Odd (title\\\\ with ) a backslash", "submission": "post", "command": "site"},
  {"pages": "2", "url": "http://www.example.com/caf%C3%A9", "contentType": "text/html", "captured": "2026-11-21T10:30:01Z", "source": "index.html", "title": "Caf\u00e9 \u2615 <b>"},
  {"pages": "3", "url": "http://www.example.com/notes.txt", "contentType": "text/plain", "captured": "2026-11-21T10:30:02Z", "source": "notes.txt"}],
 "imageSets": [{"url": "http://www.example.com/logo.gif", "captured": "2026-11-21T10:30:01Z", "source": "logo.gif", "images": [{"page": 1, "name": "Im0"}]}]}`
	return files
}

// infoMD5 is a Check that "webcap info --json name" (this test's webcap)
// prints bytes with the MD5 want: the session-start binary's.
func infoMD5(name, want string) func(dir string) error {
	return func(dir string) error {
		c := exec.Command("webcap", "info", "--json", name)
		c.Dir = dir
		out, err := c.Output()
		if err != nil {
			return fmt.Errorf("webcap info --json %s: %v", name, err)
		}
		if got := fmt.Sprintf("%x", md5.Sum(out)); got != want {
			return fmt.Errorf("webcap info --json %s: MD5 %s (%d bytes), want %s, the session-start binary's", name, got, len(out), want)
		}
		return nil
	}
}

func init() {
	Register(
		Case{
			Name: "build-odd-set-values", Part: Inputs,
			Setup: confine(oddSetFiles(), "build", "m/manifest.json", "-o", "out.pdf"),
			Exit:  0,
			Stdout: []string{`^m/web\.pdf: 4 content sets and 1 commands? written to out\.pdf`,
				`^out\.pdf: audits with no error`},
			Check:  All(sameMD5("out.pdf", "eced9e78dfcf23b88d1c04af0dcdb116"), infoMD5("out.pdf", "922ef86539cfe01b738cdc63a087678b")),
			Before: "exit 0, 0.00 s CPU, 22 MB (/usr/bin/time on /work/webcap-old): 4 sets and 1 command, audits with no error; out.pdf of 4,334 bytes, MD5 eced9e78…, info --json MD5 922ef865…: the same",
		},
	)
}
