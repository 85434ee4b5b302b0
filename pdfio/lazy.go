package pdfio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/filter"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// pdfcpu v0.15's ReadContext reads an object at a time through a buffered
// reader, copies each object's text into a string and parses it rune by
// rune, and copies every stream's bytes: on a file of 20,000 pages that is
// most of the cost of a read. lazyParse builds the same model.Context from
// the bytes in place, for the files whose structure is plain: it reads the
// cross-reference sections itself (tables and streams, through /Prev, the
// chain badSection has checked whole), parses each top-level object at its
// offset with the fast parser (parseCompressed's, which gives back exactly
// what pdfcpu's parser would; the reader's whole-file checks look at every
// object's type, so these are all parsed, but without a copy; on a read
// a dictionary is let go of at once, parsed again when used: filed.go), keeps a
// stream's bytes as a slice of the file's, and leaves the objects of
// object streams unparsed, decoded and parsed by the decoder (decode.go)
// when the walk reaches them, as before. What the fast parser declines of
// an object without a stream goes to pdfcpu's own parser
// (ParseObjectWithContext, its parser of record). Anything else it is not
// sure of (damage, encryption, a hybrid file, a filter alias, an indirect
// /Filter, a header that does not match its entry, an offset off the end,
// an object stream missing or malformed, a panic...) makes it give up, and
// the file is read as before (parse: ReadContext and its repairs), so no
// file reads worse. TestLazyParseDifferential and FuzzLazyParse hold the
// two to the same Document and the same audit.

// eagerOnly makes every read use pdfcpu's ReadContext alone, never
// lazyParse: the differential tests set it (SetEagerOnly) to read each
// file both ways.
var eagerOnly atomic.Bool

// errLazy says lazyParse gave up: the file is read by pdfcpu instead.
var errLazy = errors.New("not plain: read by pdfcpu")

// lazyParse builds the model.Context of b as pdfcpu's ReadContext would,
// or fails with errLazy (or the context's error) when it cannot be sure.
func lazyParse(b []byte, opts Options) (ctx *model.Context, err error) {
	ctx, _, err = lazyParseShared(b, opts, nil)
	return ctx, err
}

// lazyParseShared is lazyParse with the objects it parses made through
// share (nil: none), for a read (valueShare). filed are then the numbers
// of the top-level dictionaries the fast parser parsed whole and let go
// of (filedObject): the read parses them again from the file.
func lazyParseShared(b []byte, opts Options, share *valueShare) (ctx *model.Context, filed objSet, err error) {
	ctx, filed, _, err = lazyParseRefs(b, opts, share)
	return ctx, filed, err
}

// parsedRefs are what an update's lazyParse saw of the references of
// the objects it parsed with the fast parser (counted): the largest
// object number among them (max), which firstFree would otherwise find
// by loading every object again and walking its maps (0.07 s of a build
// of 100,000 page sets). An object whose text gives a key twice is not
// counted (the value dropped may hold a reference): firstFree walks it.
type parsedRefs struct {
	counted objSet
	max     int
}

// lazyParseRefs is lazyParseShared, with the references it saw where
// share is nil (an update's parse; nil otherwise: a read's share gives
// back values it did not parse again).
func lazyParseRefs(b []byte, opts Options, share *valueShare) (ctx *model.Context, filed objSet, refs *parsedRefs, err error) {
	defer func() {
		if p := recover(); p != nil {
			ctx, filed, refs, err = nil, nil, nil, errLazy
		}
	}()
	if !plainHeader(b) {
		return nil, nil, nil, errLazy
	}
	off, err := lastStartXRef(b)
	if err != nil {
		return nil, nil, nil, errLazy
	}
	if at, ok := startXRefAsPDFCPU(b); !ok || at != off {
		return nil, nil, nil, errLazy // (pdfcpu reads another section first, or rebuilds the table)
	}
	if _, why := badSection(b, off); why != "" {
		return nil, nil, nil, errLazy
	}
	conf := config(opts)
	conf.Limits.MaxXRefEntries = xrefEntryLimit(len(b))
	ctx, err = model.NewContext(bytes.NewReader(b), conf)
	if err != nil {
		return nil, nil, nil, errLazy
	}
	parent := opts.Context
	if parent == nil {
		parent = context.Background()
	}
	goctx, cancel := context.WithTimeout(parent, opts.Timeout)
	defer cancel()
	l := &lazy{b: b, ctx: ctx, goctx: goctx, parent: parent, timeout: opts.Timeout, objStms: map[int]objStm{}, zeroGen: new(int), share: share}
	if share == nil {
		l.refs = &parsedRefs{}
	}
	if err := l.header(); err != nil {
		return nil, nil, nil, err
	}
	ctx.Write.OffsetPrevXRef = &off
	if err := l.sections(off); err != nil {
		return nil, nil, nil, err
	}
	if err := ctx.EnsureValidFreeList(); err != nil {
		return nil, nil, nil, errLazy
	}
	if err := l.objects(); err != nil {
		return nil, nil, nil, err
	}
	return ctx, l.filed, l.refs, nil
}

// startXRefAsPDFCPU is the offset pdfcpu's offsetLastXRefSection takes
// from the file's end; ok is false where it takes none, or goes on
// looking further back: it reads the end 512 bytes at a time, so never
// sees a "startxref" in the first len(b)%512 bytes; it wants "%%EOF" (or
// a start of it at the very end) after the offset, and the text between
// them, trimmed, to be the number alone (FuzzLazyParse found a file
// ending in "startxref\n2189", which pdfcpu reads by rebuilding its
// table, and lazyParse read through its cross-reference stream); an
// offset of 0, or past the end, sends it further back.
func startXRefAsPDFCPU(b []byte) (int64, bool) {
	i := bytes.LastIndex(b, []byte("startxref"))
	block := min(512, len(b))
	if i < 0 || block == 0 || i < len(b)%block {
		return 0, false
	}
	start := i + len("startxref")
	if start >= len(b) {
		return 0, false
	}
	p := string(b[start+1:])
	end := strings.Index(p, "%%EOF")
	if end < 0 {
		for _, suffix := range []string{"%%EO", "%%E", "%%", "%"} {
			if strings.HasSuffix(p, suffix) {
				end = len(p) - len(suffix)
				break
			}
		}
	}
	if end < 0 {
		return 0, false
	}
	text := strings.TrimSpace(strings.TrimRight(strings.TrimSpace(p[:end]), "%"))
	off, err := strconv.ParseInt(text, 10, 64)
	if err != nil || off <= 0 || off >= int64(len(b)) {
		return 0, false
	}
	return off, true
}

// plainHeader: the file begins with %PDF-M.m and an end of line, where
// pdfcpu finds its version at offset 0.
func plainHeader(b []byte) bool {
	if len(b) < 9 || !bytes.HasPrefix(b, []byte("%PDF-")) {
		return false
	}
	_, err := model.PDFVersion(string(b[5:8]))
	return err == nil
}

type lazy struct {
	b     []byte
	ctx   *model.Context
	goctx context.Context // the read's context, with Options.Timeout
	// parent and timeout say why goctx is done (stopped).
	parent  context.Context
	timeout time.Duration
	// zeroGen is the generation of every object of an object stream: an
	// int of its own, not a field of l, which the table's entries would
	// then keep alive after the read (and with l, every stream's lazy
	// objects in objStms).
	zeroGen *int
	// objStms are the object streams read (objectStream), by number.
	objStms map[int]objStm
	share   *valueShare // (value: a read's only)
	refs    *parsedRefs // (an update's: load counts the references it parses)
	// refMax and refDup are value's parser's, for the object it parsed
	// last (objParser).
	refMax int
	refDup bool
	// lastStm and last are the stream compressed found last (the
	// objects of a stream are mostly met together).
	lastStm int
	last    objStm
	// packed are the entries of objects in object streams, in the order
	// the cross-reference streams list them (streamEntries).
	packed []*model.XRefTableEntry
	// stm is the object stream number the entry of a read listed last
	// points at, shared by the entries after it in the same stream; inds
	// are the indexes in a stream, 0, 1, 2..., shared by every stream
	// (shared).
	stmNum int64
	stm    *int
	inds   []int
	// filed are the top-level dictionaries the fast parser parsed whole,
	// on a read (lazyParseShared), and let go of; free holds their maps,
	// emptied, for value to parse the next object into.
	filed objSet
	free  []types.Dict
}

// mayFile reports whether a read lets go of top-level dictionary d,
// object n, once parsed (filed.go): not the catalog or /Info, which
// pdfcpu reads itself, nor a linearization parameter dictionary.
func (l *lazy) mayFile(n int, d types.Dict) bool {
	if l.share == nil || d.IsLinearizationParmDict() {
		return false
	}
	for _, ir := range []*types.IndirectRef{l.ctx.Root, l.ctx.Info} {
		if ir != nil && ir.ObjectNumber.Value() == n {
			return false
		}
	}
	return true
}

// stopped is the error that ends the read once goctx is done, as parse
// says it: the caller's cause, or ErrTimeout; nil until then.
func (l *lazy) stopped() error {
	switch {
	case l.goctx.Err() == nil:
		return nil
	case l.parent.Err() != nil:
		return context.Cause(l.parent)
	}
	return fmt.Errorf("%w (more than %v)", ErrTimeout, l.timeout)
}

// header sets the header version and its end of line as headerVersion does.
// pdfcpu looks for the end of line in the first headerBuf bytes it reads
// (scanForVersion), and finds no header in a file of fewer than 19 bytes:
// a header whose line ends past them is its ErrCorruptHeader, left to it.
func (l *lazy) header() error {
	const headerBuf = 100
	if len(l.b) < 19 {
		return errLazy
	}
	v, err := model.PDFVersion(string(l.b[5:8]))
	if err != nil {
		return errLazy
	}
	s := bytes.TrimLeft(l.b[8:min(len(l.b), headerBuf)], "\t\f ")
	j := bytes.IndexAny(s, "\n\r")
	if j < 0 {
		return errLazy
	}
	l.ctx.Read.EolCount = 1
	if s[j] == '\r' && j+1 < len(s) && s[j+1] == '\n' {
		l.ctx.Read.EolCount = 2
	}
	l.ctx.HeaderVersion = &v
	return nil
}

// sections reads the sections from off through /Prev, newest first, as
// buildXRefTableStartingAt does: an object's first entry is kept.
func (l *lazy) sections(off int64) error {
	seen := map[int64]bool{}
	for incr := 1; ; incr++ {
		if err := l.stopped(); err != nil {
			return err
		}
		if seen[off] || incr > maxSections {
			return errLazy
		}
		seen[off] = true
		var d types.Dict
		var err error
		if rest := l.b[off:]; bytes.HasPrefix(rest, []byte("xref")) {
			d, err = l.table(off, incr)
		} else {
			d, err = l.xrefStream(off, incr)
		}
		if err != nil {
			return err
		}
		if err := l.trailer(d); err != nil {
			return err
		}
		prev, has := d["Prev"]
		if !has {
			return nil
		}
		p, ok := prev.(types.Integer)
		if !ok || p <= 0 || int64(p) >= int64(len(l.b)) {
			return errLazy // (pdfcpu scans for a section before a /Prev 0)
		}
		off = int64(p)
	}
}

// trailer takes from a section's dictionary what parseTrailer does; an
// encrypted, hybrid or odd one is left to pdfcpu.
func (l *lazy) trailer(d types.Dict) error {
	xt := l.ctx.XRefTable
	for _, k := range []string{"Encrypt", "XRefStm", "AdditionalStreams"} {
		if _, has := d[k]; has {
			return errLazy
		}
	}
	if xt.Size == nil {
		size, ok := d["Size"].(types.Integer)
		if !ok {
			return errLazy
		}
		n := int(size)
		xt.Size = &n
	}
	if xt.Root == nil {
		ir, ok := d["Root"].(types.IndirectRef)
		if !ok {
			return errLazy
		}
		xt.Root = &ir
	}
	if xt.Info == nil {
		if o, has := d["Info"]; has {
			ir, ok := o.(types.IndirectRef)
			if !ok {
				return errLazy
			}
			xt.Info = &ir
		}
	}
	if xt.ID == nil {
		if o, has := d["ID"]; has {
			a, ok := o.(types.Array)
			if !ok || len(a) != 2 {
				return errLazy
			}
			xt.ID = a
		}
	}
	return nil
}

// table reads a classic table at off: "xref", subsections of 20-byte
// entries, "trailer" and its dictionary; anything else is left to pdfcpu.
func (l *lazy) table(off int64, incr int) (types.Dict, error) {
	b := l.b
	i := int(off) + len("xref")
	i = lineEnd(b, i)
	if i < 0 {
		return nil, errLazy
	}
	xt := l.ctx.XRefTable
	for {
		if bytes.HasPrefix(b[i:], []byte("trailer")) {
			p := objParser{b: b, i: i + len("trailer")}
			o, ok := p.value(0)
			d, isDict := o.(types.Dict)
			if !ok || !isDict {
				return nil, errLazy
			}
			return d, nil
		}
		start, n, next, ok := subsectionHeader(b, i)
		if !ok || n < 0 || next+20*n > len(b) {
			return nil, errLazy
		}
		i = next
		var s entrySlab
		for k := range n {
			e := b[i : i+20]
			if !standardEntry(e[:18]) || !(string(e[18:]) == " \n" || string(e[18:]) == " \r" || string(e[18:]) == "\r\n") {
				return nil, errLazy
			}
			i += 20
			num := start + k
			if xt.Exists(num) {
				continue
			}
			entry, off := s.entry(n - k)
			*off = digits(e[:10])
			gen := l.zeroGen // (a read's: nothing reading the table writes an object's generation)
			if g := int(digits(e[11:16])); g != 0 || e[17] == 'f' || l.share == nil {
				gen = s.num(n - k)
				*gen = g
			}
			*entry = model.XRefTableEntry{Offset: off, Generation: gen, Incr: incr}
			if e[17] == 'f' {
				entry.Free = true
			} else if *off < 9 || *off >= int64(len(b)) {
				return nil, errLazy // (pdfcpu skips it, or cannot read it)
			}
			xt.Table[num] = entry
		}
	}
}

// An entrySlab makes a section's entries, and the numbers they point to,
// a block of them at a time: 100,000 entries were 300,000 small objects
// for the collector to mark, read after read. A block is at most
// slabBlock entries, so that a section that lies about its size costs
// no more than the entries it has.
type entrySlab struct {
	entries []model.XRefTableEntry
	offs    []int64
	ints    []int
}

const slabBlock = 4096

// next is a new entry and an offset and two numbers of its own; left is
// how many more the section may need (it sizes a new block).
func (s *entrySlab) next(left int) (e *model.XRefTableEntry, off *int64, gen, ind *int) {
	e, off = s.entry(left)
	return e, off, s.num(left), s.num(left)
}

// entry is a new entry and an offset of its own.
func (s *entrySlab) entry(left int) (e *model.XRefTableEntry, off *int64) {
	return s.bare(left), s.off(left)
}

// bare is a new entry, made as entry makes them.
func (s *entrySlab) bare(left int) *model.XRefTableEntry {
	if len(s.entries) == 0 {
		s.entries = make([]model.XRefTableEntry, min(max(left, 1), slabBlock))
	}
	e := &s.entries[0]
	s.entries = s.entries[1:]
	return e
}

// off is a new offset, made as entry makes them.
func (s *entrySlab) off(left int) *int64 {
	if len(s.offs) == 0 {
		s.offs = make([]int64, min(max(left, 1), slabBlock))
	}
	off := &s.offs[0]
	s.offs = s.offs[1:]
	return off
}

// num is a number of its own (a generation, an index in an object
// stream), made as next makes entries: a read's table of a classic file
// points the generation 0 of objects in use at one number, and needs
// none.
func (s *entrySlab) num(left int) *int {
	if len(s.ints) == 0 {
		s.ints = make([]int, min(max(2*left, 1), 2*slabBlock))
	}
	n := &s.ints[0]
	s.ints = s.ints[1:]
	return n
}

// maxSharedInd bounds the indexes in an object stream that the entries
// of a read share (shared): pdfcpu's own limit on the objects of a
// stream (MaxObjectStreamCount) is 100,000, and writers put a few hundred
// in one.
const maxSharedInd = 1 << 12

// shared are the numbers an entry of an object in object stream stm, at
// index ind, points to (ObjectStream, ObjectStreamInd): on a read, the
// stream's number is one int for the entries listed one after another
// in the same stream, and the index one of inds, where each entry had
// two of its own (16 bytes an object; 88,000 pages of object streams
// have 440,000 objects). Nothing reading the table writes them; an
// update's entries (no share) keep their own, made by s.
func (l *lazy) shared(s *entrySlab, left int, stm, ind int64) (*int, *int) {
	if l.share == nil {
		n, i := s.num(left), s.num(left)
		*n, *i = int(stm), int(ind)
		return n, i
	}
	if l.stm == nil || l.stmNum != stm {
		l.stm, l.stmNum = s.num(left), stm
		*l.stm = int(stm)
	}
	if ind < 0 || ind >= maxSharedInd {
		i := s.num(left)
		*i = int(ind)
		return l.stm, i
	}
	if int(ind) >= len(l.inds) {
		inds := make([]int, min(max(2*len(l.inds), int(ind)+1, 64), maxSharedInd)) // (a new array: the entries made point into the old one)
		for i := range inds {
			inds[i] = i
		}
		l.inds = inds
	}
	return l.stm, &l.inds[ind]
}

// digits is the value of b, decimal digits (standardEntry checked).
func digits(b []byte) (v int64) {
	for _, c := range b {
		v = v*10 + int64(c-'0')
	}
	return v
}

// lineEnd is where the line after b[i:] (spaces, then an end of line)
// begins, or -1.
func lineEnd(b []byte, i int) int {
	for i < len(b) && b[i] == ' ' {
		i++
	}
	switch {
	case i+1 < len(b) && b[i] == '\r' && b[i+1] == '\n':
		return i + 2
	case i < len(b) && (b[i] == '\r' || b[i] == '\n'):
		return i + 1
	}
	return -1
}

// subsectionHeader reads "start count" and its end of line at i.
func subsectionHeader(b []byte, i int) (start, n, next int, ok bool) {
	num := func() (int, bool) {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == i || j-i > 9 {
			return 0, false
		}
		v, _ := strconv.Atoi(string(b[i:j]))
		i = j
		return v, true
	}
	if start, ok = num(); !ok || i >= len(b) || b[i] != ' ' {
		return 0, 0, 0, false
	}
	i++
	if n, ok = num(); !ok {
		return 0, 0, 0, false
	}
	if next = lineEnd(b, i); next < 0 {
		return 0, 0, 0, false
	}
	return start, n, next, true
}

// objHeader reads "num gen obj" at off (after white space), and returns
// where the object's value begins.
func objHeader(b []byte, off int64) (num, gen, at int, ok bool) {
	if off < 0 || off >= int64(len(b)) {
		return 0, 0, 0, false
	}
	i := int(off)
	for i < len(b) && asciiSpace(b[i]) {
		i++
	}
	var vals [2]int
	for k := range vals {
		j := i
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		if j == i || j-i > 9 || j >= len(b) || b[j] != ' ' {
			return 0, 0, 0, false
		}
		vals[k], _ = strconv.Atoi(string(b[i:j]))
		i = j + 1
	}
	if !bytes.HasPrefix(b[i:], []byte("obj")) || i+3 >= len(b) || !(cpuSpace(b[i+3]) || isDelimiter(b[i+3])) {
		return 0, 0, 0, false
	}
	return vals[0], vals[1], i + 3, true
}

// value parses the object at off with the fast parser: its value, and
// where the keyword after it ("endobj" or "stream") begins. ok is false
// when the fast parser declines, or pdfcpu could see the object's
// keywords elsewhere (its text holds "stream" or "endobj").
func (l *lazy) value(num, gen int, off int64) (o types.Object, end int, ok bool) {
	n, g, at, ok := objHeader(l.b, off)
	if !ok || n != num || g != gen {
		return nil, 0, false
	}
	p := objParser{b: l.b, i: at, share: l.share}
	if l.share != nil {
		p.free = &l.free
	}
	o, ok = p.topValue()
	if !ok || o == nil {
		return nil, 0, false
	}
	l.refMax, l.refDup = p.refMax, p.refDup
	text := l.b[at:p.i]
	if bytes.Contains(text, []byte("stream")) || bytes.Contains(text, []byte("endobj")) {
		return nil, 0, false
	}
	if j := p.skipFrom(p.i); j < 0 {
		return nil, 0, false
	} else {
		p.i = j
	}
	return o, p.i, true
}

// stream makes the stream whose dictionary is d and whose keyword
// "stream" is at i, as pdfcpu's loadStreamDict would with its data in
// place; ok is false for what pdfcpu reads its own way.
func (l *lazy) stream(d types.Dict, i int) (types.StreamDict, bool) {
	b := l.b
	i += len("stream")
	for i < len(b) && b[i] == ' ' {
		i++
	}
	switch {
	case i+1 < len(b) && b[i] == '\r' && b[i+1] == '\n':
		i += 2
	case i < len(b) && (b[i] == '\n' || b[i] == '\r'):
		i++
	default:
		return types.StreamDict{}, false
	}
	n, ok := l.length(d)
	if ok && n == 0 && !emptyStream(b[i:]) {
		ok = false // (pdfcpu reads to "endstream", and corrects /Length)
	}
	if !ok || n < 0 || n > int64(len(b)-i) || n > l.ctx.Configuration.Limits.MaxStreamBytes {
		return types.StreamDict{}, false
	}
	pipe, ok := filterPipeline(d)
	if !ok {
		return types.StreamDict{}, false
	}
	var length *int64
	var lengthRef *int
	if ir, isRef := d["Length"].(types.IndirectRef); isRef {
		k := ir.ObjectNumber.Value()
		lengthRef = &k
	}
	length = &n
	sd := types.NewStreamDict(d, int64(i), length, lengthRef, pipe)
	sd.Raw = b[i : int64(i)+n : int64(i)+n]
	return sd, true
}

// length is a stream's /Length: an integer, or an object holding one
// (parsed where the table puts it).
func (l *lazy) length(d types.Dict) (int64, bool) {
	switch v := d["Length"].(type) {
	case types.Integer:
		return int64(v), true
	case types.IndirectRef:
		e, ok := l.ctx.Table[v.ObjectNumber.Value()]
		if !ok || e.Free || e.Compressed || e.Offset == nil {
			return 0, false
		}
		o, _, ok := l.value(v.ObjectNumber.Value(), genOf(e), *e.Offset)
		n, isInt := o.(types.Integer)
		return int64(n), ok && isInt
	}
	return 0, false
}

// filterPipeline is pdfFilterPipeline for the common forms: no /Filter, a
// name, or an array of names, with direct /DecodeParms; ok is false for
// anything pdfcpu would repair, dereference or refuse.
func filterPipeline(d types.Dict) ([]types.PDFFilter, bool) {
	o, has := d["Filter"]
	if !has {
		return nil, true
	}
	parms, hasParms := d["DecodeParms"]
	switch f := o.(type) {
	case types.Name:
		if !plainFilter(string(f)) {
			return nil, false
		}
		pf := types.PDFFilter{Name: string(f)}
		switch p := parms.(type) {
		case nil:
			if hasParms {
				return nil, false
			}
		case types.Dict:
			if len(p) > 0 {
				pf.DecodeParms = p
			}
		default:
			return nil, false
		}
		return []types.PDFFilter{pf}, true
	case types.Array:
		var parr types.Array
		supports := false
		for _, e := range f {
			n, ok := e.(types.Name)
			if !ok || !plainFilter(string(n)) {
				return nil, false
			}
			supports = supports || filter.SupportsDecodeParms(string(n))
		}
		if hasParms && supports {
			if a, ok := parms.(types.Array); ok {
				if len(a) != len(f) {
					return nil, false
				}
				parr = a
			}
		}
		var pipe []types.PDFFilter
		for i, e := range f {
			pf := types.PDFFilter{Name: string(e.(types.Name))}
			if parr != nil && parr[i] != nil {
				p, ok := parr[i].(types.Dict)
				if !ok {
					return nil, false
				}
				pf.DecodeParms = p
			}
			pipe = append(pipe, pf)
		}
		return pipe, true
	}
	return nil, false
}

// plainFilter: a filter's full name (not an inline image's alias, which
// pdfcpu renames in the dictionary).
func plainFilter(n string) bool {
	switch n {
	case "AHx", "A85", "LZW", "Fl", "RL", "CCF", "DCT":
		return false
	}
	return true
}

// xrefStream reads the cross-reference stream at off as parseXRefStream
// does, and returns its dictionary.
func (l *lazy) xrefStream(off int64, incr int) (types.Dict, error) {
	num, gen, _, ok := objHeader(l.b, off)
	if !ok || secondLineHasXRef(l.b[off:]) {
		return nil, errLazy
	}
	o, end, ok := l.value(num, gen, off)
	d, isDict := o.(types.Dict)
	if !ok || !isDict || !bytes.HasPrefix(l.b[end:], []byte("stream")) {
		return nil, errLazy
	}
	if _, isInt := d["Length"].(types.Integer); !isInt {
		return nil, errLazy
	}
	sd, ok := l.stream(d, end)
	if !ok {
		return nil, errLazy
	}
	raw := sd.Raw
	sd.Raw = bytes.Clone(raw) // (decoding works on its own copy)
	if err := sd.DecodeWithLimit(model.DefaultResourceLimits().MaxDecodeBytes); err != nil {
		return nil, errLazy
	}
	xsd, err := model.ParseXRefStreamDictRelaxedWithLimits(&sd, l.ctx.Configuration.Limits)
	if err != nil {
		return nil, errLazy
	}
	l.ctx.Read.UsingXRefStreams = true
	if err := l.streamEntries(xsd, incr); err != nil {
		return nil, err
	}
	if e, ok := l.ctx.Table[num]; ok && e.Offset != nil && *e.Offset == off {
		e.Object = *xsd
	}
	return xsd.Dict, nil
}

// secondLineHasXRef: pdfcpu takes a section whose second line holds
// "xref" for a table written one line late (its repair for #326).
func secondLineHasXRef(b []byte) bool {
	i := bytes.IndexAny(b, "\r\n")
	if i < 0 {
		return true
	}
	rest := b[i+1:]
	if len(rest) > 0 && b[i] == '\r' && rest[0] == '\n' {
		rest = rest[1:]
	}
	if j := bytes.IndexAny(rest, "\r\n"); j >= 0 {
		rest = rest[:j]
	}
	return bytes.Contains(rest, []byte("xref"))
}

// streamEntries makes the entries of a cross-reference stream as
// extractXRefTableEntriesFromXRefStream does.
func (l *lazy) streamEntries(xsd *types.XRefStreamDict, incr int) error {
	w := xsd.W
	if len(w) != 3 {
		return errLazy
	}
	size := w[0] + w[1] + w[2]
	buf := xsd.Content
	if size == 0 || len(buf)%size != 0 || len(buf) < len(xsd.Objects)*size {
		return errLazy
	}
	field := func(b []byte) (v int64) {
		for _, c := range b {
			v = v<<8 | int64(c)
		}
		return v
	}
	xt := l.ctx.XRefTable
	n := min(len(buf)/size, len(xsd.Objects))
	// first: the table is empty and the stream lists each number once,
	// in increasing order (as writers do): no number can be in the table
	// already, and the look-up of each (a cache miss an entry in a
	// table of 100,000) is left out.
	first := len(xt.Table) == 0 && increasing(xsd.Objects)
	if len(xt.Table) == 0 {
		// The first section read sizes the table: 100,000 entries no
		// longer grow it eight times over. (n entries are each made
		// below, so the table costs no more than they do.)
		xt.Table = make(map[int]*model.XRefTableEntry, n)
	}
	var s entrySlab
	for j, i := 0, 0; i < len(buf) && j < len(xsd.Objects); i, j = i+size, j+1 {
		num := xsd.Objects[j]
		if !first && xt.Exists(num) {
			continue
		}
		c1 := int64(1)
		if w[0] > 0 {
			c1 = field(buf[i : i+w[0]])
		}
		c2 := field(buf[i+w[0] : i+w[0]+w[1]])
		c3 := field(buf[i+w[0]+w[1] : i+size])
		e := s.bare(n - j)
		switch c1 {
		case 0:
			off, gen := s.off(n-j), s.num(n-j)
			*off, *gen = c2, int(c3)
			*e = model.XRefTableEntry{Free: true, Offset: off, Generation: gen, Incr: incr}
		case 1:
			if c2 < 9 || c2 >= int64(len(l.b)) {
				return errLazy
			}
			off, gen := s.off(n-j), l.zeroGen // (a read's, as for a table's entries)
			if c3 != 0 || l.share == nil {
				gen = s.num(n - j)
				*gen = int(c3)
			}
			*off = c2
			*e = model.XRefTableEntry{Offset: off, Generation: gen, Incr: incr}
		case 2:
			stm, ind := l.shared(&s, n-j, c2, c3) // (the stream's number, its index)
			*e = model.XRefTableEntry{Compressed: true, ObjectStream: stm, ObjectStreamInd: ind, Incr: incr}
			l.ctx.Read.ObjectStreams[int(c2)] = true
			l.packed = append(l.packed, e)
		default:
			return errLazy // (pdfcpu makes an empty entry)
		}
		xt.Table[num] = e
	}
	return nil
}

// increasing reports whether nums only increase (no number twice).
func increasing(nums []int) bool {
	for i := 1; i < len(nums); i++ {
		if nums[i] <= nums[i-1] {
			return false
		}
	}
	return true
}

// objects loads every object as dereferenceXRefTable does: the object
// streams first (their dictionaries and headers), then each object, those
// of object streams left unparsed (the decoder parses them when used).
func (l *lazy) objects() error {
	xt := l.ctx.XRefTable
	streams := slices.Sorted(func(yield func(int) bool) {
		for n := range l.ctx.Read.ObjectStreams {
			if !yield(n) {
				return
			}
		}
	})
	for _, n := range streams {
		if err := l.objectStream(n); err != nil {
			return err
		}
	}
	i := 0
	for n, e := range xt.Table {
		if i++; i%1024 == 0 {
			if err := l.stopped(); err != nil {
				return err
			}
		}
		l.ctx.MaxObjNr = max(l.ctx.MaxObjNr, n)
		switch {
		case e.Free, e.Compressed: // (compressed: below, in the order the streams list them)
		case e.Offset == nil || *e.Offset == 0 || e.Object != nil:
		default:
			if err := l.load(n, e); err != nil {
				return err
			}
		}
	}
	for i, e := range l.packed {
		if i%1024 == 0 {
			if err := l.stopped(); err != nil {
				return err
			}
		}
		if err := l.compressed(e); err != nil {
			return err
		}
	}
	if xt.Size == nil || *xt.Size != l.ctx.MaxObjNr+1 {
		size := l.ctx.MaxObjNr + 1
		xt.Size = &size
	}
	l.catalogLazy()
	return l.rootVersion()
}

// load parses the object of entry e, number n.
func (l *lazy) load(n int, e *model.XRefTableEntry) error {
	o, end, ok := l.value(n, genOf(e), *e.Offset)
	refMax, refDup := l.refMax, l.refDup // (l.stream may parse its /Length's object)
	switch {
	case !ok:
		// pdfcpu's parser decides, where the object has no stream.
		if num, gen, _, hok := objHeader(l.b, *e.Offset); !hok || num != n || gen != genOf(e) {
			return errLazy
		}
		po, err := pdfcpu.ParseObjectWithContext(l.goctx, l.ctx, *e.Offset, n, genOf(e))
		if err := l.stopped(); err != nil {
			return err
		}
		if err != nil {
			return errLazy
		}
		switch po.(type) {
		case types.StreamDict, types.ObjectStreamDict, types.XRefStreamDict:
			return errLazy
		}
		if err := model.ProcessRefCountsWithError(l.ctx.XRefTable, po); err != nil {
			return errLazy
		}
		o = po
	case bytes.HasPrefix(l.b[end:], []byte("endobj")):
		if d, isDict := o.(types.Dict); isDict && l.mayFile(n, d) {
			// A read parses it again when it uses it (filed.go); its map
			// is parsed into next (nothing else holds it: topValue shares
			// only a stream's dictionary).
			l.filed.add(n)
			clear(d)
			l.free = append(l.free, d)
			e.Object = filedObject{}
			return nil
		}
	case bytes.HasPrefix(l.b[end:], []byte("stream")):
		d, isDict := o.(types.Dict)
		if !isDict {
			return errLazy
		}
		sd, ok := l.stream(d, end)
		if !ok {
			return errLazy
		}
		o = sd
		if s, ok := slimmed(sd); ok && l.share != nil {
			o = s
		}
	default:
		return errLazy
	}
	if ok && l.refs != nil && !refDup { // (parsed by the fast parser, not pdfcpu's)
		l.refs.counted.add(n)
		l.refs.max = max(l.refs.max, refMax)
	}
	if d, isDict := o.(types.Dict); isDict && d.IsLinearizationParmDict() && !l.ctx.Read.Linearized {
		if err := l.linearized(n, d); err != nil {
			return err
		}
	}
	e.Object = o
	return nil
}

// objectStream makes object stream n's ObjectStreamDict as
// decodeObjectStream does: its header of numbers and offsets decoded,
// its objects left for later.
func (l *lazy) objectStream(n int) error {
	e, ok := l.ctx.Table[n]
	if !ok || e.Free || e.Compressed || e.Offset == nil {
		return errLazy
	}
	o, end, ok := l.value(n, genOf(e), *e.Offset)
	d, isDict := o.(types.Dict)
	if !ok || !isDict || !bytes.HasPrefix(l.b[end:], []byte("stream")) {
		return errLazy
	}
	sd, ok := l.stream(d, end)
	if !ok || !sd.IsObjStm() {
		return errLazy
	}
	osd, err := model.ObjectStreamDictWithLimits(&sd, l.ctx.Configuration.Limits)
	if err != nil {
		return errLazy
	}
	limits := l.ctx.Configuration.Limits
	prolog, err := osd.DecodeLengthWithLimit(int64(osd.FirstObjOffset), limits.MaxDecodeBytes)
	if err != nil || osd.FirstObjOffset > len(prolog) {
		return errLazy
	}
	prolog = prolog[:osd.FirstObjOffset]
	if i := bytes.IndexByte(prolog, '%'); i >= 0 {
		prolog = prolog[:i]
	}
	count := headerFields(prolog, nil)
	if count == 0 || count%2 != 0 || count/2 > limits.MaxObjectStreamCount {
		return errLazy
	}
	starts := make([]int, 0, count/2)
	bad := false
	headerFields(prolog, func(i int, w []byte) bool {
		if i%2 == 0 {
			return true
		}
		at, err := strconv.Atoi(string(w))
		at += osd.FirstObjOffset
		if bad = err != nil || at < osd.FirstObjOffset || len(starts) > 0 && at < starts[len(starts)-1]; bad {
			return false
		}
		starts = append(starts, at)
		return true
	})
	if bad {
		return errLazy
	}
	l.objStms[n] = objStm{osd, starts} // (not osd.ObjArray, whose lazy objects would outlive their parse: only decompression reads it)
	l.ctx.Read.UsingObjectStreams = true
	e.Object = *osd
	return nil
}

// compressed points an entry at its object in its object stream, as
// decompressXRefTableEntry does.
func (l *lazy) compressed(e *model.XRefTableEntry) error {
	s := l.last
	if n := *e.ObjectStream; s.starts == nil || n != l.lastStm {
		var ok bool
		if s, ok = l.objStms[n]; !ok {
			return errLazy
		}
		l.lastStm, l.last = n, s
	}
	i := *e.ObjectStreamInd
	if i < 0 || i >= len(s.starts) {
		return errLazy // (osd.IndexedObject's error)
	}
	var o types.Object = packedObject{}
	if l.share == nil {
		o = s.object(i) // (an update's writer is pdfcpu's, which reads its own lazy objects)
	}
	e.Object, e.Generation, e.Compressed = o, l.zeroGen, false // (pdfcpu gives each its own 0; nothing reading the table writes it)
	return nil
}

// An objStm is an object stream read: its dictionary and where each of
// its objects begins in its decoded bytes.
type objStm struct {
	osd    *types.ObjectStreamDict
	starts []int
}

// object is pdfcpu's lazy object for object i of s, as
// parseObjectStream makes it: from its start to the next one's, the last
// to the end.
func (s objStm) object(i int) types.Object {
	end := -1
	if i+1 < len(s.starts) {
		end = s.starts[i+1]
	}
	return types.NewLazyObjectStreamObject(s.osd, s.starts[i], end, lazyCompressed)
}

// A packedObject stands in a read's table for an object of an object
// stream not parsed yet: the entry's ObjectStream and ObjectStreamInd say
// where it is, and the decoder parses it when it is used (decoder.load).
// It takes no memory: a pdfcpu lazy object was an allocation of 64 bytes
// for each of the 80,000 objects of the 20k-page object-stream file.
// pdfcpu itself reads one object of a read's table, the catalog, which
// stays a lazy object of its own (catalogLazy).
type packedObject struct{}

func (packedObject) Clone() types.Object { return packedObject{} }
func (packedObject) PDFString() string   { return "" }
func (packedObject) String() string      { return "" }

// unparsed reports whether o is an object of an object stream not parsed
// yet, pdfcpu's lazy object or a read's packedObject, or a top-level
// dictionary a read let go of (filedObject).
func unparsed(o types.Object) bool {
	switch o.(type) {
	case packedObject, filedObject, types.LazyObjectStreamObject:
		return true
	}
	return false
}

// catalogLazy makes the catalog, where it is a packedObject, pdfcpu's
// lazy object: pdfcpu reads it (ParseRootVersion, Catalog) and parses it
// itself.
func (l *lazy) catalogLazy() {
	r := l.ctx.Root
	if r == nil {
		return
	}
	e, ok := l.ctx.Table[r.ObjectNumber.Value()]
	if !ok || e == nil || e.ObjectStream == nil || e.ObjectStreamInd == nil {
		return
	}
	if _, packed := e.Object.(packedObject); packed {
		e.Object = l.objStms[*e.ObjectStream].object(*e.ObjectStreamInd)
	}
}

// rootVersion is identifyRootVersion.
func (l *lazy) rootVersion() error {
	xt := l.ctx.XRefTable
	s, err := xt.ParseRootVersion()
	if err != nil {
		return errLazy
	}
	if s == nil || *xt.HeaderVersion < model.V14 {
		return nil
	}
	v, err := model.PDFVersion(*s)
	if err != nil {
		if v, err = model.PDFVersionRelaxed(*s); err != nil {
			return nil
		}
	}
	xt.RootVersion = &v
	return nil
}

// lazyCompressed is pdfcpu's compressedObject, for the lazy objects
// lazyParse makes (pdfcpu decodes them itself only where it reads the
// catalog; the reader's decoder parses the others).
func lazyCompressed(c context.Context, s string) (types.Object, error) {
	o, err := model.ParseObjectContext(c, &s, 0)
	if err != nil {
		return nil, err
	}
	if d, ok := o.(types.Dict); ok {
		if n, ref := d.Length(); n != nil || ref != nil {
			return nil, errors.New("an object stream holds a stream")
		}
	}
	return o, nil
}

// emptyStream: "endstream" follows at most ends of line, so that pdfcpu,
// which reads a stream of /Length 0 up to "endstream" and cuts the ends
// of line before it, reads no bytes.
func emptyStream(b []byte) bool {
	return bytes.HasPrefix(bytes.TrimLeft(b, "\r\n"), []byte("endstream"))
}

// linearized records a linearization parameter dictionary as
// handleLinearizationParmDict does (the first one met: map order, as
// pdfcpu's); a malformed one, which fails pdfcpu's read, is left to it.
func (l *lazy) linearized(n int, d types.Dict) error {
	h := d.ArrayEntry("H")
	if len(h) != 2 && len(h) != 4 {
		return errLazy
	}
	p, ok := h[0].(types.Integer)
	if !ok {
		return errLazy
	}
	l.ctx.Read.Linearized = true
	l.ctx.LinearizationObjs[n] = true
	primary := int64(p)
	l.ctx.OffsetPrimaryHintTable = &primary
	if len(h) == 4 {
		o, ok := h[2].(types.Integer)
		if !ok {
			return errLazy
		}
		overflow := int64(o)
		l.ctx.OffsetOverflowHintTable = &overflow
	}
	return nil
}
