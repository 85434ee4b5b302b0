package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"github.com/spf13/pflag"

	"github.com/webcap/webcap/audit/batch"
	"github.com/webcap/webcap/shard"
)

// The list of files audit reads: its arguments, then --files-from's (a
// line or, with -0, a NUL-terminated name each), directories walked with
// --recursive, and of all these the --shard it is to take.

// shardValue is --shard's flag value.
type shardValue struct{ s *shard.Shard }

func (v shardValue) String() string { return v.s.String() }
func (v shardValue) Type() string   { return "I/N" }

func (v shardValue) Set(text string) error {
	s, err := shard.Parse(text)
	if err != nil {
		return fmt.Errorf("want I/N with 0 <= I < N, as 0/4 or 3/4")
	}
	*v.s = s
	return nil
}

var _ pflag.Value = shardValue{}

// inputFlags are the flags that make audit's list of files.
type inputFlags struct {
	FilesFrom string      // a file naming files, one per line; "-": stdin
	Null      bool        // --files-from's names end in NUL, not newline (-0)
	Recursive bool        // walk directories given as files
	Include   []string    // with Recursive: the names of files taken (globs; case folded)
	Shard     shard.Shard // the files whose cleaned path hashes to I of N (package shard)
}

// defaultInclude is what --recursive takes unless --include says.
var defaultInclude = []string{"*.pdf"}

func (f *inputFlags) add(fs *pflag.FlagSet) {
	fs.StringVar(&f.FilesFrom, "files-from", "", "audit the files `LIST` names, one per line (-: stdin)")
	fs.BoolVarP(&f.Null, "null", "0", false, "--files-from names end in NUL, not newline (find -print0)")
	fs.BoolVarP(&f.Recursive, "recursive", "r", false, "audit the files in directories, and in theirs")
	fs.StringSliceVar(&f.Include, "include", defaultInclude, "with --recursive, the file names to audit (a `GLOB`, case ignored; repeat or comma-separate)")
	fs.Var(shardValue{&f.Shard}, "shard", "audit only the files whose path hashes to shard `I/N` (0 <= I < N)")
}

func (f *inputFlags) check(cmd string) error {
	for _, g := range f.Include {
		if _, err := filepath.Match(g, ""); err != nil {
			return usagef("%s: --include %q: %v", cmd, g, err)
		}
	}
	return nil
}

// inputs is the list of files: files (the arguments), then those the list
// names, directories walked when Recursive, the shard's alone. A
// directory without --recursive stays in the list, an input that cannot
// be read (as in every command: exit 3).
func (f *inputFlags) inputs(ctx context.Context, cmd string, files []string, ios *IOStreams) ([]string, error) {
	if f.FilesFrom != "" {
		list, err := readList(ctx, f.FilesFrom, ios, f.Null)
		if err := checkInterrupt(ctx); err != nil {
			return nil, err
		}
		if err != nil {
			return nil, &ioError{fmt.Errorf("%s: --files-from %s: %w", cmd, f.FilesFrom, err)}
		}
		files = append(slices.Clip(files), list...)
	}
	out, err := batch.List(ctx, files, batch.ListOptions{Recursive: f.Recursive, Include: f.Include, Shard: f.Shard})
	if errors.Is(err, context.Canceled) {
		err = checkInterrupt(ctx)
	}
	if err != nil {
		return nil, &ioError{fmt.Errorf("%s: %w", cmd, pathError(err))}
	}
	return out, nil
}
