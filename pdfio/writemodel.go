package pdfio

import (
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Typed writes: each Web Capture dictionary is written from the model by
// its key table (keys.go), the same table the reader reads it by.

// AddContentSet writes a new content set (page set or image set) and
// returns its reference. A set without a required key (S, ID, O, SI, or a
// source's AU) is an error wrapping ErrMissingKey. Ref and the shape flags
// (SourceArray, RefArray) are as the model says: one source or one count is
// written as a dictionary or an integer unless the flag asks for an array.
//
// The set's dictionary is not made (a build writes 100,000 sets): its
// keys' values are written as its table gives them (appendKeyed), and the
// model kept for Result (setPlan).
func (u *Update) AddContentSet(cs *webcapture.ContentSet) (webcapture.Ref, error) {
	var small [16]types.Object
	vals := small[:0]
	if len(contentSetKeys) > len(small) {
		vals = make([]types.Object, 0, len(contentSetKeys))
	}
	vals = vals[:len(contentSetKeys)]
	if err := eachKeyValue(&writer{u}, "content set", contentSetKeys, cs, func(i int, o types.Object) { vals[i] = o }); err != nil {
		return webcapture.Ref{}, err
	}
	num := u.objs.reserve()
	ref := webcapture.Ref{Num: num}
	u.objs.putSet(num, vals, u.plan.set(ref, cs, vals[siKey]))
	return ref, nil
}

// ReplaceContentSet writes a new version of the content set at ref (it
// keeps its object number, so every reference to it stays good).
func (u *Update) ReplaceContentSet(ref webcapture.Ref, cs *webcapture.ContentSet) error {
	d, err := writeKeys(&writer{u}, "content set", contentSetKeys, cs)
	if err != nil {
		return err
	}
	u.objs.putShaped(ref.Num, ref.Gen, d, contentSetShape)
	return nil
}

// AddCommand writes a command dictionary (its settings direct, its posted
// data as a string, or as a stream of its own with PostStream), sets c.Ref
// (and c.PostRef to the stream) and returns it.
func (u *Update) AddCommand(c *webcapture.Command) (webcapture.Ref, error) {
	d, err := writeKeys(&writer{u: u}, "command", commandKeys, c)
	if err != nil {
		return webcapture.Ref{}, err
	}
	c.Ref = refOf(u.objs.add(d))
	return c.Ref, nil
}

// SetSpiderInfo sets the catalog's /SpiderInfo to a new dictionary: info's
// version and its commands, which must have been written (their Ref set:
// the file's own, or AddCommand's).
func (u *Update) SetSpiderInfo(info *webcapture.Info) error {
	d, err := writeKeys(&writer{u: u}, "SpiderInfo", infoKeys, info)
	if err != nil {
		return err
	}
	if u.catalogEdits == nil {
		u.catalogEdits = types.Dict{}
	}
	u.catalogEdits["SpiderInfo"] = u.objs.add(d)
	return nil
}

// XObjectCounts is XObjectUsers for every object at once: for each XObject
// the pages' /Resources /XObject refer to, how many of the pages do, in one
// walk of the pages (a build's image sets ask for many objects). A page
// that names an object twice counts once.
func (u *Update) XObjectCounts(pages []webcapture.Ref) map[webcapture.Ref]int {
	counts := map[webcapture.Ref]int{}
	var seen []webcapture.Ref
	for _, p := range pages {
		o, err := u.lookup(indirect(p))
		if err != nil {
			continue
		}
		d, _ := o.(types.Dict)
		res, _ := u.dictAt(d["Resources"])
		xo, _ := u.dictAt(res["XObject"])
		seen = seen[:0]
		for _, v := range xo {
			if r, ok := v.(types.IndirectRef); ok && !slices.Contains(seen, refOf(r)) {
				seen = append(seen, refOf(r))
				counts[refOf(r)]++
			}
		}
	}
	return counts
}
