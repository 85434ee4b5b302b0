package pdfio

import (
	"bytes"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// pdfcpu repairs what it can of a damaged file without saying so (relaxed
// mode): a cross-reference table rebuilt by scanning, objects found near a
// wrong offset, streams read to "endstream" past a wrong /Length. A file
// that needed any of that is not well-formed, and other readers may see it
// differently: the reader checks the bytes against what pdfcpu built and
// records each repair as Damage.

// A DamageKind names a repair the file needed.
type DamageKind string

// The kinds of damage.
const (
	DamageXRef       DamageKind = "xref"       // startxref reaches no whole cross-reference section: the table was rebuilt
	DamageOffset     DamageKind = "offset"     // a cross-reference entry's offset holds no "N G obj" for its object
	DamageLength     DamageKind = "length"     // a stream's /Length does not end where "endstream" is
	DamageUnreadable DamageKind = "unreadable" // an object the cross-reference data lists cannot be parsed (nested too deep, cut short, ...)
	DamageRecovered  DamageKind = "recovered"  // objects the cross-reference data lost, recovered from object streams
)

// A Damage is one thing the file needed repaired, or could not be read.
type Damage struct {
	Kind    DamageKind
	Object  webcapture.Ref // the object concerned; zero for the file as a whole
	Offset  int64          // where in the file; -1 if not one place
	Message string
}

// maxDamage bounds the damage recorded of one kind (a file whose every
// offset is wrong says so a hundred times, then once more in all).
const maxDamage = 100

// damageLog collects the damage found, at most maxDamage of each kind.
type damageLog struct {
	list   []Damage
	counts map[DamageKind]int
}

func (l *damageLog) add(d Damage) {
	if l.counts == nil {
		l.counts = map[DamageKind]int{}
	}
	if l.counts[d.Kind]++; l.counts[d.Kind] <= maxDamage {
		l.list = append(l.list, d)
	}
}

// The bytes are compared with what pdfcpu built from them (read runs the
// three steps): the cross-reference sections (checkSections), then every
// object (checkObjects), then the damage is said in that order (endDamage).

// checkSections checks the cross-reference sections, and when they are
// damaged recovers what only they located (recoverFromObjectStreams): the
// rest of the reader resolves references through r.recovered.
func (r *reader) checkSections(l *damageLog) {
	if r.b == nil {
		return
	}
	if off, err := lastStartXRef(r.b); err != nil {
		r.xrefDamaged = true
		l.add(Damage{Kind: DamageXRef, Offset: -1, Message: fmt.Sprintf("not well-formed: %v; the parser rebuilt the cross-reference table from the objects it found", err)})
	} else if at, why := badSection(r.b, off); why != "" {
		r.xrefDamaged = true
		l.add(Damage{Kind: DamageXRef, Offset: at, Message: fmt.Sprintf("not well-formed: the cross-reference section at offset %d %s", at, why)})
	}
	if r.xrefDamaged {
		r.recoverFromObjectStreams()
	}
}

// checkObjects checks each object's offset, and each stream's /Length. It
// reads only the bytes and the table's entries (not an object stream's,
// which it skips), and writes only l: it can run alongside a walk of a file
// without object streams (reader.parallel).
func (r *reader) checkObjects(l *damageLog) {
	if r.b == nil {
		return
	}
	for i, n := range r.objectNumbers() {
		if i%256 == 0 {
			r.checkStop()
		}
		e := r.entry(n)
		if e.none() || e.free() || e.compressed() || !hasOff(e) || n == 0 {
			continue
		}
		ref := webcapture.Ref{Num: n, Gen: e.gen()}
		off := entOffset(e)
		misplaced := !objectAt(r.b, off, n)
		if misplaced {
			lost := ""
			if at, ok := r.relocated[n]; ok {
				lost = fmt.Sprintf("; it was found at offset %d, and read from there", at)
			} else if e.object() == nil {
				lost = "; it cannot be read"
			}
			l.add(Damage{Kind: DamageOffset, Object: ref, Offset: off, Message: fmt.Sprintf("not well-formed: the cross-reference data puts object %s at offset %d, where no \"%d %d obj\" begins%s", ref, off, n, ref.Gen, lost)})
		}
		o, isStream := r.dec.streamOf(e)
		switch {
		case isStream:
			// (An encrypted file's streams are decrypted in memory, their
			// lengths with them: they are not compared.)
			if n, ok := r.writtenLength(o, off); ok && !r.doc.Encrypted && !endstreamAt(r.b, o.StreamOffset+n) {
				l.add(Damage{Kind: DamageLength, Object: ref, Offset: o.StreamOffset, Message: fmt.Sprintf("not well-formed: the stream of object %s has /Length %d, but \"endstream\" does not follow that many bytes", ref, n)})
			}
		case e.object() == nil:
			// (A misplaced object that could not be read is that one
			// damage, said above. One found at its own offset was read
			// there by the reader's parser where pdfcpu's gave up, on an
			// object larger than its 64 MiB buffer: no damage.)
			if at, found := r.relocated[n]; !misplaced && !nullAt(r.b, off) && !(found && at == off) {
				l.add(Damage{Kind: DamageUnreadable, Object: ref, Offset: off, Message: fmt.Sprintf("not well-formed: object %s cannot be parsed", ref)})
			}
		}
	}
}

// endDamage puts the damage found in the document: each of l's, how many
// more of a kind there were, and how many objects were recovered.
func (r *reader) endDamage(l *damageLog) {
	r.doc.Damage = append(r.doc.Damage, l.list...)
	for _, kind := range slices.Sorted(maps.Keys(l.counts)) { // (in order: the same text on every run)
		if n := l.counts[kind]; n > maxDamage {
			r.doc.Damage = append(r.doc.Damage, Damage{Kind: kind, Offset: -1, Message: fmt.Sprintf("and %d more of the same kind (%s)", n-maxDamage, kind)})
		}
	}
	// (r.recovered also holds what recoverMisplaced found in the file,
	// r.relocated: not from object streams, and said as offset damage.)
	if n := len(r.recovered) - len(r.relocated); n > 0 {
		r.doc.Damage = append(r.doc.Damage, Damage{Kind: DamageRecovered, Offset: -1,
			Message: fmt.Sprintf("the cross-reference data lost %d objects; they were recovered from the object streams that hold them", n)})
	}
}

// badSection follows the cross-reference sections from off through /Prev
// and says what is wrong with the first that is malformed: it is not a
// whole table or stream, or a stream's /W gives entries no bytes. The
// section at off is known whole (lastStartXRef found it so): a table of a
// million entries is not read twice. A /Prev that leads back to a section
// already read is a loop (prevloop.go).
func badSection(b []byte, off int64) (int64, string) {
	seen := map[int64]bool{}
	last := int64(-1)
	for i := 0; i < maxSections; i++ {
		if seen[off] {
			return last, fmt.Sprintf("has /Prev %d, a section already read: the /Prev chain loops; each section was read once, newest first", off)
		}
		seen[off], last = true, off
		if off < 0 || off >= int64(len(b)) || i > 0 && !xrefAt(b[off:]) {
			return off, "is not a whole cross-reference table or stream"
		}
		d, num := sectionDict(b[off:])
		if d == nil {
			return off, "has no trailer dictionary"
		}
		if num >= 0 {
			w, _ := d["W"].(types.Array)
			sum := 0
			for _, e := range w {
				if n, ok := e.(types.Integer); ok && n >= 0 {
					sum += int(n)
				} else {
					sum = -1000
				}
			}
			if len(w) != 3 || sum <= 0 {
				return off, fmt.Sprintf("has /W %v: its entries cannot be read", w)
			}
			if n, limit := streamEntries(d), xrefEntryLimit(len(b)); n > limit {
				return off, fmt.Sprintf("lists %d entries, more than the reader takes from a file of %d bytes (%d); the table was rebuilt from the objects found", n, len(b), limit)
			}
			if _, padded := xrefPadding(b, off, d); padded {
				return off, fmt.Sprintf("inflates to more than its %d entries need; it was read as its entries only", streamEntries(d))
			}
		}
		prev, ok := d["Prev"].(types.Integer)
		if !ok {
			return 0, ""
		}
		off = int64(prev)
	}
	return 0, ""
}

// streamEntries is how many entries a cross-reference stream lists: the
// counts of its /Index, or its /Size.
func streamEntries(d types.Dict) int {
	if idx, ok := d["Index"].(types.Array); ok {
		n := 0
		for i := 1; i < len(idx); i += 2 {
			if c, ok := idx[i].(types.Integer); ok && c > 0 {
				n += int(c)
			}
		}
		return n
	}
	size, _ := d["Size"].(types.Integer)
	return int(size)
}

func genOf(e *model.XRefTableEntry) int {
	if e.Generation == nil {
		return 0
	}
	return *e.Generation
}

// objectAt reports whether "num G obj" begins at off (after white space).
func objectAt(b []byte, off int64, num int) bool {
	if off < 0 || off >= int64(len(b)) {
		return false
	}
	w := b[off:min(int64(len(b)), off+40)]
	var f [3][]byte
	if !firstFields(w, &f) {
		return false
	}
	if !bytes.HasPrefix(f[2], []byte("obj")) {
		return false
	}
	n, err := strconv.Atoi(string(f[0]))
	return err == nil && n == num
}

// firstFields sets f to the first three fields of w as bytes.Fields splits
// it, and reports whether it has three, without allocating (objectAt runs
// once per object). Text with a byte that is not ASCII goes to bytes.Fields
// itself, whose white space is then Unicode's.
func firstFields(w []byte, f *[3][]byte) bool {
	if !isASCII(w) {
		all := bytes.Fields(w)
		if len(all) < 3 {
			return false
		}
		copy(f[:], all)
		return true
	}
	n := 0
	for i := 0; i < len(w) && n < 3; {
		for i < len(w) && asciiSpace(w[i]) {
			i++
		}
		j := i
		for j < len(w) && !asciiSpace(w[j]) {
			j++
		}
		if j > i {
			f[n] = w[i:j]
			n++
		}
		i = j
	}
	return n == 3
}

func isASCII(w []byte) bool {
	for _, c := range w {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// asciiSpace is bytes.Fields's white space among ASCII bytes.
func asciiSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\v' || c == '\f' || c == '\r'
}

// nullAt reports whether the object whose header is at off is null (which
// pdfcpu holds as nil, as it does an object it could not parse).
func nullAt(b []byte, off int64) bool {
	if off < 0 || off >= int64(len(b)) {
		return false
	}
	rest := b[off:]
	i := bytes.Index(rest[:min(len(rest), 40)], []byte("obj"))
	return i >= 0 && bytes.HasPrefix(skipSpace(rest[i+3:]), []byte("null"))
}

// endstreamAt reports whether "endstream" follows at off, after at most an
// end-of-line (PDF 1.7 §3.2.7 asks for one before it).
func endstreamAt(b []byte, off int64) bool {
	if off < 0 || off > int64(len(b)) {
		return false
	}
	rest := b[off:]
	for range 2 {
		if len(rest) > 0 && (rest[0] == '\r' || rest[0] == '\n' || rest[0] == ' ') {
			rest = rest[1:]
		}
	}
	return bytes.HasPrefix(rest, []byte("endstream"))
}

// writtenLength is a stream's /Length as the file writes it, directly or
// in the object it refers to. pdfcpu's is not always: reading relaxed, it
// may trim from the data an end-of-line it takes for the one before
// "endstream", which a right /Length includes; so where its length does
// not reach "endstream", the dictionary at off (the object's offset) is
// parsed again from the bytes.
func (r *reader) writtenLength(o types.StreamDict, off int64) (int64, bool) {
	if o.StreamLength == nil {
		return 0, false
	}
	if endstreamAt(r.b, o.StreamOffset+*o.StreamLength) || off < 0 || off >= o.StreamOffset || o.StreamOffset > int64(len(r.b)) {
		return *o.StreamLength, true
	}
	head := r.b[off:o.StreamOffset]
	start := bytes.Index(head, []byte("obj"))
	end := bytes.LastIndex(head, []byte("stream"))
	if start < 0 || end < start {
		return *o.StreamLength, true
	}
	text := string(head[start+len("obj") : end])
	d, err := parseObject(&text)
	dict, ok := d.(types.Dict)
	if err != nil || !ok {
		return *o.StreamLength, true
	}
	v := dict["Length"]
	if ir, ok := v.(types.IndirectRef); ok {
		e := r.entry(ir.ObjectNumber.Value())
		if e.none() || e.free() {
			return *o.StreamLength, true
		}
		v = e.object()
	}
	if n, ok := v.(types.Integer); ok {
		return int64(n), true
	}
	return *o.StreamLength, true
}

// maxRecovered bounds the objects recovered from object streams.
const maxRecovered = 100000

// recoverFromObjectStreams finds, when the cross-reference data is
// damaged, the objects that only the lost data located: each object stream
// pdfcpu found is decoded, and the objects in it that its table lacks are
// parsed from it and kept (r.recovered), so that a reference to them
// resolves as in a reader that recovers them (poppler does). One Damage
// says how many were recovered (endDamage). The streams are taken in the
// order of their object numbers: an object that two of them hold is the
// first's, on every run.
func (r *reader) recoverFromObjectStreams() {
	for _, n := range r.objectNumbers() {
		e := r.entry(n)
		if e.none() || e.free() {
			continue
		}
		sd, ok := r.dec.streamOf(e)
		if !ok {
			continue
		}
		if t := sd.Type(); t == nil || *t != "ObjStm" {
			continue
		}
		content, err := r.dec.stream(n, &sd)
		if err != nil {
			continue
		}
		first, _ := sd.Dict["First"].(types.Integer)
		count, _ := sd.Dict["N"].(types.Integer)
		if first <= 0 || int(first) > len(content) || count <= 0 {
			continue
		}
		f := bytes.Fields(content[:first])
		for i := 0; i+1 < len(f) && i/2 < int(count) && len(r.recovered) < maxRecovered; i += 2 {
			num, err1 := strconv.Atoi(string(f[i]))
			at, err2 := strconv.Atoi(string(f[i+1]))
			if err1 != nil || err2 != nil || at < 0 || int(first)+at >= len(content) {
				continue
			}
			if e := r.entry(num); !e.none() && !e.free() && e.object() != nil {
				continue // the table has it
			}
			if _, ok := r.recovered[num]; ok {
				continue
			}
			text := string(content[int(first)+at:])
			o, err := parseObject(&text)
			if err != nil || o == nil {
				continue
			}
			if r.recovered == nil {
				r.recovered = map[int]types.Object{}
			}
			r.recovered[num] = o
		}
	}
}
