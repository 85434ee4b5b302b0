package pdfio

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A Seal is a signature dictionary (ISO 32000-1 §12.8.1, Table 252; ISO
// 32000-2 §12.8.1, Table 255 for /Type /DocTimeStamp): the /V of a
// signature field the catalog's /AcroForm /Fields reach, or the catalog's
// /Perms /DocMDP or /UR3. Reading says what the file holds and where; whether it
// verifies is package seal's decision.
type Seal struct {
	Ref webcapture.Ref // the signature dictionary; zero if direct
	// FieldRef is the field /AcroForm /Fields lists (the seal's field or
	// an ancestor); zero when a direct object, or only /Perms reaches it.
	FieldRef  webcapture.Ref
	Field     string  // the field's name, its /T and its ancestors' (text strings, decoded) joined by "."; "" when only /Perms reaches it
	Type      string  // /Type: "Sig", "DocTimeStamp", or "" when absent
	Filter    string  // /Filter
	SubFilter string  // /SubFilter
	ByteRange []int64 // /ByteRange; nil when absent or not an array of integers
	Contents  []byte  // /Contents, decoded; nil when absent, unreadable or larger than MaxReadSealContents
	// ContentsAt and ContentsLen are where /Contents is written in the
	// file, as found in the dictionary's own bytes (not from /ByteRange):
	// the hex string's offset and length, its angle brackets included;
	// -1 and 0 when it cannot be found (the dictionary is in an object
	// stream, or the value is no hex string).
	ContentsAt, ContentsLen int64
	Cert                    [][]byte // /Cert (adbe.x509.rsa_sha1): the signer's certificate, then its chain
	M                       string   // /M, the claimed signing time, as written
	Name                    string   // /Name, decoded (a text string: PDFDocEncoding, or UTF-16BE or UTF-8 with a BOM)
	Reason                  string   // /Reason, decoded
	Location                string   // /Location, decoded
	// Certification: the catalog's /Perms /DocMDP reaches this dictionary
	// (Document.Certification says its permission).
	Certification bool
	// DroppedIn, when more than 0, is the index in Document.Revisions of
	// the update that took the seal's field out of /AcroForm /Fields: an
	// earlier revision lists it, the current /Fields does not (the seal
	// is found through the earlier revision's /Fields; a reader shows no
	// such signature).
	DroppedIn int
	// UsageRights: the catalog's /Perms /UR3 reaches this dictionary (a
	// usage-rights signature, ISO 32000-1 §12.8.2.3; no field holds it).
	UsageRights bool
	// Problems are what could not be read, said in words.
	Problems []string
}

// MaxReadSealContents bounds the /Contents a seal's dictionary may hold: a
// CMS signature with its chain and revocation data takes tens of
// kilobytes; one of 16 MiB is no signature a verifier reads.
const MaxReadSealContents = 16 << 20

// maxFieldDepth and maxFields bound the walk of /AcroForm /Fields.
const (
	maxFieldDepth = 32
	maxFields     = 1 << 16
)

// readSeals reads the signature dictionaries of the form fields and of
// /Perms /DocMDP and /UR3, each once, in field order.
func (r *reader) readSeals(cat types.Dict) {
	seen := map[webcapture.Ref]bool{}
	visited := map[webcapture.Ref]bool{}
	fields := 0
	droppedIn := 0         // Seal.DroppedIn of what walk finds
	var top webcapture.Ref // Seal.FieldRef of what walk finds
	var walk func(o types.Object, name string, inheritFT string, depth int, path string)
	walk = func(o types.Object, name, inheritFT string, depth int, path string) {
		r.checkStop()
		if depth > maxFieldDepth {
			r.defect(webcapture.Ref{}, path, TooDeep, "%s: form fields nested deeper than %d", path, maxFieldDepth)
			return
		}
		if fields++; fields > maxFields {
			if fields == maxFields+1 {
				r.defect(webcapture.Ref{}, path, TooMany, "%s: more than %d form fields", path, maxFields)
			}
			return
		}
		v, ref, _ := r.resolve(o, path)
		d, ok := v.(types.Dict)
		if !ok {
			return
		}
		if !ref.IsZero() {
			if visited[ref] {
				r.defect(ref, path, Cycle, "%s: form field %s is reached again (its /Kids loop)", path, ref)
				return
			}
			visited[ref] = true
		}
		if t, ok := rawString(d["T"]); ok {
			if name != "" {
				name += "."
			}
			name += webcapture.Text(t).String()
		}
		ft := inheritFT
		if n, ok := d["FT"].(types.Name); ok {
			ft = string(n)
		}
		if kids, ok := r.resolveArray(d["Kids"], path+"/Kids"); ok {
			for i, k := range kids {
				walk(k, name, ft, depth+1, fmt.Sprintf("%s/Kids[%d]", path, i))
			}
		}
		if ft != "Sig" {
			return
		}
		if _, has := d["V"]; !has {
			return // an empty signature field: nothing signed
		}
		sv, sref, _ := r.resolve(d["V"], path+"/V")
		sd, ok := sv.(types.Dict)
		if !ok || !sref.IsZero() && seen[sref] {
			return
		}
		if !sref.IsZero() {
			seen[sref] = true
		}
		s := r.seal(sd, sref, name)
		s.DroppedIn, s.FieldRef = droppedIn, top
		r.doc.Seals = append(r.doc.Seals, s)
	}
	listed := map[webcapture.Ref]bool{}
	af, _, _ := r.resolve(cat["AcroForm"], "AcroForm")
	if afd, ok := af.(types.Dict); ok {
		if fs, ok := r.resolveArray(afd["Fields"], "AcroForm/Fields"); ok {
			for i, f := range fs {
				top = webcapture.Ref{}
				if ir, ok := f.(types.IndirectRef); ok {
					listed[refOf(ir)] = true
					top = refOf(ir)
				}
				walk(f, "", "", 1, fmt.Sprintf("AcroForm/Fields[%d]", i))
			}
		}
	}
	// The fields an earlier revision listed and the current /Fields does
	// not: a signature there is one a later update took out of the form.
	r.readFieldHistory(cat)
	revs := r.doc.Revisions
	for i, rv := range revs {
		for _, ref := range rv.Fields {
			if listed[ref] || visited[ref] {
				continue
			}
			droppedIn = len(revs) - 1
			for j := i + 1; j < len(revs); j++ {
				if revs[j].FieldsRead && !slices.Contains(revs[j].Fields, ref) {
					droppedIn = j
					break
				}
			}
			f, ok := r.asOf(types.IndirectRef{ObjectNumber: types.Integer(ref.Num), GenerationNumber: types.Integer(ref.Gen)}, rv.End)
			if !ok || f == nil {
				continue
			}
			if d, isDict := f.(types.Dict); isDict && (r.offset(ref) < 0 || r.offset(ref) >= rv.End) {
				f = d // an older definition than the current
			} else {
				f = types.IndirectRef{ObjectNumber: types.Integer(ref.Num), GenerationNumber: types.Integer(ref.Gen)}
			}
			top = ref
			walk(f, "", "", 1, fmt.Sprintf("revision %d AcroForm/Fields (%s)", i, ref))
			visited[ref] = true
		}
	}
	droppedIn, top = 0, webcapture.Ref{}
	perms, _, _ := r.resolve(cat["Perms"], "Perms")
	pd, ok := perms.(types.Dict)
	if !ok {
		return
	}
	for _, key := range []string{"DocMDP", "UR3"} {
		sv, sref, _ := r.resolve(pd[key], "Perms/"+key)
		sd, ok := sv.(types.Dict)
		if !ok {
			continue
		}
		var s *Seal
		for _, f := range r.doc.Seals {
			if !sref.IsZero() && f.Ref == sref {
				s = f
			}
		}
		if s == nil {
			s = r.seal(sd, sref, "")
			r.doc.Seals = append(r.doc.Seals, s)
		}
		if key == "DocMDP" {
			s.Certification = true
		} else {
			s.UsageRights = true
		}
	}
}

// resolveArray resolves o to an array.
func (r *reader) resolveArray(o types.Object, path string) (types.Array, bool) {
	if o == nil {
		return nil, false
	}
	v, _, _ := r.resolve(o, path)
	a, ok := v.(types.Array)
	return a, ok
}

// seal reads one signature dictionary.
func (r *reader) seal(d types.Dict, ref webcapture.Ref, field string) *Seal {
	s := &Seal{Ref: ref, Field: field, ContentsAt: -1}
	name := func(key string) string {
		v, _, _ := r.resolve(d[key], key)
		n, _ := v.(types.Name)
		return string(n)
	}
	str := func(key string) string { // a text string (ISO 32000-2 §7.9.2.2), decoded
		v, _, _ := r.resolve(d[key], key)
		t, _ := rawString(v)
		return webcapture.Text(t).String()
	}
	s.Type, s.Filter, s.SubFilter = name("Type"), name("Filter"), name("SubFilter")
	s.Name, s.Reason, s.Location = str("Name"), str("Reason"), str("Location")
	if v, _, _ := r.resolve(d["M"], "M"); v != nil {
		s.M, _ = rawString(v) // a date (§7.9.4), ASCII
	}
	if a, ok := r.resolveArray(d["ByteRange"], "ByteRange"); ok {
		br := make([]int64, 0, len(a))
		for _, e := range a {
			v, _, _ := r.resolve(e, "ByteRange")
			n, ok := v.(types.Integer)
			if !ok {
				br = nil
				s.Problems = append(s.Problems, "its /ByteRange holds something other than integers")
				break
			}
			br = append(br, int64(n))
		}
		s.ByteRange = br
	}
	switch c := d["Cert"].(type) {
	case types.Array:
		for _, e := range c {
			v, _, _ := r.resolve(e, "Cert")
			if b, ok := rawString(v); ok {
				s.Cert = append(s.Cert, []byte(b))
			}
		}
	default:
		v, _, _ := r.resolve(c, "Cert")
		if b, ok := rawString(v); ok {
			s.Cert = [][]byte{[]byte(b)}
		}
	}
	r.sealContents(s, d)
	return s
}

// sealContents finds /Contents in the signature dictionary's bytes and
// decodes it from there; when the dictionary's bytes cannot be found (in
// an object stream, a direct object), the value pdfcpu parsed is used.
func (r *reader) sealContents(s *Seal, d types.Dict) {
	if off := r.offset(s.Ref); off >= 0 && r.b != nil && off < int64(len(r.b)) && !r.compressed(s.Ref) {
		at, n := contentsSpan(r.b, off)
		if at >= 0 {
			s.ContentsAt, s.ContentsLen = at, n
			if n-2 > 2*MaxReadSealContents {
				s.Problems = append(s.Problems, fmt.Sprintf("its /Contents is %d bytes of hex, more than a signature holds (%d)", n, 2*MaxReadSealContents))
				return
			}
			s.Contents = []byte(decodeHex(string(r.b[at+1 : at+n-1])))
			return
		}
	}
	v, _, _ := r.resolve(d["Contents"], "Contents")
	switch c := v.(type) {
	case nil:
		s.Problems = append(s.Problems, "it has no /Contents")
		return
	case types.HexLiteral:
		if len(c) > 2*MaxReadSealContents {
			s.Problems = append(s.Problems, fmt.Sprintf("its /Contents is %d bytes of hex, more than a signature holds", len(c)))
			return
		}
	}
	if b, ok := rawString(v); ok && len(b) <= MaxReadSealContents {
		s.Contents = []byte(b)
	}
	if r.compressed(s.Ref) {
		s.Problems = append(s.Problems, "the signature dictionary is in an object stream: where its /Contents lies in the file cannot be known")
	} else {
		s.Problems = append(s.Problems, "its /Contents is not a hex string written in the dictionary's own bytes")
	}
}

// compressed reports whether ref is in an object stream.
func (r *reader) compressed(ref webcapture.Ref) bool {
	if ref.IsZero() {
		return true
	}
	e := r.entry(ref.Num)
	return !e.none() && e.compressed()
}

// contentsSpan finds, in the object at off ("N G obj << ... >>"), the
// dictionary's own /Contents hex string (not one of a nested dictionary):
// its offset and length with the angle brackets, or -1.
func contentsSpan(b []byte, off int64) (int64, int64) {
	rest := b[off:]
	i := bytes.Index(rest[:min(len(rest), 64)], []byte("obj"))
	if i < 0 {
		return -1, 0
	}
	start := int(off) + i + 3
	for start < len(b) && isSpace(b[start]) {
		start++
	}
	depth := 0
	for j := start; j < len(b); j++ {
		switch c := b[j]; c {
		case '%':
			for j < len(b) && b[j] != '\n' && b[j] != '\r' {
				j++
			}
		case '(':
			n := 0
			for ; j < len(b); j++ {
				if b[j] == '\\' {
					j++
				} else if b[j] == '(' {
					n++
				} else if b[j] == ')' {
					if n--; n == 0 {
						break
					}
				}
			}
		case '<':
			if j+1 < len(b) && b[j+1] == '<' {
				depth++
				j++
				continue
			}
			k := bytes.IndexByte(b[j:], '>')
			if k < 0 {
				return -1, 0
			}
			j += k
		case '>':
			if j+1 < len(b) && b[j+1] == '>' {
				if depth--; depth <= 0 {
					return -1, 0
				}
				j++
			}
		case '/':
			if depth != 1 || !bytes.HasPrefix(b[j:], []byte("/Contents")) {
				continue
			}
			k := j + len("/Contents")
			if k < len(b) && !isSpace(b[k]) && !strings.ContainsRune("<[(/", rune(b[k])) {
				continue // a longer name
			}
			for k < len(b) && isSpace(b[k]) {
				k++
			}
			if k >= len(b) || b[k] != '<' || k+1 < len(b) && b[k+1] == '<' {
				return -1, 0
			}
			e := bytes.IndexByte(b[k:], '>')
			if e < 0 {
				return -1, 0
			}
			return int64(k), int64(e + 1)
		}
		if depth == 0 {
			return -1, 0
		}
	}
	return -1, 0
}
