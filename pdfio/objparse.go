package pdfio

import (
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// pdfcpu v0.15 leaves the objects of an object stream unparsed until they
// are used (types.LazyObjectStreamObject), and its parser, which copies each
// object's bytes into a string and walks them rune by rune, is most of the
// cost of reading a file made of object streams: every page, content set
// and tree node the walk reaches is in one. parseCompressed parses the
// common syntax of those objects itself, straight from the decoded stream
// and without the copy, and gives back exactly the objects pdfcpu's parser
// would (the same types, the same values, its quirks included: a key whose
// value is null is left out, hex digits are upper-cased). Whatever it is not
// sure of (a comment, a name with # escapes, a hex string with white space,
// a number in an unusual form, a byte above 0x7F outside a string, nesting
// deeper than fastMaxDepth, anything malformed) it leaves to pdfcpu's
// parser, which decides: the fast path only ever accepts input on which the
// two agree (FuzzParseCompressed holds it to that).

// fastMaxDepth bounds the nesting the fast parser follows; deeper objects
// go to pdfcpu's parser, which has its own bound.
const fastMaxDepth = 32

// parseCompressed parses the object at the start of data (an object
// stream's object, as pdfcpu's compressedObject does); ok is false when
// pdfcpu's parser must decide.
func parseCompressed(data []byte) (o types.Object, ok bool) {
	return parseCompressedShared(data, nil)
}

// parseCompressedShared is parseCompressed through a read's share (nil:
// none).
func parseCompressedShared(data []byte, share *valueShare) (o types.Object, ok bool) {
	return parseCompressedReuse(data, share, nil)
}

// parseCompressedReuse is parseCompressedShared taking the object's own
// dictionary, when it is one, from free (recycle).
func parseCompressedReuse(data []byte, share *valueShare, free *[]types.Dict) (o types.Object, ok bool) {
	p := objParser{b: data, share: share, free: free}
	o, ok = p.value(0)
	if !ok {
		return nil, false
	}
	if d, isDict := o.(types.Dict); isDict {
		if _, hasLength := d["Length"]; hasLength {
			return nil, false // a stream's dictionary: pdfcpu refuses it, with its own error
		}
	}
	if o == nil {
		return nil, false // null: pdfcpu says "no object" its own way
	}
	return o, true
}

type objParser struct {
	b []byte
	i int
	// share, when not nil, shares repeated containers and makes strings
	// of b's bytes without a copy (valueShare: a read's parse only).
	share *valueShare
	// free, when not nil, holds empty maps a read let go of (recycle),
	// for the object's dictionaries to be parsed into.
	free *[]types.Dict
	// refMax is the largest object number of the references parsed (0
	// for none); refDup: a dictionary gave a key twice, and a reference
	// of the value it dropped may be among them. Without refDup, refMax
	// is referenced's answer for the value parsed (firstFree).
	refMax int
	refDup bool
}

// cpuSpace: white space as pdfcpu's parser sees it: unicode.IsSpace or NUL, for the
// bytes below 0x80 (a byte above is not taken).
func cpuSpace(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\v', '\f', '\r', 0:
		return true
	}
	return false
}

// isDelimiter is pdfcpu's delimiter: the bytes that end an integer without
// making it the start of a reference.
func isDelimiter(c byte) bool {
	switch c {
	case '<', '>', '[', ']', '(', ')', '/':
		return true
	}
	return false
}

// skip passes white space; it fails at a comment (pdfcpu's parser decides
// those).
func (p *objParser) skip() bool {
	j := p.skipFrom(p.i)
	if j < 0 {
		return false
	}
	p.i = j
	return true
}

func (p *objParser) value(depth int) (types.Object, bool) {
	if depth > fastMaxDepth || !p.skip() || p.i >= len(p.b) {
		return nil, false
	}
	switch c := p.b[p.i]; {
	case c == '[':
		return p.container(depth, p.array)
	case c == '/':
		return p.nameValue()
	case c == '<' && p.i+1 < len(p.b) && p.b[p.i+1] == '<':
		return p.container(depth, p.dict)
	case c == '<':
		return p.hex()
	case c == '(':
		return p.literal()
	case c == 't' || c == 'f' || c == 'n':
		return p.keyword()
	case c >= '0' && c <= '9' || c == '+' || c == '-' || c == '.':
		return p.number()
	}
	return nil, false
}

func (p *objParser) array(depth int) (types.Object, bool) {
	p.i++ // [
	a := types.Array{}
	for {
		if !p.skip() || p.i >= len(p.b) {
			return nil, false
		}
		if p.b[p.i] == ']' {
			p.i++
			return a, true
		}
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		a = append(a, v)
	}
}

func (p *objParser) dict(depth int) (types.Object, bool) {
	p.i += 2 // <<
	var d types.Dict
	if f := p.free; f != nil && len(*f) > 0 {
		d, *f = (*f)[len(*f)-1], (*f)[:len(*f)-1]
	} else {
		d = types.Dict{}
	}
	for {
		if !p.skip() || p.i >= len(p.b) {
			return nil, false
		}
		switch p.b[p.i] {
		case '>':
			if p.i+1 < len(p.b) && p.b[p.i+1] == '>' {
				p.i += 2
				return d, true
			}
			return nil, false
		case '/':
		default:
			return nil, false
		}
		k, ok := p.name()
		if !ok {
			return nil, false
		}
		v, ok := p.value(depth + 1)
		if !ok {
			return nil, false
		}
		if v != nil { // pdfcpu leaves out a key whose value is null
			n := len(d)
			d[k] = v // (and keeps the last of a key given twice)
			p.refDup = p.refDup || len(d) == n
		}
	}
}

// name reads a name at p.i (its /): without # escapes or bytes above 0x7F,
// which pdfcpu decodes its own way. Common names are not allocated.
func (p *objParser) name() (string, bool) {
	b, ok := p.nameBytes()
	if !ok {
		return "", false
	}
	return internedName(b), true
}

// nameValue is name as an object: a common one shared, not allocated (a
// value is never changed in place).
func (p *objParser) nameValue() (types.Object, bool) {
	b, ok := p.nameBytes()
	if !ok {
		return nil, false
	}
	if i := commonName(b); i >= 0 {
		return commonNameValues[i], true
	}
	return types.Name(b), true
}

// nameBytes reads the name at p.i and gives its bytes (after the /).
func (p *objParser) nameBytes() ([]byte, bool) {
	p.i++ // /
	start := p.i
	for ; p.i < len(p.b); p.i++ {
		c := p.b[p.i]
		if cpuSpace(c) {
			break
		}
		switch c {
		case '/', '<', '>', '(', ')', '[', ']', '%':
			return p.b[start:p.i], true
		case '#':
			return nil, false
		}
		if c >= 0x80 {
			return nil, false
		}
	}
	return p.b[start:p.i], true
}

// hex reads a hex string of digits alone (no white space, which pdfcpu
// handles its own way), upper-cased and an odd last digit followed by 0 as
// pdfcpu does.
func (p *objParser) hex() (types.Object, bool) {
	start := p.i + 1
	j := start
	upper := true
	for ; j < len(p.b) && p.b[j] != '>'; j++ {
		switch c := p.b[j]; {
		case c >= '0' && c <= '9', c >= 'A' && c <= 'F':
		case c >= 'a' && c <= 'f':
			upper = false
		default:
			return nil, false
		}
	}
	if j >= len(p.b) {
		return nil, false
	}
	p.i = j + 1
	digits := p.b[start:j]
	n := len(digits)
	if upper && n%2 == 0 {
		if p.share != nil {
			return types.HexLiteral(aliasString(digits)), true
		}
		return types.HexLiteral(digits), true
	}
	h := make([]byte, n, n+1)
	for k, c := range digits {
		if c >= 'a' {
			c -= 'a' - 'A'
		}
		h[k] = c
	}
	if n%2 != 0 {
		h = append(h, '0')
	}
	return types.HexLiteral(h), true
}

// literal reads a literal string the way pdfcpu does: the raw bytes between
// balanced parentheses, a backslash escaping the byte after it.
func (p *objParser) literal() (types.Object, bool) {
	depth, escaped := 0, false
	for j := p.i; j < len(p.b); j++ {
		c := p.b[j]
		switch {
		case escaped:
			escaped = false
			continue
		case c == '\\':
			escaped = true
			continue
		case c == '(':
			depth++
		case c == ')':
			depth--
		}
		if depth == 0 {
			var s types.StringLiteral
			if p.share != nil {
				s = types.StringLiteral(aliasString(p.b[p.i+1 : j]))
			} else {
				s = types.StringLiteral(p.b[p.i+1 : j])
			}
			p.i = j + 1
			return s, true
		}
	}
	return nil, false
}

// keyword reads true, false or null, ended by white space, a delimiter or
// the end.
func (p *objParser) keyword() (types.Object, bool) {
	for _, k := range [...]struct {
		word string
		v    types.Object
	}{{"true", types.Boolean(true)}, {"false", types.Boolean(false)}, {"null", nil}} {
		end := p.i + len(k.word)
		if end <= len(p.b) && string(p.b[p.i:end]) == k.word && p.endsToken(end) {
			p.i = end
			return k.v, true
		}
	}
	return nil, false
}

// endsToken says whether a token may end before b[j]: at white space, a
// delimiter or the end.
func (p *objParser) endsToken(j int) bool {
	return j >= len(p.b) || cpuSpace(p.b[j]) || isDelimiter(p.b[j]) || p.b[j] == '%'
}

// number reads an integer, a real number or a reference "N G R", as
// pdfcpu's parseNumericOrIndRef does for the plain forms: [+-]digits (at
// most 18) and [+-]digits.digits.
func (p *objParser) number() (types.Object, bool) {
	start := p.i
	j, digits, dot := start, 0, false
	if p.b[j] == '+' || p.b[j] == '-' {
		j++
	}
	for ; j < len(p.b); j++ {
		c := p.b[j]
		switch {
		case c >= '0' && c <= '9':
			digits++
			continue
		case c == '.' && !dot:
			dot = true
			continue
		}
		break
	}
	if digits == 0 || digits > 18 || !p.endsToken(j) || j < len(p.b) && (p.b[j] == ')' || p.b[j] == '%') {
		return nil, false // (pdfcpu reads on past a ')', and past a comment for a reference)
	}
	tok := string(p.b[start:j]) // (not kept: no allocation)
	if dot {
		f, err := strconv.ParseFloat(tok, 64)
		if err != nil {
			return nil, false
		}
		p.i = j
		return types.Float(f), true
	}
	n, err := strconv.Atoi(tok)
	if err != nil {
		return nil, false
	}
	p.i = j
	ref, isRef, ok := p.reference(n)
	switch {
	case !ok:
		return nil, false
	case isRef:
		return ref, true
	}
	return types.Integer(n), true
}

// reference reads " G R" after the integer num, as pdfcpu's parseIndRef
// does: isRef false when what follows is not a generation (strconv.Atoi)
// and R, num is then an integer; ok false when pdfcpu's parser must decide
// (a comment or a byte above 0x7F on the way).
func (p *objParser) reference(num int) (ref types.Object, isRef, ok bool) {
	j := p.i
	if j >= len(p.b) || !cpuSpace(p.b[j]) {
		return nil, false, true // the end, or a delimiter
	}
	j = p.skipFrom(j)
	if j < 0 {
		return nil, false, false
	}
	start := j
	for ; j < len(p.b); j++ {
		c := p.b[j]
		if cpuSpace(c) || c == '/' || c == '<' || c == '(' || c == '[' || c == ']' || c == '>' {
			break
		}
		if c >= 0x80 {
			return nil, false, false
		}
	}
	if j == start || j >= len(p.b) || isDelimiter(p.b[j]) {
		return nil, false, true
	}
	gen, err := strconv.Atoi(string(p.b[start:j]))
	if err != nil {
		return nil, false, true
	}
	if j = p.skipFrom(j); j < 0 {
		return nil, false, false
	}
	if j >= len(p.b) || p.b[j] != 'R' {
		return nil, false, true
	}
	p.i = j + 1
	p.refMax = max(p.refMax, num)
	return *types.NewIndirectRef(num, gen), true, true
}

// skipFrom is the index of the first byte from j that is not white space;
// -1 at a comment or a byte above 0x7F (pdfcpu's parser decides those).
func (p *objParser) skipFrom(j int) int {
	for j < len(p.b) && cpuSpace(p.b[j]) {
		j++
	}
	if j < len(p.b) && (p.b[j] == '%' || p.b[j] >= 0x80) {
		return -1
	}
	return j
}

// commonNames are the names Web Capture files repeat on every page, set
// and tree node, kept once instead of once per object (internedName), and
// commonNameValues the same as objects, made once (nameValue).
var commonNames = [...]string{
	"Type",
	"Subtype",
	"Page",
	"Pages",
	"Kids",
	"Parent",
	"Count",
	"MediaBox",
	"CropBox",
	"Contents",
	"Resources",
	"Rotate",
	"ID",
	"PZ",
	"Names",
	"Limits",
	"IDS",
	"URLS",
	"S",
	"SPS",
	"SIS",
	"O",
	"SI",
	"AU",
	"TS",
	"CT",
	"T",
	"R",
	"C",
	"Catalog",
	"SpiderInfo",
	"SpiderContentSet",
	"V",
	"Font",
	"XObject",
	"Image",
	"Annots",
	"Length",
	"Filter",
	"FlateDecode",
	"ProcSet",
	"PDF",
	"Text",
	"ImageB",
	"ImageC",
	"Width",
	"Height",
	"BitsPerComponent",
	"ColorSpace",
	"DeviceRGB",
	"DeviceGray",
	"Annot",
	"Link",
	"Rect",
	"Border",
	"A",
	"URI",
	"Dest",
	"Outlines",
	"Metadata",
	"Info",
	"Producer",
	"Creator",
}

var commonNameValues = func() (v [len(commonNames)]types.Object) {
	for i, n := range commonNames {
		v[i] = types.Name(n)
	}
	return v
}()

// commonName is the index of b in commonNames, or -1: a switch, which
// compares b with a few of them, where a map hashed it (a look-up for
// every key of every dictionary parsed).
func commonName(b []byte) int {
	switch string(b) {
	case "Type":
		return 0
	case "Subtype":
		return 1
	case "Page":
		return 2
	case "Pages":
		return 3
	case "Kids":
		return 4
	case "Parent":
		return 5
	case "Count":
		return 6
	case "MediaBox":
		return 7
	case "CropBox":
		return 8
	case "Contents":
		return 9
	case "Resources":
		return 10
	case "Rotate":
		return 11
	case "ID":
		return 12
	case "PZ":
		return 13
	case "Names":
		return 14
	case "Limits":
		return 15
	case "IDS":
		return 16
	case "URLS":
		return 17
	case "S":
		return 18
	case "SPS":
		return 19
	case "SIS":
		return 20
	case "O":
		return 21
	case "SI":
		return 22
	case "AU":
		return 23
	case "TS":
		return 24
	case "CT":
		return 25
	case "T":
		return 26
	case "R":
		return 27
	case "C":
		return 28
	case "Catalog":
		return 29
	case "SpiderInfo":
		return 30
	case "SpiderContentSet":
		return 31
	case "V":
		return 32
	case "Font":
		return 33
	case "XObject":
		return 34
	case "Image":
		return 35
	case "Annots":
		return 36
	case "Length":
		return 37
	case "Filter":
		return 38
	case "FlateDecode":
		return 39
	case "ProcSet":
		return 40
	case "PDF":
		return 41
	case "Text":
		return 42
	case "ImageB":
		return 43
	case "ImageC":
		return 44
	case "Width":
		return 45
	case "Height":
		return 46
	case "BitsPerComponent":
		return 47
	case "ColorSpace":
		return 48
	case "DeviceRGB":
		return 49
	case "DeviceGray":
		return 50
	case "Annot":
		return 51
	case "Link":
		return 52
	case "Rect":
		return 53
	case "Border":
		return 54
	case "A":
		return 55
	case "URI":
		return 56
	case "Dest":
		return 57
	case "Outlines":
		return 58
	case "Metadata":
		return 59
	case "Info":
		return 60
	case "Producer":
		return 61
	case "Creator":
		return 62
	}
	return -1
}

// internedName is b as a string: a common name without allocating.
func internedName(b []byte) string {
	if i := commonName(b); i >= 0 {
		return commonNames[i]
	}
	return string(b)
}
