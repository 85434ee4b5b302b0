package pdfbuild

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"hash/adler32"
)

// bomb returns zlib data (a /FlateDecode stream's) that inflates to prefix,
// then n bytes of pad, then suffix, built in time proportional to its own
// small size rather than to n: the padding is one deflated chunk repeated
// (each chunk, from a fresh compressor, refers only to its own bytes), and
// the checksum is combined, not computed over the inflated bytes. Hostile
// samples use it for streams that inflate to hundreds of MiB.
func bomb(prefix []byte, n int64, pad byte, suffix []byte) []byte {
	const chunk = 1 << 20
	deflated := func(b []byte) []byte {
		var buf bytes.Buffer
		w, _ := flate.NewWriter(&buf, flate.BestCompression)
		w.Write(b)
		w.Flush() // byte-aligned, not final: chunks concatenate
		return buf.Bytes()
	}
	padChunk := bytes.Repeat([]byte{pad}, chunk)
	out := []byte{0x78, 0xDA}
	out = append(out, deflated(prefix)...)
	sum := adler32.Checksum(prefix)
	full := deflated(padChunk)
	fullSum := adler32.Checksum(padChunk)
	for left := n; left > 0; left -= chunk {
		if left >= chunk {
			out = append(out, full...)
			sum = adler32Combine(sum, fullSum, chunk)
			continue
		}
		out = append(out, deflated(padChunk[:left])...)
		sum = adler32Combine(sum, adler32.Checksum(padChunk[:left]), left)
	}
	out = append(out, deflated(suffix)...)
	sum = adler32Combine(sum, adler32.Checksum(suffix), int64(len(suffix)))
	out = append(out, 0x03, 0x00) // a final, empty block of fixed codes
	return binary.BigEndian.AppendUint32(out, sum)
}

// adler32Combine is the Adler-32 of A followed by B from the checksums of
// each and B's length (zlib's adler32_combine).
func adler32Combine(a, b uint32, lenB int64) uint32 {
	const base = 65521
	rem := uint64(lenB % base)
	s1 := uint64(a & 0xffff)
	s2 := rem * s1 % base
	s1 += uint64(b&0xffff) + base - 1
	s2 += uint64(a>>16) + uint64(b>>16) + base - rem
	if s1 >= base {
		s1 -= base
	}
	if s1 >= base {
		s1 -= base
	}
	if s2 >= 2*base {
		s2 -= 2 * base
	}
	if s2 >= base {
		s2 -= base
	}
	return uint32(s1 | s2<<16)
}
