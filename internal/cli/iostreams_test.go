package cli

import (
	"os"
	"testing"
)

// TestDevNullIsNoTerminal: /dev/null is a character device but no
// terminal; taken for one, canon flushed once per line.
func TestDevNullIsNoTerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	if isTerminal(f) {
		t.Errorf("isTerminal(%s) = true, want false", os.DevNull)
	}
}
