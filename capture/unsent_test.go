package capture

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
)

// TestRefreshUnsent: a page whose script POSTs /api/subscribe on load.
// The capture sends it once, as a visitor's browser would; refresh sends
// it only with Resubmit, and otherwise names it (Unsent) and answers it in
// the browser (empty, 204), so the page still renders and compares
// unchanged; a dry run never sends it. A page that posts 150 times before
// its load event (synchronous XHRs: none is left for after the printing)
// is named 100 times, the rest counted. A page whose script submits a
// form by POST is captured as the form's answer; refresh leaves it
// unchecked unless Resubmit, as it does a form command.
func TestRefreshUnsent(t *testing.T) {
	b := newBrowser(t)
	var mu sync.Mutex
	posts := map[string]int{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			mu.Lock()
			posts[r.Method+" "+r.URL.Path]++
			mu.Unlock()
			if r.URL.Path == "/api/track" {
				w.Header().Set("Content-Type", "text/html; charset=utf-8")
				fmt.Fprint(w, `<!doctype html><title>Tracked</title><p>Thanks`)
				return
			}
			w.Write([]byte("ok"))
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		switch r.URL.Path {
		case "/form", "/api/track":
			fmt.Fprint(w, `<!doctype html><title>Form</title><form id=f method=post action="/api/track"><input name=a value=1></form><script>document.getElementById("f").submit()</script>`)
		case "/":
			fmt.Fprint(w, `<!doctype html><title>Sub</title><p id=s>Subscribing</p><a href="/many">many</a> <a href="/form">form</a><script>
fetch("/api/subscribe", {method: "POST", body: "email=a@example.com"}).then(r => { document.getElementById("s").textContent = "Subscribed" })
</script>`)
		case "/many":
			fmt.Fprint(w, `<!doctype html><title>Many</title><p>Beacons</p><script>for (let i = 0; i < 150; i++) { const x = new XMLHttpRequest(); x.open("POST", "/api/beacon?n=" + i, false); x.send("x") }</script>`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	took := func() map[string]int {
		mu.Lock()
		defer mu.Unlock()
		out := posts
		posts = map[string]int{}
		return out
	}
	ctx := context.Background()
	res, err := Capture(ctx, b, []string{srv.URL + "/"}, testOptions(Options{Levels: 2, IgnoreRobots: true}))
	if err != nil {
		t.Fatal(err)
	}
	if got := took(); got["POST /api/subscribe"] != 1 || got["POST /api/beacon"] != 150 || got["POST /api/track"] != 1 {
		t.Errorf("capture sent %v, want the page's POST once, the 150 beacons, and the form its script submits once", got)
	}
	tests := []struct {
		name             string
		dryRun, resubmit bool
		sent             int // POSTs of /api/subscribe (and of /api/track) that reach the server
	}{
		{"refresh", false, false, 0},
		{"dry run", true, false, 0},
		{"dry run with resubmit", true, true, 0},
		{"refresh with resubmit", false, true, 1},
	}
	for _, tt := range tests {
		r, err := Refresh(ctx, b, res.PDF, "capture.pdf", RefreshOptions{Options: testOptions(Options{IgnoreRobots: true, Allow: Loopback}),
			DryRun: tt.dryRun, Resubmit: tt.resubmit})
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		got := took()
		if got["POST /api/subscribe"] != tt.sent || got["POST /api/track"] != tt.sent {
			t.Errorf("%s: the server got %v, want %d POST of /api/subscribe", tt.name, got, tt.sent)
		}
		// The page whose script submits a form is the form's answer,
		// unchecked when the form is not resubmitted, as a form command.
		if n := r.Count(); n[StatusUnchanged] != 2+tt.sent || n[StatusUnchecked] != 1-tt.sent {
			t.Errorf("%s: %v, want / and /many unchanged, /api/track unchecked unless resubmitted", tt.name, r.Changes)
		}
		if tt.sent == 1 {
			if len(r.Unsent) != 0 || r.UnsentMore != 0 {
				t.Errorf("%s: unsent %v (+%d), want none", tt.name, r.Unsent, r.UnsentMore)
			}
			continue
		}
		if len(got) != 0 {
			t.Errorf("%s: the server got %v, want no request but GET and HEAD", tt.name, got)
		}
		want := Unsent{Page: srv.URL + "/", Method: http.MethodPost, URL: srv.URL + "/api/subscribe"}
		if len(r.Unsent) != maxUnsent || r.Unsent[0] != want || r.Unsent[0].Page != want.Page || len(r.Unsent)+r.UnsentMore < 151 {
			first := Unsent{}
			if len(r.Unsent) > 0 {
				first = r.Unsent[0]
			}
			t.Errorf("%s: %d unsent (+%d), the first %+v; want %d (+%d), the first %+v", tt.name, len(r.Unsent), r.UnsentMore, first, maxUnsent, 151-maxUnsent, want)
		}
	}
}
