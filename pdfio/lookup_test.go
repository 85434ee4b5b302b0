package pdfio

import (
	"errors"
	"testing"

	"github.com/webcap/webcap/canon"
	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

func sampleDoc(t *testing.T, name string) *Document {
	t.Helper()
	b, err := pb.Sample(name)
	if err != nil {
		t.Fatal(err)
	}
	d, err := ReadBytes(b, name+".pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestLookupURL(t *testing.T) {
	capture, damaged, residue := sampleDoc(t, "capture"), sampleDoc(t, "damaged"), sampleDoc(t, "residue")
	collide := sampleDoc(t, "collide")
	// An Acrobat 10 key: a raw byte 0xFD where a canonical key has %FD.
	acrobat10 := &ContentSet{ContentSet: &webcapture.ContentSet{}}
	raw := &Document{URLS: &Tree{Name: "URLS", Entries: []*Entry{{Key: "file:///C|/Users/x/Nov\xFD%20x.htm", Sets: []*ContentSet{acrobat10}}}}}
	base, err := canon.New(canon.PDF, canon.WithBase("http://www.example.com/a/"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name    string
		d       *Document
		c       *canon.Canonicalizer
		url     string
		key     string
		sets    int
		err     error // ErrNotFound, or nil
		canonEr bool  // a *canon.Error
	}{
		{"canonicalized", capture, nil, "HTTP://WWW.Example.com:80/#top", "http://www.example.com/", 1, nil, false},
		{"file URL", capture, nil, "file://localhost/C|/Users/x/notes.txt", "file:///C|/Users/x/notes.txt", 1, nil, false},
		{"relative, with a base", capture, base, "../logo.gif", "http://www.example.com/logo.gif", 1, nil, false},
		{"absent", capture, nil, "http://www.EXAMPLE.com/nope#x", "http://www.example.com/nope", 0, ErrNotFound, false},
		{"not canonicalizable", capture, nil, "http://a:x/", "http://a:x/", 0, nil, true},
		{"a key as written, not canonical", damaged, nil, "HTTP://A/", "HTTP://A/", 1, nil, false},
		{"a key with raw bytes (Acrobat 10)", raw, nil, "file:///C|/Users/x/Nov\xFD%20x.htm", "file:///C|/Users/x/Nov\xFD%20x.htm", 1, nil, false},
		{"a key with raw bytes, by its canonical form", raw, nil, "file:///C|/Users/x/Nov%FD%20x.htm", "file:///C|/Users/x/Nov\xFD%20x.htm", 1, nil, false},
		{"a non-canonical key, by its canonical form", collide, nil, "http://example.com/d", "HTTP://example.com/d", 1, nil, false},
		{"two keys of one set, by their canonical form", collide, nil, "http://example.com/c", "http://example.com/c", 1, nil, false},
		{"two keys of two sets: ambiguous", collide, nil, "http://EXAMPLE.com/a", "http://example.com/a", 0, errAmbiguous, false},
		{"no URLS tree", &Document{}, nil, "http://a/", "http://a/", 0, ErrNotFound, false},
		{"an empty tree", residue, nil, "http://a/", "http://a/", 0, ErrNotFound, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			key, sets, err := tc.d.LookupURL(tc.c, tc.url)
			var ce *canon.Error
			switch {
			case key != tc.key || len(sets) != tc.sets:
				t.Errorf("LookupURL(%q) = %q, %d sets, want %q, %d sets", tc.url, key, len(sets), tc.key, tc.sets)
			case tc.canonEr && !errors.As(err, &ce):
				t.Errorf("LookupURL(%q) error = %v, want a *canon.Error", tc.url, err)
			case tc.err == errAmbiguous:
				var amb *AmbiguousKeyError
				if !errors.As(err, &amb) || amb.Key != tc.key || len(amb.Keys) != 2 {
					t.Errorf("LookupURL(%q) error = %v, want an *AmbiguousKeyError naming 2 keys", tc.url, err)
				}
			case !tc.canonEr && !errors.Is(err, tc.err):
				t.Errorf("LookupURL(%q) error = %v, want %v", tc.url, err, tc.err)
			}
		})
	}
}

// errAmbiguous stands for an *AmbiguousKeyError in TestLookupURL.
var errAmbiguous = errors.New("ambiguous")

func TestLookupURLKeyAndID(t *testing.T) {
	d := sampleDoc(t, "capture")
	if sets, err := d.LookupURLKey("http://www.example.com/logo.gif"); err != nil || len(sets) != 1 || !sets[0].IsImageSet() {
		t.Errorf("LookupURLKey(logo.gif) = %d sets, %v; want the image set", len(sets), err)
	}
	if _, err := d.LookupURLKey("HTTP://www.example.com/logo.gif"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LookupURLKey of a key not as written = %v, want ErrNotFound", err)
	}
	id, _ := webcapture.ParseRawID("83edd6aab530b644b8540f609e468f78")
	sets, err := d.LookupID(id)
	if err != nil || len(sets) != 1 || !sets[0].IsPageSet() || *sets[0].ID != id {
		t.Errorf("LookupID(%s) = %d sets, %v; want the page set with that ID", id, len(sets), err)
	}
	if _, err := d.LookupID("\x00"); !errors.Is(err, ErrNotFound) {
		t.Errorf("LookupID(00) = %v, want ErrNotFound", err)
	}
	// A tree with duplicate keys answers with every entry's sets.
	dup := sampleDoc(t, "damaged")
	if sets, err := dup.LookupID("\x01\x02"); err != nil || len(sets) != 2 {
		t.Errorf("LookupID(0102) in a tree with the key twice = %d sets, %v; want 2", len(sets), err)
	}
}
