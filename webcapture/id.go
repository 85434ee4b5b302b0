package webcapture

import (
	"encoding/hex"
	"fmt"
	"strings"
)

// An ID is a well-formed digital identifier: a 16-byte MD5 digest (PDF 1.7
// §10.9.2 "Digital Identifiers"). It is comparable and can key a map.
type ID [16]byte

// String returns the identifier as 32 upper-case hex digits.
func (id ID) String() string { return strings.ToUpper(hex.EncodeToString(id[:])) }

// MarshalText returns String's form.
func (id ID) MarshalText() ([]byte, error) { return []byte(id.String()), nil }

// UnmarshalText parses hex digits, as ParseID does.
func (id *ID) UnmarshalText(b []byte) error {
	v, err := ParseID(string(b))
	if err == nil {
		*id = v
	}
	return err
}

// Raw returns the identifier as a RawID.
func (id ID) Raw() RawID { return RawID(id[:]) }

// ParseID parses 32 hex digits (either case) into an ID.
func ParseID(s string) (ID, error) {
	var id ID
	b, err := hex.DecodeString(s)
	if err != nil {
		return id, fmt.Errorf("webcapture: identifier %q is not hex: %w", s, err)
	}
	if len(b) != len(id) {
		return id, fmt.Errorf("webcapture: identifier %q has %d bytes, want 16", s, len(b))
	}
	copy(id[:], b)
	return id, nil
}

// A RawID is an identifier as a file holds it: a byte string of any length,
// kept exactly (content set ID and TID, page and image ID, IDS keys). A
// malformed one is shown, not rejected. The string type only makes it
// comparable; its bytes are not text.
type RawID string

// ParseRawID parses hex digits (either case, any even count) into a RawID.
func ParseRawID(s string) (RawID, error) {
	b, err := hex.DecodeString(s)
	if err != nil {
		return "", fmt.Errorf("webcapture: identifier %q is not hex: %w", s, err)
	}
	return RawID(b), nil
}

// Hex returns the bytes as upper-case hex digits ("" for an empty ID).
func (r RawID) Hex() string { return strings.ToUpper(hex.EncodeToString([]byte(r))) }

// String returns Hex.
func (r RawID) String() string { return r.Hex() }

// MarshalText returns Hex.
func (r RawID) MarshalText() ([]byte, error) { return []byte(r.Hex()), nil }

// ID returns the identifier as an ID and true when it has exactly 16 bytes.
func (r RawID) ID() (ID, bool) {
	var id ID
	if len(r) != len(id) {
		return id, false
	}
	copy(id[:], r)
	return id, true
}
