package webcapture

import (
	"bytes"
	"errors"
	"io"
)

// ErrNotFound: an AuxSource has no data for a URL.
var ErrNotFound = errors.New("not found")

// ErrRefused: an AuxSource holds a file for a URL but refuses to read it,
// as one that leads outside the directory its reads are confined to
// (mirror.OutsideError): the user did not name it.
var ErrRefused = errors.New("refused")

// An AuxSource maps the canonical URL of an auxiliary file (an image, a
// frame, an embedded object) to its bytes.
type AuxSource interface {
	// Open returns the data at the canonical URL u, or an error wrapping
	// ErrNotFound (or ErrRefused).
	Open(u string) (io.ReadCloser, error)
}

// MapSource is an AuxSource held in memory, keyed by canonical URL.
type MapSource map[string][]byte

// Open implements AuxSource.
func (m MapSource) Open(u string) (io.ReadCloser, error) {
	b, ok := m[u]
	if !ok {
		return nil, ErrNotFound
	}
	return io.NopCloser(bytes.NewReader(b)), nil
}
