package batch

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/webcap/webcap/shard"
)

// ListOptions say which files of those given a run takes.
type ListOptions struct {
	// Recursive walks the directories given: the files in them and below
	// whose names match Include are taken, in lexical order; symbolic
	// links are not followed.
	Recursive bool
	Include   []string    // with Recursive, the names taken: globs, case ignored ("*.pdf" takes "A.PDF")
	Shard     shard.Shard // only the files whose cleaned path (shard.Path) hashes to it; zero: all
}

// List is the list of files a run takes of paths: each path, or with
// Recursive each directory's files, of the shard's alone, in the order
// given. A directory without Recursive stays in the list, a file that
// cannot be read (as any other). The error is the first of walking a
// directory, or ctx's when it is done.
func List(ctx context.Context, paths []string, opts ListOptions) ([]string, error) {
	var out []string
	for _, p := range paths {
		if opts.Recursive {
			if fi, err := os.Stat(p); err == nil && fi.IsDir() {
				found, err := opts.walk(ctx, p)
				if err != nil {
					return nil, err
				}
				for _, q := range found {
					if opts.Shard.Takes(shard.Path(q)) {
						out = append(out, q)
					}
				}
				continue
			}
		}
		if opts.Shard.Takes(shard.Path(p)) {
			out = append(out, p)
		}
	}
	return out, nil
}

// walk lists the files under dir whose names match Include, in lexical
// order.
func (o *ListOptions) walk(ctx context.Context, dir string) ([]string, error) {
	var found []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if d.Type().IsRegular() && o.included(d.Name()) {
			found = append(found, p)
		}
		return nil
	})
	return found, err
}

// included reports whether a file's name matches one of the Include
// globs, case ignored.
func (o *ListOptions) included(name string) bool {
	name = strings.ToLower(name)
	for _, g := range o.Include {
		if ok, _ := filepath.Match(strings.ToLower(g), name); ok {
			return true
		}
	}
	return false
}
