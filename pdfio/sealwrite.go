package pdfio

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math/big"
	"os"
	"strconv"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Seal types and subfilters (ISO 32000-2 §12.8.1, Table 255; ETSI EN
// 319 142-1 §5: PAdES).
const (
	SealSig          = "Sig"          // a signature: /SubFilter /ETSI.CAdES.detached
	SealDocTimeStamp = "DocTimeStamp" // a document timestamp: /SubFilter /ETSI.RFC3161

	SubFilterCAdES   = "ETSI.CAdES.detached"
	SubFilterRFC3161 = "ETSI.RFC3161"
)

// A SealField is a signature or a document timestamp to add (AddSeal):
// the signature dictionary (ISO 32000-2 §12.8.1, Table 255), its field
// (§12.7.5.5) and that field's widget annotation, invisible, on the first
// page. Its /ByteRange and /Contents are placeholders of a fixed width,
// filled in once the file is written (WriteSealed, SealedBytes).
type SealField struct {
	Type      string    // Type: SealSig or SealDocTimeStamp
	SubFilter string    // SubFilter (default: SubFilterCAdES for a Sig, SubFilterRFC3161 for a DocTimeStamp)
	Name      string    // Name, text: the signer's name (Sig only)
	Reason    string    // Reason, text (Sig only)
	Location  string    // Location, text (Sig only)
	M         time.Time // M, date: the claimed time of signing (Sig only; zero: none)
	Size      int       // bytes reserved for /Contents (its hex string is twice as long)
}

// A DSS is what AddDSS adds to the document security store (ISO 32000-2
// §12.8.4.3, ETSI EN 319 142-1 §5.4.2): DER certificates, OCSP responses
// and CRLs, each written as a stream.
type DSS struct {
	Certs, OCSPs, CRLs [][]byte
}

// MaxSealContents bounds SealField.Size.
const MaxSealContents = 1 << 20

// ErrSealContents: what the signer made does not fit the room reserved.
var ErrSealContents = errors.New("the seal does not fit the room reserved for /Contents")

// A SealSizeError is a /Contents that does not fit: Need bytes made, Have
// reserved (SealField.Size).
type SealSizeError struct{ Need, Have int }

func (e *SealSizeError) Error() string {
	return fmt.Sprintf("%v: %d bytes made, %d reserved (reserve at least %d)", ErrSealContents, e.Need, e.Have, e.Need)
}

func (e *SealSizeError) Unwrap() error { return ErrSealContents }

// sealState is the placeholder AddSeal wrote, found again in the output.
type sealState struct {
	marker []byte // the placeholder /ByteRange, digits drawn at random: unique in the file
	size   int
}

// AddSeal adds a signature or document timestamp field f with placeholder
// /ByteRange and /Contents: a signature dictionary, a field with its
// widget merged into it (/Rect [0 0 0 0], /F 132: hidden and locked) on
// the first page's /Annots, and the field in the catalog's /AcroForm
// /Fields (the fields there are kept) with /SigFlags 3. One seal per
// update: a seal covers the revision it is written in.
func (u *Update) AddSeal(f SealField) error {
	if u.seal != nil {
		return errors.New("pdfio: AddSeal: one seal per update")
	}
	if u.pages != nil {
		return errors.New("pdfio: AddSeal: the update changes the page tree: seal it in an update of its own")
	}
	switch f.Type {
	case SealSig:
		if f.SubFilter == "" {
			f.SubFilter = SubFilterCAdES
		}
	case SealDocTimeStamp:
		if f.SubFilter == "" {
			f.SubFilter = SubFilterRFC3161
		}
	default:
		return fmt.Errorf("pdfio: AddSeal: type %q is neither %s nor %s", f.Type, SealSig, SealDocTimeStamp)
	}
	if f.Size <= 0 || f.Size > MaxSealContents {
		return fmt.Errorf("pdfio: AddSeal: %d bytes reserved for /Contents: 1 to %d", f.Size, MaxSealContents)
	}
	marker, br, err := byteRangePlaceholder()
	if err != nil {
		return err
	}
	sig := types.Dict{
		"Type":      types.Name(f.Type),
		"Filter":    types.Name("Adobe.PPKLite"),
		"SubFilter": types.Name(f.SubFilter),
		"ByteRange": br,
		"Contents":  types.HexLiteral(bytes.Repeat([]byte("0"), 2*f.Size)),
	}
	if f.Type == SealSig {
		for k, v := range map[string]string{"Name": f.Name, "Reason": f.Reason, "Location": f.Location} {
			if v != "" {
				sig[k] = literalString(string(webcapture.EncodeText(v)))
			}
		}
		if !f.M.IsZero() {
			sig["M"] = literalString(PDFDate(f.M))
		}
	}
	cat, err := u.dictAt(u.root())
	if err != nil || cat == nil {
		return errors.New("pdfio: AddSeal: the catalog is not a dictionary")
	}
	form, formRef, err := u.editable(cat["AcroForm"])
	if err != nil {
		return fmt.Errorf("pdfio: AddSeal: /AcroForm: %w", err)
	}
	fields, err := u.arrayCopy(form["Fields"])
	if err != nil {
		return fmt.Errorf("pdfio: AddSeal: /AcroForm /Fields: %w", err)
	}
	sigRef := u.add(sig)
	field := types.Dict{
		"Type":    types.Name("Annot"),
		"Subtype": types.Name("Widget"),
		"FT":      types.Name("Sig"),
		"T":       literalString(u.fieldName(fields, f.Type)),
		"V":       sigRef,
		"Rect":    types.Array{types.Integer(0), types.Integer(0), types.Integer(0), types.Integer(0)},
		"F":       types.Integer(132), // Print (4) | Locked (128): ISO 32000-2 §12.5.3
	}
	fieldNum := u.objs.reserve()
	fieldRef := *types.NewIndirectRef(fieldNum, 0)
	if err := u.annotateFirstPage(cat, field, fieldRef); err != nil {
		return fmt.Errorf("pdfio: AddSeal: %w", err)
	}
	u.objs.put(fieldNum, field)
	form["Fields"] = append(fields, fieldRef)
	form["SigFlags"] = types.Integer(3) // SignaturesExist | AppendOnly
	u.setCatalogEntry("AcroForm", form, formRef)
	level := 2
	if f.Type == SealDocTimeStamp {
		level = 5
	}
	if err := u.esic(level); err != nil {
		return fmt.Errorf("pdfio: AddSeal: %w", err)
	}
	u.seal = &sealState{marker: marker, size: f.Size}
	return nil
}

// byteRangePlaceholder is a /ByteRange [0 n n n] of fixed width, its
// numbers drawn at random, and its text (what WriteSealed looks for).
func byteRangePlaceholder() ([]byte, types.Array, error) {
	br := types.Array{types.Integer(0)}
	lo, span := big.NewInt(1_000_000_000), big.NewInt(8_999_999_999)
	for range 3 {
		n, err := rand.Int(rand.Reader, span)
		if err != nil {
			return nil, nil, fmt.Errorf("pdfio: AddSeal: %w", err)
		}
		br = append(br, types.Integer(n.Add(n, lo).Int64()))
	}
	var b bytes.Buffer
	b.WriteString("/ByteRange ")
	if err := appendObject(&b, br); err != nil {
		return nil, nil, err
	}
	return b.Bytes(), br, nil
}

// maxNamedFields bounds the fields whose names fieldName reads.
const maxNamedFields = 1 << 16

// fieldName is a field name no top-level field has: Signature1, ... or
// Timestamp1, ...
func (u *Update) fieldName(fields types.Array, typ string) string {
	taken := map[string]bool{}
	for i, e := range fields {
		if i >= maxNamedFields {
			break // (the names of the fields past them are not read)
		}
		if d, _ := u.dictAt(e); d != nil {
			if s, ok := rawString(d["T"]); ok {
				taken[s] = true
			}
		}
	}
	base := "Signature"
	if typ == SealDocTimeStamp {
		base = "Timestamp"
	}
	for i := 1; ; i++ {
		if len(fields) > maxNamedFields && i == 1 {
			i = len(fields) + 1 // a number no field read has, past their count
		}
		if n := base + strconv.Itoa(i); !taken[n] {
			return n
		}
	}
}

// annotateFirstPage adds the widget ref to the first page's /Annots and
// sets the widget's /P (a file without pages: neither).
func (u *Update) annotateFirstPage(cat, widget types.Dict, ref types.IndirectRef) error {
	var first *types.IndirectRef
	err := walkPages(cat["Pages"], u.root().ObjectNumber.Value(), u.lookup,
		func(types.IndirectRef, types.Dict, []types.IndirectRef) {},
		func(r types.IndirectRef, _ types.Dict, _ []types.Dict) {
			if first == nil {
				first = &r
			}
		})
	if err != nil {
		return fmt.Errorf("the page tree: %w", err)
	}
	if first == nil {
		return nil
	}
	page, err := u.dictAt(*first)
	if err != nil || page == nil {
		return fmt.Errorf("the first page (object %d) is not a dictionary", first.ObjectNumber.Value())
	}
	annots, err := u.arrayCopy(page["Annots"])
	if err != nil {
		return fmt.Errorf("the first page's /Annots: %w", err)
	}
	page = copyDict(page)
	page["Annots"] = append(annots, ref)
	u.replace(*first, page)
	widget["P"] = *first
	return nil
}

// editable returns a copy of the dictionary o is or refers to (a new one
// when o is absent), and its reference when it is an indirect object.
func (u *Update) editable(o types.Object) (types.Dict, *types.IndirectRef, error) {
	if o == nil {
		return types.Dict{}, nil, nil
	}
	d, err := u.dictAt(o)
	if err != nil {
		return nil, nil, err
	}
	if d == nil {
		return nil, nil, fmt.Errorf("a %s, not a dictionary", typeName(o))
	}
	if r, ok := o.(types.IndirectRef); ok {
		return copyDict(d), &r, nil
	}
	return copyDict(d), nil, nil
}

// arrayCopy returns a copy of the array o is or refers to (empty when o
// is absent).
func (u *Update) arrayCopy(o types.Object) (types.Array, error) {
	if o == nil {
		return types.Array{}, nil
	}
	a, err := resolveAs[types.Array](u, o)
	if err != nil {
		return nil, err
	}
	if a == nil {
		return nil, fmt.Errorf("a %s, not an array", typeName(o))
	}
	return append(types.Array{}, a...), nil
}

// setCatalogEntry writes d as the catalog's key: over its object when it
// is one (ref), else as a new object the catalog refers to.
func (u *Update) setCatalogEntry(key string, d types.Dict, ref *types.IndirectRef) {
	if ref != nil {
		u.replace(*ref, d)
		return
	}
	if u.catalogEdits == nil {
		u.catalogEdits = types.Dict{}
	}
	u.catalogEdits[key] = u.add(d)
}

// AddDSS adds d's certificates, OCSP responses and CRLs to the catalog's
// /DSS (made when the file has none), each a stream in its array (/Certs,
// /OCSPs, /CRLs); what the store holds is kept, and an item it holds
// already, or given twice, is written once.
func (u *Update) AddDSS(d DSS) error {
	cat, err := u.dictAt(u.root())
	if err != nil || cat == nil {
		return errors.New("pdfio: AddDSS: the catalog is not a dictionary")
	}
	dss, dssRef, err := u.editable(cat["DSS"])
	if err != nil {
		return fmt.Errorf("pdfio: AddDSS: /DSS: %w", err)
	}
	for _, k := range []struct {
		key   string
		items [][]byte
	}{{"Certs", d.Certs}, {"OCSPs", d.OCSPs}, {"CRLs", d.CRLs}} {
		if len(k.items) == 0 {
			continue
		}
		arr, err := u.arrayCopy(dss[k.key])
		if err != nil {
			return fmt.Errorf("pdfio: AddDSS: /DSS /%s: %w", k.key, err)
		}
		seen := u.streamsIn(arr)
		for _, b := range k.items {
			if seen[string(b)] {
				continue
			}
			seen[string(b)] = true
			arr = append(arr, u.add(types.StreamDict{Dict: types.Dict{}, Raw: b}))
		}
		dss[k.key] = arr
	}
	if dssRef == nil && cat["DSS"] == nil {
		dss["Type"] = types.Name("DSS")
	}
	u.setCatalogEntry("DSS", dss, dssRef)
	if err := u.esic(5); err != nil {
		return fmt.Errorf("pdfio: AddDSS: %w", err)
	}
	return nil
}

// esic declares the extensions a seal uses in the catalog (ISO 32000-2's
// features in a PDF 1.7 file, as Adobe's ETSI supplement says): /Extensions
// /ESIC << /BaseVersion /1.7 /ExtensionLevel level >> (2: a CAdES
// signature; 5: a DSS or a document timestamp), the level never lowered
// and the other extensions kept; and /Version /1.7 when the file says an
// older one. The file stays below PDF 2.0 (pdfcpu refuses some 1.7
// constructs, /AF among them, at 2.0).
func (u *Update) esic(level int) error {
	cat, err := u.dictAt(u.root())
	if err != nil || cat == nil {
		return errors.New("the catalog is not a dictionary")
	}
	ext, extRef, err := u.editable(cat["Extensions"])
	if e, ok := u.catalogEdits["Extensions"].(types.Dict); ok {
		ext, extRef, err = e, nil, nil // set by an earlier call in this update
	}
	if err != nil {
		return fmt.Errorf("/Extensions: %w", err)
	}
	if have, _ := u.dictAt(ext["ESIC"]); have != nil {
		if n, ok := have["ExtensionLevel"].(types.Integer); ok && int(n) >= level {
			return nil
		}
	}
	ext["ESIC"] = types.Dict{"BaseVersion": types.Name("1.7"), "ExtensionLevel": types.Integer(level)}
	if extRef != nil {
		u.replace(*extRef, ext)
	} else {
		if u.catalogEdits == nil {
			u.catalogEdits = types.Dict{}
		}
		u.catalogEdits["Extensions"] = ext
	}
	if v := u.ctx.RootVersion; (v == nil || *v < model.V17) && u.ctx.HeaderVersion != nil && *u.ctx.HeaderVersion < model.V17 {
		u.catalogEdits["Version"] = types.Name("1.7")
	}
	return nil
}

// maxDSSCompared bounds the entries of a DSS array whose bytes AddDSS
// compares with what it adds (a hostile store may hold any number).
const maxDSSCompared = 4096

// streamsIn is the set of the decoded bytes of the streams arr refers to
// (its first maxDSSCompared; what does not decode is left out).
func (u *Update) streamsIn(arr types.Array) map[string]bool {
	seen := map[string]bool{}
	for i, e := range arr {
		r, ok := e.(types.IndirectRef)
		if !ok || i >= maxDSSCompared {
			continue
		}
		o, err := u.lookup(r)
		if sd, ok := o.(types.StreamDict); err == nil && ok {
			if b, err := u.dec.stream(r.ObjectNumber.Value(), &sd); err == nil {
				seen[string(b)] = true
			}
		}
	}
	return seen
}

// PDFDate is t as a PDF date string (PDF 1.7 §3.8.3), in UTC:
// D:YYYYMMDDHHmmSS+00'00'.
func PDFDate(t time.Time) string {
	return t.UTC().Format("D:20060102150405") + "+00'00'"
}

// SealSign makes a seal's /Contents from the bytes its /ByteRange covers,
// read from the file written (memory stays bounded).
type SealSign func(covered io.Reader) ([]byte, error)

// sealFile is what the placeholder is filled in: the file written, or its
// bytes in memory.
type sealFile interface {
	io.ReaderAt
	io.WriterAt
}

// WriteSealed writes the updated file to w (what w held before is
// discarded) and fills in the seal AddSeal added: its /ByteRange
// [0 a b c], a and b the offsets of /Contents' '<' and after its '>', c
// reaching the end of the file; then sign's bytes, in hex, in /Contents.
// The caller commits w (or closes it: nothing is written).
func (u *Update) WriteSealed(w *Output, sign SealSign) error {
	if u.seal == nil {
		return errors.New("pdfio: WriteSealed: no seal added (AddSeal)")
	}
	if err := w.tmp.Truncate(0); err != nil {
		return pathError(w.o.path, err)
	}
	if _, err := w.tmp.Seek(0, io.SeekStart); err != nil {
		return pathError(w.o.path, err)
	}
	if err := u.writeAll(w.tmp, w.o.path); err != nil {
		return err
	}
	return u.fillSeal(w.tmp, int64(len(u.orig)), sign, w.o.path)
}

// writeAll writes the updated file to f: streamed by the update's WriteTo
// when it has one (the update's bytes not held whole), else from Bytes.
func (u *Update) writeAll(f *os.File, name string) error {
	if wt, ok := any(u).(io.WriterTo); ok {
		_, err := wt.WriteTo(f) // its errors say what failed, as Bytes' do
		return err
	}
	data, err := u.Bytes()
	if err != nil {
		return err
	}
	if _, err := f.Write(data); err != nil {
		return pathError(name, err)
	}
	return nil
}

// Size is the size of what w holds so far.
func (w *Output) Size() (int64, error) {
	fi, err := w.tmp.Stat()
	if err != nil {
		return 0, pathError(w.o.path, err)
	}
	return fi.Size(), nil
}

// SealedBytes is WriteSealed in memory: the updated file's bytes, the
// seal filled in.
func (u *Update) SealedBytes(sign SealSign) ([]byte, error) {
	if u.seal == nil {
		return nil, errors.New("pdfio: SealedBytes: no seal added (AddSeal)")
	}
	data, err := u.Bytes()
	if err != nil {
		return nil, err
	}
	if err := u.fillSeal(memFile(data), int64(len(u.orig)), sign, u.name); err != nil {
		return nil, err
	}
	return data, nil
}

// memFile is a file in memory, of a fixed size.
type memFile []byte

func (m memFile) ReadAt(p []byte, off int64) (int, error) {
	if off >= int64(len(m)) {
		return 0, io.EOF
	}
	n := copy(p, m[off:])
	if n < len(p) {
		return n, io.EOF
	}
	return n, nil
}

func (m memFile) WriteAt(p []byte, off int64) (int, error) {
	if off < 0 || off+int64(len(p)) > int64(len(m)) {
		return 0, errors.New("pdfio: write beyond the end of the file in memory")
	}
	return copy(m[off:], p), nil
}

// fillSeal finds the placeholder in f (after start: the update's bytes),
// writes the /ByteRange, calls sign over the covered bytes and writes its
// result into /Contents.
func (u *Update) fillSeal(f sealFile, start int64, sign SealSign, name string) error {
	size, err := fileSize(f)
	if err != nil {
		return pathError(name, err)
	}
	at, err := findOnce(f, start, size, u.seal.marker)
	if err != nil {
		return &Error{File: name, Op: "seal", Err: err}
	}
	// The dictionary's keys are sorted: /Contents <...> follows /ByteRange [...].
	contents := []byte("/Contents <")
	after := at + int64(len(u.seal.marker))
	got := make([]byte, len(contents))
	if _, err := f.ReadAt(got, after); err != nil || !bytes.Equal(got, contents) {
		return &Error{File: name, Op: "seal", Err: errors.New("the placeholder /Contents does not follow /ByteRange")}
	}
	a := after + int64(len(contents)) - 1 // the '<'
	b := a + 2 + 2*int64(u.seal.size)     // after the '>'
	if b > size {
		return &Error{File: name, Op: "seal", Err: errors.New("the placeholder /Contents is cut short")}
	}
	br := fmt.Sprintf("/ByteRange [0 %d %d %d", a, b, size-b)
	if len(br) > len(u.seal.marker)-1 {
		return &Error{File: name, Op: "seal", Err: fmt.Errorf("a file of %d bytes is too large to seal", size)}
	}
	br += string(bytes.Repeat([]byte(" "), len(u.seal.marker)-1-len(br))) + "]"
	if _, err := f.WriteAt([]byte(br), at); err != nil {
		return pathError(name, err)
	}
	covered := io.MultiReader(io.NewSectionReader(f, 0, a), io.NewSectionReader(f, b, size-b))
	sig, err := sign(covered)
	if err != nil {
		return err
	}
	if len(sig) > u.seal.size {
		return &Error{File: name, Op: "seal", Err: &SealSizeError{Need: len(sig), Have: u.seal.size}}
	}
	hx := make([]byte, 2*len(sig))
	hex.Encode(hx, sig)
	if _, err := f.WriteAt(bytes.ToUpper(hx), a+1); err != nil {
		return pathError(name, err)
	}
	return nil
}

func fileSize(f sealFile) (int64, error) {
	switch v := f.(type) {
	case memFile:
		return int64(len(v)), nil
	case *os.File:
		fi, err := v.Stat()
		if err != nil {
			return 0, err
		}
		return fi.Size(), nil
	}
	return 0, errors.New("pdfio: unknown file kind")
}

// findOnce returns the offset of the one occurrence of pat in f between
// start and size, read in chunks.
func findOnce(f io.ReaderAt, start, size int64, pat []byte) (int64, error) {
	const chunk = 1 << 20
	buf := make([]byte, chunk+len(pat))
	found := int64(-1)
	for off := start; off < size; off += chunk {
		n, err := f.ReadAt(buf[:min(int64(len(buf)), size-off)], off)
		if err != nil && !errors.Is(err, io.EOF) {
			return 0, err
		}
		for i, b := 0, buf[:n]; ; {
			j := bytes.Index(b[i:], pat)
			if j < 0 {
				break
			}
			at := off + int64(i+j)
			if i+j < chunk { // an occurrence in the overlap is the next chunk's
				if found >= 0 && found != at {
					return 0, errors.New("the seal's placeholder is in the file twice")
				}
				found = at
			}
			i += j + 1
		}
	}
	if found < 0 {
		return 0, errors.New("the seal's placeholder is not in the file written")
	}
	return found, nil
}
