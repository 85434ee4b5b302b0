package cli

import (
	"strings"
	"testing"

	"github.com/webcap/webcap/pdfio"
)

// What info says of a link annotation's /PA, and of the pages' /PZ.
func TestInfoExtras(t *testing.T) {
	for _, tc := range []struct {
		a    pdfio.PriorAction
		want string
	}{
		{pdfio.PriorAction{Kind: "a dictionary", Action: "URI", URI: true, Target: "http://a/"}, "URI http://a/"},
		{pdfio.PriorAction{Kind: "a dictionary", Action: "URI", URI: true, Target: "http://a/\xe9"}, `URI "http://a/\xe9"`},
		{pdfio.PriorAction{Kind: "a dictionary", Action: "URI"}, "a URI action without a /URI string"},
		{pdfio.PriorAction{Kind: "a dictionary", Action: "GoTo"}, "a /GoTo action, not a URI action"},
		{pdfio.PriorAction{Kind: "a dictionary"}, "an action dictionary without /S"},
		{pdfio.PriorAction{Kind: "a name"}, "a name, not a URI action"},
		{pdfio.PriorAction{Kind: "a missing object"}, "a missing object, not a URI action"},
	} {
		if got := priorActionText(&tc.a); got != tc.want {
			t.Errorf("priorActionText(%+v) = %q, want %q", tc.a, got, tc.want)
		}
	}
	z := func(v float64) *float64 { return &v }
	d := &pdfio.Document{Pages: []*pdfio.Page{{Number: 1, PZ: z(1.5)}, {Number: 2}, {Number: 3, PZ: z(1.5)}, {Number: 4, PZ: z(2)}, {Number: 5, PZ: z(1.5)}}}
	var b strings.Builder
	writeZoom(&printer{w: &b}, d)
	if want := "/PZ: 1.5 on pages 1, 3, 5; 2 on page 4\n"; b.String() != want {
		t.Errorf("writeZoom = %q, want %q", b.String(), want)
	}
}
