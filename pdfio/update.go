package pdfio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/webcapture"
)

// An Update appends new and changed objects to a PDF file as an incremental
// update (PDF 1.7 §3.4.5): the original bytes stay exactly as they are (a
// signature's byte range stays valid), then come the objects, then a
// cross-reference section of the file's own flavour (a table, or a stream
// for files that use cross-reference streams) whose trailer points back
// with /Prev. The file is parsed by the lazy reader (lazy.go) where it is
// plain, by pdfcpu where not (updateParse); pdfcpu never writes a byte.
type Update struct {
	orig     []byte
	spare    []byte // orig as given, with its capacity: the room AppendInPlace writes in
	ctx      *model.Context
	dec      *decoder // decodes the parse's streams once, within the caps (shared with Document's reader)
	prev     int64    // the offset of the last cross-reference section
	objs     objectWriter
	firstNew int        // the first number the update gives a new object: one below it that is written replaces an object
	names    types.Dict // the catalog's /Names as SetNameTree changed it; nil if untouched
	namesRef *types.IndirectRef
	files    []treeEntry // the /EmbeddedFiles tree's entries, once Attach adds one (attach.go)

	catalogEdits types.Dict // catalog entries to set
	pages        *pageTree  // the page tree, once AppendPages or ReplacePages edit it
	tags         *tagState  // the structure tree, once AppendPages or ReplacePages extend it
	outline      *outlineState
	seal         *sealState // the placeholder AddSeal wrote

	// plan is what the update was given to write (its trees, its
	// content sets), for Result's reader (result_model.go).
	plan resultPlan

	name string
	opts Options

	unwritable  error // why the file cannot be updated (OpenUpdate), said by Bytes
	parsedWhole bool  // Result read the output whole, not from this parse (for tests)
}

// ErrEncryptedWrite: writing to encrypted files is not supported.
var ErrEncryptedWrite = errors.New("writing to an encrypted file is not supported")

// NewUpdate parses orig for an update. name is used in errors.
func NewUpdate(orig []byte, name string, opts Options) (*Update, error) {
	u, err := OpenUpdate(orig, name, opts)
	if err != nil {
		return nil, err
	}
	if u.unwritable != nil {
		return nil, u.unwritable
	}
	return u, nil
}

// OpenUpdate is NewUpdate for a file that is read before it is changed
// (Document), parsed once for both: it fails only when orig cannot be read
// (the errors of ReadBytes). Why a file that can be read cannot be updated
// (it is encrypted, its startxref reaches no cross-reference section) is
// said when the update is written (Bytes), so that a command can read and
// report on such a file first.
func OpenUpdate(orig []byte, name string, opts Options) (*Update, error) {
	opts = opts.withDefaults()
	spare := orig
	orig = orig[:len(orig):len(orig)] // (nothing made from it appends into the room)
	if int64(len(orig)) > opts.MaxFileSize {
		return nil, &Error{File: name, Op: "read", Err: &limits.SizeError{Size: int64(len(orig)), Max: opts.MaxFileSize}}
	}
	ctx, refs, err := updateParseRefs(orig, opts)
	if err != nil {
		return nil, &Error{File: name, Op: "parse", Err: parseError(orig, err)}
	}
	u := &Update{orig: orig, spare: spare, name: name, opts: opts, ctx: ctx, dec: newDecoder(ctx.XRefTable, opts)}
	if ctx.Encrypt != nil {
		u.unwritable = &Error{File: name, Op: "update", Err: ErrEncryptedWrite}
		return u, nil
	}
	if u.prev, err = lastStartXRef(orig); err != nil {
		u.unwritable = &Error{File: name, Op: "update", Err: err}
		return u, nil
	}
	if l, loops := findPrevLoop(orig); loops {
		u.unwritable = &Error{File: name, Op: "update", Err: fmt.Errorf("the cross-reference data is damaged (the section at offset %d has /Prev %d, a section already read: the /Prev chain loops), and an update would chain into the loop: rewrite the file first (e.g. qpdf in.pdf out.pdf)", l.section, l.prev)}
		return u, nil
	}
	u.firstNew = firstFree(orig, u.dec, ctx, u.prev, refs)
	u.objs = objectWriter{next: u.firstNew}
	return u, nil
}

// updateParse parses the file an update is made on as readBytes does: by
// the lazy reader where the file is plain, else (damage, encryption, an
// oddity: errLazy) by pdfcpu's ReadContext and its repairs, as before.
// The two build the same model.Context (TestLazyParseDifferential), and
// TestUpdateLazyDifferential holds the updates made on each to the same
// bytes.
func updateParse(orig []byte, opts Options) (*model.Context, error) {
	ctx, _, err := updateParseRefs(orig, opts)
	return ctx, err
}

// updateParseRefs is updateParse, with the references the lazy reader
// saw (nil where pdfcpu parsed the file: firstFree walks every object).
func updateParseRefs(orig []byte, opts Options) (*model.Context, *parsedRefs, error) {
	if !eagerOnly.Load() {
		ctx, _, refs, err := lazyParseRefs(orig, opts, nil)
		if !errors.Is(err, errLazy) {
			return ctx, refs, err
		}
	}
	ctx, err := parse(orig, opts)
	return ctx, nil, err
}

// Document reads the Web Capture structures of the file the update was
// made on, from the parse NewUpdate already did (what ReadBytes would
// return for the original bytes, without parsing them twice). It does not
// see the update's own changes.
func (u *Update) Document() (doc *Document, err error) {
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, internalError(u.name, p)
		}
	}()
	doc = newReader(u.ctx, u.dec, u.name, u.opts, u.orig).read()
	cat, _ := u.ctx.XRefTable.Catalog()
	u.plan.pages.keepInput(doc, cat, refIn(cat["SpiderInfo"]).Num) // (result_pages.go)
	return doc, nil
}

// certification is the file's certification signature, or nil (every
// DocMDP permission forbids what an update adds: pages, content sets,
// name trees, catalog entries).
func (u *Update) certification() *Certification {
	cat, err := u.ctx.XRefTable.Catalog()
	if err != nil || cat == nil {
		return nil
	}
	return newReader(u.ctx, u.dec, u.name, u.opts, nil).certification(cat)
}

// lastStartXRef reads the offset after the last "startxref".
func lastStartXRef(b []byte) (int64, error) {
	i := bytes.LastIndex(b, []byte("startxref"))
	if i < 0 {
		return 0, errors.New("no startxref: the file must be repaired before it can be updated")
	}
	f := bytes.Fields(b[i+len("startxref"):])
	if len(f) == 0 {
		return 0, errors.New("startxref without an offset")
	}
	off, err := strconv.ParseInt(string(f[0]), 10, 64)
	if err != nil {
		return 0, fmt.Errorf("startxref %q is not an offset", f[0])
	}
	// An update's /Prev must reach the file's cross-reference data: a table
	// ("xref") or a stream object ("N G obj") at that offset.
	if off < 0 || off >= int64(len(b)) || !xrefAt(b[off:]) {
		return 0, fmt.Errorf("the cross-reference data is damaged (startxref %d points at no cross-reference section), and readers would not find an update: rewrite the file first (e.g. qpdf in.pdf out.pdf)", off)
	}
	// Its trailer (or stream) dictionary must be whole: a reader follows an
	// update's /Prev to it and stops there, where alone the file is read by
	// reconstructing its table (FuzzFix found "trailer<</Size 5/ R>").
	if d, _ := sectionDict(b[off:]); d == nil {
		return 0, fmt.Errorf("the cross-reference data is damaged (the section at startxref %d has no dictionary that can be read), and readers would not read an update: rewrite the file first (e.g. qpdf in.pdf out.pdf)", off)
	}
	return off, nil
}

// xrefSpace reports whether c is white space between a table's fields.
func xrefSpace(c byte) bool {
	return c == 0 || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == ' '
}

// allDigits reports whether b is 1 to 18 decimal digits (an int, for
// strconv.Atoi).
func allDigits(b []byte) bool {
	if len(b) == 0 || len(b) > 18 {
		return false
	}
	for _, c := range b {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// xrefAt reports whether b starts (after white space) with a
// cross-reference table (whole, up to its trailer) or a cross-reference
// stream object.
func xrefAt(b []byte) bool {
	b = bytes.TrimLeft(b, "\x00\t\n\f\r ")
	if bytes.HasPrefix(b, []byte("xref")) {
		return xrefTable(b[4:])
	}
	return xrefStream(b)
}

// xrefStream reports whether b starts with an indirect object "N G obj"
// whose value is a stream with a dictionary of /Type /XRef. The dictionary
// is parsed whole, however long it is (a merged file's /Index can run to
// many kilobytes).
func xrefStream(b []byte) bool {
	for range 2 { // the object number and generation
		n := 0
		for n < len(b) && b[n] >= '0' && b[n] <= '9' {
			n++
		}
		rest := skipSpace(b[n:])
		if n == 0 || n > 10 || len(rest) == len(b)-n { // a number, then white space
			return false
		}
		b = rest
	}
	if !bytes.HasPrefix(b, []byte("obj")) {
		return false
	}
	b = skipSpace(b[3:])
	end := dictEnd(b)
	if end < 0 || !bytes.HasPrefix(skipSpace(b[end:]), []byte("stream")) {
		return false
	}
	text := string(b[:end])
	o, err := parseObject(&text)
	d, ok := o.(types.Dict)
	if err != nil || !ok {
		return false
	}
	t := d.NameEntry("Type")
	return t != nil && *t == "XRef"
}

// parseObject parses the one object text holds, with pdfcpu's parser.
func parseObject(text *string) (types.Object, error) {
	return model.ParseObjectContext(context.Background(), text, 0)
}

// skipSpace skips PDF white space and comments (PDF 1.7 §3.1.1).
func skipSpace(b []byte) []byte {
	for len(b) > 0 {
		switch b[0] {
		case 0, '\t', '\n', '\f', '\r', ' ':
			b = b[1:]
		case '%':
			i := bytes.IndexAny(b, "\r\n")
			if i < 0 {
				return nil
			}
			b = b[i:]
		default:
			return b
		}
	}
	return b
}

// maxDictDepth bounds the nesting dictEnd follows, as the parser bounds
// its recursion.
const maxDictDepth = 100

// dictEnd returns the length of the dictionary b starts with, up to and
// including its closing ">>", or -1 when b does not start with a whole
// dictionary. It follows nested dictionaries and skips what can hold
// delimiters without being one: literal strings (balanced parentheses,
// backslash escapes), hexadecimal strings and comments.
func dictEnd(b []byte) int {
	if !bytes.HasPrefix(b, []byte("<<")) {
		return -1
	}
	depth := 0
	for i := 0; i < len(b); i++ {
		switch b[i] {
		case '<':
			if i+1 < len(b) && b[i+1] == '<' {
				if depth++; depth > maxDictDepth {
					return -1
				}
				i++
				continue
			}
			j := bytes.IndexByte(b[i:], '>')
			if j < 0 {
				return -1
			}
			i += j
		case '>':
			if i+1 >= len(b) || b[i+1] != '>' {
				return -1
			}
			i++
			if depth--; depth == 0 {
				return i + 1
			}
		case '(':
			n := 0
			for ; i < len(b); i++ {
				switch b[i] {
				case '\\':
					i++
				case '(':
					n++
				case ')':
					n--
				}
				if n == 0 {
					break
				}
			}
			if n != 0 {
				return -1
			}
		case '%':
			j := bytes.IndexAny(b[i:], "\r\n")
			if j < 0 {
				return -1
			}
			i += j
		}
	}
	return -1
}

// Lookup returns the object a reference names (parsed, resolved once).
func (u *Update) lookup(ref types.IndirectRef) (types.Object, error) {
	e, ok := u.ctx.XRefTable.FindTableEntry(ref.ObjectNumber.Value(), ref.GenerationNumber.Value())
	if !ok || e == nil || e.Free {
		return nil, fmt.Errorf("object %d does not exist", ref.ObjectNumber.Value())
	}
	return u.dec.load(pent(e))
}

// Root returns the catalog's reference.
func (u *Update) root() types.IndirectRef { return *u.ctx.XRefTable.Root }

// Add appends a new object and returns its reference.
func (u *Update) add(o types.Object) types.IndirectRef { return u.objs.add(o) }

// Alloc is Add for a dictionary, in the shape BuildNameTree wants.
func (u *Update) alloc(d types.Dict) types.IndirectRef { return u.objs.add(d) }

// Replace writes a new version of an existing object.
func (u *Update) replace(ref types.IndirectRef, o types.Object) {
	u.objs.putGen(ref.ObjectNumber.Value(), ref.GenerationNumber.Value(), o)
}

// AppendInPlace has the update write its objects in the spare capacity
// of the bytes NewUpdate was given, right after them, so that Bytes
// returns the updated file in that array without copying the original or
// the objects (a build of 100,000 page sets writes 80 MB of objects after
// a 32 MB input). The caller gives that capacity up: it reads the file
// with room for what it expects the update to write. What does not fit
// is held apart, and Bytes then copies as without. It does nothing once
// an object was written.
func (u *Update) AppendInPlace() {
	if u.unwritable != nil || cap(u.spare) == len(u.spare) {
		return
	}
	n := len(u.orig)
	u.objs.buf.inPlace(u.spare[n:n], n > 0 && u.orig[n-1] != '\n')
}

// Bytes returns the updated file: the original bytes, then the update.
// It is WriteTo into memory; a file with nothing changed is the original
// itself. After AppendInPlace, while the update fits in the room given,
// it is the array the original was given in.
func (u *Update) Bytes() ([]byte, error) {
	same, err := u.flush()
	if err != nil {
		return nil, err
	}
	if same {
		return u.orig, nil
	}
	if u.objs.buf.room && len(u.objs.data) == 0 {
		base := int64(len(u.orig))
		if base > 0 && u.orig[base-1] != '\n' {
			base++
		}
		xref := base + int64(u.objs.buf.Len())
		tail, err := u.tail(base, xref)
		if err != nil {
			return nil, err
		}
		if u.objs.buf.takeRoom(tail) {
			return u.spare[:xref+int64(len(tail))], nil
		}
	}
	var out bytes.Buffer
	out.Grow(len(u.orig) + u.objs.buf.Len() + int(u.objs.shift(u.objs.buf.Len())) + 64*len(u.objs.offs) + 256)
	if _, err := u.write(&out); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// WriteTo writes the updated file to w: the original bytes, the objects
// (each attachment's bytes read from its Open as they are written), the
// cross-reference section. Its memory is the update's objects and a
// buffer, however large the attachments: a file streams to disk
// (CreateOutput). A file with nothing changed is the original as it is.
// On an error what was written is no file: discard it.
func (u *Update) WriteTo(w io.Writer) (int64, error) {
	same, err := u.flush()
	if err != nil {
		return 0, err
	}
	if same {
		n, err := w.Write(u.orig)
		return int64(n), err
	}
	return u.write(w)
}

// flush writes what the update's edits left pending (the outline, the
// structure tree, the page tree, /Names and the catalog) and reports
// whether nothing changed.
func (u *Update) flush() (same bool, err error) {
	if u.unwritable != nil {
		return false, u.unwritable
	}
	if err := u.flushOutline(); err != nil {
		return false, err
	}
	if err := u.flushTags(); err != nil {
		return false, err
	}
	if err := u.flushPages(); err != nil {
		return false, err
	}
	if err := u.flushAttachments(); err != nil {
		return false, err
	}
	if err := u.flushNames(); err != nil {
		return false, err
	}
	u.names = nil
	if u.objs.err != nil {
		return false, u.objs.err
	}
	if len(u.objs.offs) == 0 {
		return true, nil // nothing changed: no update (an empty section would be invalid)
	}
	if c := u.certification(); c != nil && !u.opts.AllowCertified {
		return false, &Error{File: u.name, Op: "update", Err: &CertifiedError{c}}
	}
	return false, nil
}

// write writes the original, the objects and the cross-reference section
// to w.
func (u *Update) write(w io.Writer) (int64, error) {
	out := &countWriter{w: w}
	out.Write(u.orig)
	if len(u.orig) > 0 && u.orig[len(u.orig)-1] != '\n' {
		out.Write([]byte{'\n'})
	}
	base := out.n
	if out.err != nil {
		return out.n, out.err
	}
	if err := u.objs.writeObjects(out, u.name); err != nil {
		return out.n, err
	}
	tail, err := u.tail(base, out.n)
	if err != nil {
		return out.n, err
	}
	out.Write(tail)
	return out.n, out.err
}

// tail is the update's cross-reference section, with its trailer, which
// starts at offset xref of the file; the objects start at offset base.
func (u *Update) tail(base, xref int64) ([]byte, error) {
	entries := make([]xrefEntry, 0, len(u.objs.offs)+1)
	for _, o := range u.objs.offs {
		entries = append(entries, xrefEntry{o.num, o.gen, base + int64(o.off) + u.objs.shift(o.off)})
	}
	trailer := types.Dict{"Root": u.root(), "Prev": types.Integer(u.prev)}
	if u.ctx.XRefTable.Info != nil {
		trailer["Info"] = *u.ctx.XRefTable.Info
	}
	if u.ctx.XRefTable.ID != nil {
		trailer["ID"] = u.ctx.XRefTable.ID
	}
	var tail bytes.Buffer
	if u.ctx.Read.UsingXRefStreams {
		self := u.objs.next
		trailer["Size"] = types.Integer(self + 1)
		entries = append(entries, xrefEntry{self, 0, xref}) // the stream itself
		u.writeXRefStream(&tail, xref, trailer, sorted(entries))
	} else {
		trailer["Size"] = types.Integer(u.objs.next)
		tail.Grow(20*len(entries) + 512)
		tail.WriteString("xref\n")
		for _, run := range runs(sorted(entries)) {
			fmt.Fprintf(&tail, "%d %d\n", run[0].num, len(run))
			for _, e := range run {
				tail.Write(appendXRefLine(tail.AvailableBuffer(), e))
			}
		}
		tail.WriteString("trailer\n")
		if err := appendDict(&tail, trailer); err != nil {
			return nil, err
		}
		fmt.Fprintf(&tail, "\nstartxref\n%d\n%%%%EOF\n", xref)
	}
	return tail.Bytes(), nil
}

type xrefEntry struct {
	num, gen int
	off      int64
}

func sorted(es []xrefEntry) []xrefEntry {
	sort.Slice(es, func(i, j int) bool { return es[i].num < es[j].num })
	return es
}

// appendXRefLine appends e's line of a cross-reference table, as
// fmt's "%010d %05d n \n" writes it (its 20 bytes, when the offset has 10
// digits or fewer and the generation 5): 300,000 objects written are
// 300,000 lines.
func appendXRefLine(b []byte, e xrefEntry) []byte {
	b = appendPadded(b, e.off, 10)
	b = append(b, ' ')
	b = appendPadded(b, int64(e.gen), 5)
	return append(b, " n \n"...)
}

// appendPadded appends n in decimal, zero-padded to width digits (as
// fmt's %0<width>d: a wider number, or a negative one, as it is).
func appendPadded(b []byte, n int64, width int) []byte {
	if n < 0 {
		return fmt.Appendf(b, "%0*d", width, n)
	}
	var digits [20]byte
	d := strconv.AppendInt(digits[:0], n, 10)
	for i := len(d); i < width; i++ {
		b = append(b, '0')
	}
	return append(b, d...)
}

// runs groups entries of consecutive object numbers (the subsections).
func runs(es []xrefEntry) [][]xrefEntry {
	var out [][]xrefEntry
	for i := 0; i < len(es); {
		j := i + 1
		for j < len(es) && es[j].num == es[j-1].num+1 {
			j++
		}
		out = append(out, es[i:j])
		i = j
	}
	return out
}

// writeXRefStream writes the update's cross-reference stream, which
// starts at offset start of the file: offsets in 4 bytes, or 8 when the
// file reaches 4 GiB (attachments).
func (u *Update) writeXRefStream(out *bytes.Buffer, start int64, trailer types.Dict, es []xrefEntry) {
	width := 4
	for _, e := range es {
		if e.off >= 1<<32 {
			width = 8
		}
	}
	var data bytes.Buffer
	index := types.Array{}
	for _, run := range runs(es) {
		index = append(index, types.Integer(run[0].num), types.Integer(len(run)))
		for _, e := range run {
			data.WriteByte(1)
			for i := width - 1; i >= 0; i-- {
				data.WriteByte(byte(e.off >> (8 * i)))
			}
			data.Write([]byte{byte(e.gen >> 8), byte(e.gen)})
		}
	}
	d := types.Dict{"Type": types.Name("XRef"), "W": types.Array{types.Integer(1), types.Integer(width), types.Integer(2)}, "Index": index}
	for k, v := range trailer {
		d[k] = v
	}
	self := int(trailer["Size"].(types.Integer)) - 1
	fmt.Fprintf(out, "%d 0 obj\n", self)
	_ = appendObject(out, types.StreamDict{Dict: d, Raw: data.Bytes()})
	fmt.Fprintf(out, "\nendobj\nstartxref\n%d\n%%%%EOF\n", start)
}

// A NameEntry is one entry of a name tree for SetNameTree: a key and the
// content sets it leads to (one, or several as an array value).
type NameEntry struct {
	Key       string
	Sets      []webcapture.Ref
	KeyObject webcapture.Ref // an existing string object to use as the key; zero for a new string
}

// SetNameTree builds a name tree (IDS or URLS) over entries and installs it
// in the catalog's /Names, replacing the tree that was there. The /Names
// dictionary is written once, with the update.
func (u *Update) SetNameTree(name string, entries []NameEntry, shape TreeShape) error {
	tes := make([]treeEntry, 0, len(entries))
	for _, e := range entries {
		if len(e.Sets) == 0 {
			return fmt.Errorf("pdfio: %s key %q has no content set", name, e.Key)
		}
		var v types.Object = indirect(e.Sets[0])
		if len(e.Sets) > 1 {
			arr := make(types.Array, len(e.Sets))
			for i, s := range e.Sets {
				arr[i] = indirect(s)
			}
			v = arr
		}
		te := treeEntry{Key: e.Key, Value: v}
		if !e.KeyObject.IsZero() {
			te.KeyObject = indirect(e.KeyObject)
		}
		tes = append(tes, te)
	}
	// (Sorted here by sortedEntries' records, not by planTree's string
	// comparisons: planTree and buildNameTree then find them in order.)
	tes = sortedEntries(tes)
	plan, alloc := planTree(tes, u.alloc)
	root, err := buildNameTree(tes, shape, alloc)
	if err != nil {
		return err
	}
	u.plan.tree(name, plan, root)
	if u.names == nil {
		if err := u.loadNames(); err != nil {
			return err
		}
	}
	u.names[name] = root
	return nil
}

func (u *Update) loadNames() error {
	u.names = types.Dict{}
	catObj, err := u.lookup(u.root())
	if err != nil {
		return err
	}
	cat, ok := catObj.(types.Dict)
	if !ok {
		return errors.New("the catalog is not a dictionary")
	}
	switch v := cat["Names"].(type) {
	case types.IndirectRef:
		if o, err := u.lookup(v); err == nil {
			if d, ok := o.(types.Dict); ok {
				u.names = copyDict(d)
			}
		}
		u.namesRef = &v
	case types.Dict:
		u.names = copyDict(v)
	}
	return nil
}

// flushNames writes the /Names dictionary SetNameTree changed, and the
// catalog if anything in it changed.
func (u *Update) flushNames() error {
	if u.names != nil && u.namesRef != nil {
		u.replace(*u.namesRef, u.names)
	} else if u.names != nil {
		if u.catalogEdits == nil {
			u.catalogEdits = types.Dict{}
		}
		u.catalogEdits["Names"] = u.add(u.names)
	}
	if u.catalogEdits == nil {
		return nil
	}
	catObj, err := u.lookup(u.root())
	if err != nil {
		return err
	}
	cat := copyDict(catObj.(types.Dict))
	for k, v := range u.catalogEdits {
		cat[k] = v
	}
	u.replace(u.root(), cat)
	u.catalogEdits = nil
	return nil
}

// SetID sets the /ID of a page or an image XObject (its parent content
// set's identifier), keeping everything else, stream data included. An
// empty id removes /ID.
func (u *Update) SetID(obj webcapture.Ref, id webcapture.RawID) error {
	o, err := u.lookup(indirect(obj))
	if err != nil {
		return err
	}
	e := edit{key: "ID"} // removed
	if id != "" {
		e.val = hexString(string(id))
	}
	switch o.(type) {
	case types.Dict, types.StreamDict:
		// (Written with the edit, not copied and changed: the object read
		// stays as it was, as a copy would leave it.)
		u.objs.putEdited(obj.Num, obj.Gen, o, e)
		u.plan.pages.setID(obj, id, o) // (result_pages.go)
	default:
		return fmt.Errorf("object %s is %s, not a page or an image", obj, typeName(o))
	}
	return nil
}

func indirect(r webcapture.Ref) types.IndirectRef { return *types.NewIndirectRef(r.Num, r.Gen) }

func copyDict(d types.Dict) types.Dict {
	out := make(types.Dict, len(d))
	for k, v := range d {
		out[k] = v
	}
	return out
}

// PageXObject returns the XObject a page's /Resources /XObject names.
func (u *Update) PageXObject(page webcapture.Ref, name string) (webcapture.Ref, error) {
	d, err := u.pageDict(page)
	if err != nil {
		return webcapture.Ref{}, err
	}
	res, err := u.dictAt(d["Resources"])
	if err != nil || res == nil {
		return webcapture.Ref{}, fmt.Errorf("page %s has no /Resources", page)
	}
	xo, err := u.dictAt(res["XObject"])
	if err != nil || xo == nil {
		return webcapture.Ref{}, fmt.Errorf("page %s has no /XObject resources", page)
	}
	r, ok := xo[name].(types.IndirectRef)
	if !ok {
		return webcapture.Ref{}, fmt.Errorf("page %s has no XObject named /%s", page, name)
	}
	return refOf(r), nil
}

// PageXObjects returns every XObject a page's /Resources /XObject names,
// by name.
func (u *Update) PageXObjects(page webcapture.Ref) (map[string]webcapture.Ref, error) {
	d, err := u.pageDict(page)
	if err != nil {
		return nil, err
	}
	res, _ := u.dictAt(d["Resources"])
	xo, _ := u.dictAt(res["XObject"])
	out := map[string]webcapture.Ref{}
	for name, v := range xo {
		if r, ok := v.(types.IndirectRef); ok {
			out[name] = refOf(r)
		}
	}
	return out, nil
}

// XObjectUsers counts the pages among pages whose /Resources /XObject
// refers to obj: an image set's reference count.
func (u *Update) XObjectUsers(obj webcapture.Ref, pages []webcapture.Ref) int {
	return u.XObjectCounts(pages)[obj]
}

// pageDict returns a page object's dictionary.
func (u *Update) pageDict(page webcapture.Ref) (types.Dict, error) {
	o, err := u.lookup(indirect(page))
	if err != nil {
		return nil, err
	}
	d, ok := o.(types.Dict)
	if !ok {
		return nil, fmt.Errorf("object %s is not a page", page)
	}
	return d, nil
}

func (u *Update) dictAt(o types.Object) (types.Dict, error) { return resolveAs[types.Dict](u, o) }

// resolveAs returns o, or the object it refers to, as a T; the zero T
// when it is something else.
func resolveAs[T types.Object](u *Update, o types.Object) (T, error) {
	var zero T
	if r, ok := o.(types.IndirectRef); ok {
		var err error
		if o, err = u.lookup(r); err != nil {
			return zero, err
		}
	}
	v, _ := o.(T)
	return v, nil
}

// maxModelDepth bounds the nesting AddObject accepts.
const maxModelDepth = 64

func fromModel(o webcapture.Object, depth int) (types.Object, error) {
	if depth > maxModelDepth {
		return nil, fmt.Errorf("pdfio: object nested deeper than %d levels", maxModelDepth)
	}
	switch v := o.(type) {
	case nil:
		return nil, nil
	case bool:
		return types.Boolean(v), nil
	case int:
		return types.Integer(v), nil
	case int64:
		return types.Integer(v), nil
	case float64:
		return types.Float(v), nil
	case webcapture.Name:
		return types.Name(v), nil
	case webcapture.String:
		return literalString(string(v)), nil
	case webcapture.Ref:
		return indirect(v), nil
	case []webcapture.Object:
		a := make(types.Array, len(v))
		for i, e := range v {
			t, err := fromModel(e, depth+1)
			if err != nil {
				return nil, err
			}
			a[i] = t
		}
		return a, nil
	case webcapture.Dict:
		d := types.Dict{}
		for k, e := range v {
			t, err := fromModel(e, depth+1)
			if err != nil {
				return nil, err
			}
			d[string(k)] = t
		}
		return d, nil
	}
	return nil, fmt.Errorf("pdfio: cannot write a %T", o)
}

// ExtendImageSet adds image XObjects, with the number of pages using each,
// to an image set of the file (to /O and /R, which becomes an array), and
// sources to its /SI (which becomes an array when it has more than one).
func (u *Update) ExtendImageSet(set webcapture.Ref, objs []webcapture.Ref, counts []int64, sources []*webcapture.SourceInfo) error {
	d, err := u.dictAt(indirect(set))
	if err != nil || d == nil {
		return fmt.Errorf("object %s is not an image set", set)
	}
	if len(counts) != len(objs) {
		return errors.New("pdfio: ExtendImageSet: one count per object")
	}
	d = copyDict(d)
	o, _, err := u.elements(d["O"])
	if err != nil {
		return err
	}
	for _, r := range objs {
		o = append(o, indirect(r))
	}
	r, _, err := u.elements(d["R"])
	if err != nil {
		return err
	}
	for _, c := range counts {
		r = append(r, types.Integer(c))
	}
	d["O"], d["R"] = o, r
	if len(sources) > 0 {
		si, _, err := u.elements(d["SI"])
		if err != nil {
			return err
		}
		w := &writer{u}
		for _, s := range sources {
			t, err := writeKeys(w, "source information", sourceInfoKeys, s)
			if err != nil {
				return err
			}
			si = append(si, t)
		}
		d["SI"] = si
	}
	u.replace(indirect(set), d)
	return nil
}

// elements returns the elements of an array, direct or indirect (a copy,
// and true), or a one-element list of any other value (as it is: a
// reference stays a reference); none for nil.
func (u *Update) elements(o types.Object) (types.Array, bool, error) {
	v := o
	if r, ok := o.(types.IndirectRef); ok {
		var err error
		if v, err = u.lookup(r); err != nil {
			return nil, false, err
		}
	}
	switch a := v.(type) {
	case types.Array:
		return append(types.Array{}, a...), true, nil
	case nil:
		return nil, false, nil
	}
	return types.Array{o}, false, nil
}

// SetSourceTimes sets /TS (and /E, when expires is not "") of every source
// information dictionary of a content set, direct or indirect: the set was
// found up to date with its sources at that time. Dates are PDF dates.
func (u *Update) SetSourceTimes(set webcapture.Ref, checked, expires string) error {
	d, err := u.dictAt(indirect(set))
	if err != nil || d == nil {
		return fmt.Errorf("object %s is not a content set", set)
	}
	sources, isArray, err := u.elements(d["SI"])
	if err != nil {
		return err
	}
	// A direct dictionary is stamped where it is, an indirect one as its
	// own object.
	for i, o := range sources {
		si, err := u.dictAt(o)
		if err != nil || si == nil {
			continue
		}
		si = copyDict(si)
		si["TS"] = literalString(checked)
		if expires != "" {
			si["E"] = literalString(expires)
		}
		if r, ok := o.(types.IndirectRef); ok {
			u.replace(r, si)
		} else {
			sources[i] = si
		}
	}
	switch v := d["SI"].(type) {
	case types.IndirectRef:
		if isArray {
			u.replace(v, sources)
		}
		return nil // an indirect dictionary: replaced above
	case types.Array:
		d = copyDict(d)
		d["SI"] = sources
	default:
		if len(sources) == 0 {
			return nil
		}
		d = copyDict(d)
		d["SI"] = sources[0]
	}
	u.replace(indirect(set), d)
	return nil
}
