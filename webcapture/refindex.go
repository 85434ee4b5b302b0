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

type refSlot[T any] struct {
	v   T
	gen int32
	set bool
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
			if s := &x.dense[ref.Num]; s.set && int(s.gen) == ref.Gen {
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
	if ref.Num >= 0 && ref.Num < x.bound && ref.Gen >= 0 && ref.Gen <= 1<<31-1 {
		if ref.Num >= len(x.dense) {
			x.grow(ref.Num + 1)
		}
		s := &x.dense[ref.Num]
		if !s.set {
			*s = refSlot[T]{v: v, gen: int32(ref.Gen), set: true}
			x.n++
			return
		}
		if int(s.gen) == ref.Gen {
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

// grow makes the slice at least n long: by doubling, never past the bound.
func (x *RefIndex[T]) grow(n int) {
	c := min(max(n, 2*cap(x.dense), 64), x.bound)
	if c <= cap(x.dense) {
		x.dense = x.dense[:n]
		return
	}
	d := make([]refSlot[T], n, c)
	copy(d, x.dense)
	x.dense = d
}
