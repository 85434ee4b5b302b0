package webcapture

import (
	"math/rand/v2"
	"testing"
)

func TestRefIndex(t *testing.T) {
	tests := []struct {
		name      string
		bound     int
		put       []Ref
		wantDense int // the slice's length after the puts
	}{
		{"dense", 100, []Ref{{1, 0}, {2, 0}, {50, 0}}, 51},
		{"past the bound", 10, []Ref{{1, 0}, {9_999_999, 0}}, 2},
		{"second generation", 10, []Ref{{3, 0}, {3, 1}, {3, 2}}, 4},
		{"huge generation", 10, []Ref{{3, 1 << 40}, {3, 1<<31 - 1}, {3, 0}}, 4},
		{"negative", 10, []Ref{{-1, 0}, {2, -1}}, 0},
		{"zero bound", 0, []Ref{{1, 0}, {2, 0}}, 0},
		{"put twice", 10, []Ref{{4, 0}, {4, 0}}, 5},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			x := NewRefIndex[int](tc.bound)
			want := map[Ref]int{}
			for i, r := range tc.put {
				x.Put(r, i+1)
				want[r] = i + 1
			}
			for r, v := range want {
				if got, ok := x.Get(r); !ok || got != v {
					t.Errorf("Get(%v) = %d, %v, want %d, true", r, got, ok, v)
				}
			}
			if x.Len() != len(want) {
				t.Errorf("Len() = %d, want %d", x.Len(), len(want))
			}
			if len(x.dense) != tc.wantDense {
				t.Errorf("len(dense) = %d, want %d", len(x.dense), tc.wantDense)
			}
			for _, r := range []Ref{{0, 0}, {7, 3}, {1_000_000, 0}, {5, 9}} {
				if _, in := want[r]; in {
					continue
				}
				if got, ok := x.Get(r); ok {
					t.Errorf("Get(%v) = %d, true, want absent", r, got)
				}
			}
		})
	}
}

// TestRefIndexAsMap: puts and gets agree with a map keyed by Ref.
func TestRefIndexAsMap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, bound := range []int{0, 1, 16, 300, 5000} {
		x := NewRefIndex[int](bound)
		m := map[Ref]int{}
		for i := range 4000 {
			r := Ref{Num: rng.IntN(600) - 10, Gen: rng.IntN(3)}
			if rng.IntN(2) == 0 {
				x.Put(r, i)
				m[r] = i
			}
			got, ok := x.Get(r)
			want, wantOK := m[r]
			if got != want || ok != wantOK {
				t.Fatalf("bound %d: Get(%v) = %d, %v, want %d, %v", bound, r, got, ok, want, wantOK)
			}
		}
		if x.Len() != len(m) {
			t.Fatalf("bound %d: Len() = %d, want %d", bound, x.Len(), len(m))
		}
	}
}

func TestRefIndexGrow(t *testing.T) {
	x := NewRefIndex[int32](100)
	x.Grow(50)
	if len(x.dense) != 50 || cap(x.dense) != 50 {
		t.Errorf("Grow(50): len %d cap %d, want 50 50", len(x.dense), cap(x.dense))
	}
	x.Put(Ref{Num: 49}, 7)
	if cap(x.dense) != 50 {
		t.Errorf("Put(49) after Grow(50): cap %d, want 50", cap(x.dense))
	}
	x.Grow(1000)
	if len(x.dense) != 100 {
		t.Errorf("Grow(1000) with bound 100: len %d, want 100", len(x.dense))
	}
	if v, ok := x.Get(Ref{Num: 49}); !ok || v != 7 {
		t.Errorf("Get(49) = %d, %v after Grow, want 7, true", v, ok)
	}
}

func TestRefIndexNil(t *testing.T) {
	var x *RefIndex[string]
	if v, ok := x.Get(Ref{Num: 1}); ok || v != "" {
		t.Errorf("nil Get = %q, %v", v, ok)
	}
	if x.Len() != 0 {
		t.Errorf("nil Len = %d", x.Len())
	}
}
