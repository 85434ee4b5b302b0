package capture

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestRenderStill renders pages with the default quiet time, and checks
// which settle as still pages (stillJS: nothing in them can start a
// request once loaded, so they wait stillQuiet, not IdleQuiet), and that
// a still page still has what its layout fetches after its load: its
// lazy image far below the fold, made eager, and its web font.
func TestRenderStill(t *testing.T) {
	const img = `<img src="/a.gif" width="40" height="30" alt="a">`
	b := newBrowser(t)
	for _, tc := range []struct {
		name, page, frame string
		still             bool
	}{
		{"text, an image, a style sheet", `<link rel="stylesheet" href="/s.css"><h1>Title</h1><p>Text ` + img + `</p>`, "", true},
		{"a lazy image far below", `<div style="height: 6000px">Scroll down.</div><img loading="lazy" src="/late.gif" width="40" height="30" alt="late">`, "", true},
		{"a web font", `<style>@font-face { font-family: W; src: url(/w.woff2); } p { font-family: W, serif; }</style><p>Text</p>`, "", true},
		{"a still frame", `<iframe src="/frame" width="300" height="200"></iframe>`, `<p>Framed ` + img + `</p>`, true},
		{"a script", `<p>Text</p><script>document.title = "x";</script>`, "", false},
		{"an SVG script", `<svg><script>void 0;</script></svg>`, "", false},
		{"a handler attribute", `<body onload="void 0"><p>Text</p></body>`, "", false},
		{"an image's handler", `<img src="/a.gif" onerror="void 0">`, "", false},
		{"a refresh", `<meta http-equiv="Refresh" content="3; url=/other"><p>Text</p>`, "", false},
		{"a video", `<video src="/v.webm" preload="auto"></video>`, "", false},
		{"an object", `<object data="/a.gif" type="image/gif"></object>`, "", false},
		{"a prefetch hint", `<link rel="prefetch" href="/next.html"><p>Text</p>`, "", false},
		{"an icon", `<link rel="icon" href="/a.gif"><p>Text</p>`, "", false},
		{"a CSS animation", `<style>@keyframes k { to { opacity: 0.5; } } p { animation: k 10s infinite; }</style><p>Text</p>`, "", false},
		{"an SVG animation", `<svg width="10" height="10"><rect width="10" height="10"><animate attributeName="width" from="10" to="5" dur="10s" repeatCount="indefinite"/></rect></svg>`, "", false},
		{"a frame with a script", `<iframe src="/frame" width="300" height="200"></iframe>`, `<script>void 0;</script>`, false},
		{"a lazy frame far below", `<div style="height: 6000px">Scroll down.</div><iframe loading="lazy" src="/frame" width="300" height="200"></iframe>`, `<script>void 0;</script>`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				switch r.URL.Path {
				case "/":
					w.Header().Set("Content-Type", "text/html")
					w.Write([]byte(`<!doctype html><title>Still</title>` + tc.page))
				case "/frame":
					w.Header().Set("Content-Type", "text/html")
					w.Write([]byte(`<!doctype html>` + tc.frame))
				case "/s.css":
					w.Header().Set("Content-Type", "text/css")
					w.Write([]byte(`h1 { color: navy; }`))
				case "/a.gif", "/late.gif":
					w.Header().Set("Content-Type", "image/gif")
					w.Write(gif)
				default:
					http.NotFound(w, r)
				}
			}))
			defer srv.Close()
			ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
			defer cancel()
			p, err := b.Render(ctx, srv.URL+"/", RenderOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if p.still != tc.still {
				t.Errorf("still = %v, want %v", p.still, tc.still)
			}
			want := map[string]bool{}
			switch tc.name {
			case "a lazy image far below":
				want["/late.gif"] = true
			case "a web font":
				want["/w.woff2"] = true
			case "text, an image, a style sheet":
				want["/a.gif"], want["/s.css"] = true, true
			}
			for _, r := range p.Responses {
				delete(want, r.URL[len(srv.URL):])
			}
			if len(want) > 0 {
				t.Errorf("not fetched: %v", want)
			}
		})
	}
}
