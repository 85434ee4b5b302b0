package repair

import (
	"fmt"
	"strings"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// A Loss is what rebuilding a tree would drop that is not nothing: nodes
// the cross-reference data lists but that cannot be read (the keys under
// them, how many is not known), and keys whose value is such an object.
// An object that does not exist holds nothing: the key that leads to it
// is dropped without a Loss.
type Loss struct {
	Tree    string
	Objects []webcapture.Ref // the objects that cannot be read
	Read    int              // keys read, each counted once (as it is to be written)
	Kept    int              // keys the rebuilt tree would hold
	Lost    int              // keys read whose value cannot be read, lost with it
	Nodes   int              // nodes that cannot be read, with the keys under them
	Dropped bool             // rebuilt anyway (Options.AllowLoss)
}

// lossOf counts what rebuilding t into kept keys would lose; lossy is
// false when that is nothing.
func lossOf(t *pdfio.Tree, defects []pdfio.Defect, kept int) (l Loss, lossy bool) {
	l = Loss{Tree: t.Name, Kept: kept, Nodes: len(t.Unreadable)}
	seen := map[webcapture.Ref]bool{}
	add := func(o webcapture.Ref) {
		if !seen[o] {
			seen[o] = true
			l.Objects = append(l.Objects, o)
		}
	}
	for _, o := range t.Unreadable {
		add(o)
	}
	for _, df := range defects {
		if df.Kind == pdfio.Unreadable {
			add(df.Object)
		}
	}
	for _, e := range t.Entries {
		if !e.Unreadable {
			continue
		}
		if len(e.Sets) == 0 {
			l.Lost++
		}
		if len(l.Objects) == 0 {
			add(e.Node) // (an object stream's object that cannot be parsed: the leaf says where)
		}
	}
	l.Read = kept + l.Lost
	return l, len(l.Objects) > 0
}

// String says what is lost: "the URLS tree holds 1 node that cannot be
// read (object 36 0 R): rebuilt, it would keep 12 of the 12 keys read,
// and lose 1 node that cannot be read, with the keys under it (how many is
// not known)".
func (l Loss) String() string {
	var objs []string
	for _, o := range l.Objects {
		objs = append(objs, o.String())
	}
	var what []string
	if l.Nodes > 0 {
		what = append(what, fmt.Sprintf("%d %s that cannot be read, with the keys under %s (how many is not known)", l.Nodes, plural(l.Nodes, "node", "nodes"), plural(l.Nodes, "it", "them")))
	}
	if l.Lost > 0 || l.Nodes == 0 {
		what = append(what, fmt.Sprintf("%d %s whose value cannot be read", l.Lost, plural(l.Lost, "key", "keys")))
	}
	keep, lose := "would keep", "lose"
	if l.Dropped {
		keep, lose = "keeps", "loses"
	}
	return fmt.Sprintf("the %s tree holds what cannot be read (object %s): rebuilt, it %s %d of the %d keys read, and %s %s",
		l.Tree, strings.Join(objs, ", object "), keep, l.Kept, l.Read, lose, strings.Join(what, ", and "))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// Refused reports whether the plan must not be written: a tree would lose
// what cannot be read, and Options.AllowLoss was not given.
func (p *Plan) Refused() bool {
	for _, l := range p.Losses {
		if !l.Dropped {
			return true
		}
	}
	return false
}

// Check compares the trees of out, the document the plan's update wrote,
// with the input's: every tree must hold at least as many readable keys
// (keys with a content set) as the plan writes, or, left alone, as it
// held. A shortfall is an error naming the tree and the counts.
func (p *Plan) Check(out *pdfio.Document) error {
	for _, name := range []string{"IDS", "URLS"} {
		want := -1
		if es, ok := p.trees[name]; ok {
			want = len(es)
		} else if t := tree(p.doc, name); t != nil {
			want = readableKeys(t)
		}
		got := 0
		if t := tree(out, name); t != nil {
			got = readableKeys(t)
		}
		if want >= 0 && got < want {
			return fmt.Errorf("the %s tree would hold %d readable keys, fewer than the %d it should", name, got, want)
		}
	}
	return nil
}

func tree(d *pdfio.Document, name string) *pdfio.Tree {
	if name == "IDS" {
		return d.IDS
	}
	return d.URLS
}

// readableKeys counts the distinct keys of t that lead to a content set.
func readableKeys(t *pdfio.Tree) int {
	seen := make(map[string]bool, len(t.Entries))
	for _, e := range t.Entries {
		if len(e.Sets) > 0 {
			seen[e.Key] = true
		}
	}
	return len(seen)
}
