package pdfio

import (
	"slices"
	"strings"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// An object the cross-reference data lists is found near a wrong offset
// (as qpdf finds it), and the damage says so; one that cannot be read
// there or anywhere is unreadable, a defect of its own kind, and the tree
// says it lost a node: it is never "an object that does not exist".
func TestUnreadableIsNotDangling(t *testing.T) {
	for _, tc := range []struct {
		name       string
		keys       int
		unreadable bool
		damage     string
	}{
		{"misplaced", 8, false, "it was found at offset"},
		{"unreadable", 4, true, "cannot be parsed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := pb.LossSample(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			d, err := ReadBytes(b, tc.name+".pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if d.URLS == nil || len(d.URLS.Entries) != tc.keys {
				t.Fatalf("URLS tree %+v, want %d keys", d.URLS, tc.keys)
			}
			if got := len(d.URLS.Unreadable) > 0; got != tc.unreadable {
				t.Errorf("URLS.Unreadable = %v, want nodes: %v", d.URLS.Unreadable, tc.unreadable)
			}
			var kinds []DefectKind
			for _, df := range d.Defects {
				kinds = append(kinds, df.Kind)
				if df.Kind == Dangling {
					t.Errorf("dangling: %s", df.Message)
				}
				if df.Kind == Unreadable && (!tc.unreadable || !strings.Contains(df.Message, "cannot be read there or near it")) {
					t.Errorf("unreadable: %s", df.Message)
				}
			}
			found := false
			for _, dm := range d.Damage {
				found = found || strings.Contains(dm.Message, tc.damage)
			}
			if !found {
				t.Errorf("no damage says %q: %+v", tc.damage, d.Damage)
			}
			if tc.unreadable && !slices.Contains(kinds, Unreadable) {
				t.Errorf("defects %v, want %s", kinds, Unreadable)
			}
		})
	}
}
