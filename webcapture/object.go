package webcapture

import "strconv"

// A Ref names an indirect object: object number and generation. The zero
// Ref means "direct" (or absent), since object 0 is always free.
type Ref struct {
	Num int
	Gen int
}

// IsZero reports whether r names no object.
func (r Ref) IsZero() bool { return r.Num == 0 }

// String returns "12 0 R", or "direct" for the zero Ref.
func (r Ref) String() string {
	if r.IsZero() {
		return "direct"
	}
	return strconv.Itoa(r.Num) + " " + strconv.Itoa(r.Gen) + " R"
}

// An Object is a PDF object kept as it is where the specification leaves the
// content open (the command settings G and per-engine dictionaries): one of
// nil, bool, int64, float64, Name, String, []Object, Dict, Ref or *Stream.
type Object any

// A Name is a PDF name object, without its slash and with #xx escapes
// decoded.
type Name string

// A String is a PDF string object: its bytes, not necessarily text.
type String string

// A Dict is a PDF dictionary.
type Dict map[Name]Object

// A Stream is a PDF stream: its dictionary and its raw length. The model does
// not keep stream data except where the specification gives it a meaning
// (a command's posted data).
type Stream struct {
	Dict   Dict
	Length int64
}

// A Number is a PDF number as written: integer or real.
type Number struct {
	Value   float64
	Integer bool
}

// String writes the number as PDF does: integers without a point, reals with
// as many digits as they need.
func (n Number) String() string {
	if n.Integer {
		return strconv.FormatInt(int64(n.Value), 10)
	}
	return strconv.FormatFloat(n.Value, 'f', -1, 64)
}
