package webcapture

import (
	"encoding/hex"
	"slices"
	"strconv"
	"strings"
)

// Format writes o in PDF syntax, on one line, for people to read: a
// dictionary's keys sorted, names with #xx escapes (PDF 1.7 §3.2.4), a
// string as a literal when every byte is printable ASCII and as upper-case
// hex otherwise (so no byte is lost or hidden), a reference as "12 0 R", a
// stream as its dictionary followed by "stream (N bytes)".
func Format(o Object) string {
	var b strings.Builder
	format(&b, o)
	return b.String()
}

func format(b *strings.Builder, o Object) {
	switch v := o.(type) {
	case nil:
		b.WriteString("null")
	case bool:
		b.WriteString(strconv.FormatBool(v))
	case int64:
		b.WriteString(strconv.FormatInt(v, 10))
	case float64:
		b.WriteString(strconv.FormatFloat(v, 'f', -1, 64))
	case Name:
		formatName(b, v)
	case String:
		formatString(b, v)
	case Ref:
		b.WriteString(v.String())
	case []Object:
		b.WriteByte('[')
		for i, e := range v {
			if i > 0 {
				b.WriteByte(' ')
			}
			format(b, e)
		}
		b.WriteByte(']')
	case Dict:
		keys := make([]Name, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b.WriteString("<<")
		for _, k := range keys {
			b.WriteByte(' ')
			formatName(b, k)
			b.WriteByte(' ')
			format(b, v[k])
		}
		b.WriteString(" >>")
	case *Stream:
		format(b, v.Dict)
		b.WriteString(" stream (" + strconv.FormatInt(v.Length, 10) + " bytes)")
	default:
		b.WriteString("?")
	}
}

// formatName writes n in PDF name syntax (AppendName).
func formatName(b *strings.Builder, n Name) {
	b.Write(AppendName(nil, string(n)))
}

// AppendName appends n to dst in PDF name syntax: a slash, then n with
// every byte that is not a regular character escaped as #xx (outside
// '!'..'~', a delimiter, or '#'; ISO 32000-1 §7.3.5). The writer and the
// display of names both use it.
func AppendName(dst []byte, n string) []byte {
	const digits = "0123456789ABCDEF"
	dst = append(dst, '/')
	for i := 0; i < len(n); i++ {
		c := n[i]
		if c < '!' || c > '~' || strings.IndexByte("()<>[]{}/%#", c) >= 0 {
			dst = append(dst, '#', digits[c>>4], digits[c&15])
			continue
		}
		dst = append(dst, c)
	}
	return dst
}

// formatString writes s as a literal string when every byte is printable
// ASCII ('(', ')' and '\' escaped), else as a hex string.
func formatString(b *strings.Builder, s String) {
	for i := 0; i < len(s); i++ {
		if s[i] < ' ' || s[i] > '~' {
			b.WriteByte('<')
			b.WriteString(strings.ToUpper(hex.EncodeToString([]byte(s))))
			b.WriteByte('>')
			return
		}
	}
	b.WriteByte('(')
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '(' || c == ')' || c == '\\' {
			b.WriteByte('\\')
		}
		b.WriteByte(s[i])
	}
	b.WriteByte(')')
}
