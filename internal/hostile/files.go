package hostile

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
)

// Write writes b to name inside dir (directories made as needed).
func Write(dir, name string, b []byte) error {
	p := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		return err
	}
	return os.WriteFile(p, b, 0o644)
}

// Built is a Setup writing the file build makes (one of pdfbuild's named
// samples: pdfbuild.Hostile, pdfbuild.LossSample) to file and running
// webcap with args.
func Built(build func(name string) ([]byte, error), sampleName, file string, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		b, err := build(sampleName)
		if err != nil {
			return nil, nil, err
		}
		return args, nil, Write(dir, file, b)
	}
}

// Unchanged is a Check that the file name inside dir still holds want.
func Unchanged(name string, want []byte) func(dir string) error {
	return func(dir string) error {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return err
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s changed: %d bytes, was %d", name, len(got), len(want))
		}
		return nil
	}
}

// Absent is a Check that none of the names exists inside dir (as Lstat
// sees it: a dangling link counts).
func Absent(names ...string) func(dir string) error {
	return func(dir string) error {
		for _, n := range names {
			if _, err := os.Lstat(filepath.Join(dir, n)); err == nil {
				return fmt.Errorf("%s exists", n)
			}
		}
		return nil
	}
}

// All is a Check made of several.
func All(checks ...func(dir string) error) func(dir string) error {
	return func(dir string) error {
		for _, c := range checks {
			if err := c(dir); err != nil {
				return err
			}
		}
		return nil
	}
}
