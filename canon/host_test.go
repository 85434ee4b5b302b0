package canon_test

import (
	"errors"
	"os/exec"
	"strings"
	"testing"

	"github.com/webcap/webcap/canon"
)

// The pdf and pdf2 profiles apply UTS #46 of Unicode 15.0.0, whatever the Go
// toolchain: these rows are where later versions differ, so that tables of
// another version fail here (IdnaTestV2 15.0.0 and internal/idna15's test of
// every code point against IdnaMappingTable 15.0.0 check the rest).
func TestIDNAUnicode15(t *testing.T) {
	for _, p := range canon.Profiles() {
		run(t, mustNew(t, p), []tcase{
			// Unicode 15.1 maps U+1E9E (ẞ) to U+00DF (ß), so that later
			// versions give http://xn--zca.de/.
			{"capital sharp s", "http://ẞ.de/", "http://ss.de/"},
			{"capital sharp s in a word", "http://STRAẞE.de/", "http://strasse.de/"},
			// Non-transitional: ß is kept (as in every version since 9.0).
			{"sharp s", "http://faß.de/", "http://xn--fa-hia.de/"},
		})
	}
	// Code points assigned after 15.0.0 are unassigned, so disallowed, here;
	// later versions make them valid or map them.
	for _, r := range []struct{ name, in string }{
		{"15.1 CJK extension I", "http://\U0002EBF0.cn/"},
		{"16.0 Cyrillic capital tje", "http://\u1C89.ru/"},
		{"16.0 Latin capital rams horn", "http://\uA7CB.example/"},
		{"17.0 Tolong Siki", "http://\U00011DB0.in/"},
		{"17.0 CJK extension J", "http://\U000323B0.cn/"},
	} {
		for _, p := range canon.Profiles() {
			if got, err := p.Canonical(r.in); !errors.Is(err, canon.ErrBadHost) {
				t.Errorf("%s: %s Canonical(%+q) = %q, %v; want %v (unassigned in Unicode 15.0.0)", r.name, p, r.in, got, err, canon.ErrBadHost)
			}
		}
	}
}

// canon takes its IDNA from internal/idna15 alone: golang.org/x/net/idna and
// golang.org/x/text's Unicode tables pick their version by the Go toolchain.
func TestIDNAPinnedDeps(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "github.com/webcap/webcap/canon").Output()
	if err != nil {
		t.Skipf("go list unavailable: %v", err)
	}
	deps := strings.Fields(string(out))
	pinned := false
	for _, d := range deps {
		switch {
		case d == "github.com/webcap/webcap/internal/idna15":
			pinned = true
		case strings.HasPrefix(d, "golang.org/x/net/idna"), strings.HasPrefix(d, "golang.org/x/text/"):
			t.Errorf("canon depends on %s, whose Unicode tables follow the Go version", d)
		}
	}
	if !pinned {
		t.Error("canon does not depend on internal/idna15")
	}
}
