package pdfio

import (
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
)

// An object found near its wrong offset is offset damage, said once: it
// is not also "recovered from the object streams" (the file has none).
func TestMisplacedIsNotRecoveredFromObjectStreams(t *testing.T) {
	b, err := pb.LossSample("misplaced")
	if err != nil {
		t.Fatal(err)
	}
	d, err := ReadBytes(b, "misplaced.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[DamageKind]int{}
	for _, dm := range d.Damage {
		kinds[dm.Kind]++
	}
	if kinds[DamageOffset] != 1 || kinds[DamageRecovered] != 0 || len(d.Damage) != 1 {
		t.Errorf("damage %+v, want the one offset", d.Damage)
	}
}
