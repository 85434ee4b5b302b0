package repair

import (
	"context"
	"errors"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// Options.Context stops the plan: once it is done, NewPlanWith fails with
// its cause; a context that is not done changes nothing.
func TestPlanStopsWithContext(t *testing.T) {
	b, err := pb.Sample("damaged")
	if err != nil {
		t.Fatal(err)
	}
	d, err := pdfio.ReadBytes(b, "damaged.pdf", pdfio.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if p, err := NewPlanWith(d, Options{Context: context.Background()}); err != nil || p.Empty() {
		t.Fatalf("a context not done: %v (empty plan: %v)", err, p != nil && p.Empty())
	}
	cause := errors.New("a limit")
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(cause)
	if p, err := NewPlanWith(d, Options{Context: ctx}); !errors.Is(err, cause) || p != nil {
		t.Errorf("a done context: %v, %v; want no plan and the cause", p, err)
	}
}
