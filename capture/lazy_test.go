package capture

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// TestRenderLazy renders pages that load an image far below the fold
// only when it comes into view: natively (loading="lazy", made eager; the
// page is not scrolled), or by a script (the page is scrolled through,
// since something in it reacts to scrolling: an observer, a listener, a
// script that polls by a chain of timeouts or of animation frames). The
// image is there.
func TestRenderLazy(t *testing.T) {
	const tall = `<div style="height: 6000px">Scroll down.</div><img id="late" data-src="/late.gif" width="40" height="30" alt="late">`
	const load = `const img = document.getElementById("late"); if (img.dataset.src && img.getBoundingClientRect().top < innerHeight) { img.src = img.dataset.src; delete img.dataset.src; }`
	const io = `<script>new IntersectionObserver((es, o) => { for (const e of es) if (e.isIntersecting) { e.target.src = e.target.dataset.src; o.disconnect(); } }).observe(document.getElementById("late"));</script>`
	b := newBrowser(t)
	for _, tc := range []struct{ name, page, frame string }{
		{"native, no script", `<div style="height: 6000px">Scroll down.</div><img loading="lazy" src="/late.gif" width="40" height="30" alt="late">`, ""},
		{"IntersectionObserver", tall + io, ""},
		{"scroll listener", tall + `<script>addEventListener("scroll", () => { ` + load + ` });</script>`, ""},
		{"onscroll property", tall + `<script>window.onscroll = () => { ` + load + ` };</script>`, ""},
		{"onscroll attribute", `<body onscroll='` + load + `'>` + tall, ""},
		{"timeout chain", tall + `<script>(function poll() { ` + load + ` setTimeout(poll, 0); })();</script>`, ""},
		{"animation frame loop", tall + `<script>(function poll() { ` + load + ` requestAnimationFrame(poll); })();</script>`, ""},
		{"observer in a frame", `<div style="height: 6000px">Scroll down.</div><iframe src="/frame" width="300" height="200"></iframe>`, tall[strings.Index(tall, "<img"):] + io},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/":
					w.Header().Set("Content-Type", "text/html")
					w.Write([]byte(`<!doctype html><title>Lazy</title>` + tc.page))
				case "/frame":
					w.Header().Set("Content-Type", "text/html")
					w.Write([]byte(`<!doctype html>` + tc.frame))
				case "/late.gif":
					w.Header().Set("Content-Type", "image/gif")
					w.Write(gif)
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			p, err := b.Render(ctx, srv.URL+"/", RenderOptions{IdleQuiet: 50 * time.Millisecond})
			if err != nil {
				t.Fatal(err)
			}
			var urls []string
			for _, r := range p.Responses {
				urls = append(urls, r.URL)
				if r.URL == srv.URL+"/late.gif" && r.Type == "Image" {
					return
				}
			}
			t.Errorf("the lazy image was not loaded; responses %v", urls)
		})
	}
}
