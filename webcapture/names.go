package webcapture

// Unique names (PDF 1.7 §10.9.2; ISO 32000-1 §14.10.3.4 and Table 351):
// when Web Capture adds named destinations (from HTML anchors) or form
// fields (from HTML forms) to a file, each name is the original name with
// the page set's identifier appended, so that names from different pages
// never collide. "Name" here is a string, not a name object.

// EscapeID is the escape pass over an identifier: NUL becomes \0, '.'
// (the field-hierarchy separator) becomes \p, and '\' becomes \\; every
// other byte is kept.
func EscapeID(id []byte) []byte {
	out := make([]byte, 0, len(id)+4)
	for _, c := range id {
		switch c {
		case 0x00:
			out = append(out, '\\', '0')
		case '.':
			out = append(out, '\\', 'p')
		case '\\':
			out = append(out, '\\', '\\')
		default:
			out = append(out, c)
		}
	}
	return out
}

// NibbleEncode is the form-field pass: each byte b becomes the two letters
// 'A'+(b>>4) and 'A'+(b&15), so the result uses only A to P.
func NibbleEncode(b []byte) []byte {
	out := make([]byte, 0, 2*len(b))
	for _, c := range b {
		out = append(out, 'A'+c>>4, 'A'+c&0x0F)
	}
	return out
}

// DestinationName returns the unique name of a named destination: the
// original name followed by the escaped identifier of its page set.
func DestinationName(original string, pageSetID RawID) string {
	return original + string(EscapeID([]byte(pageSetID)))
}

// FieldName returns the unique name of a form field: the original name
// followed by the escaped, then nibble-encoded, identifier of its page set.
// (The specification does not say whether this is the partial or the fully
// qualified name; the suffix goes on whatever name it is given.)
func FieldName(original string, pageSetID RawID) string {
	return original + string(NibbleEncode(EscapeID([]byte(pageSetID))))
}
