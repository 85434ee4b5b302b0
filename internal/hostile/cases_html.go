package hostile

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// The HTML report's thumbnails (audit --html): the renderer, poppler's
// pdftoppm, reads the untrusted file in a child process of its own under
// a wall time-out, a CPU limit, an address-space limit and an output cap
// (htmlreport.Renderer), so that a page that takes forever to draw costs
// 10 seconds, a file's pages together 30 and a report's 10 minutes, and
// the report says why a page has no thumbnail. The CPU the cases measure
// includes pdftoppm's: wait4 counts the children webcap waited for.
//
// And what the report shows of a file: a URL's password is not shown (as
// audit's WC-URL-PASSWORD says it), a bidirectional override or a control
// character is shown escaped (as the command line shows it), and a string
// is cut after 2,000 characters. No other output shows a URL's password
// either: audit's messages in every format, its --sets records, and info
// (audit.WithoutPassword). refresh's change report shows the strings of
// pages and of the file as the audit report does (htmlsafe.Text, Link).

// refreshSite serves one page whose title holds U+202E and U+0001, and
// writes in.pdf, a capture of it whose page set's title is 1 MiB of "<"
// and whose source URL carries userinfo (when userinfo is not "").
func refreshSite(userinfo string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html; charset=utf-8")
			fmt.Fprint(w, "<!doctype html><title>Evil \u202eexe.txt\x01 red</title><p>Now \u202ereversed text</p>")
		}))
		u := strings.Replace(srv.URL, "http://", "http://"+userinfo, 1) + "/"
		if err := Write(dir, "in.pdf", pdfbuild.CredentialsAt(u, strings.Repeat("<", 1<<20))); err != nil {
			srv.Close()
			return nil, nil, err
		}
		return []string{"refresh", "--allow-private", "--page-timeout", "5s", "--dry-run", "--report", "r.html", "in.pdf"}, srv.Close, nil
	}
}

// reportShows is a Check that dir's r.html is under 100 KiB, holds none
// of bad as it is, and shows each of want.
func reportShows(bad, want []string) func(dir string) error {
	return func(dir string) error {
		b, err := os.ReadFile(filepath.Join(dir, "r.html"))
		switch {
		case err != nil:
			return err
		case len(b) > 100<<10:
			return fmt.Errorf("the report is %d bytes, more than 100 KiB", len(b))
		}
		for _, s := range bad {
			if bytes.Contains(b, []byte(s)) {
				return fmt.Errorf("the report holds %q as it is", s)
			}
		}
		for _, s := range want {
			if !bytes.Contains(b, []byte(s)) {
				return fmt.Errorf("the report does not show %q", s)
			}
		}
		return nil
	}
}

func init() {
	const cut = "… (cut: 1,048,576 characters, the first 2,000 shown)"
	Register(Case{
		Name:    "refresh-report-page-strings",
		Part:    Bounds,
		Browser: true,
		Setup:   refreshSite(""),
		Exit:    1, // a page changed
		Stdout:  []string{`^changed +http://127\.0\.0\.1:\d+/$`},
		Check:   reportShows([]string{"\u202e", "\x01"}, []string{cut, `\u202e`}),
		Before:  "a 4,196,990-byte report: the old title's 1,048,576 characters in full (each &lt;), the new title's U+202E as it is (/work/webcap-old refresh --allow-private --dry-run --report r.html in.pdf; 1.4 s, 224 MB)",
	}, Case{
		Name:      "refresh-url-password",
		Part:      Outputs,
		Browser:   true,
		Setup:     refreshSite("alice:s3cret-source@"),
		Exit:      1, // a page changed
		Stdout:    []string{`^command 1: GET http://alice@127\.0\.0\.1:\d+/ `},
		NotStdout: []string{`s3cret`},
		NotStderr: []string{`s3cret`},
		Check:     reportShows([]string{"s3cret"}, []string{cut, `>http://alice@127.0.0.1:`}),
		Before:    "the password in refresh's command and page lines and in the report's link (text and href), a 4,196,638-byte report (/work/webcap-old refresh --allow-private --page-timeout 5s --dry-run --report r.html in.pdf; 5.7 s, 226 MB, the page unreachable in that run); its progress line (\"1 done, ... fetched: URL\") showed it too",
	})

	// The Credentials file's source URL and URLS key carry
	// alice:s3cret-source@, its URL alias chain bob:s3cret-chain@ (with a
	// raw U+202E: WC-URL-NONASCII quotes it).
	for _, c := range []struct{ name, before string }{
		{"audit", "2 passwords: WC-URL-NONASCII quoted bob:s3cret-chain@ twice (the URL and its percent-encoded form)"},
		{"audit --jsonl --sets", "4 passwords: the --sets record's source and chain URLs, and WC-URL-NONASCII's"},
		{"audit --format sarif", "2 passwords, WC-URL-NONASCII's"},
		{"info", "3 passwords: the URLS key, the source URL and its chain"},
		{"info --json", "4 passwords: the URLS tree's key, the set's URLS key, source URL and chain"},
	} {
		args := append(strings.Fields(c.name), "cred.pdf")
		Register(Case{
			Name: "url-passwords-" + strings.Join(strings.FieldsFunc(c.name, func(r rune) bool { return r == ' ' || r == '-' }), "-"),
			Part: Outputs,
			Setup: func(dir string) ([]string, func(), error) {
				return args, nil, Write(dir, "cred.pdf", pdfbuild.Credentials("t"))
			},
			Exit:      0,
			Stdout:    []string{`alice@www\.example\.com`},
			NotStdout: []string{`s3cret`},
			NotStderr: []string{`s3cret`},
			Before:    c.before + " (/work/webcap-old " + c.name + " cred.pdf)",
		})
	}

	Register(Case{
		Name: "html-thumbnail-render-bomb",
		Part: Bounds,
		Setup: func(dir string) ([]string, func(), error) {
			if _, err := exec.LookPath("pdftoppm"); err != nil {
				return nil, nil, errors.New("pdftoppm (Debian's poppler-utils) is not on PATH: this case needs it")
			}
			// A 131,072 x 131,072 gray image (16 GiB once inflated) drawn
			// on the page set's page.
			if err := Write(dir, "bomb.pdf", pdfbuild.RenderBomb(1<<17)); err != nil {
				return nil, nil, err
			}
			return []string{"audit", "--in-process", "--html", "r.html", "bomb.pdf"}, nil, nil
		},
		Exit:   0,
		Stderr: []string{`--html: wrote r\.html: .*0 thumbnails`, `1 thumbnail could not be drawn`},
		Check: func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, "r.html"))
			if err != nil {
				return err
			}
			if !bytes.Contains(b, []byte("not drawn: pdftoppm")) {
				return errors.New("the report does not say why the page has no thumbnail")
			}
			return nil
		},
		MaxCPU: 30 * time.Second, MaxRSS: 256 << 20,
		Slow:   true,
		Before: "pdftoppm unbounded drew a 65,536-pixel square in 23 s (10 MB), and its time grows with the area: four times that here",
	}, Case{
		// 20 page sets, each a page that draws a 100,000-pixel square
		// Flate bomb (one 9.9 MB file), then a file whose page draws at
		// once: the bomb's thumbnails stop at the file's 30 s, and the
		// file after it still gets its thumbnail.
		Name: "html-thumbnail-budget",
		Part: Bounds,
		Setup: func(dir string) ([]string, func(), error) {
			if _, err := exec.LookPath("pdftoppm"); err != nil {
				return nil, nil, errors.New("pdftoppm (Debian's poppler-utils) is not on PATH: this case needs it")
			}
			if err := Write(dir, "bombs.pdf", pdfbuild.RenderBombs(100000, 20)); err != nil {
				return nil, nil, err
			}
			if err := Write(dir, "ok.pdf", pdfbuild.Credentials("a page that draws at once")); err != nil {
				return nil, nil, err
			}
			start := strconv.FormatInt(time.Now().UnixNano(), 10)
			if err := Write(dir, "start", []byte(start)); err != nil {
				return nil, nil, err
			}
			return []string{"audit", "--in-process", "--jobs", "2", "--html", "r.html", "bombs.pdf", "ok.pdf"}, nil, nil
		},
		Exit: 0,
		Stderr: []string{`--html: wrote r\.html: .*, 1 thumbnail, in`,
			`--html: \d+ thumbnails not drawn: the time for a file's thumbnails or the report's ran out`},
		Check: func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, "r.html"))
			if err != nil {
				return err
			}
			switch {
			case !bytes.Contains(b, []byte("No more thumbnails were drawn: this file&#39;s thumbnails took their 30 s.")):
				return errors.New("the report does not say that the bomb file's thumbnails took their time")
			case bytes.Count(b, []byte(`src="data:image/png;base64,`)) != 1:
				return errors.New("the file after the bomb file has no thumbnail")
			}
			start, err := os.ReadFile(filepath.Join(dir, "start"))
			if err != nil {
				return err
			}
			ns, _ := strconv.ParseInt(string(start), 10, 64)
			if took := time.Since(time.Unix(0, ns)); took > time.Minute {
				return fmt.Errorf("the report took %v to write, more than a minute", took.Round(time.Second))
			}
			return nil
		},
		MaxCPU: 45 * time.Second, MaxRSS: 256 << 20,
		Slow:   true,
		Before: "3 min 20 s (177 s of CPU, pdftoppm's: 20 drawings of 20 s) before the report of the one bomb file was written (/work/webcap-old audit --in-process --html r.html bombs.pdf)",
	}, Case{
		// URLs with user:password@ (the source's and in a URL alias
		// chain), a title with U+202E, U+0001 and ESC.
		Name: "html-password-bidi-controls",
		Part: Outputs,
		Setup: func(dir string) ([]string, func(), error) {
			if err := Write(dir, "cred.pdf", pdfbuild.Credentials("Evil \u202eexe.txt\x01\x1b[31m red")); err != nil {
				return nil, nil, err
			}
			return []string{"audit", "--in-process", "--thumbnails", "none", "--html", "r.html", "cred.pdf"}, nil, nil
		},
		Exit:   0,
		Stderr: []string{`--html: wrote r\.html`},
		Check: func(dir string) error {
			b, err := os.ReadFile(filepath.Join(dir, "r.html"))
			if err != nil {
				return err
			}
			for _, bad := range []string{"alice:s3cret-source@", "\u202e", "\x01", "\x1b"} {
				if bytes.Contains(b, []byte(bad)) {
					return fmt.Errorf("the report holds %q as it is", bad)
				}
			}
			for _, want := range []string{"http://alice@www.example.com/ (password not shown)", `Evil \u202eexe.txt\x01\x1b[31m red`} {
				if !bytes.Contains(b, []byte(want)) {
					return fmt.Errorf("the report does not show %q", want)
				}
			}
			return nil
		},
		Before: "the report showed http://alice:s3cret-source@www.example.com/ and bob:s3cret-chain@ in the URL alias chain, and wrote U+202E, U+0001 and ESC as they are (/work/webcap-old audit --html r.html cred.pdf)",
	}, Case{
		// A page set's title of 10,485,760 characters.
		Name: "html-title-10mb",
		Part: Bounds,
		Setup: func(dir string) ([]string, func(), error) {
			if err := Write(dir, "title.pdf", pdfbuild.Credentials(strings.Repeat("<", 10<<20))); err != nil {
				return nil, nil, err
			}
			return []string{"audit", "--in-process", "--thumbnails", "none", "--html", "r.html", "title.pdf"}, nil, nil
		},
		Exit:   0,
		Stderr: []string{`--html: wrote r\.html`},
		Check: func(dir string) error {
			fi, err := os.Stat(filepath.Join(dir, "r.html"))
			switch {
			case err != nil:
				return err
			case fi.Size() > 1<<20:
				return fmt.Errorf("the report is %d bytes, more than 1 MiB", fi.Size())
			}
			b, err := os.ReadFile(filepath.Join(dir, "r.html"))
			if err != nil {
				return err
			}
			if !bytes.Contains(b, []byte("… (cut: 10,485,760 characters, the first 2,000 shown)")) {
				return errors.New("the report does not say the title was cut")
			}
			return nil
		},
		MaxRSS: 512 << 20,
		Before: "a 40 MiB report (the title's 10,485,760 characters, each &lt;, in full), 225 MB (/work/webcap-old audit --in-process --thumbnails none --html r.html title.pdf)",
	})
}
