package webcapture

import (
	"bytes"
	"errors"
	"io"
)

// ErrNotFound: an AuxSource has no data for a URL.
var ErrNotFound = errors.New("not found")

// An AuxSource maps the canonical URL of an auxiliary file (an image, a
// frame, an embedded object) to its bytes.
type AuxSource interface {
	// Open returns the data at the canonical URL u, or an error wrapping
	// ErrNotFound.
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
