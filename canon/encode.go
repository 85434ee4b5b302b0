package canon

// appendEncoded writes s after the one-encoding pass (userinfo, path and
// query). In the encoded state a well-formed escape is kept (rfc3986
// normalizes it; decode allows it to decode an escaped unreserved character)
// and a '%' not followed by two hex digits becomes "%25". In the raw state
// every '%' becomes "%25". Every other byte in the profile's must-encode class
// for the state becomes %XX with upper-case hex; a non-ASCII character is
// thereby encoded as its UTF-8 bytes, and a byte that is not valid UTF-8 as
// itself.
//
// When dots is not nil, the scan also watches for a '.' right after a '/' —
// a possible dot segment — and for an escape decoded to '.', and sets *dots,
// so that the path need not be scanned again for step 7.
func (p *Profile) appendEncoded(dst []byte, str string, raw, decode bool, dots *bool) []byte {
	mask := p.encMask | cPercent
	if raw {
		mask = p.rawMask | cPercent
	}
	if dots != nil {
		mask |= cDot
	}
	start := 0
	for i := 0; i < len(str); i++ {
		for i < len(str) && class[str[i]]&mask == 0 {
			i++ // the common case: a byte to keep, in a loop of its own
		}
		if i == len(str) {
			break
		}
		c := str[i]
		if c == '.' {
			if i > 0 && str[i-1] == '/' {
				*dots = true
			}
			continue
		}
		dst = append(dst, str[start:i]...)
		start = i + 1
		if c == '%' {
			if !raw && i+2 < len(str) && isHex(str[i+1]) && isHex(str[i+2]) {
				n := len(dst)
				dst = p.appendEscape(dst, str[i+1], str[i+2], decode, false)
				if dots != nil && dst[n] == '.' {
					*dots = true
				}
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
