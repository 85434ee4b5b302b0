package pdfio

import (
	"bytes"
	"strconv"
	"strings"
	"unicode"
)

// xrefTable reports whether b, what follows a cross-reference table's
// "xref" keyword, is a table pdfcpu reads as it is, up to its "trailer":
// read line by line as pdfcpu's parser reads it (read.go: lines end at CR,
// LF or CR LF; a subsection is a header line "first count" and then at
// least count lines of three fields "offset generation n|f"; the line
// after them holds "trailer" or the next header), for what pdfcpu cannot
// read this way it rebuilds by scanning the file, and an update whose
// /Prev leads here then cannot be read at all (FuzzFix found a NUL that
// joined two entries into one line). Entries in the usual 20-byte form
// are checked without allocating: a table can run to millions.
func xrefTable(b []byte) bool {
	line := func() []byte { // the next line, and b past its end
		i := bytes.IndexAny(b, "\r\n")
		if i < 0 {
			l := b
			b = nil
			return l
		}
		l := b[:i]
		if b[i] == '\r' && i+1 < len(b) && b[i+1] == '\n' {
			i++
		}
		b = b[i+1:]
		return l
	}
	// pdfcpu's scanLine: an empty line is passed over, once.
	next := func() ([]byte, bool) {
		for range 2 {
			if b == nil {
				return nil, false
			}
			if l := line(); len(l) > 0 {
				return l, true
			}
		}
		return nil, b != nil
	}
	first := line() // the rest of the "xref" line
	fields := strings.Fields(string(first))
	switch {
	case len(fields) == 0:
		l, ok := next()
		if !ok {
			return false
		}
		first, fields = l, strings.Fields(string(l))
	case len(fields) == 2: // "xref 0 12": pdfcpu reads the header from it
	default:
		return false
	}
	cur := first
	if bytes.HasPrefix(bytes.TrimLeft(cur, " "), []byte("trailer")) {
		return true // (pdfcpu takes a table with no subsection)
	}
	for len(fields) == 2 {
		if _, err := strconv.Atoi(fields[0]); err != nil {
			return false
		}
		count, err := strconv.Atoi(fields[1])
		if err != nil || count < 0 || count > 1<<24 {
			return false
		}
		for i := 0; ; i++ {
			l, ok := next()
			if !ok {
				return false
			}
			if standardEntry(l) {
				continue
			}
			f := strings.Fields(string(l))
			if len(f) != 3 {
				if i < count {
					return false // pdfcpu: incomplete xref subsection
				}
				cur, fields = l, f
				break
			}
			if len(f[0]) != 1 && !entryDecodes(f) {
				return false
			}
		}
		if bytes.Contains(cur, []byte("trailer")) {
			break
		}
	}
	return bytes.HasPrefix(bytes.TrimLeft(cur, " "), []byte("trailer"))
}

// standardEntry reports whether l is an entry as ISO 32000-1 §7.5.4 writes
// it: ten digits, a space, five digits, a space, n or f, and at most
// trailing spaces.
func standardEntry(l []byte) bool {
	if len(l) < 18 || l[10] != ' ' || l[16] != ' ' || l[17] != 'n' && l[17] != 'f' {
		return false
	}
	for i, c := range l {
		switch {
		case i == 10 || i == 16 || i == 17:
		case i < 17:
			if c < '0' || c > '9' {
				return false
			}
		case c != ' ':
			return false
		}
	}
	return true
}

// entryDecodes reports whether pdfcpu decodes the entry f (three fields):
// an offset after any leading non-digits, a generation (one of more than
// five digits is taken as 0), and n or f.
func entryDecodes(f []string) bool {
	off := strings.TrimLeftFunc(f[0], func(r rune) bool { return !unicode.IsDigit(r) })
	if _, err := strconv.ParseInt(off, 10, 64); err != nil {
		return false
	}
	if len(f[1]) <= 5 {
		if _, err := strconv.Atoi(f[1]); err != nil {
			return false
		}
	}
	return f[2] == "n" || f[2] == "f"
}
