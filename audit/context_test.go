package audit

import (
	"context"
	"errors"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// Options.Context stops the check: once it is done, no more rules run (and
// the caller, seeing it done, knows the list is cut short); a context that
// is not done changes nothing.
func TestCheckStopsWithContext(t *testing.T) {
	b, err := pb.Sample("damaged")
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.ReadBytes(b, "damaged.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	all := Check(d, Options{})
	if len(all) == 0 {
		t.Fatal("the damaged sample has no finding")
	}
	if got := Check(d, Options{Context: context.Background()}); len(got) != len(all) {
		t.Errorf("a context not done: %d findings, want %d", len(got), len(all))
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("a limit"))
	if got := Check(d, Options{Context: ctx}); len(got) != 0 {
		t.Errorf("a done context: %d findings, want none (no rule run)", len(got))
	}
}
