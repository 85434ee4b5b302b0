package pdfio

import (
	"errors"
	"fmt"
	"slices"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/webcapture"
)

// ErrNotFound is wrapped by the error of a lookup whose key is not in the
// tree, or whose file has no such tree.
var ErrNotFound = errors.New("not found")

// LookupURL returns the content sets the URLS tree holds for the URL u
// (PDF 1.7 §10.9.2; ISO 32000-1 §14.10.3.1). u is canonicalized by c (its
// profile, base URL and input encoding; canon.PDF's rules when c is nil),
// and the canonical key is looked up byte for byte. When that is not a key,
// u's own bytes are: a key as a file holds it is found as it is written,
// even when it is not canonical (Acrobat 10 wrote raw non-ASCII bytes into
// URLS keys). When neither is, the keys that are not canonical are looked
// up by their canonical form: a key with a raw byte ("...Nov\xFD...") is
// found by the URL that canonicalizes as it does ("...Nov%FD..."). When
// several such keys canonicalize to u's key (a collision), which one u
// means is not known: err is then an *AmbiguousKeyError naming them.
//
// key is the key found, or the canonical key when none is (u when it cannot
// be canonicalized). A key whose value holds no content set is found with
// no sets. err wraps ErrNotFound when no key answers, or is c's error (a
// *canon.Error) when u cannot be canonicalized and is not a key.
func (d *Document) LookupURL(c *canon.Canonicalizer, u string) (key string, sets []*ContentSet, err error) {
	if c == nil {
		if c, err = canon.New(canon.PDF); err != nil {
			return u, nil, err
		}
	}
	key, cerr := c.String(u)
	if cerr == nil {
		if sets, ok := d.URLS.lookup(key); ok {
			return key, sets, nil
		}
	}
	if sets, ok := d.URLS.lookup(u); ok {
		return u, sets, nil
	}
	if cerr != nil {
		return u, nil, cerr
	}
	if d.URLS != nil {
		var keys []string
		for _, e := range d.URLS.Entries {
			if k, err := c.String(e.Key); err == nil && k == key && k != e.Key && !slices.Contains(keys, e.Key) {
				keys = append(keys, e.Key)
			}
		}
		switch len(keys) {
		case 1:
			sets, _ := d.URLS.lookup(keys[0])
			return keys[0], sets, nil
		case 0:
		default:
			return key, nil, &AmbiguousKeyError{Key: key, Keys: keys}
		}
	}
	return key, nil, notFound("URLS", d.URLS, key)
}

// An AmbiguousKeyError is a lookup by a URL whose canonical key is not a
// key of the URLS tree, and that several keys, none of them canonical,
// canonicalize to (webcap fix reports them as a collision).
type AmbiguousKeyError struct {
	Key  string   // the canonical key
	Keys []string // the keys that canonicalize to it, in tree order
}

func (e *AmbiguousKeyError) Error() string {
	return fmt.Sprintf("%q: %d URLS keys canonicalize to the key", e.Key, len(e.Keys))
}

// LookupURLKey returns the content sets the URLS tree holds for key, its
// bytes exactly, canonical or not. err wraps ErrNotFound when key is not a
// key of the tree.
func (d *Document) LookupURLKey(key string) ([]*ContentSet, error) {
	if sets, ok := d.URLS.lookup(key); ok {
		return sets, nil
	}
	return nil, notFound("URLS", d.URLS, key)
}

// LookupID returns the content sets the IDS tree holds for the digital
// identifier id (PDF 1.7 §10.9.2; ISO 32000-1 §14.10.3.1). err wraps
// ErrNotFound when id is not a key of the tree.
func (d *Document) LookupID(id webcapture.RawID) ([]*ContentSet, error) {
	if sets, ok := d.IDS.lookup(string(id)); ok {
		return sets, nil
	}
	return nil, notFound("IDS", d.IDS, id.Hex())
}

// lookup returns the content sets of key in t, and whether t has the key.
// Every entry with the key counts: a tree with duplicate keys answers with
// all of them.
func (t *Tree) lookup(key string) ([]*ContentSet, bool) {
	if t == nil {
		return nil, false
	}
	var sets []*ContentSet
	found := false
	for _, e := range t.Entries {
		if e.Key == key {
			found = true
			sets = append(sets, e.Sets...)
		}
	}
	return sets, found
}

// notFound says that tree (nil when the file has none) has no key shown.
func notFound(name string, t *Tree, shown string) error {
	if t == nil {
		return fmt.Errorf("%q: %w: the file has no %s tree", shown, ErrNotFound, name)
	}
	return fmt.Errorf("%q: %w in %s", shown, ErrNotFound, name)
}
