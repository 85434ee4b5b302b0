package pdfio

import (
	"bytes"
	"context"
	"errors"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Result reads the file Bytes returned (out, named name) as ReadBytes
// would, without parsing it again: the original's objects come from the
// parse NewUpdate did, the update's from the values it wrote (keptValue:
// each as a read of its bytes gives it back), or where that is not
// certain (a real number, an escaped name, a stream) from the bytes it
// wrote, parsed with the fast parser at the offset each was written at.
// The checks of the bytes still run on out (the
// last cross-reference section is well-formed, every object starts at its
// offset), so a serialization that puts an object elsewhere is still
// damage. A build of 100,000 page sets spends more than a second and the
// memory of a second parse on reading its result back, for the audit
// that follows: this is that parse saved.
//
// A stream the update wrote is parsed with pdfcpu: its offsets and
// filters are pdfcpu's to set. Where the fast parser declines an object,
// or the shortcut could read
// differently from a parse, Result parses out after all: when the original
// needed repairing to be read
// (a parse of out may repair it differently: the sections are checked
// through /Prev, and any damage found sends Result to the parse). Result consumes the update:
// it is not used after.
func (u *Update) Result(out []byte, name string) (doc *Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, internalError(name, p)
		}
	}()
	if u.pages != nil || u.tags != nil {
		u.plan.pages.spoil("the page tree or the structure tree was edited")
	}
	if !u.absorb(out, true) {
		return u.parse(out, name)
	}
	u.plan.pages.settle(u.ctx.XRefTable) // (result_pages.go)
	r := newReader(u.ctx, u.dec, name, u.opts, out)
	r.plan = &u.plan // (result_model.go)
	doc = r.read()
	if len(doc.Damage) > 0 {
		// (Not expected: the original read without damage. A parse says
		// what the damage is as a reader of the file meets it.)
		return u.parse(out, name)
	}
	return doc, nil
}

// absorb makes the parse NewUpdate did the parse of out, the file Bytes
// returned: the objects the update wrote join the cross-reference table,
// each at the offset it was written at. It reports false when out must be
// parsed instead (Result's reasons); the update is spent either way.
// result: the table is Result's, read once and let go (not Continue's,
// which the next update writes from): a page SetID only gave an /ID may
// stand there as the dictionary read, until settle (result_pages.go).
func (u *Update) absorb(out []byte, result bool) bool {
	base := len(u.orig)
	if base > 0 && u.orig[base-1] != '\n' {
		base++ // Bytes ends the original's last line
	}
	if len(u.objs.offs) > 0 && u.resultNeedsParse(out, base) {
		return false
	}
	if len(u.objs.data) > 0 {
		return false // an attachment's stream: its data is not in the buffer
	}
	// out holds a copy of the original and of the buffer: let them go
	// before the read.
	u.orig, u.spare, u.objs.buf = nil, nil, objectBuf{}
	if len(u.objs.offs) == 0 {
		return true
	}
	xt := u.ctx.XRefTable
	root, names := u.root().ObjectNumber.Value(), 0
	if u.namesRef != nil {
		names = u.namesRef.ObjectNumber.Value()
	}
	pages := &u.plan.pages
	var slab entrySlab // (300,000 objects written: 900,000 small allocations, one by one)
	for i, o := range u.objs.offs {
		var obj types.Object
		idOnly := false
		if result && pages.open() {
			obj, idOnly = pages.idOnly(o.num, o.val)
			if idOnly && verifyKept {
				full, _ := keptValue(o.val)
				idOnly = u.sameAsWritten(full, out, int64(base+o.off), o.num, o.gen)
			}
		}
		if !idOnly {
			var ok bool
			if p, isSet := o.val.(*setPlan); isSet && result {
				// (A set AddContentSet wrote: the reader takes it from
				// its model, plannedSetAt; its dictionary is made only if
				// something loads it.)
				obj, ok = plannedObject{p}, true
				if verifyKept {
					full, _ := p.dict()
					ok = u.sameAsWritten(full, out, int64(base+o.off), o.num, o.gen)
				}
			}
			if !ok {
				obj, ok = keptValue(o.val)
				if ok && verifyKept {
					ok = u.sameAsWritten(obj, out, int64(base+o.off), o.num, o.gen)
				}
			}
			if !ok {
				if obj, ok = u.written(out, int64(base+o.off), o.num, o.gen); !ok {
					return false
				}
			}
			if pages.open() {
				pages.written(o.num, obj, o.num < u.firstNew, root, names)
			}
		}
		e, off, gen, _ := slab.next(len(u.objs.offs) - i)
		*off, *gen = int64(base+o.off), o.gen
		e.Offset, e.Generation, e.Object = off, gen, obj
		if idOnly {
			pages.pend = append(pages.pend, pendingPage{e, o.val.(editedObject)})
		}
		xt.Table[o.num] = e
		u.dec.forget(o.num) // a stream decoded under this number is not this object's
	}
	size := u.objs.next
	if u.ctx.Read.UsingXRefStreams {
		size++ // the update's cross-reference stream
	}
	xt.Size = &size
	xt.RootDict = nil // pdfcpu's cache of the catalog, which the update may have replaced
	u.objs.offs = nil
	return true
}

// Continue returns an update of out, the file Bytes returned, as
// NewUpdate(out) would, made from this update's parse and the objects it
// wrote instead of a parse of out (as Result reads it): a capture that
// merges its pages, then adds its structures, then its internal links,
// parses nothing it wrote itself. Where Result would parse out, Continue
// does. It consumes the update: u is not used after.
func (u *Update) Continue(out []byte) (next *Update, err error) {
	defer func() {
		if p := recover(); p != nil {
			next, err = nil, internalError(u.name, p)
		}
	}()
	if len(u.objs.offs) == 0 && len(out) == len(u.orig) {
		return u.restart(out, u.prev, u.objs.next), nil // nothing was written: out is the original
	}
	objs := u.objs.next
	if u.ctx.Read.UsingXRefStreams {
		objs++ // the update's cross-reference stream
	}
	if !u.absorb(out, false) {
		return NewUpdate(out, u.name, u.opts)
	}
	prev, err := lastStartXRef(out)
	if err != nil {
		return nil, &Error{File: u.name, Op: "update", Err: err}
	}
	return u.restart(out, prev, objs), nil
}

// restart is a fresh update of out on u's parse, its last cross-reference
// section at prev, its new objects numbered from next.
func (u *Update) restart(out []byte, prev int64, next int) *Update {
	return &Update{orig: out, name: u.name, opts: u.opts, ctx: u.ctx, dec: u.dec, prev: prev,
		objs: objectWriter{next: next}, firstNew: next}
}

// parseStream parses the stream object num that the update wrote at off in
// out, as pdfcpu's reader loads one (its dictionary, where its data is,
// the data itself, not decoded): a stream's offsets and filter pipeline
// are pdfcpu's to set. Errors send Result to a parse of the whole file.
func (u *Update) parseStream(out []byte, off int64, num, gen int) (types.Object, error) {
	if u.ctx.DecodeAllStreams || u.ctx.EncKey != nil {
		return nil, errors.New("streams are decoded or decrypted on reading")
	}
	u.ctx.Read.RS = bytes.NewReader(out)
	u.ctx.Read.FileSize = int64(len(out))
	o, err := pdfcpu.ParseObjectWithContext(context.Background(), u.ctx, off, num, gen)
	if err != nil {
		return nil, err
	}
	sd, ok := o.(types.StreamDict)
	if !ok || sd.StreamLength == nil || sd.StreamOffset < 0 || sd.StreamOffset+*sd.StreamLength > int64(len(out)) {
		return nil, errors.New("not the stream written")
	}
	sd.Raw = bytes.Clone(out[sd.StreamOffset : sd.StreamOffset+*sd.StreamLength])
	if len(sd.Raw) == 0 {
		sd.Content = sd.Raw
	}
	return sd, nil
}

// written parses object num, which the update wrote at off in out, as a
// read of out parses it: with the fast parser (objparse.go, which gives
// back what pdfcpu's parser would), a stream's dictionary and data with
// pdfcpu (parseStream). It reads the objects whose kept value keptValue
// cannot vouch for. ok is
// false where the fast parser declines (a name it leaves to pdfcpu, say):
// Result then parses out whole.
func (u *Update) written(out []byte, off int64, num, gen int) (o types.Object, ok bool) {
	n, g, at, ok := objHeader(out, off)
	if !ok || n != num || g != gen {
		return nil, false
	}
	p := objParser{b: out, i: at}
	if o, ok = p.value(0); !ok {
		return nil, false
	}
	end := p.skipFrom(p.i)
	switch {
	case end < 0:
		return nil, false
	case bytes.HasPrefix(out[end:], []byte("endobj")):
		return o, true
	case bytes.HasPrefix(out[end:], []byte("stream")):
		if _, dict := o.(types.Dict); !dict {
			return nil, false
		}
		o, err := u.parseStream(out, off, num, gen)
		return o, err == nil
	}
	return nil, false
}

// resultNeedsParse says whether Result must parse out: out is not the
// original followed by the update's objects at base.
func (u *Update) resultNeedsParse(out []byte, base int) bool {
	n := u.objs.buf.Len()
	if len(out) < base+n || !bytes.HasPrefix(out, u.orig) || !u.objs.buf.equal(out[base:base+n]) {
		return true
	}
	return false
}

// parse is Result's fallback: out read whole, as ReadBytes reads it.
func (u *Update) parse(out []byte, name string) (*Document, error) {
	u.parsedWhole = true
	return readBytes(out, name, u.opts)
}
