package warc_test

import (
	"slices"
	"testing"
	"time"

	"github.com/webcap/webcap/warc"
)

// TestSourceChainsAndDates: the redirect chains that end at a URL and the
// time its content was archived, as build --warc records them.
func TestSourceChainsAndDates(t *testing.T) {
	s, err := warc.Load("testdata/small.warc", nil)
	if err != nil {
		t.Fatal(err)
	}
	chains := s.ChainsTo("http://www.example.com/")
	if len(chains) != 1 || !slices.Equal(chains[0], []string{"http://example.com/"}) {
		t.Errorf("ChainsTo(http://www.example.com/) = %q, want [[http://example.com/]]", chains)
	}
	if got := s.ChainsTo("http://www.example.com/logo.gif"); got != nil {
		t.Errorf("ChainsTo(logo.gif) = %q, want none", got)
	}
	want := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, u := range []string{"http://www.example.com/", "http://www.example.com/logo2.gif"} {
		if got, ok := s.Captured(u); !ok || !got.Equal(want) {
			t.Errorf("Captured(%s) = %v, %v; want %v", u, got, ok, want)
		}
	}
	if _, ok := s.Captured("http://example.com/"); ok {
		t.Errorf("Captured of a redirect: ok, want none")
	}
}
