package webcapture

// A RefIndex maps references to values: a slice indexed by object number
// for numbers below its bound, the generation checked, and a map for the
// rest (numbers past the bound, a second generation of one number). Where a
// map keyed by Ref hashes each look-up, the slice reads one small slot: the
// pages, sets and images of a file are numbered densely.
//
// The bound is the caller's, taken from what the file holds (its
// cross-reference table's size, the number of its pages), never from the
// largest number a file claims: a file that names object 9,999,999 makes
// that one a map entry, not a slice of ten million. The slice grows only to
// the largest number put below the bound. The zero RefIndex holds nothing
// and puts everything in the map; a nil *RefIndex holds nothing.
type RefIndex[T any] struct {
	bound  int
	dense  []refSlot[T]
	sparse map[Ref]T
	n      int
}

// refSlot is a number's value and its generation plus one (0: none put),
// so that a slot of an int32 value takes 8 bytes.
type refSlot[T any] struct {
	v    T
	gen1 int32
}

// NewRefIndex returns an empty index that keeps object numbers below bound
// in its slice.
func NewRefIndex[T any](bound int) *RefIndex[T] {
	return &RefIndex[T]{bound: max(bound, 0)}
}

// DenseBound is the bound a RefIndex may take for n objects the file holds
// (its table's entries, its pages): four times n, plus 1,024, the rule by
// which a table's numbers are dense enough to be held in a slice.
func DenseBound(n int) int { return 4*max(n, 0) + 1024 }

// Len returns how many references the index holds.
func (x *RefIndex[T]) Len() int {
	if x == nil {
		return 0
	}
	return x.n
}

// Get returns ref's value, and whether the index holds ref.
func (x *RefIndex[T]) Get(ref Ref) (T, bool) {
	if x != nil {
		if ref.Num >= 0 && ref.Num < len(x.dense) {
			if s := &x.dense[ref.Num]; s.gen1 != 0 && int(s.gen1)-1 == ref.Gen {
				return s.v, true
			}
		}
		if x.sparse != nil {
			v, ok := x.sparse[ref]
			return v, ok
		}
	}
	var zero T
	return zero, false
}

// Put sets ref's value.
func (x *RefIndex[T]) Put(ref Ref, v T) {
	if ref.Num >= 0 && ref.Num < x.bound && ref.Gen >= 0 && ref.Gen < 1<<31-1 {
		if ref.Num >= len(x.dense) {
			x.Grow(ref.Num + 1)
		}
		s := &x.dense[ref.Num]
		if s.gen1 == 0 {
			*s = refSlot[T]{v: v, gen1: int32(ref.Gen) + 1}
			x.n++
			return
		}
		if int(s.gen1)-1 == ref.Gen {
			s.v = v
			return
		}
	}
	if x.sparse == nil {
		x.sparse = map[Ref]T{}
	}
	if _, ok := x.sparse[ref]; !ok {
		x.n++
	}
	x.sparse[ref] = v
}

// Grow makes room in the slice for the numbers below n (within the
// bound): a caller that knows the largest number it will put makes the
// slice once. Put grows it by doubling.
func (x *RefIndex[T]) Grow(n int) {
	n = min(n, x.bound)
	if n <= len(x.dense) {
		return
	}
	if n <= cap(x.dense) {
		x.dense = x.dense[:n]
		return
	}
	c := n
	if len(x.dense) > 0 { // growing again: by doubling
		c = min(max(n, 2*cap(x.dense)), x.bound)
	}
	d := make([]refSlot[T], n, c)
	copy(d, x.dense)
	x.dense = d
}
