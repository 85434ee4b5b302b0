package main

import "testing"

func TestMedian(t *testing.T) {
	for _, c := range []struct {
		in   []float64
		want float64
	}{
		{[]float64{3}, 3},
		{[]float64{5, 1, 3}, 3},
		{[]float64{4, 1, 3, 2}, 2.5},
	} {
		if got := median(c.in); got != c.want {
			t.Errorf("median(%v) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestRun(t *testing.T) {
	ok := map[int]bool{0: true}
	s, err := run("sh -c 'i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done'", ok)
	if err != nil {
		t.Fatal(err)
	}
	if s.cpu <= 0 || s.mb <= 0 {
		t.Errorf("run measured %+v: no CPU time or memory", s)
	}
	if _, err := run("false", ok); err == nil {
		t.Error("a run that exits 1 counted as a success")
	}
	if _, err := run("sh -c 'exit 3'", map[int]bool{0: true, 3: true}); err != nil {
		t.Errorf("exit 3 with -ok 0,3: %v", err)
	}
}
