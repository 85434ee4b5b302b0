package canon

import (
	"errors"
	"fmt"
	"strconv"
)

// Sentinel errors, wrapped by *Error; test for them with errors.Is.
var (
	// ErrNoBase: a relative reference was given without a base URL.
	ErrNoBase = errors.New("relative reference without a base URL")
	// ErrOpaqueBase: a relative reference was given against a base URL that
	// is not hierarchical (such as mailto:x).
	ErrOpaqueBase = errors.New("base URL is not hierarchical")
	// ErrBadPort: the port is not all ASCII digits or is above 65535.
	ErrBadPort = errors.New("bad port")
	// ErrBadHost: the host is not valid UTF-8, IDNA rejects it, or it holds
	// a character a host may not hold.
	ErrBadHost = errors.New("bad host")
	// ErrBadIPv6: a '[' or ']' in the authority does not enclose a valid
	// IPv6 or IPvFuture literal.
	ErrBadIPv6 = errors.New("bad IPv6 literal")
)

// An Error reports why a URL cannot be canonicalized: the input, the step
// that failed, where in the input, and why.
type Error struct {
	Input  string // the URL as given to the canonicalizer
	Step   Step   // the step that failed
	Offset int    // byte offset in Input where the problem is; -1 if it is not in Input
	Reason string // what is wrong, in words
	Err    error  // one of the sentinel errors, or nil
}

func (e *Error) Error() string {
	return "canon " + strconv.Quote(e.Input) + ": " + e.Detail()
}

// Detail returns the error without the input:
// `step 6 (default port) at byte 9: port "99999" is above 65535`.
func (e *Error) Detail() string {
	if e.Offset < 0 {
		return fmt.Sprintf("%s: %s", e.Step, e.Reason)
	}
	return fmt.Sprintf("%s at byte %d: %s", e.Step, e.Offset, e.Reason)
}

func (e *Error) Unwrap() error { return e.Err }
