package pdfio

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
	"golang.org/x/text/encoding/charmap"
)

// Text extraction, for refresh's change report: the words a page shows,
// in the order its content stream draws them, so that the same text
// printed twice extracts the same and a changed word shows as one.
//
// It is written here, not taken from a library, because pdfio is the only
// package that reads PDF bytes and pdfcpu (its parser) has no text
// extraction; the maintained Go libraries that have one either parse the
// file a second time with a parser of their own (not hardened against
// hostile files as this one is: limits, deadline, recovered panics) or
// run a C library. It covers what Chromium prints (Type0 fonts with
// Identity-H and a /ToUnicode CMap, one BT block per line, horizontal
// moves between runs) and the simple fonts older captures use (/ToUnicode,
// else /Encoding with /Differences, else Windows-1252), and reads Form
// XObjects. It does not order text by position as poppler's pdftotext
// does (a page drawn out of reading order extracts in drawing order),
// nor read vertical writing, Type3 glyph procedures or annotations: for
// a word-level diff of two prints of a web page by one browser, drawing
// order is the stable order. A test compares its words with pdftotext's.
//
// Words are told apart as pdftotext tells them: a space glyph, or a gap
// between two glyphs wider than a fraction of the font size; a line by a
// move across the text's baseline. Untrusted content is read within
// bounds: a page's content streams go through the decoder's caps, at
// most maxTextTokens tokens per page, forms at most maxFormDepth deep,
// and at most maxTextBytes of text per page.

const (
	maxTextTokens = 4 << 20  // content stream tokens read for one page
	maxTextBytes  = 16 << 20 // text extracted from one page
	maxFormDepth  = 12       // Form XObjects within forms
	maxCMapRanges = 1 << 16  // bfrange entries kept from one /ToUnicode
)

// ErrTextLimit is wrapped by the error of a page whose text is past a
// bound (maxTextTokens, maxTextBytes).
var ErrTextLimit = errors.New("too much content to extract text from")

// A TextReader extracts the text of a PDF's pages (ReadText).
type TextReader struct {
	name  string
	xt    *model.XRefTable
	dec   *decoder
	pages []textPage
	byRef map[webcapture.Ref]int
	fonts map[int]*textFont // by object number
}

type textPage struct {
	ref  webcapture.Ref
	dict types.Dict // with its inherited attributes
}

// ReadText parses pdf (name is used in messages) for text extraction:
// its pages, in page tree order.
func ReadText(pdf []byte, name string, opts Options) (t *TextReader, err error) {
	opts = opts.withDefaults()
	if int64(len(pdf)) > opts.MaxFileSize {
		return nil, &Error{File: name, Op: "read", Err: fmt.Errorf("%d bytes: more than %d", len(pdf), opts.MaxFileSize)}
	}
	ctx, err := parse(pdf, opts)
	if err != nil {
		return nil, &Error{File: name, Op: "parse", Err: parseError(pdf, err)}
	}
	ctx.Read.RS = nil
	defer func() {
		if p := recover(); p != nil {
			t, err = nil, internalError(name, p)
		}
	}()
	c := &pageCopier{src: ctx, dec: newDecoder(ctx.XRefTable, opts), mapped: map[int]int{}, skip: map[int]bool{}}
	if ctx.XRefTable.Root == nil {
		return nil, &Error{File: name, Op: "read", Err: errors.New("no catalog")}
	}
	pages, err := c.srcPages()
	if err != nil {
		return nil, &Error{File: name, Op: "read pages", Err: err}
	}
	t = &TextReader{name: name, xt: ctx.XRefTable, dec: c.dec, byRef: map[webcapture.Ref]int{}, fonts: map[int]*textFont{}}
	for i, p := range pages {
		ref := webcapture.Ref{Num: p.num, Gen: 0}
		if e := ctx.XRefTable.Table[p.num]; e != nil && e.Generation != nil {
			ref.Gen = *e.Generation
		}
		t.pages = append(t.pages, textPage{ref, p.dict})
		t.byRef[ref] = i
	}
	return t, nil
}

// NumPages returns how many pages the file has.
func (t *TextReader) NumPages() int { return len(t.pages) }

// Page returns the text of page i (0-based): its lines, each a run of
// words separated by one space, separated by "\n".
func (t *TextReader) Page(i int) (text string, err error) {
	if i < 0 || i >= len(t.pages) {
		return "", &Error{File: t.name, Op: "extract text", Err: fmt.Errorf("no page %d", i+1)}
	}
	defer func() {
		if p := recover(); p != nil {
			text, err = "", internalError(t.name, p)
		}
	}()
	p := t.pages[i]
	x := &textRun{t: t, left: maxTextTokens}
	res := t.deref(p.dict["Resources"])
	err = x.content(p.dict["Contents"], res, identity, 0)
	if err != nil {
		return "", &Error{File: t.name, Op: "extract text", Err: fmt.Errorf("page %d (object %d): %w", i+1, p.ref.Num, err)}
	}
	return x.String(), nil
}

// PagesOf returns the text of the pages refs names, in the order given,
// separated by "\n". A ref that is not a page of the file is an error.
func (t *TextReader) PagesOf(refs []webcapture.Ref) (string, error) {
	var parts []string
	for _, r := range refs {
		i, ok := t.byRef[r]
		if !ok {
			return "", &Error{File: t.name, Op: "extract text", Err: fmt.Errorf("object %d is not a page", r.Num)}
		}
		s, err := t.Page(i)
		if err != nil {
			return "", err
		}
		parts = append(parts, s)
	}
	return strings.Join(parts, "\n"), nil
}

// All returns the text of every page, separated by "\n".
func (t *TextReader) All() (string, error) {
	return t.PagesOf(t.refs())
}

// deref resolves a reference (a dangling one is nil); anything else is
// itself.
func (t *TextReader) deref(o types.Object) types.Object {
	for range 8 {
		r, ok := o.(types.IndirectRef)
		if !ok {
			return o
		}
		e, ok := t.xt.Table[r.ObjectNumber.Value()]
		if !ok || e == nil || e.Free {
			return nil
		}
		if o, _ = t.dec.load(pent(e)); o == nil {
			return nil
		}
	}
	return nil
}

func (t *TextReader) dict(o types.Object) types.Dict {
	d, _ := t.deref(o).(types.Dict)
	if d == nil {
		if sd, ok := t.deref(o).(types.StreamDict); ok {
			return sd.Dict
		}
	}
	return d
}

// streamData returns a stream's decoded bytes (o a reference to it).
func (t *TextReader) streamData(o types.Object) ([]byte, types.Dict, error) {
	r, ok := o.(types.IndirectRef)
	if !ok {
		return nil, nil, nil // a direct stream cannot be: ignored
	}
	num := r.ObjectNumber.Value()
	e, ok := t.xt.Table[num]
	if !ok || e == nil || e.Free {
		return nil, nil, nil
	}
	if _, err := t.dec.load(pent(e)); err != nil {
		return nil, nil, err
	}
	sd, ok := e.Object.(types.StreamDict)
	if !ok {
		return nil, nil, nil
	}
	b, err := t.dec.stream(num, &sd)
	return b, sd.Dict, err
}

// A matrix is [a b c d e f] (PDF 1.7 §4.2.3).
type matrix [6]float64

var identity = matrix{1, 0, 0, 1, 0, 0}

// mul returns m × n.
func (m matrix) mul(n matrix) matrix {
	return matrix{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

func (m matrix) apply(x, y float64) (float64, float64) {
	return x*m[0] + y*m[2] + m[4], x*m[1] + y*m[3] + m[5]
}

// textState is the graphics state text extraction follows.
type textState struct {
	ctm                    matrix
	font                   *textFont
	size, tc, tw, th, rise float64
	tl                     float64
}

// textRun extracts one page's text.
type textRun struct {
	t      *TextReader
	left   int // tokens still allowed
	out    strings.Builder
	gs     textState
	stack  []textState
	tm     matrix // text matrix
	tlm    matrix // text line matrix
	have   bool   // a glyph was written
	lastX  float64
	lastY  float64
	lastSz float64
}

func (x *textRun) String() string {
	lines := strings.Split(x.out.String(), "\n")
	var keep []string
	for _, l := range lines {
		if l = strings.Join(strings.Fields(l), " "); l != "" {
			keep = append(keep, l)
		}
	}
	return strings.Join(keep, "\n")
}

// content interprets a page's or form's content (a stream, or an array of
// streams) with its resources.
func (x *textRun) content(contents types.Object, res types.Object, ctm matrix, depth int) error {
	streams := []types.Object{contents}
	if a, ok := x.t.deref(contents).(types.Array); ok {
		streams = a
	}
	var data []byte
	for _, s := range streams {
		b, _, err := x.t.streamData(s) // a reference; anything else is no stream
		if err != nil {
			return err
		}
		data = append(append(data, b...), '\n')
	}
	return x.run(data, x.t.dict(res), ctm, depth)
}

// run interprets content stream data.
func (x *textRun) run(data []byte, res types.Dict, ctm matrix, depth int) error {
	saved, savedStack := x.gs, x.stack
	x.gs.ctm, x.stack = ctm, nil
	if depth == 0 {
		x.gs = textState{ctm: ctm, th: 1}
	}
	defer func() { x.gs, x.stack = saved, savedStack }()
	lx := lexer{b: data}
	var ops []operand
	for {
		if x.left--; x.left < 0 {
			return ErrTextLimit
		}
		if x.out.Len() > maxTextBytes {
			return ErrTextLimit
		}
		tok, ok := lx.next()
		if !ok {
			return nil
		}
		if tok.kind != tokOp {
			if len(ops) < 64 {
				ops = append(ops, tok)
			}
			continue
		}
		if err := x.op(tok.s, ops, res, &lx, depth); err != nil {
			return err
		}
		ops = ops[:0]
	}
}

func nums(ops []operand, n int) ([]float64, bool) {
	if len(ops) < n {
		return nil, false
	}
	v := make([]float64, n)
	for i, o := range ops[len(ops)-n:] {
		if o.kind != tokNum {
			return nil, false
		}
		v[i] = o.n
	}
	return v, true
}

// op carries out one operator.
func (x *textRun) op(op string, ops []operand, res types.Dict, lx *lexer, depth int) error {
	switch op {
	case "q":
		if len(x.stack) < 256 {
			x.stack = append(x.stack, x.gs)
		}
	case "Q":
		if n := len(x.stack); n > 0 {
			x.gs, x.stack = x.stack[n-1], x.stack[:n-1]
		}
	case "cm":
		if v, ok := nums(ops, 6); ok {
			x.gs.ctm = matrix(v).mul(x.gs.ctm)
		}
	case "BT":
		x.tm, x.tlm = identity, identity
	case "Tf":
		if len(ops) >= 2 && ops[len(ops)-2].kind == tokName && ops[len(ops)-1].kind == tokNum {
			x.gs.font = x.t.font(res, ops[len(ops)-2].s)
			x.gs.size = ops[len(ops)-1].n
		}
	case "Tc", "Tw", "Tz", "TL", "Ts":
		if v, ok := nums(ops, 1); ok {
			switch op {
			case "Tc":
				x.gs.tc = v[0]
			case "Tw":
				x.gs.tw = v[0]
			case "Tz":
				x.gs.th = v[0] / 100
			case "TL":
				x.gs.tl = v[0]
			case "Ts":
				x.gs.rise = v[0]
			}
		}
	case "Td", "TD":
		if v, ok := nums(ops, 2); ok {
			if op == "TD" {
				x.gs.tl = -v[1]
			}
			x.tlm = matrix{1, 0, 0, 1, v[0], v[1]}.mul(x.tlm)
			x.tm = x.tlm
		}
	case "Tm":
		if v, ok := nums(ops, 6); ok {
			x.tlm = matrix(v)
			x.tm = x.tlm
		}
	case "T*":
		x.nextLine()
	case "Tj", "'", "\"":
		if op != "Tj" {
			x.nextLine()
		}
		if op == "\"" {
			if v, ok := nums(ops[:max(len(ops)-1, 0)], 2); ok {
				x.gs.tw, x.gs.tc = v[0], v[1]
			}
		}
		if n := len(ops); n > 0 && ops[n-1].kind == tokStr {
			x.show(ops[n-1].s)
		}
	case "TJ":
		for _, o := range arrayOperand(ops) {
			switch o.kind {
			case tokStr:
				x.show(o.s)
			case tokNum:
				x.tm = matrix{1, 0, 0, 1, -o.n / 1000 * x.gs.size * x.gs.th, 0}.mul(x.tm)
			}
		}
	case "Do":
		if len(ops) > 0 && ops[len(ops)-1].kind == tokName {
			return x.form(res, ops[len(ops)-1].s, depth)
		}
	case "BI":
		lx.skipInlineImage()
	}
	return nil
}

func (x *textRun) nextLine() {
	x.tlm = matrix{1, 0, 0, 1, 0, -x.gs.tl}.mul(x.tlm)
	x.tm = x.tlm
}

// arrayOperand returns the elements of the last array among ops (the lexer
// gives an array as its elements between tokArray and tokArrayEnd).
func arrayOperand(ops []operand) []operand {
	end := -1
	for i := len(ops) - 1; i >= 0; i-- {
		if ops[i].kind == tokArrayEnd && end < 0 {
			end = i
		}
		if ops[i].kind == tokArray && end >= 0 {
			return ops[i+1 : end]
		}
	}
	return nil
}

// form draws Form XObject name of res.
func (x *textRun) form(res types.Dict, name string, depth int) error {
	if depth >= maxFormDepth || res == nil {
		return nil
	}
	xo := x.t.dict(res["XObject"])
	if xo == nil {
		return nil
	}
	ref := xo[name]
	data, d, err := x.t.streamData(ref)
	if err != nil || d == nil {
		return err
	}
	if st, _ := d["Subtype"].(types.Name); st != "Form" {
		return nil
	}
	m := identity
	if a, ok := x.t.deref(d["Matrix"]).(types.Array); ok && len(a) == 6 {
		for i, v := range a {
			m[i] = number(v)
		}
	}
	fres := x.t.dict(d["Resources"])
	if fres == nil {
		fres = res
	}
	return x.run(data, fres, m.mul(x.gs.ctm), depth+1)
}

// show writes the text of string s in the current font, and moves the
// text matrix past it.
func (x *textRun) show(s string) {
	f := x.gs.font
	if f == nil {
		return
	}
	for len(s) > 0 {
		code, n := f.code(s)
		s = s[n:]
		trm := matrix{x.gs.size * x.gs.th, 0, 0, x.gs.size, 0, x.gs.rise}.mul(x.tm).mul(x.gs.ctm)
		px, py := trm[4], trm[5]
		size := math.Hypot(trm[2], trm[3])
		w := f.width(code)
		tx := (w/1000*x.gs.size + x.gs.tc) * x.gs.th
		if n == 1 && code == 32 {
			tx += x.gs.tw * x.gs.th
		}
		x.tm = matrix{1, 0, 0, 1, tx, 0}.mul(x.tm)
		text := f.unicode(code)
		if text == "" {
			continue
		}
		x.place(px, py, size)
		for _, r := range text {
			if unicode.IsSpace(r) || unicode.IsControl(r) {
				r = ' '
			}
			x.out.WriteRune(r)
		}
		next := matrix{x.gs.size * x.gs.th, 0, 0, x.gs.size, 0, x.gs.rise}.mul(x.tm).mul(x.gs.ctm)
		x.lastX, x.lastY, x.lastSz, x.have = next[4], next[5], size, true
	}
}

// place separates a glyph at (px, py) from the one before: a new line when
// it is off the line, a space when there is a gap.
func (x *textRun) place(px, py, size float64) {
	if !x.have {
		return
	}
	ref := max(size, x.lastSz)
	if ref <= 0 {
		ref = 1
	}
	switch {
	case math.Abs(py-x.lastY) > ref*0.5:
		x.out.WriteByte('\n')
	case math.Abs(px-x.lastX) > ref*0.15:
		x.out.WriteByte(' ')
	}
}

// A textFont maps a font's codes to text and widths.
type textFont struct {
	twoByte bool
	uni     map[uint32]string // /ToUnicode bfchar
	ranges  []cmapRange       // /ToUnicode bfrange
	enc     *[256]string      // a simple font without /ToUnicode: its encoding
	widths  map[uint32]float64
	dw      float64 // the width of a code /W or /Widths does not give
	scale   float64 // Type3: glyph space to thousandths of text space
}

type cmapRange struct {
	lo, hi uint32
	dst    string   // UTF-16BE, its last unit incremented by code-lo
	each   []string // or one UTF-16BE string per code
}

// code returns the code at the start of s and its length in bytes.
func (f *textFont) code(s string) (uint32, int) {
	if f.twoByte && len(s) >= 2 {
		return uint32(s[0])<<8 | uint32(s[1]), 2
	}
	return uint32(s[0]), 1
}

func (f *textFont) width(c uint32) float64 {
	w, ok := f.widths[c]
	if !ok {
		w = f.dw
	}
	return w * f.scale
}

func (f *textFont) unicode(c uint32) string {
	if s, ok := f.uni[c]; ok {
		return s
	}
	for _, r := range f.ranges {
		if c < r.lo || c > r.hi {
			continue
		}
		if r.each != nil {
			if i := int(c - r.lo); i < len(r.each) {
				return utf16BE(r.each[i])
			}
			return ""
		}
		b := []byte(r.dst)
		if len(b) >= 2 {
			v := uint32(b[len(b)-2])<<8 | uint32(b[len(b)-1]) + c - r.lo
			b[len(b)-2], b[len(b)-1] = byte(v>>8), byte(v)
		}
		return utf16BE(string(b))
	}
	if f.enc != nil && c < 256 {
		return f.enc[c]
	}
	return ""
}

func utf16BE(s string) string {
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	return string(utf16.Decode(u))
}

// font returns the font name of res's /Font, read once per object.
func (t *TextReader) font(res types.Dict, name string) *textFont {
	if res == nil {
		return nil
	}
	fonts := t.dict(res["Font"])
	if fonts == nil {
		return nil
	}
	ref, isRef := fonts[name].(types.IndirectRef)
	if isRef {
		if f, ok := t.fonts[ref.ObjectNumber.Value()]; ok {
			return f
		}
	}
	d := t.dict(fonts[name])
	if d == nil {
		return nil
	}
	f := t.readFont(d)
	if isRef {
		t.fonts[ref.ObjectNumber.Value()] = f
	}
	return f
}

func (t *TextReader) readFont(d types.Dict) *textFont {
	f := &textFont{widths: map[uint32]float64{}, uni: map[uint32]string{}, scale: 1}
	sub, _ := d["Subtype"].(types.Name)
	if tu := d["ToUnicode"]; tu != nil {
		if data, _, err := t.streamData(tu); err == nil {
			f.readCMap(data)
		}
	}
	if sub == "Type0" {
		f.twoByte, f.dw = true, 1000
		if a, ok := t.deref(d["DescendantFonts"]).(types.Array); ok && len(a) > 0 {
			if cid := t.dict(a[0]); cid != nil {
				if v, ok := t.deref(cid["DW"]).(types.Integer); ok {
					f.dw = float64(v)
				}
				f.readW(t.deref(cid["W"]))
			}
		}
		return f
	}
	f.twoByte = false // a simple font's codes are one byte, whatever its CMap says
	first := 0
	if v, ok := t.deref(d["FirstChar"]).(types.Integer); ok {
		first = int(v)
	}
	if a, ok := t.deref(d["Widths"]).(types.Array); ok {
		for i, w := range a {
			if i > 256 {
				break
			}
			f.widths[uint32(first+i)] = number(t.deref(w))
		}
	}
	if sub == "Type3" {
		if m, ok := t.deref(d["FontMatrix"]).(types.Array); ok && len(m) == 6 {
			f.scale = number(t.deref(m[0])) * 1000
		}
	}
	if len(f.uni) == 0 && len(f.ranges) == 0 {
		f.enc = t.simpleEncoding(d["Encoding"])
	}
	return f
}

// readW reads a CIDFont's /W: c [w1 w2 ...] and cfirst clast w.
func (f *textFont) readW(o types.Object) {
	a, _ := o.(types.Array)
	for i := 0; i < len(a) && len(f.widths) < 1<<17; {
		c, ok := a[i].(types.Integer)
		if !ok {
			return
		}
		if i+1 < len(a) {
			if ws, ok := a[i+1].(types.Array); ok {
				for k, w := range ws {
					f.widths[uint32(int(c)+k)] = number(w)
				}
				i += 2
				continue
			}
		}
		if i+2 >= len(a) {
			return
		}
		hi, ok := a[i+1].(types.Integer)
		if !ok || hi < c || hi-c > 1<<16 {
			return
		}
		w := number(a[i+2])
		for k := c; k <= hi; k++ {
			f.widths[uint32(k)] = w
		}
		i += 3
	}
}

// readCMap reads a /ToUnicode CMap's bfchar and bfrange entries (PDF 1.7
// §5.9.2), and whether its codes are two bytes.
func (f *textFont) readCMap(data []byte) {
	lx := lexer{b: data}
	var ops []operand
	mode := ""
	for n := 0; n < maxTextTokens; n++ {
		tok, ok := lx.next()
		if !ok {
			return
		}
		switch {
		case tok.kind == tokOp && strings.HasPrefix(tok.s, "begin"):
			mode, ops = tok.s, ops[:0]
		case tok.kind == tokOp && strings.HasPrefix(tok.s, "end"):
			mode, ops = "", ops[:0]
		case mode == "begincodespacerange" && tok.kind == tokStr:
			f.twoByte = len(tok.s) == 2
		case mode == "beginbfchar":
			ops = append(ops, tok)
			if len(ops) == 2 {
				if ops[0].kind == tokStr && ops[1].kind == tokStr {
					f.uni[codeOf(ops[0].s)] = utf16BE(ops[1].s)
				}
				ops = ops[:0]
			}
		case mode == "beginbfrange":
			ops = append(ops, tok)
			if tok.kind == tokArray {
				continue
			}
			if len(ops) >= 3 && (ops[2].kind == tokStr || tok.kind == tokArrayEnd) {
				f.addRange(ops)
				ops = ops[:0]
			}
		}
	}
}

func (f *textFont) addRange(ops []operand) {
	if ops[0].kind != tokStr || ops[1].kind != tokStr || len(f.ranges) >= maxCMapRanges {
		return
	}
	r := cmapRange{lo: codeOf(ops[0].s), hi: codeOf(ops[1].s)}
	if r.hi < r.lo {
		return
	}
	if ops[2].kind == tokStr {
		r.dst = ops[2].s
	} else {
		r.each = []string{}
		for _, o := range ops[3:] {
			if o.kind == tokStr {
				r.each = append(r.each, o.s)
			}
		}
	}
	f.ranges = append(f.ranges, r)
}

func codeOf(s string) uint32 {
	var c uint32
	for i := 0; i < len(s) && i < 4; i++ {
		c = c<<8 | uint32(s[i])
	}
	return c
}

// simpleEncoding is a simple font's encoding without /ToUnicode: its
// /Differences over Windows-1252 (as pdftotext reads WinAnsiEncoding and
// a standard font's own; MacRoman and StandardEncoding differ from it
// only outside ASCII's letters, digits and common punctuation).
func (t *TextReader) simpleEncoding(o types.Object) *[256]string {
	var enc [256]string
	for i := range 256 {
		if r := charmap.Windows1252.DecodeByte(byte(i)); r != utf8RuneError && (i >= 32) {
			enc[i] = string(r)
		}
	}
	d := t.dict(o)
	if d == nil {
		return &enc
	}
	diff, _ := t.deref(d["Differences"]).(types.Array)
	code := 0
	for _, v := range diff {
		switch v := t.deref(v).(type) {
		case types.Integer:
			code = int(v)
		case types.Name:
			if code >= 0 && code < 256 {
				enc[code] = glyphText(string(v))
			}
			code++
		}
	}
	return &enc
}

const utf8RuneError = '\uFFFD'

// glyphText is the text of a glyph name (the Adobe Glyph List's rules for
// uniXXXX, uXXXX[XX] and single characters, and the common names).
func glyphText(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if s, ok := glyphNames[name]; ok {
		return s
	}
	if len(name) == 1 {
		return name
	}
	for _, p := range []string{"uni", "u"} {
		if h, ok := strings.CutPrefix(name, p); ok && len(h) >= 4 && len(h) <= 6 {
			if v, err := strconv.ParseUint(h, 16, 32); err == nil && v <= unicode.MaxRune {
				return string(rune(v))
			}
		}
	}
	return ""
}

var glyphNames = map[string]string{
	"space": " ", "exclam": "!", "quotedbl": "\"", "numbersign": "#", "dollar": "$", "percent": "%", "ampersand": "&",
	"quotesingle": "'", "quoteright": "’", "quoteleft": "‘", "parenleft": "(", "parenright": ")", "asterisk": "*", "plus": "+",
	"comma": ",", "hyphen": "-", "minus": "−", "period": ".", "slash": "/", "zero": "0", "one": "1", "two": "2", "three": "3",
	"four": "4", "five": "5", "six": "6", "seven": "7", "eight": "8", "nine": "9", "colon": ":", "semicolon": ";",
	"less": "<", "equal": "=", "greater": ">", "question": "?", "at": "@", "bracketleft": "[", "backslash": "\\",
	"bracketright": "]", "asciicircum": "^", "underscore": "_", "grave": "`", "braceleft": "{", "bar": "|",
	"braceright": "}", "asciitilde": "~", "quotedblleft": "“", "quotedblright": "”", "endash": "–", "emdash": "—",
	"bullet": "•", "ellipsis": "…", "fi": "fi", "fl": "fl", "ff": "ff", "ffi": "ffi", "ffl": "ffl", "copyright": "©",
	"registered": "®", "trademark": "™", "degree": "°", "nbspace": " ", "eacute": "é", "egrave": "è", "agrave": "à",
	"ccedilla": "ç", "udieresis": "ü", "odieresis": "ö", "adieresis": "ä", "germandbls": "ß", "Euro": "€",
}

// The content stream lexer (PDF 1.7 §3.1, §3.7.1).

type tokKind int

const (
	tokNum tokKind = iota
	tokName
	tokStr // a literal or hex string, decoded
	tokArray
	tokArrayEnd
	tokOp
)

type operand struct {
	kind tokKind
	s    string
	n    float64
}

type lexer struct {
	b []byte
	i int
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

// next returns the next token; a dictionary (<< ... >>) is skipped whole.
func (l *lexer) next() (operand, bool) {
	for l.i < len(l.b) {
		c := l.b[l.i]
		switch {
		case isSpace(c):
			l.i++
		case c == '%':
			for l.i < len(l.b) && l.b[l.i] != '\n' && l.b[l.i] != '\r' {
				l.i++
			}
		case c == '/':
			l.i++
			start := l.i
			for l.i < len(l.b) && !isSpace(l.b[l.i]) && !isDelim(l.b[l.i]) {
				l.i++
			}
			return operand{kind: tokName, s: decodeName(string(l.b[start:l.i]))}, true
		case c == '(':
			return operand{kind: tokStr, s: unescapeLiteral(l.literal())}, true
		case c == '<' && l.i+1 < len(l.b) && l.b[l.i+1] == '<':
			l.skipDict()
		case c == '<':
			l.i++
			var h []byte
			for l.i < len(l.b) && l.b[l.i] != '>' {
				if !isSpace(l.b[l.i]) {
					h = append(h, l.b[l.i])
				}
				l.i++
			}
			l.i++
			return operand{kind: tokStr, s: decodeHex(string(h))}, true
		case c == '[':
			l.i++
			return operand{kind: tokArray}, true
		case c == ']':
			l.i++
			return operand{kind: tokArrayEnd}, true
		case isDelim(c): // ) > { }: stray
			l.i++
		default:
			start := l.i
			for l.i < len(l.b) && !isSpace(l.b[l.i]) && !isDelim(l.b[l.i]) {
				l.i++
			}
			w := string(l.b[start:l.i])
			if n, err := strconv.ParseFloat(w, 64); err == nil && (w[0] == '-' || w[0] == '+' || w[0] == '.' || (w[0] >= '0' && w[0] <= '9')) {
				if math.IsInf(n, 0) || math.IsNaN(n) {
					n = 0
				}
				return operand{kind: tokNum, n: n}, true
			}
			return operand{kind: tokOp, s: w}, true
		}
	}
	return operand{}, false
}

// literal returns the raw text of a literal string (balanced parentheses,
// escapes kept) and moves past it.
func (l *lexer) literal() string {
	l.i++
	start, depth := l.i, 1
	for ; l.i < len(l.b); l.i++ {
		switch l.b[l.i] {
		case '\\':
			l.i++
		case '(':
			depth++
		case ')':
			if depth--; depth == 0 {
				s := string(l.b[start:l.i])
				l.i++
				return s
			}
		}
	}
	return string(l.b[start:min(l.i, len(l.b))])
}

// skipDict moves past a dictionary, nested ones and strings within it.
func (l *lexer) skipDict() {
	depth := 0
	for l.i < len(l.b) {
		switch {
		case l.b[l.i] == '(':
			l.literal()
			continue
		case l.b[l.i] == '<' && l.i+1 < len(l.b) && l.b[l.i+1] == '<':
			depth++
			l.i += 2
			continue
		case l.b[l.i] == '>' && l.i+1 < len(l.b) && l.b[l.i+1] == '>':
			depth--
			l.i += 2
			if depth == 0 {
				return
			}
			continue
		}
		l.i++
	}
}

// skipInlineImage moves past an inline image's data: from ID to the EI
// that stands alone after white space.
func (l *lexer) skipInlineImage() {
	for {
		tok, ok := l.next()
		if !ok {
			return
		}
		if tok.kind == tokOp && tok.s == "ID" {
			break
		}
	}
	l.i++ // the one white-space byte after ID
	for ; l.i+2 < len(l.b); l.i++ {
		if isSpace(l.b[l.i]) && l.b[l.i+1] == 'E' && l.b[l.i+2] == 'I' && (l.i+3 == len(l.b) || isSpace(l.b[l.i+3]) || isDelim(l.b[l.i+3])) {
			l.i += 3
			return
		}
	}
	l.i = len(l.b)
}

// refs returns the pages' references, in order.
func (t *TextReader) refs() []webcapture.Ref {
	refs := make([]webcapture.Ref, len(t.pages))
	for i, p := range t.pages {
		refs[i] = p.ref
	}
	return refs
}
