package pdfio

import (
	"bytes"
	"slices"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// A Revision is one of the file's incremental sections (ISO 32000-1
// §7.5.6): the original file, then each update appended to it.
type Revision struct {
	// Start is where its bytes begin (the end of the revision before, 0
	// for the first), End just past its %%EOF and the end-of-line marker
	// after it, if any (a signature's /ByteRange ends either there or
	// before the marker).
	Start, End int64
	XRef       int64 // the offset of its cross-reference section
	// Objects are the objects whose current definition the revision
	// holds (by the cross-reference data: an object in an object stream
	// is where its stream is), by number: what it added or changed and
	// no later revision changed again.
	Objects []webcapture.Ref
}

// readRevisions lists the revisions: the cross-reference sections of the
// /Prev chain (eachSection: bounded, each section once), in file order,
// each ending at the first %%EOF after its section.
func (r *reader) readRevisions() {
	if r.b == nil {
		return
	}
	b := r.b
	type sec struct{ off, end int64 }
	var secs []sec
	eachSection(b, func(off int64, _ types.Dict, _ int) bool {
		end := int64(len(b))
		if i := bytes.Index(b[off:], []byte("%%EOF")); i >= 0 {
			end = off + int64(i) + 5
			if end < int64(len(b)) && b[end] == '\r' {
				end++
			}
			if end < int64(len(b)) && b[end] == '\n' {
				end++
			}
		}
		secs = append(secs, sec{off, end})
		return true
	})
	slices.SortFunc(secs, func(x, y sec) int { return int(x.end - y.end) })
	start := int64(0)
	for _, s := range secs {
		if n := len(r.doc.Revisions); n > 0 && r.doc.Revisions[n-1].End == s.end {
			continue // two sections before one %%EOF (a linearized file's first page)
		}
		r.doc.Revisions = append(r.doc.Revisions, Revision{Start: start, End: s.end, XRef: s.off})
		start = s.end
	}
	if len(r.doc.Revisions) == 0 {
		return
	}
	for _, num := range r.objectNumbers() {
		e := r.entry(num)
		if e == nil || e.Free {
			continue
		}
		ref := webcapture.Ref{Num: num, Gen: genOf(e)}
		off := r.offset(ref)
		if off < 0 {
			continue
		}
		i, _ := slices.BinarySearchFunc(r.doc.Revisions, off, func(rv Revision, o int64) int {
			switch {
			case rv.End <= o:
				return -1
			case rv.Start > o:
				return 1
			}
			return 0
		})
		if i < len(r.doc.Revisions) {
			r.doc.Revisions[i].Objects = append(r.doc.Revisions[i].Objects, ref)
		}
	}
}

// A DocumentDSS is the catalog's /DSS (ISO 32000-2 §12.8.4.3, Table 261):
// the validation data added for long-term validation, each stream's
// decoded bytes: DER certificates, OCSP responses and CRLs.
type DocumentDSS struct {
	Ref                webcapture.Ref // the /DSS dictionary; zero if direct
	Certs, OCSPs, CRLs [][]byte
	Unreadable         int // streams listed that could not be decoded
}

// maxDSSEntries bounds each of the /DSS arrays read.
const maxDSSEntries = 4096

// readDSS reads the catalog's /DSS.
func (r *reader) readDSS(cat types.Dict) {
	o, ref, _ := r.resolve(cat["DSS"], "DSS")
	d, ok := o.(types.Dict)
	if !ok {
		return
	}
	dss := &DocumentDSS{Ref: ref}
	for _, k := range []struct {
		key string
		to  *[][]byte
	}{{"Certs", &dss.Certs}, {"OCSPs", &dss.OCSPs}, {"CRLs", &dss.CRLs}} {
		a, _ := r.resolveArray(d[k.key], "DSS/"+k.key)
		for i, e := range a {
			if i >= maxDSSEntries {
				break
			}
			v, sref, _ := r.resolve(e, "DSS/"+k.key)
			sd, ok := v.(types.StreamDict)
			if !ok {
				dss.Unreadable++
				continue
			}
			data, err := r.dec.stream(sref.Num, &sd)
			if err != nil {
				dss.Unreadable++
				continue
			}
			*k.to = append(*k.to, bytes.Clone(data))
		}
	}
	r.doc.DSS = dss
}
