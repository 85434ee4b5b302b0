// Package repair plans and writes the repairs of Web Capture structures
// that are unambiguous — what "webcap fix" does. It never guesses: anything
// that could be repaired more than one way is reported and left as it is.
//
// Repairs, each tied to the audit rules it answers:
//
//   - The IDS and URLS trees are rebuilt from their readable entries, as
//     balanced trees with correct /Limits, keys sorted and unique
//     (WC-TREE-ORDER, WC-TREE-DUPLICATE, WC-TREE-LIMITS, WC-TREE-ROOT-LIMITS,
//     WC-TREE-SHARED, WC-TREE-NODE for an odd /Names or a key that is not a
//     string, WC-DANGLING for a kid that does not exist, WC-TREE-VALUE for a
//     value that is not a content set — the entries such damage already lost
//     stay lost, and are listed).
//   - URLS keys are canonicalized (WC-URLS-CANONICAL, WC-URLS-NONASCII).
//   - IDS keys that differ from their set's /ID are replaced by the /ID
//     (WC-IDS-KEY).
//   - Entries whose keys become equal are merged; their value becomes an
//     array of the sets (arrays are legal values).
//   - A page or image XObject in exactly one set's /O that has no /ID gets
//     the set's /ID (WC-MEMBER-ID).
//
// Left alone, reported: trees holding direct content-set values (they have
// no object to refer to), /R of the wrong shape (which count belongs to
// which object is not known), and members whose /ID differs from their
// set's, or that are in several sets (which one is right is not known).
package repair

import (
	"fmt"
	"sort"
	"strings"

	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// A Change is one repair, or one thing left alone.
type Change struct {
	Rules   []string // the audit rules it answers
	Object  webcapture.Ref
	Message string
}

// A Plan is the repairs of one file.
type Plan struct {
	Changes []Change // what will be changed
	Left    []Change // what is left alone, and why
	trees   map[string][]entry
	backIDs []backLink
	doc     *pdfio.Document
}

type entry struct {
	key    string
	sets   []webcapture.Ref
	keyRef webcapture.Ref // the key's object, kept when the key does not change
}

type backLink struct {
	obj webcapture.Ref
	id  webcapture.RawID
}

// Empty reports whether there is nothing to write.
func (p *Plan) Empty() bool { return len(p.trees) == 0 && len(p.backIDs) == 0 }

// NewPlan works out the repairs of d under the canonicalization profile pr
// (PDF if nil).
func NewPlan(d *pdfio.Document, pr *canon.Profile) (*Plan, error) {
	c, err := canon.New(pr)
	if err != nil {
		return nil, err
	}
	p := &Plan{trees: map[string][]entry{}, doc: d}
	treeDefects := map[string][]pdfio.Defect{}
	for _, df := range d.Defects {
		for _, name := range []string{"IDS", "URLS"} {
			if strings.HasPrefix(df.Path, name+"/") || df.Path == name {
				treeDefects[name] = append(treeDefects[name], df)
			}
		}
	}
	for _, t := range []*pdfio.Tree{d.IDS, d.URLS} {
		if t != nil {
			p.planTree(t, treeDefects[t.Name], c)
		}
	}
	p.planBackLinks()
	return p, nil
}

func (p *Plan) planTree(t *pdfio.Tree, defects []pdfio.Defect, c *canon.Canonicalizer) {
	byKey := map[string]*entry{}
	var order []string
	var changes []Change
	for _, e := range t.Entries {
		if len(e.Sets) == 0 {
			continue // its value is not a content set: dropped (a tree-value defect says so)
		}
		var sets []webcapture.Ref
		for _, cs := range e.Sets {
			if cs.Ref.IsZero() {
				p.Left = append(p.Left, Change{Object: t.Root, Message: fmt.Sprintf("the %s tree holds a direct content set under %s: the tree is left as it is", t.Name, show(t.Name, e.Key))})
				return
			}
			sets = append(sets, cs.Ref)
		}
		key, keyRef := e.Key, e.KeyRef
		switch t.Name {
		case "URLS":
			if k, err := c.String(e.Key); err == nil && k != e.Key {
				changes = append(changes, Change{[]string{"WC-URLS-CANONICAL"}, keyRef, fmt.Sprintf("URLS key %q becomes %q", e.Key, k)})
				key, keyRef = k, webcapture.Ref{}
			} else if err != nil {
				p.Left = append(p.Left, Change{[]string{"WC-URLS-CANONICAL"}, keyRef, fmt.Sprintf("URLS key %q cannot be canonicalized (%v): kept", e.Key, err)})
			}
		case "IDS":
			if len(e.Sets) > 0 && e.Sets[0].ID != nil && string(*e.Sets[0].ID) != e.Key {
				id := string(*e.Sets[0].ID)
				changes = append(changes, Change{[]string{"WC-IDS-KEY"}, e.Sets[0].Ref, fmt.Sprintf("IDS key %s becomes the set's /ID %s", show("IDS", e.Key), show("IDS", id))})
				key, keyRef = id, webcapture.Ref{}
			}
		}
		if old, ok := byKey[key]; ok {
			changes = append(changes, Change{[]string{"WC-TREE-DUPLICATE"}, t.Root, fmt.Sprintf("%s key %s appears twice: its values are merged", t.Name, show(t.Name, key))})
			old.sets = mergeRefs(old.sets, sets)
			continue
		}
		byKey[key] = &entry{key: key, sets: sets, keyRef: keyRef}
		order = append(order, key)
	}
	structural := len(defects) > 0 || !sortedUnique(t.Entries)
	if !structural && len(changes) == 0 {
		return
	}
	for _, df := range defects {
		switch df.Kind {
		case pdfio.TreeOddNames, pdfio.TreeKeyType, pdfio.Dangling, pdfio.TreeValue, pdfio.Cycle:
			p.Changes = append(p.Changes, Change{[]string{"WC-TREE-NODE"}, df.Object, "dropped, as it cannot be read: " + df.Message})
		}
	}
	if structural {
		p.Changes = append(p.Changes, Change{[]string{"WC-TREE-ORDER", "WC-TREE-LIMITS"}, t.Root,
			fmt.Sprintf("the %s tree is rebuilt: %d keys, sorted, balanced, with correct /Limits", t.Name, len(order))})
	}
	p.Changes = append(p.Changes, changes...)
	sort.Strings(order)
	es := make([]entry, 0, len(order))
	for _, k := range order {
		es = append(es, *byKey[k])
	}
	p.trees[t.Name] = es
}

func sortedUnique(es []*pdfio.Entry) bool {
	for i := 1; i < len(es); i++ {
		if es[i].Key <= es[i-1].Key {
			return false
		}
	}
	return true
}

func mergeRefs(a, b []webcapture.Ref) []webcapture.Ref {
	for _, r := range b {
		found := false
		for _, x := range a {
			found = found || x == r
		}
		if !found {
			a = append(a, r)
		}
	}
	return a
}

func show(tree, key string) string {
	if tree == "IDS" {
		return "<" + webcapture.RawID(key).Hex() + ">"
	}
	return fmt.Sprintf("%q", key)
}

// planBackLinks gives a member without /ID its set's /ID, when it is in
// exactly one set, and reports what cannot be decided.
func (p *Plan) planBackLinks() {
	in := map[webcapture.Ref][]*pdfio.ContentSet{}
	for _, cs := range p.doc.Sets {
		for _, o := range cs.Objects {
			in[o] = append(in[o], cs)
		}
	}
	ids := map[webcapture.Ref]*webcapture.RawID{}
	for _, pg := range p.doc.Pages {
		ids[pg.Ref] = pg.ID
	}
	for _, im := range p.doc.Images {
		ids[im.Ref] = im.ID
	}
	refs := make([]webcapture.Ref, 0, len(in))
	for r := range in {
		refs = append(refs, r)
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Num < refs[j].Num })
	for _, r := range refs {
		sets := in[r]
		id, known := ids[r]
		switch {
		case !known:
			continue // not a page or an image: the auditor says so
		case len(sets) > 1:
			p.Left = append(p.Left, Change{[]string{"WC-MEMBER-TWICE"}, r, fmt.Sprintf("%s is in %d content sets: which one is its parent is not known", r, len(sets))})
		case sets[0].ID == nil:
		case id == nil:
			p.backIDs = append(p.backIDs, backLink{r, *sets[0].ID})
			p.Changes = append(p.Changes, Change{[]string{"WC-MEMBER-ID"}, r, fmt.Sprintf("%s gets /ID %s, its content set %s's", r, show("IDS", string(*sets[0].ID)), sets[0].Ref)})
		case *id != *sets[0].ID:
			p.Left = append(p.Left, Change{[]string{"WC-MEMBER-ID"}, r, fmt.Sprintf("%s has /ID %s but its content set %s has %s: which is right is not known", r, show("IDS", string(*id)), sets[0].Ref, show("IDS", string(*sets[0].ID)))})
		}
	}
	for _, cs := range p.doc.Sets {
		if cs.IsImageSet() && cs.RefCounts != nil && (cs.RefArray && len(cs.RefCounts) != len(cs.Objects) || !cs.RefArray && len(cs.Objects) > 1) {
			p.Left = append(p.Left, Change{[]string{"WC-R-SHAPE"}, cs.Ref, fmt.Sprintf("/R has %d counts for %d objects: which count belongs to which object is not known", len(cs.RefCounts), len(cs.Objects))})
		}
	}
}

// Apply writes the repairs as an incremental update of orig, the bytes the
// plan's document was read from.
func (p *Plan) Apply(orig []byte, name string) ([]byte, error) {
	u, err := pdfio.NewUpdate(orig, name, pdfio.Options{})
	if err != nil {
		return nil, err
	}
	for _, tree := range []string{"IDS", "URLS"} {
		es, ok := p.trees[tree]
		if !ok {
			continue
		}
		entries := make([]pdfio.NameEntry, len(es))
		for i, e := range es {
			entries[i] = pdfio.NameEntry{Key: e.key, Sets: e.sets, KeyObject: e.keyRef}
		}
		if err := u.SetNameTree(tree, entries, pdfio.TreeShape{Hex: tree == "IDS"}); err != nil {
			return nil, err
		}
	}
	for _, b := range p.backIDs {
		if err := u.SetID(b.obj, b.id); err != nil {
			return nil, err
		}
	}
	return u.Bytes()
}
