package pdfio

import (
	"bytes"
	"compress/zlib"
	"io"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
)

// A cross-reference stream holds its entries: /W's widths summed, bytes
// each (one more a row under a PNG predictor). pdfcpu inflates its data
// whole, up to its own 512 MiB, whatever the entries need, and that limit
// cannot be set: a 500 KB file whose stream inflates to 500 MiB of zeros
// took 940 MB to read, and nothing said why. The reader gives pdfcpu a
// copy in which such a stream's data is its entries only, deflated again
// and followed by zeros up to the data's old length (pdfcpu's inflater
// stops at the end of the zlib stream; no offset in the file moves), and
// badSection says it is damage.

// paddedXRef is a cross-reference stream whose data inflates to more than
// its entries need: where its data is, and those entries deflated again.
type paddedXRef struct {
	start, end int    // the stream's data, b[start:end]
	entries    []byte // what its entries need of it, deflated
}

// xrefPadding says whether the cross-reference stream section at off,
// whose dictionary is d, inflates to more than its entries need. Only a
// plain FlateDecode stream with a direct /Length is looked at: what else a
// file holds is pdfcpu's to read as it can. It inflates at most one byte
// more than the entries need.
func xrefPadding(b []byte, off int64, d types.Dict) (paddedXRef, bool) {
	var p paddedXRef
	rowLen := 0
	w, _ := d["W"].(types.Array)
	for _, e := range w {
		n, ok := e.(types.Integer)
		if !ok || n < 0 || n > 8 {
			return p, false
		}
		rowLen += int(n)
	}
	if f, ok := d["Filter"].(types.Name); !ok || f != "FlateDecode" {
		return p, false
	}
	if dp, ok := d["DecodeParms"].(types.Dict); ok {
		pred, _ := dp["Predictor"].(types.Integer)
		cols, hasCols := dp["Columns"].(types.Integer)
		switch { // (TIFF's predictor 2 keeps the rows as wide)
		case pred >= 10 && hasCols && cols > 0 && cols <= 64:
			rowLen = int(cols) + 1 // a PNG predictor byte begins each row
		case pred >= 10:
			rowLen = 2 // /Columns 1
		}
	}
	length, ok := d["Length"].(types.Integer)
	entries := streamEntries(d)
	if !ok || length <= 0 || rowLen <= 0 || entries <= 0 || entries > len(b) {
		return p, false
	}
	start, ok := streamData(b, off)
	if !ok || int64(length) > int64(len(b)-start) {
		return p, false
	}
	p.start, p.end = start, start+int(length)
	need := int64(entries) * int64(rowLen)
	zr, err := zlib.NewReader(bytes.NewReader(b[p.start:p.end]))
	if err != nil {
		return p, false
	}
	rows, _ := io.ReadAll(io.LimitReader(zr, need+1))
	if int64(len(rows)) <= need {
		return p, false
	}
	var z bytes.Buffer
	zw, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	zw.Write(rows[:need])
	zw.Close()
	if z.Len() > p.end-p.start { // (no room: left as it is)
		return p, false
	}
	p.entries = z.Bytes()
	return p, true
}

// streamData is where the data of the stream object at off begins: after
// its dictionary, the keyword "stream" and its end of line.
func streamData(b []byte, off int64) (int, bool) {
	i := bytes.Index(b[off:min(int64(len(b)), off+64)], []byte("obj"))
	if i < 0 {
		return 0, false
	}
	rest := skipSpace(b[off+int64(i)+3:])
	end := dictEnd(rest)
	if end < 0 {
		return 0, false
	}
	rest = skipSpace(rest[end:])
	if !bytes.HasPrefix(rest, []byte("stream")) {
		return 0, false
	}
	rest = rest[len("stream"):]
	switch {
	case bytes.HasPrefix(rest, []byte("\r\n")):
		rest = rest[2:]
	case bytes.HasPrefix(rest, []byte("\n")), bytes.HasPrefix(rest, []byte("\r")):
		rest = rest[1:]
	}
	return len(b) - len(rest), true
}

// withoutXRefPadding returns b, or when a cross-reference stream of its
// /Prev chain inflates to more than its entries need, a copy with that
// stream's data its entries only (see above).
func withoutXRefPadding(b []byte) []byte {
	out, cloned := b, false
	eachSection(b, func(off int64, d types.Dict, num int) bool {
		if num < 0 {
			return true // a table: nothing to inflate
		}
		if p, ok := xrefPadding(b, off, d); ok {
			if !cloned {
				out, cloned = bytes.Clone(b), true
			}
			n := copy(out[p.start:], p.entries)
			clear(out[p.start+n : p.end])
		}
		return true
	})
	return out
}
