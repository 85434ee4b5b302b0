package capture

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

// stateSite serves /set, which stores a cookie (by its answer's
// Set-Cookie and by its script), localStorage, sessionStorage and an
// IndexedDB database, and /get, whose title says which of them it finds
// (and whether its request carried the cookie); /set/still stores the
// cookie by its answer alone, a still page (stillJS) that stays shown
// when its tab is emptied; /set/late stores it as the page goes (a
// pagehide handler) and all the time (an interval).
func stateSite() *httptest.Server {
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		switch r.URL.Path {
		case "/set":
			w.Header().Set("Set-Cookie", "srv=1; Path=/")
			fmt.Fprint(w, `<title>set</title><script>document.cookie = "js=1; path=/"; localStorage.setItem("l", "1"); sessionStorage.setItem("s", "1");
const rq = indexedDB.open("db", 1); rq.onupgradeneeded = () => rq.result.createObjectStore("st");</script>`)
		case "/set/still":
			w.Header().Set("Set-Cookie", "srv=1; Path=/")
			fmt.Fprint(w, `<title>set</title><p>Set.</p>`)
		case "/set/late":
			fmt.Fprint(w, `<title>set</title><script>addEventListener("pagehide", () => { document.cookie = "hide=1; path=/"; });
setInterval(() => { document.cookie = "late=1; path=/"; }, 10);</script>`)
		case "/get":
			_, sent := r.Header["Cookie"]
			fmt.Fprintf(w, `<title>get</title><script>
const got = ["sent=%v", "cookie=" + document.cookie, "local=" + localStorage.getItem("l"), "session=" + sessionStorage.getItem("s")];
indexedDB.databases().then(dbs => { got.push("idb=" + dbs.map(d => d.name).join(",")); document.title = got.join(" "); });
</script>`, sent)
		}
	}))
}

// Each page is rendered in a context that holds nothing of the pages
// before it (no cookie, storage or database), whichever tab renders it;
// in the session, what /set stored reaches /get rendered after it.
func TestRenderForgets(t *testing.T) {
	b := newBrowser(t)
	srv := stateSite()
	defer srv.Close()
	for _, tc := range []struct {
		name, set string
		session   bool
		want      string
	}{
		{"apart", "/set", false, "sent=false cookie= local=null session=null idb="},
		{"session", "/set", true, "sent=true cookie=srv=1; js=1 local=1 session=1 idb=db"},
		{"apart, still", "/set/still", false, "sent=false cookie= local=null session=null idb="},
		{"apart, as it goes", "/set/late", false, "sent=false cookie= local=null session=null idb="},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for range 2 { // the second /set and /get reuse the tab
				set, err := b.Render(context.Background(), srv.URL+tc.set, RenderOptions{Session: tc.session})
				if err != nil {
					t.Fatal(err)
				}
				if want := tc.set == "/set/still"; set.still != want {
					t.Errorf("%s: still = %v, want %v", tc.set, set.still, want)
				}
				p, err := b.Render(context.Background(), srv.URL+"/get", RenderOptions{Session: tc.session})
				if err != nil {
					t.Fatal(err)
				}
				if p.Title != tc.want {
					t.Errorf("/get after /set: %q, want %q", p.Title, tc.want)
				}
			}
		})
	}
}

// A session outlives a restart of Chromium by its cookies: /get, rendered
// in the session after the restart, is sent and reads the cookies /set
// left (its storage is gone with the browser).
func TestSessionCookiesOutliveRestart(t *testing.T) {
	b := newBrowser(t)
	srv := stateSite()
	defer srv.Close()
	if _, err := b.Render(context.Background(), srv.URL+"/set", RenderOptions{Session: true}); err != nil {
		t.Fatal(err)
	}
	b.mu.Lock()
	b.rendered = b.opts.RestartEvery
	b.mu.Unlock()
	if err := b.restartIfWorn(); err != nil || b.restarts != 1 {
		t.Fatalf("restart: %v, %d restarts", err, b.restarts)
	}
	p, err := b.Render(context.Background(), srv.URL+"/get", RenderOptions{Session: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := "sent=true cookie=srv=1; js=1 local=null session=null idb="; p.Title != want {
		t.Errorf("/get after /set and a restart: %q, want %q", p.Title, want)
	}
}

// A still page cut off with a request still being answered (its lazy
// image far below, made eager after its load, which the server holds past
// IdleMax) is not left shown while its tab is emptied:
// the image's answer, which sets a cookie, arrives after the emptying and
// must not reach the page rendered next in the tab.
func TestRenderForgetsLateAnswer(t *testing.T) {
	b := newBrowser(t)
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/still":
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprint(w, `<title>still</title><div style="height: 6000px">Scroll down.</div><img loading="lazy" src="/held.gif" width="40" height="30" alt="held">`)
		case "/held.gif":
			<-release
			w.Header().Set("Set-Cookie", "held=1; Path=/")
			w.Header().Set("Content-Type", "image/gif")
			w.Write(gif)
		case "/get":
			_, sent := r.Header["Cookie"]
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, `<title>get</title><script>document.title = "sent=%v cookie=" + document.cookie;</script>`, sent)
		}
	}))
	defer srv.Close()
	defer func() {
		select {
		case <-release:
		default:
			close(release)
		}
	}()
	held := make(chan struct{})
	p, err := b.Render(context.Background(), srv.URL+"/still", RenderOptions{
		IdleMax: 200 * time.Millisecond, // the image is held until released: the page is cut off
		served: func(u string) {
			if strings.HasSuffix(u, "/held.gif") {
				close(held)
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !p.still {
		t.Fatalf("/still did not settle as a still page: the case is not tested")
	}
	b.settled() // the tab has been emptied
	close(release)
	<-held // the image's answer has been given to the browser, or refused
	g, err := b.Render(context.Background(), srv.URL+"/get", RenderOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := "sent=false cookie="; g.Title != want {
		t.Errorf("/get after /still's late answer: %q, want %q", g.Title, want)
	}
	b.settled()
	b.mu.Lock()
	tabs := len(b.idle)
	b.mu.Unlock()
	if tabs != 1 {
		t.Errorf("%d idle tabs, want 1: /get was not rendered in /still's tab", tabs)
	}
}
