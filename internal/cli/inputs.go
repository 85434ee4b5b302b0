package cli

import (
	"context"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"
)

// The list of files audit reads: its arguments, then --files-from's (a
// line or, with -0, a NUL-terminated name each), directories walked with
// --recursive, and of all these the --shard it is to take.

// shard is --shard I/N: the files whose path hashes to I of N (0 ≤ I < N).
// The zero value takes every file.
type shard struct{ I, N int }

// of says which of n shards path belongs to: the FNV-1a 64-bit hash of
// the path as given, cleaned (filepath.Clean: "./a//b.pdf" is "a/b.pdf";
// no path is made absolute, no link followed), modulo n. So n machines
// given the same list each take one shard, disjoint and together
// complete, with no coordination; another tool can compute it too
// (docs/scale.md).
func (shard) of(path string, n int) int {
	h := fnv.New64a()
	h.Write([]byte(filepath.Clean(path)))
	return int(h.Sum64() % uint64(n))
}

// takes reports whether the shard holds path.
func (s shard) takes(path string) bool {
	return s.N == 0 || s.of(path, s.N) == s.I
}

func (s shard) String() string {
	if s.N == 0 {
		return ""
	}
	return fmt.Sprintf("%d/%d", s.I, s.N)
}

// shardValue is --shard's flag value.
type shardValue struct{ s *shard }

func (v shardValue) String() string { return v.s.String() }
func (v shardValue) Type() string   { return "I/N" }

func (v shardValue) Set(text string) error {
	a, b, ok := strings.Cut(text, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return fmt.Errorf("want I/N with 0 <= I < N, as 0/4 or 3/4")
	}
	*v.s = shard{i, n}
	return nil
}

var _ pflag.Value = shardValue{}

// inputFlags are the flags that make audit's list of files.
type inputFlags struct {
	FilesFrom string   // a file naming files, one per line; "-": stdin
	Null      bool     // --files-from's names end in NUL, not newline (-0)
	Recursive bool     // walk directories given as files
	Include   []string // with Recursive: the names of files taken (globs; case folded)
	Shard     shard
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
	var out []string
	for _, p := range files {
		if f.Recursive {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				found, err := f.walk(ctx, p)
				if err != nil {
					return nil, &ioError{fmt.Errorf("%s: %w", cmd, pathError(err))}
				}
				for _, q := range found {
					if f.Shard.takes(q) {
						out = append(out, q)
					}
				}
				continue
			}
		}
		if f.Shard.takes(p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// walk lists the files under dir whose names match Include, in lexical
// order; symbolic links are not followed.
func (f *inputFlags) walk(ctx context.Context, dir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Type().IsRegular() && f.included(d.Name()) {
			found = append(found, p)
		}
		return nil
	})
	if errors.Is(err, context.Canceled) {
		return nil, checkInterrupt(ctx)
	}
	return found, err
}

// included reports whether a file's name matches one of the Include globs,
// case ignored ("*.pdf" takes "A.PDF").
func (f *inputFlags) included(name string) bool {
	name = strings.ToLower(name)
	for _, g := range f.Include {
		if ok, _ := filepath.Match(strings.ToLower(g), name); ok {
			return true
		}
	}
	return false
}
