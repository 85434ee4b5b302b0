package repair

import (
	"context"
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
	Changes    []Change    // what will be changed
	Left       []Change    // what is left alone, and why
	Collisions []Collision // URLS keys left as written: rewritten, they would collide
	// Losses are the trees that hold what cannot be read: rebuilt, they
	// would lose it. Without Options.AllowLoss such a tree is left as it
	// is and the plan must not be written (Refused); with it, the tree is
	// rebuilt from what can be read, and the loss is counted here.
	Losses    []Loss
	allowLoss bool
	trees     map[string][]entry
	backIDs   []backLink
	doc       *pdfio.Document
}

type entry struct {
	key    string
	from   string // the key as the file writes it (the first, when merged)
	sets   []webcapture.Ref
	keyRef webcapture.Ref // the key's object, kept when the key does not change
}

// A move is one readable tree entry and the key it is to have.
type move struct {
	from, to string
	sets     []webcapture.Ref
	keyRef   webcapture.Ref
	change   Change // the rewrite, when to differs from from
}

type backLink struct {
	obj webcapture.Ref
	id  webcapture.RawID
}

// Empty reports whether there is nothing to write.
func (p *Plan) Empty() bool { return len(p.trees) == 0 && len(p.backIDs) == 0 }

// Options are the choices of a plan.
type Options struct {
	Profile *canon.Profile // canonicalization of URLS keys; PDF if nil
	// AllowLoss rebuilds a tree that holds a node or value the
	// cross-reference data lists but that cannot be read, dropping it and
	// what is under it (counted in Plan.Losses). Without it such a tree is
	// left alone and the plan is refused.
	AllowLoss bool
	// Context, when not nil, stops the plan once it is done (a deadline, a
	// memory ceiling, an interrupt): NewPlanWith then fails with its
	// cause. It is looked at before each tree is planned.
	Context context.Context
}

// NewPlan works out the repairs of d under the canonicalization profile pr
// (PDF if nil).
func NewPlan(d *pdfio.Document, pr *canon.Profile) (*Plan, error) {
	return NewPlanWith(d, Options{Profile: pr})
}

// NewPlanWith is NewPlan with options.
func NewPlanWith(d *pdfio.Document, opts Options) (*Plan, error) {
	c, err := canon.New(opts.Profile)
	if err != nil {
		return nil, err
	}
	p := &Plan{trees: map[string][]entry{}, doc: d, allowLoss: opts.AllowLoss}
	treeDefects := map[string][]pdfio.Defect{}
	for _, df := range d.Defects {
		for _, name := range []string{"IDS", "URLS"} {
			if strings.HasPrefix(df.Path, name+"/") || df.Path == name {
				treeDefects[name] = append(treeDefects[name], df)
			}
		}
	}
	stopped := func() error {
		if opts.Context != nil && opts.Context.Err() != nil {
			return context.Cause(opts.Context)
		}
		return nil
	}
	for _, t := range []*pdfio.Tree{d.IDS, d.URLS} {
		if err := stopped(); err != nil {
			return nil, err
		}
		if t != nil {
			p.planTree(t, treeDefects[t.Name], c)
		}
	}
	if err := stopped(); err != nil {
		return nil, err
	}
	p.planBackLinks()
	return p, nil
}

func (p *Plan) planTree(t *pdfio.Tree, defects []pdfio.Defect, c *canon.Canonicalizer) {
	moves, ok := p.moves(t, c)
	if !ok {
		return
	}
	if t.Name == "URLS" {
		p.Collisions = append(p.Collisions, refuseCollisions(moves)...)
		noteMerges(moves)
	}
	byKey := make(map[string]*entry, len(moves))
	order := make([]string, 0, len(moves))
	var changes []Change
	for _, m := range moves {
		keyRef := m.keyRef
		if m.to != m.from {
			changes = append(changes, m.change)
			keyRef = webcapture.Ref{}
		}
		if old, ok := byKey[m.to]; ok {
			if t.Name == "IDS" || old.from == m.from { // URLS keys that meet: the rewrite says so
				changes = append(changes, Change{[]string{"WC-TREE-DUPLICATE"}, t.Root,
					fmt.Sprintf("%s key %s appears twice: its values are merged", t.Name, show(t.Name, m.to))})
			}
			old.sets = mergeRefs(old.sets, m.sets)
			continue
		}
		byKey[m.to] = &entry{key: m.to, from: m.from, sets: m.sets, keyRef: keyRef}
		order = append(order, m.to)
	}
	structural := len(defects) > 0 || !sortedUnique(t.Entries)
	if !structural && len(changes) == 0 {
		return
	}
	if l, lossy := lossOf(t, defects, len(order)); lossy {
		l.Dropped = p.allowLoss
		p.Losses = append(p.Losses, l)
		if !p.allowLoss {
			return // the tree is left as it is
		}
	}
	for _, df := range defects {
		switch df.Kind {
		case pdfio.TreeOddNames, pdfio.TreeKeyType, pdfio.Dangling, pdfio.TreeValue, pdfio.Cycle, pdfio.Unreadable:
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

// moves gives each readable entry of t the key it is to have: a URLS key
// its canonical form, an IDS key its set's /ID. It reports false, and
// leaves the tree alone, when the tree holds a direct content set.
func (p *Plan) moves(t *pdfio.Tree, c *canon.Canonicalizer) ([]move, bool) {
	ms := make([]move, 0, len(t.Entries))
	for _, e := range t.Entries {
		if len(e.Sets) == 0 {
			continue // its value is not a content set: dropped (a tree-value defect says so)
		}
		m := move{from: e.Key, to: e.Key, keyRef: e.KeyRef}
		for _, cs := range e.Sets {
			if cs.Ref.IsZero() {
				p.Left = append(p.Left, Change{Object: t.Root, Message: fmt.Sprintf("the %s tree holds a direct content set under %s: the tree is left as it is", t.Name, show(t.Name, e.Key))})
				return nil, false
			}
			m.sets = append(m.sets, cs.Ref)
		}
		switch t.Name {
		case "URLS":
			k, err := c.String(e.Key)
			switch {
			case err != nil:
				p.Left = append(p.Left, Change{[]string{"WC-URLS-CANONICAL"}, e.KeyRef, fmt.Sprintf("URLS key %q cannot be canonicalized (%v): kept", e.Key, err)})
			case k != e.Key:
				m.to, m.change = k, Change{[]string{"WC-URLS-CANONICAL"}, e.KeyRef, fmt.Sprintf("URLS key %q becomes %q", e.Key, k)}
			}
		case "IDS":
			if id := e.Sets[0].ID; id != nil && string(*id) != e.Key {
				m.to, m.change = string(*id), Change{[]string{"WC-IDS-KEY"}, e.Sets[0].Ref, fmt.Sprintf("IDS key %s becomes the set's /ID %s", show("IDS", e.Key), show("IDS", string(*id)))}
			}
		}
		ms = append(ms, m)
	}
	return ms, true
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
	in := make(map[webcapture.Ref][]*pdfio.ContentSet, len(p.doc.Pages)+len(p.doc.Images))
	for _, cs := range p.doc.Sets {
		for _, o := range cs.Objects {
			in[o] = append(in[o], cs)
		}
	}
	ids := make(map[webcapture.Ref]*webcapture.RawID, len(p.doc.Pages)+len(p.doc.Images))
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
	return p.ApplyWith(orig, name, pdfio.Options{})
}

// ApplyWith is Apply with the options orig is read with (its password).
func (p *Plan) ApplyWith(orig []byte, name string, opts pdfio.Options) ([]byte, error) {
	u, err := pdfio.NewUpdate(orig, name, opts)
	if err != nil {
		return nil, err
	}
	return p.ApplyTo(u)
}

// ApplyTo writes the repairs with u, an update of the file the plan's
// document was read from (pdfio.OpenUpdate, whose Document the plan was
// made from: the file is parsed once), and returns the updated file.
func (p *Plan) ApplyTo(u *pdfio.Update) ([]byte, error) {
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
