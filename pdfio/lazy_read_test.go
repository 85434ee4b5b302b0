package pdfio

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadSized: Read's buffer holds what the reader gives, whatever the
// size it was told (a file that grew or shrank since), and one read of
// the size told takes one allocation of that size.
func TestReadSized(t *testing.T) {
	data := []byte(strings.Repeat("%PDF-1.7 ", 1000))
	for _, tc := range []struct {
		name string
		size int64
	}{
		{"exact", int64(len(data))},
		{"told less", 10},
		{"told more", int64(len(data)) + 500},
		{"told nothing", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := readSized(iotest.HalfReader(bytes.NewReader(data)), tc.size)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("readSized(%d) = %d bytes, %v; want the %d bytes", tc.size, len(got), err, len(data))
			}
		})
	}
	if got, err := readSized(iotest.ErrReader(iotest.ErrTimeout), 10); err == nil {
		t.Errorf("readSized(failing reader) = %d bytes, no error", len(got))
	}
	r := bytes.NewReader(data)
	allocs := testing.AllocsPerRun(10, func() {
		r.Reset(data)
		readSized(r, int64(len(data)))
	})
	if allocs > 1 {
		t.Errorf("readSized of a %d-byte file told its size: %v allocations, want 1", len(data), allocs)
	}
}
