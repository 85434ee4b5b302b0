package capture

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// Pages are rendered ahead of the first one not handled, as tabs come
// free, and handled as if taken one at a time: /a answers only once /d
// has been asked for (with Jobs 3 the tabs go on past it), and /r, taken
// ahead, redirects to /c, which a crawl one page at a time never renders
// (the redirect took it out of the queue). Both crawls capture the same
// pages, with the same chains and skips, and the same answers.
func TestCaptureAhead(t *testing.T) {
	b := newBrowser(t)
	var mu sync.Mutex
	var asked []string
	gate, dClosed := false, false
	dAsked := make(chan struct{})
	mux := http.NewServeMux()
	page := func(title, body string) http.HandlerFunc {
		return func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			asked = append(asked, r.URL.Path)
			if r.URL.Path == "/d" && gate && !dClosed {
				close(dAsked)
				dClosed = true
			}
			// /a is answered once /d has been asked for, at once if
			// it was already (the tabs need not ask in the queue's
			// order: one may still be emptied of its page).
			wait := gate && r.URL.Path == "/a"
			mu.Unlock()
			if wait {
				select {
				case <-dAsked:
				case <-time.After(60 * time.Second): // the test then fails: /d was not asked for
				}
				mu.Lock()
				asked = append(asked, "/a answered")
				mu.Unlock()
			}
			w.Header().Set("Content-Type", "text/html")
			fmt.Fprintf(w, "<title>%s</title>%s", title, body)
		}
	}
	mux.HandleFunc("/{$}", page("Home", `<a href="/a">a</a> <a href="/r">r</a> <a href="/b">b</a> <a href="/c">c</a> <a href="/d">d</a> <a href="/e">e</a>`))
	for _, p := range []string{"a", "b", "c", "d", "e"} {
		mux.HandleFunc("/"+p, page(strings.ToUpper(p), ""))
	}
	mux.HandleFunc("/r", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		asked = append(asked, r.URL.Path)
		mu.Unlock()
		http.Redirect(w, r, "/c", http.StatusFound)
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	type summary struct {
		pages   []string
		answers map[string]int
		skips   []string
	}
	run := func(jobs int) summary {
		res, err := Capture(context.Background(), b, []string{srv.URL + "/"}, testOptions(Options{Levels: 2, IgnoreRobots: true, Jobs: jobs}))
		if err != nil {
			t.Fatal(err)
		}
		s := summary{answers: map[string]int{}}
		for _, p := range res.Pages {
			s.pages = append(s.pages, fmt.Sprintf("%s %q %v", strings.TrimPrefix(p.URL, srv.URL), p.Title, p.Chains))
			for _, r := range append(slices.Clone(p.Responses), p.Others...) {
				s.answers[strings.TrimPrefix(r.URL, srv.URL)]++
			}
		}
		for _, sk := range res.Skips {
			s.skips = append(s.skips, sk.URL+" "+string(sk.Kind))
		}
		return s
	}
	one := run(1)
	mu.Lock()
	gate, asked = true, nil
	mu.Unlock()
	three := run(3)
	mu.Lock()
	order := slices.Clone(asked)
	mu.Unlock()
	if i, j := slices.Index(order, "/d"), slices.Index(order, "/a answered"); i < 0 || j < 0 || i > j {
		t.Errorf("Jobs 3: requests %q: /a answered before /d was asked for (the tabs waited for /a)", order)
	}
	if !slices.Equal(one.pages, three.pages) || !slices.Equal(one.skips, three.skips) || fmt.Sprint(one.answers) != fmt.Sprint(three.answers) {
		t.Errorf("Jobs 1 and Jobs 3 differ:\n pages %q\n       %q\n skips %q\n       %q\n answers %v\n         %v", one.pages, three.pages, one.skips, three.skips, one.answers, three.answers)
	}
	if want := 6; len(one.pages) != want { // home, a, r→c, b, d, e
		t.Errorf("%d pages, want %d: %q", len(one.pages), want, one.pages)
	}
}
