package canon

// appendEncoded writes s after the one-encoding pass (userinfo, path and
// query). In the encoded state a well-formed escape is kept (rfc3986
// normalizes it; decode allows it to decode an escaped unreserved character)
// and a '%' not followed by two hex digits becomes "%25". In the raw state
// every '%' becomes "%25". Every other byte in the profile's must-encode class
// for the state becomes %XX with upper-case hex; a non-ASCII character is
// thereby encoded as its UTF-8 bytes, and a byte that is not valid UTF-8 as
// itself.
func (p *Profile) appendEncoded(dst []byte, s piece, decode bool) []byte {
	mask := p.encMask
	if s.raw {
		mask = p.rawMask
	}
	str := s.s
	start := 0
	for i := 0; i < len(str); i++ {
		c := str[i]
		if class[c]&mask == 0 && c != '%' {
			continue
		}
		dst = append(dst, str[start:i]...)
		start = i + 1
		if c == '%' {
			if !s.raw && i+2 < len(str) && isHex(str[i+1]) && isHex(str[i+2]) {
				dst = p.appendEscape(dst, str[i+1], str[i+2], decode, false)
				i += 2
				start = i + 1
				continue
			}
			dst = append(dst, "%25"...)
			continue
		}
		dst = append(dst, '%', upperHex[c>>4], upperHex[c&15])
	}
	return append(dst, str[start:]...)
}

// decodeUnreserved decodes, in place, the escapes of unreserved characters in
// b, whose escapes already have upper-case hex (rfc3986, relative references:
// see Canonicalizer.appendPath).
func decodeUnreserved(b []byte) []byte {
	w := 0
	for r := 0; r < len(b); r++ {
		c := b[r]
		if c == '%' && r+2 < len(b) && isHex(b[r+1]) && isHex(b[r+2]) {
			if d := unhex(b[r+1])<<4 | unhex(b[r+2]); class[d]&cUnreserved != 0 {
				b[w] = d
				w++
				r += 2
				continue
			}
		}
		b[w] = c
		w++
	}
	return b[:w]
}
