package hostile

import (
	"bytes"
	"encoding/binary"
)

// xrefRows are the rows of a cross-reference stream whose /W is [1 4 2],
// as the crafted files of the cases write them: a type byte, field 2 in
// four bytes and field 3 in two, big-endian.
type xrefRows struct{ bytes.Buffer }

// add appends one row: typ 0 (free), 1 (f2 an offset) or 2 (object f3
// of object stream f2).
func (r *xrefRows) add(typ byte, f2 uint32, f3 uint16) {
	var row [7]byte
	row[0] = typ
	binary.BigEndian.PutUint32(row[1:5], f2)
	binary.BigEndian.PutUint16(row[5:7], f3)
	r.Write(row[:])
}
