package record

import (
	"bytes"
	"os"
	"testing"

	"github.com/webcap/webcap/audit"
)

// TestBuildInRoom: a build whose input was read with room for the update
// (readInput, appendHint) writes the file a build of the same input
// given as bytes writes, byte for byte, and reads it back the same; on
// the generated case the hint covers what is appended, by at most half
// again.
func TestBuildInRoom(t *testing.T) {
	path, data := buildCase(t, 300)
	build := func(inputData bool) *Result {
		m, err := ParseManifest(bytes.NewReader(data), path)
		if err != nil {
			t.Fatal(err)
		}
		if inputData {
			if m.InputData, err = os.ReadFile(m.InputPath()); err != nil {
				t.Fatal(err)
			}
		}
		res, err := Apply(m, Options{ReadBack: true})
		if err != nil {
			t.Fatal(err)
		}
		if hint := m.appendHint(); !inputData && (hint < int64(res.Appended) || hint > int64(res.Appended)*3/2) {
			t.Errorf("appendHint %d for %d bytes appended", hint, res.Appended)
		}
		return res
	}
	inRoom, copied := build(false), build(true)
	if !bytes.Equal(inRoom.Output, copied.Output) {
		t.Fatalf("the build in room writes %d bytes, the build of the bytes %d, not the same", len(inRoom.Output), len(copied.Output))
	}
	a, err := inRoom.Read("out.pdf")
	if err != nil {
		t.Fatal(err)
	}
	b, err := copied.Read("out.pdf")
	if err != nil {
		t.Fatal(err)
	}
	fa, fb := audit.Check(a, audit.Options{Profile: inRoom.Profile}), audit.Check(b, audit.Options{Profile: copied.Profile})
	if len(a.Sets) != len(b.Sets) || len(fa) != len(fb) {
		t.Errorf("read back: %d sets and %d findings, want %d and %d", len(a.Sets), len(fa), len(b.Sets), len(fb))
	}
}
