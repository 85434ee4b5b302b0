package capture

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// endless is a body that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'x'
	}
	return len(p), nil
}

// readBody keeps a body within MaxBytes and the run's budget of bytes in
// flight: a declared length past MaxBytes is refused unread, a body that
// passes it or finds no budget left fails and gives back what it took,
// and a body read whole holds its bytes until its page releases them.
func TestReadBodyBounds(t *testing.T) {
	const limit = 1 << 20
	for _, tc := range []struct {
		name     string
		body     io.Reader
		length   int64 // Content-Length; -1: none
		budget   int64
		wantLen  int
		wantErr  string // in the FetchError's message; "": none
		wantHeld bool   // the budget holds the body's bytes until released
	}{
		{"small", strings.NewReader("hello"), 5, 1 << 30, 5, "", true},
		{"small, no length", strings.NewReader("hello"), -1, 1 << 30, 5, "", true},
		{"empty", strings.NewReader(""), 0, 1 << 30, 0, "", true},
		{"several chunks", bytes.NewReader(make([]byte, 3*readChunk+7)), -1, 1 << 30, 3*readChunk + 7, "", true},
		{"declared too large", endless{}, 2_000_000_000, 1 << 30, 0, "too large: declares 2000000000 bytes, more than 1048576", false},
		{"endless, no length", endless{}, -1, 1 << 30, 0, "too large: more than 1048576 bytes", false},
		{"budget taken", endless{}, -1, 2 * readChunk, 0, "too large: not read: the pages being rendered already hold the 524288 bytes of responses a capture holds at once", false},
		{"length past the budget", bytes.NewReader(make([]byte, 1000)), 1000, 999, 0, "not read: the pages being rendered already hold", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := &Browser{MaxBytes: limit, MaxInFlight: tc.budget}
			h := b.hold()
			resp := &http.Response{Body: io.NopCloser(tc.body), ContentLength: tc.length}
			body, fe := b.readBody("http://a/", resp, h)
			switch {
			case tc.wantErr == "" && fe != nil:
				t.Fatalf("readBody: %v", fe)
			case tc.wantErr != "" && (fe == nil || fe.Kind != TooLarge || !strings.Contains(fe.Error(), tc.wantErr)):
				t.Fatalf("readBody: %v, want a too-large error with %q", fe, tc.wantErr)
			case len(body) != tc.wantLen:
				t.Fatalf("readBody: %d bytes, want %d", len(body), tc.wantLen)
			}
			held := b.mem.inflight.used
			if tc.wantHeld && held < int64(len(body)) || !tc.wantHeld && held != 0 {
				t.Errorf("the budget holds %d bytes after a body of %d (held: %t)", held, len(body), tc.wantHeld)
			}
			h.release()
			if b.mem.inflight.used != 0 {
				t.Errorf("the budget holds %d bytes once released", b.mem.inflight.used)
			}
		})
	}
}

// The budget is run-wide: what one hold takes, another cannot, until it
// is released.
func TestBudgetShared(t *testing.T) {
	b := &Browser{MaxBytes: 1 << 20, MaxInFlight: 1 << 20}
	h1, h2 := b.hold(), b.hold()
	if _, fe := b.readBody("http://a/1", &http.Response{Body: io.NopCloser(bytes.NewReader(make([]byte, 900<<10))), ContentLength: 900 << 10}, h1); fe != nil {
		t.Fatalf("first body: %v", fe)
	}
	_, fe := b.readBody("http://a/2", &http.Response{Body: io.NopCloser(bytes.NewReader(make([]byte, 200<<10))), ContentLength: 200 << 10}, h2)
	if fe == nil || !errors.As(fe, new(*InFlightError)) {
		t.Fatalf("second body: %v, want an *InFlightError", fe)
	}
	h1.release()
	if _, fe := b.readBody("http://a/2", &http.Response{Body: io.NopCloser(bytes.NewReader(make([]byte, 200<<10))), ContentLength: 200 << 10}, h2); fe != nil {
		t.Fatalf("second body once the first is released: %v", fe)
	}
}
