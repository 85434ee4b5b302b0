package pdfio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"sync"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// Decoded stream bytes are the one thing a small file can make a reader
// hold in great amounts: 60 KB of deflated zeros inflate to 60 MiB, and a
// file may refer to such a stream from 400 commands, or hold 16 object
// streams of 500 MiB each (under pdfcpu's own limit of 512 MiB a stream).
// So the reader decodes a stream once, whoever asks (every command that
// posts the same /P stream shares one copy; an object stream is decoded
// once for all its objects), and counts what it decodes against two caps:
// Options.MaxStreamDecode for one stream and Options.MaxDecodeTotal for
// the whole read. A stream past a cap is not read at all (never cut
// short, which would change the bytes a key or an identifier is made
// of): the object that needed it is a TooLarge defect naming the stream
// and the cap, and fix refuses to drop it, as it refuses anything it
// cannot read.
//
// pdfcpu v0.15 would decode an object stream when one of its objects is
// first used (types.LazyObjectStreamObject), into a copy of its own that
// the reader cannot count or share: the decoder does that itself, from
// the stream pdfcpu loaded and the stream's own header of object numbers
// and offsets, parsed as pdfcpu parses it. pdfcpu still decodes, with its
// limit set to Options.MaxStreamDecode (config), the few objects it reads
// while parsing (the catalog, the trailer's /Info and /Encrypt), and the
// cross-reference streams, with its fixed limit of 512 MiB.

// ErrDecodeLimit is wrapped by the errors of a stream that decodes to more
// than Options.MaxStreamDecode, or past Options.MaxDecodeTotal.
var ErrDecodeLimit = errors.New("too large to decode")

// A decoder decodes the streams of one parse, each once, within the caps.
// The reader, an Update and a page copier that share a parse share one.
type decoder struct {
	xt        *model.XRefTable
	maxStream int64
	maxTotal  int64

	mu      sync.Mutex
	used    int64                 // bytes decoded so far, of maxTotal
	done    map[int]*decodedBytes // by the stream's object number
	objStms bool                  // every object stream was decoded (allObjectStreams)
	share   *valueShare           // a read's (readBytes): load parses through it
	// readOnly: the decoder is a read's own (readBytes), whose table
	// does not change once the reader has indexed it. byNum is then that
	// index (objectNumbers), which allObjectStreams walks in order, where
	// the table's map would be walked in no order, a cache miss an entry.
	readOnly bool
	byNum    []*model.XRefTableEntry
	cents    []centry // the read's compact index (compactEntries), where it has one: byNum is then nil
	// free holds the maps of dictionaries a read let go of, emptied, for
	// load to parse the next object of an object stream into (recycle).
	// parsed counts load's parses, last is the object of the latest
	// (mark, fresh).
	free   []types.Dict
	parsed int
	last   types.Object
	// file and filed are a read's bytes and the top-level dictionaries
	// its lazyParse parsed whole, which it may let go of (filedObject).
	file  []byte
	filed objSet
	// src is a read's bytes, which its slimStreams' are in.
	src []byte
}

// streamOf is the stream entry e holds (a slimStream made again), if it
// holds one.
func (d *decoder) streamOf(e ent) (types.StreamDict, bool) {
	switch o := e.object().(type) {
	case types.StreamDict:
		return o, true
	case slimStream:
		return o.expand(d.src), true
	}
	return types.StreamDict{}, false
}

// mayFile reports whether a read may let go of top-level object num's
// dictionary, to parse it again from the file when used (filedObject).
func (d *decoder) mayFile(num int) bool {
	return d != nil && d.readOnly && d.file != nil && d.filed.has(num)
}

// mark is where a read's parses stand, for fresh; -1 (nothing is ever
// fresh) for any other decoder.
func (d *decoder) mark() int {
	if d == nil || !d.readOnly {
		return -1
	}
	return d.parsed
}

// fresh reports whether m is the map load made in its latest parse, and
// that parse came after mark n: a look-up between the two parsed m, so
// nothing but what the caller makes of it holds it (a dictionary met
// before may be held by a walk above, as a tree's leaf whose value is the
// leaf itself, or the catalog taken for a page). Only such a map may be
// recycled.
func (d *decoder) fresh(n int, m types.Dict) bool {
	if n < 0 || d.parsed == n {
		return false
	}
	l, ok := d.last.(types.Dict)
	return ok && sameDict(l, m)
}

// recycle takes back the map of a dictionary a read let go of (repack),
// parsed by load and held by nothing else, to parse another object into.
// A map that held many keys is left to the collector, and so are maps
// past a few (the list stays a few kilobytes).
func (d *decoder) recycle(m types.Dict) {
	if len(m) > 16 || len(d.free) >= 16 {
		return
	}
	clear(m)
	d.free = append(d.free, m)
}

// decodedBytes is a stream decoded (or why it is not), and for an object
// stream where each of its objects begins.
type decodedBytes struct {
	data    []byte
	starts  []int // object streams: each object's offset in data, in order
	err     error
	objects bool // starts was made
}

func newDecoder(xt *model.XRefTable, opts Options) *decoder {
	return &decoder{xt: xt, maxStream: opts.MaxStreamDecode, maxTotal: opts.MaxDecodeTotal, done: map[int]*decodedBytes{}}
}

// stream returns the decoded bytes of stream object num (sd, as the table
// holds it), decoded on the first call.
func (d *decoder) stream(num int, sd *types.StreamDict) ([]byte, error) {
	d.mu.Lock()
	defer d.mu.Unlock()
	db := d.decodeLocked(num, sd)
	return db.data, db.err
}

func (d *decoder) decodeLocked(num int, sd *types.StreamDict) *decodedBytes {
	if db := d.done[num]; db != nil {
		return db
	}
	db := &decodedBytes{}
	d.done[num] = db
	if len(sd.FilterPipeline) == 0 {
		// Not encoded: the bytes pdfcpu read from the file, nothing more
		// to hold (the file's own size bounds them).
		db.data = sd.Raw
		return db
	}
	left := d.maxTotal - d.used
	if left <= 0 {
		db.err = fmt.Errorf("%w: the streams decoded before it used up the %d bytes all may decode to (Options.MaxDecodeTotal)", ErrDecodeLimit, d.maxTotal)
		return db
	}
	limit := min(d.maxStream, left)
	c := *sd // (DecodeLengthWithLimit keeps what it decodes in the copy)
	data, err := c.DecodeLengthWithLimit(-1, limit)
	switch {
	case errors.Is(err, filter.ErrDecodeLimitExceeded) && limit == d.maxStream:
		d.used += limit // decoded, and thrown away: it still took the time
		db.err = fmt.Errorf("%w: it decodes to more than %d bytes, the limit for one stream (Options.MaxStreamDecode)", ErrDecodeLimit, d.maxStream)
	case errors.Is(err, filter.ErrDecodeLimitExceeded):
		d.used += limit
		db.err = fmt.Errorf("%w: with the streams decoded before it, it decodes to more than the %d bytes all may decode to (Options.MaxDecodeTotal)", ErrDecodeLimit, d.maxTotal)
	case err != nil:
		db.err = fmt.Errorf("it does not decode: %w", err)
	default:
		d.used += int64(len(data))
		db.data = data
	}
	return db
}

// forget drops what was decoded of object num, which an update replaced.
func (d *decoder) forget(num int) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.done, num)
}

// objectData returns the bytes of the object at index ind of object
// stream num, as pdfcpu's lazy object would (from its offset to the next
// object's, the last to the end of the stream).
func (d *decoder) objectData(num, ind int) ([]byte, error) {
	d.mu.Lock()
	read := d.done[num]
	ready := read != nil && read.objects && read.err == nil
	d.mu.Unlock()
	if ready {
		// Its header read before, from the same stream, found in the
		// table then (an update that replaces the object makes the
		// decoder forget it): no look-up in the table, whose hundred
		// thousand entries cost a cache miss each.
		return read.object(num, ind)
	}
	e := d.entry(num)
	if e.none() || e.free() {
		return nil, fmt.Errorf("object stream %d does not exist", num)
	}
	osd, ok := e.object().(types.ObjectStreamDict)
	if !ok {
		return nil, fmt.Errorf("object %d is %s, not an object stream", num, typeName(e.object()))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.allObjectStreams()
	db := d.decodeLocked(num, &osd.StreamDict)
	if db.err != nil {
		return nil, fmt.Errorf("object stream %d: %w", num, db.err)
	}
	if !db.objects {
		db.objects = true
		db.starts, db.err = objectStarts(db.data, osd.FirstObjOffset)
		if db.err != nil {
			return nil, fmt.Errorf("object stream %d: %w", num, db.err)
		}
	}
	return db.object(num, ind)
}

// object is the bytes of object ind of object stream num, whose starts
// were read.
func (db *decodedBytes) object(num, ind int) ([]byte, error) {
	if ind < 0 || ind >= len(db.starts) {
		return nil, fmt.Errorf("object stream %d has no object %d", num, ind)
	}
	end := len(db.data)
	if ind+1 < len(db.starts) {
		end = db.starts[ind+1]
	}
	if db.starts[ind] > end || end > len(db.data) {
		return nil, fmt.Errorf("object stream %d: object %d lies outside it", num, ind)
	}
	return db.data[db.starts[ind]:end], nil
}

// allObjectStreams decodes every object stream, in the order of their
// object numbers, when the first object of one is needed: which streams
// fit under Options.MaxDecodeTotal is then the same whatever asks first
// (a read, an update's first look at every object, a result read back),
// so the same file reads the same every time. It costs no more than
// decoding them as asked: a whole read looks at every object (scanObjects,
// firstFree).
func (d *decoder) allObjectStreams() {
	if d.objStms {
		return
	}
	d.objStms = true
	// (The streams are found first and only they are sorted: a file's
	// table has a hundred thousand numbers, its object streams hundreds.)
	var streams []int
	isStream := func(e *model.XRefTableEntry) bool {
		if e == nil || e.Free {
			return false
		}
		_, ok := e.Object.(types.ObjectStreamDict)
		return ok
	}
	if d.cents != nil {
		for n := range d.cents {
			if c := &d.cents[n]; c.flags&(cIn|cFree) == cIn {
				if _, ok := c.obj.(types.ObjectStreamDict); ok {
					streams = append(streams, n)
				}
			}
		}
	} else if d.byNum != nil {
		for n, e := range d.byNum {
			if isStream(e) {
				streams = append(streams, n)
			}
		}
	} else {
		for n, e := range d.xt.Table {
			if isStream(e) {
				streams = append(streams, n)
			}
		}
		slices.Sort(streams)
	}
	for _, n := range streams {
		osd := d.entry(n).object().(types.ObjectStreamDict)
		d.decodeLocked(n, &osd.StreamDict)
	}
}

// entry is the table's entry for object num, or nil: from the read's
// index (byNum) where there is one, which the read may have let go of
// pdfcpu's map for (dropTable).
func (d *decoder) entry(num int) ent {
	if d.cents != nil {
		return centryAt(d.cents, num)
	}
	if d.byNum != nil {
		if num < 0 || num >= len(d.byNum) {
			return ent{}
		}
		return pent(d.byNum[num])
	}
	return pent(d.xt.Table[num])
}

// objectStarts reads an object stream's header ("num offset" pairs before
// first) as pdfcpu's parseObjectStream does: a comment cut off, NUL taken
// for white space, offsets from first that never decrease.
func objectStarts(data []byte, first int) ([]int, error) {
	if first < 0 || first > len(data) {
		return nil, fmt.Errorf("/First %d is outside its %d bytes", first, len(data))
	}
	prolog := data[:first]
	if i := bytes.IndexByte(prolog, '%'); i >= 0 {
		prolog = prolog[:i]
	}
	count := headerFields(prolog, nil)
	if count%2 != 0 {
		return nil, errors.New("its header of object numbers and offsets is corrupt")
	}
	starts := make([]int, 0, count/2)
	var err error
	headerFields(prolog, func(i int, w []byte) bool {
		if i%2 == 0 {
			return true
		}
		off, aerr := strconv.Atoi(string(w))
		if aerr != nil || off < 0 || first+off > len(data) || len(starts) > 0 && first+off < starts[len(starts)-1] {
			err = fmt.Errorf("its header gives object %d the offset %q", i/2, w)
			return false
		}
		starts = append(starts, first+off)
		return true
	})
	if err != nil {
		return nil, err
	}
	return starts, nil
}

// lazyData returns the bytes of an object pdfcpu left in its object
// stream, decoding the stream (once) within the caps.
func (d *decoder) lazyData(e ent) ([]byte, error) {
	if _, ok := e.object().(filedObject); ok {
		return filedText(d.file, entOffset(e))
	}
	stm, ind, ok := e.inStream()
	if !ok {
		// (pdfcpu made it without saying where: its own decode, bounded
		// by its limit, which config sets to Options.MaxStreamDecode.)
		if l, ok := e.object().(types.LazyObjectStreamObject); ok {
			return l.GetData()
		}
		return nil, errors.New("no object stream holds it")
	}
	return d.objectData(stm, ind)
}

// load returns an entry's object, parsing it first when pdfcpu left it in
// its object stream (pdfcpu v0.15 parses those lazily), and keeps the
// result in the entry. The common syntax is parsed by parseCompressed,
// the rest by pdfcpu's parser, as pdfcpu parses an object of an object
// stream (compressedObject).
func (d *decoder) load(e ent) (types.Object, error) {
	o := e.object()
	if s, ok := o.(slimStream); ok {
		return s.expand(d.src), nil
	}
	if po, ok := o.(plannedObject); ok {
		if d, ok := po.p.dict(); ok {
			return d, nil
		}
		return nil, errors.New("the content set written makes no dictionary")
	}
	if !unparsed(o) {
		return o, nil
	}
	if _, ok := o.(filedObject); ok {
		return d.loadFiled(e)
	}
	data, err := d.lazyData(e)
	if err != nil {
		return nil, err
	}
	var free *[]types.Dict
	if d.readOnly {
		free = &d.free
	}
	ob, ok := parseCompressedReuse(data, d.share, free)
	if !ok {
		if ob, err = compressedObject(data); err != nil {
			return nil, err
		}
	}
	if ob == nil {
		return nil, errors.New("pdfcpu found no object at its place in the object stream")
	}
	if d.readOnly {
		d.parsed, d.last = d.parsed+1, ob
	}
	e.setObject(ob)
	return ob, nil
}

// compressedObject parses an object of an object stream with pdfcpu's
// parser, which may not be a stream (pdfcpu's compressedObject).
func compressedObject(data []byte) (types.Object, error) {
	return lazyCompressed(context.Background(), string(data))
}

// loadFiled parses again a top-level dictionary a read let go of
// (filedObject), as load parses an object of an object stream.
func (d *decoder) loadFiled(e ent) (types.Object, error) {
	dict, err := filedDict(d.file, entOffset(e), d.share, &d.free)
	if err != nil {
		return nil, err
	}
	d.parsed, d.last = d.parsed+1, dict
	e.setObject(dict)
	return dict, nil
}
