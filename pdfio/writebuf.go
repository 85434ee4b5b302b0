package pdfio

import (
	"bytes"
	"io"
)

// writeChunk is the size of an objectBuf's chunks, but for its first
// ones: each is as large as all before it, from 4 KiB (an update of a few
// objects takes a few KiB).
const writeChunk = 1 << 20

// An objectBuf holds the bytes of the objects an update wrote, in chunks
// of up to writeChunk bytes that are never copied to grow: a build of 100,000
// page sets writes 80 MB of objects, which a bytes.Buffer grows to by
// doubling (256 MB allocated and copied, and a 128 MB buffer for 80 MB).
// Each object is made in a small buffer that is used again (obj), then
// appended.
//
// Its first chunk may be the room after the original's bytes, in the
// same array (inPlace): while the objects fit there, the updated file is
// that array, and Bytes copies nothing.
type objectBuf struct {
	chunks [][]byte
	n      int
	obj    bytes.Buffer // the object being made
	room   bool         // chunks[0] is the room after the original's bytes
}

// inPlace starts b, empty, in room (no bytes, the capacity after the
// original's), and reports whether it did. nl: one byte of room first
// ends the original's last line.
func (b *objectBuf) inPlace(room []byte, nl bool) bool {
	if b.n > 0 || len(b.chunks) > 0 || len(room) > 0 || (nl && cap(room) == 0) {
		return false
	}
	if nl {
		room = append(room, '\n')[1:]
	}
	b.chunks, b.room = [][]byte{room}, true
	return true
}

// takeRoom writes tail after what b holds, in the room b started in, when
// all b holds is there and tail fits, and reports whether it did. The
// room is closed then: what b is given next goes to a new chunk, never
// over the bytes handed out.
func (b *objectBuf) takeRoom(tail []byte) bool {
	if !b.room || len(b.chunks) != 1 {
		return false
	}
	c := b.chunks[0]
	if cap(c)-len(c) < len(tail) {
		return false
	}
	b.room = false
	b.chunks[0] = c[:len(c):len(c)]
	copy(c[len(c):cap(c)], tail)
	return true
}

// Len is how many bytes it holds.
func (b *objectBuf) Len() int { return b.n }

// Write appends p.
func (b *objectBuf) Write(p []byte) {
	for len(p) > 0 {
		if k := len(b.chunks); k == 0 || len(b.chunks[k-1]) == cap(b.chunks[k-1]) {
			b.chunks = append(b.chunks, make([]byte, 0, min(max(b.n, 4<<10), writeChunk)))
		}
		last := &b.chunks[len(b.chunks)-1]
		n := min(len(p), cap(*last)-len(*last))
		*last = append(*last, p[:n]...)
		b.n += n
		p = p[n:]
	}
}

// begin returns the buffer to make an object in, empty; end appends what
// was made in it.
func (b *objectBuf) begin() *bytes.Buffer {
	b.obj.Reset()
	return &b.obj
}

func (b *objectBuf) end() { b.Write(b.obj.Bytes()) }

// writeRange writes bytes [from, to) to w.
func (b *objectBuf) writeRange(w io.Writer, from, to int) error {
	at := 0
	for _, c := range b.chunks {
		lo, hi := max(from-at, 0), min(to-at, len(c))
		if lo < hi {
			if _, err := w.Write(c[lo:hi]); err != nil {
				return err
			}
		}
		at += len(c)
		if at >= to {
			break
		}
	}
	return nil
}

// equal reports whether p is exactly the bytes it holds.
func (b *objectBuf) equal(p []byte) bool {
	if len(p) != b.n {
		return false
	}
	for _, c := range b.chunks {
		if !bytes.Equal(p[:len(c)], c) {
			return false
		}
		p = p[len(c):]
	}
	return true
}

// bytes returns the bytes it holds, in one slice (tests).
func (b *objectBuf) bytes() []byte {
	var out bytes.Buffer
	_ = b.writeRange(&out, 0, b.n)
	return out.Bytes()
}
