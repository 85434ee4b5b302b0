package capture

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// tallPage is a page many screens tall whose scrolling (the lazy content's
// scroll, as it is read) loads another page: %s is the script to run on
// the first scroll.
const tallPage = `<!doctype html><title>Tall</title><div style="height: 50000px">Tall.</div>
<script>addEventListener("scroll", () => { %s }, {once: true});</script>`

// TestRenderNavigatedAway renders pages that load another document as
// they are read: the error says so, in one line, whatever the browser
// said (a destroyed context, a document without a root).
func TestRenderNavigatedAway(t *testing.T) {
	b := newBrowser(t)
	for _, tc := range []struct{ name, script string }{
		{"script", `location = "/two";`},
		{"form", `document.body.insertAdjacentHTML("beforeend", "<form action=/two></form>"); document.forms[0].submit();`},
		{"refused", `location = "/refused";`},
		{"blocked", `location = "/blocked";`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				switch r.URL.Path {
				case "/":
					fmt.Fprintf(w, tallPage, tc.script)
				default:
					io.WriteString(w, `<!doctype html><title>Two</title><p>Two.</p>`)
				}
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			client := &http.Client{Transport: roundTripper(func(r *http.Request) (*http.Response, error) {
				if r.URL.Path == "/refused" {
					return nil, errors.New("refused")
				}
				return http.DefaultTransport.RoundTrip(r)
			})}
			_, err := b.Render(ctx, srv.URL+"/", RenderOptions{Client: client, IdleQuiet: 50 * time.Millisecond, Navigate: func(_ context.Context, u string, _ bool) error {
				if strings.HasSuffix(u, "/blocked") {
					return errors.New("out of scope")
				}
				return nil
			}})
			if tc.name == "blocked" {
				var fe *FetchError
				if !errors.As(err, &fe) || fe.Kind != Blocked || fe.URL != srv.URL+"/blocked" {
					t.Fatalf("Render = %v, want the navigation's FetchError, blocked", err)
				}
				return
			}
			var ie *InterruptedError
			if !errors.As(err, &ie) || ie.Crashed || !strings.HasPrefix(err.Error(), "the page navigated away while being read or printed (to "+srv.URL+"/") {
				t.Fatalf("Render = %v, want an InterruptedError: the page navigated away", err)
			}
		})
	}
}

// TestRenderCrashed crashes the renderer (Page.crash) as a page is
// loaded, then as it is read: the error says so, in one line.
func TestRenderCrashed(t *testing.T) {
	b := newBrowser(t)
	for _, when := range []string{"loading", "reading"} {
		t.Run(when, func(t *testing.T) {
			tb, err := b.newTab(false)
			if err != nil {
				t.Fatal(err)
			}
			b.mu.Lock()
			b.idle = append(b.idle, tb) // the tab Render takes
			b.mu.Unlock()
			crash := func() {
				ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
				defer cancel()
				cdp.Call(ctx, chromedp.FromContext(tb.ctx).Target, page.Crash, cdp.Empty{})
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/":
					w.Header().Set("Content-Type", "text/html")
					if when == "loading" {
						io.WriteString(w, `<!doctype html><title>Crash</title><img src="/crash.gif">`)
					} else {
						fmt.Fprintf(w, tallPage, `fetch("/crash");`)
					}
				default:
					go crash()
					w.Header().Set("Content-Type", "image/gif")
					w.Write(gif)
				}
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			_, err = b.Render(ctx, srv.URL+"/", RenderOptions{Client: srv.Client(), IdleQuiet: 50 * time.Millisecond, IdleMax: 5 * time.Second})
			var ie *InterruptedError
			if !errors.As(err, &ie) || !ie.Crashed || !strings.HasPrefix(err.Error(), "the browser's renderer crashed (") {
				t.Fatalf("Render = %v, want an InterruptedError: the renderer crashed", err)
			}
		})
	}
	// The browser renders on, in a new tab.
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		io.WriteString(w, `<!doctype html><title>After</title><p>After.</p>`)
	}))
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if _, err := b.Render(ctx, srv.URL+"/", RenderOptions{Client: srv.Client()}); err != nil {
		t.Errorf("after the crashes: %v", err)
	}
}
