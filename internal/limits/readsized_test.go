package limits

import (
	"bytes"
	"strings"
	"testing"
	"testing/iotest"
)

// TestReadSized: ReadSized's buffer holds what the reader gives, whatever the
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
			got, err := ReadSized(iotest.HalfReader(bytes.NewReader(data)), tc.size)
			if err != nil || !bytes.Equal(got, data) {
				t.Fatalf("ReadSized(%d) = %d bytes, %v; want the %d bytes", tc.size, len(got), err, len(data))
			}
		})
	}
	if got, err := ReadSized(iotest.ErrReader(iotest.ErrTimeout), 10); err == nil {
		t.Errorf("ReadSized(failing reader) = %d bytes, no error", len(got))
	}
	r := bytes.NewReader(data)
	allocs := testing.AllocsPerRun(10, func() {
		r.Reset(data)
		ReadSized(r, int64(len(data)))
	})
	if allocs > 1 {
		t.Errorf("ReadSized of a %d-byte file told its size: %v allocations, want 1", len(data), allocs)
	}
}
