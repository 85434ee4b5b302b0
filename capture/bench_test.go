package capture

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// BenchmarkCapture50 captures a 50-page local site (an index linking 49
// pages, each with the shared logo) and reports pages per second and how
// the time splits between the browser and webcap's own work.
func BenchmarkCapture50(b *testing.B) {
	br := newBrowser(b)
	mux := http.NewServeMux()
	mux.HandleFunc("/logo.gif", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "image/gif")
		w.Write(gif)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		var s strings.Builder
		fmt.Fprintf(&s, "<title>%s</title><img src=/logo.gif><p>%s</p>", r.URL.Path, strings.Repeat("Some text of the page. ", 200))
		if r.URL.Path == "/" {
			for i := 1; i < 50; i++ {
				fmt.Fprintf(&s, `<a href="/p%02d.html">%d</a> `, i, i)
			}
		}
		w.Write([]byte(s.String()))
	})
	srv := httptest.NewServer(mux)
	defer srv.Close()
	var res *Result
	for b.Loop() {
		var err error
		res, err = Capture(context.Background(), br, []string{srv.URL + "/"}, Options{Levels: 2, MaxPages: 50, IgnoreRobots: true})
		if err != nil {
			b.Fatal(err)
		}
		if len(res.Pages) != 50 {
			b.Fatalf("%d pages", len(res.Pages))
		}
	}
	total := res.Render + res.Merge + res.Structures
	b.ReportMetric(50/total.Seconds(), "pages/s")
	b.ReportMetric(100*res.Render.Seconds()/total.Seconds(), "%render")
	b.ReportMetric(100*(res.Merge+res.Structures).Seconds()/total.Seconds(), "%ours")
}
