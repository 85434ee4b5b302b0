package canon

// Character classes, one bit per class, indexed by byte. The table is built
// from the readable definitions below when the package loads; every class is
// named after the grammar it comes from.
const (
	cUnreserved uint16 = 1 << iota // RFC 3986 unreserved: ALPHA DIGIT - . _ ~
	cSubDelim                      // RFC 3986 sub-delims: ! $ & ' ( ) * + , ; =
	cHex                           // HEXDIG
	cScheme                        // ALPHA DIGIT + - . (after the first letter)
	cUpper                         // A-Z
	cEncPDF                        // encoded state, pdf/pdf2: must be encoded
	cEncRFC                        // encoded state, rfc3986: must be encoded
	cEncRFCRaw                     // raw state, rfc3986: must be encoded
	cTrim                          // step 0: ASCII whitespace and C0 controls (<= 0x20)
	cPercent                       // '%', which the encoding pass always looks at
	cDot                           // '.', which the path scan watches for dot segments
	cHostPlain                     // unreserved or sub-delims, not upper-case: a host byte kept as it is
	cHash                          // '#', which the fast path must see
	cAuthDelim                     // '/' '?' '#', which end an authority, and '@' ':' in it
)

var class = buildClasses()

// lowerTable maps every byte to itself with ASCII A-Z lower-cased: a table
// lookup has no branch to mispredict on mixed-case input.
var lowerTable = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if i >= 'A' && i <= 'Z' {
			t[i] = byte(i) + 'a' - 'A'
		}
	}
	return t
}()

func buildClasses() (t [256]uint16) {
	set := func(bit uint16, chars string) {
		for i := 0; i < len(chars); i++ {
			t[chars[i]] |= bit
		}
	}
	const (
		upper  = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		lower  = "abcdefghijklmnopqrstuvwxyz"
		digits = "0123456789"
	)
	set(cUnreserved, upper+lower+digits+"-._~")
	set(cSubDelim, "!$&'()*+,;=")
	set(cHex, digits+"abcdefABCDEF")
	set(cScheme, upper+lower+digits+"+-.")
	set(cUpper, upper)
	set(cPercent, "%")
	set(cDot, ".")
	set(cHash, "#")
	set(cAuthDelim, "/?#@:")
	set(cHostPlain, lower+digits+"-._~"+"!$&'()*+,;=")

	// The set of seeds/003: characters that can never survive an encoding
	// pass — C0 controls, space, DEL, every byte of a non-ASCII character —
	// and " < >.
	for c := 0; c <= 0x20; c++ {
		t[c] |= cEncPDF | cTrim
	}
	for c := 0x7f; c <= 0xff; c++ {
		t[c] |= cEncPDF
	}
	set(cEncPDF, `"<>`)

	// rfc3986 also encodes the RFC 1738 "unsafe" characters that RFC 3986
	// forbids outside their delimiter roles. '[' and ']' are delimiters only
	// around an IP literal in the host, which is never passed through here.
	for c := range t {
		if t[c]&cEncPDF != 0 {
			t[c] |= cEncRFC
		}
	}
	set(cEncRFC, "{}|\\^`[]")

	// raw state, rfc3986: everything outside unreserved, sub-delims and
	// ": @ / ?" is encoded, '%' included.
	for c := range t {
		if t[c]&(cUnreserved|cSubDelim) == 0 {
			t[c] |= cEncRFCRaw
		}
	}
	for _, c := range []byte(":@/?") {
		t[c] &^= cEncRFCRaw
	}
	return t
}

const upperHex = "0123456789ABCDEF"

func isHex(c byte) bool { return class[c]&cHex != 0 }

func unhex(c byte) byte {
	switch {
	case c >= 'a':
		return c - 'a' + 10
	case c >= 'A':
		return c - 'A' + 10
	}
	return c - '0'
}

func upperHexDigit(c byte) byte {
	if c >= 'a' && c <= 'f' {
		return c - ('a' - 'A')
	}
	return c
}

func lowerASCII(c byte) byte { return lowerTable[c] }

// equalFoldASCII reports whether b and s are equal under ASCII case folding.
func equalFoldASCII[S string | []byte](b S, s string) bool {
	if len(b) != len(s) {
		return false
	}
	for i := range len(b) {
		if lowerASCII(b[i]) != lowerASCII(s[i]) {
			return false
		}
	}
	return true
}
