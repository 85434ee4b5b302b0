// Package jsonstrict finds what encoding/json lets pass silently in a JSON
// document a person wrote: an object that names a member twice, of which
// encoding/json keeps the last, so that the document does not say what it
// seems to. The build manifest (package record) and the URL-to-file
// manifests of --sources and --aux (package mirror) both refuse such a
// document through it. The check is go-json-experiment's jsontext, which
// rejects duplicate names by default.
package jsonstrict

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/go-json-experiment/json/jsontext"
)

// A DuplicateError is an object that names a member twice.
type DuplicateError struct {
	Member string // the member named twice
	Field  string // where it is, as pageSets[0].url (the member itself included)
	Offset int64  // the byte offset of its second name
	Line   int    // Offset's line and column, from 1
	Col    int
}

func (e *DuplicateError) Error() string {
	return fmt.Sprintf("%d:%d: %s: %q is given twice in one object (JSON keeps only one)", e.Line, e.Col, e.Field, e.Member)
}

// Unique returns a *DuplicateError when an object of data names a member
// twice, and nil otherwise. Text that is not JSON is left to the decoder,
// whose errors say more: Unique returns nil for it.
func Unique(data []byte) *DuplicateError {
	// (A bytes.Buffer is parsed where it is, not copied into the
	// decoder's own buffer first: 63 MB for a 32 MB manifest. The decoder
	// never writes to a bytes.Buffer's bytes: TestUniqueLeavesData.)
	_, err := jsontext.NewDecoder(bytes.NewBuffer(data)).ReadValue()
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil
	}
	member := se.JSONPointer.LastToken()
	field := Field(slices.Collect(se.JSONPointer.Parent().Tokens()))
	if field != "" {
		field += "." + member
	} else {
		field = member
	}
	off := se.ByteOffset
	if i := bytes.IndexByte(data[off:], '"'); i >= 0 {
		off += int64(i) // the name itself
	}
	line, col := Position(data, off)
	return &DuplicateError{Member: member, Field: field, Offset: off, Line: line, Col: col}
}

// Field writes the tokens of a JSON Pointer as a field is named in
// messages: /pageSets/0/url, the tokens pageSets, 0 and url, is
// pageSets[0].url.
func Field(tokens []string) string {
	var b strings.Builder
	for _, tok := range tokens {
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			fmt.Fprintf(&b, "[%s]", tok)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// Position is the line and column (from 1, in bytes) of byte offset off
// in data; an offset out of range is clamped.
func Position(data []byte, off int64) (line, col int) {
	off = max(0, min(off, int64(len(data))))
	line = 1 + bytes.Count(data[:off], []byte("\n"))
	col = int(off) - bytes.LastIndexByte(data[:off], '\n')
	return line, col
}
