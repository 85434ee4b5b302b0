package pdfio

import (
	"bytes"
	"cmp"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	pb "github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/webcapture"
)

// Result reads an updated file exactly as ReadBytes reads its bytes: the
// same document, defects and damage, whether it took the parse of the
// original plus the update (a well-formed original) or read the bytes
// whole (a damaged one).
func TestUpdateResultIsTheReadOfTheBytes(t *testing.T) {
	files := map[string][]byte{
		"broken":        pb.BigBroken(300, false),
		"broken-objstm": pb.BigBroken(300, true),
		"plain":         plain(3, false),
		"plain-objstm":  plain(3, true),
	}
	for _, name := range pb.Samples() {
		b, err := pb.Sample(name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	// The real files when ../shared is there (the generated ones stand
	// without it): each readable one must be updated, an encrypted one
	// refused as such.
	isReal, readable := map[string]bool{}, 0
	if root, ok := sharedtest.Root(); ok {
		real, _ := filepath.Glob(filepath.Join(root, "realworld", "*.pdf"))
		for _, f := range real {
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			files[filepath.Base(f)] = b
			isReal[filepath.Base(f)] = true
			if sharedtest.RealWorldUnreadable[filepath.Base(f)] == "" {
				readable++
			}
		}
	}
	incremental, realDone := 0, 0
	for _, name := range slices.Sorted(func(yield func(string) bool) {
		for n := range files {
			if !yield(n) {
				return
			}
		}
	}) {
		t.Run(name, func(t *testing.T) {
			opts := Options{}
			if isReal[name] {
				sharedtest.Unreadable(t, name)
				if pw, ok := sharedtest.RealWorldPasswords[name]; ok {
					if _, err := NewUpdate(files[name], name, Options{Password: pw}); !errors.Is(err, ErrEncryptedWrite) {
						t.Fatalf("NewUpdate of an encrypted file: %v, want ErrEncryptedWrite", err)
					}
					realDone++
					return
				}
				opts.AllowCertified = true // a certified file too: its update is still read
			}
			u, err := OpenUpdate(files[name], name, opts)
			if err != nil {
				t.Fatal("cannot be read:", err)
			}
			d, err := u.Document()
			if err != nil {
				t.Fatal(err)
			}
			if u.unwritable != nil {
				t.Fatal("cannot be updated:", u.unwritable)
			}
			changeEverything(t, u, d)
			out, err := u.Bytes()
			if err != nil {
				t.Fatal("not updated:", err)
			}
			got, err := u.Result(out, "out.pdf")
			if err != nil {
				t.Fatal(err)
			}
			want, err := ReadBytes(out, "out.pdf", Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("Result differs from ReadBytes at %s:\n got %+v\nwant %+v", docDiff(got, want), got, want)
			}
			for _, tr := range []*Tree{d.IDS, d.URLS} {
				if tr != nil && !u.parsedWhole && len(d.Defects) == 0 && !u.plan.trees[tr.Name].used {
					t.Errorf("the %s tree the update built was walked, not taken from its plan", tr.Name)
				}
			}
			if !u.parsedWhole && len(d.Defects) == 0 && !u.plan.pages.taken {
				t.Errorf("the pages were read from the output, not taken from the input's: %s", u.plan.pages.why)
			} else if !u.plan.pages.taken {
				t.Logf("the pages were read from the output: %s", cmp.Or(u.plan.pages.why, "the output was parsed whole"))
			}
			if !u.parsedWhole {
				incremental++
			} else if len(d.Damage) == 0 {
				t.Error("a well-formed file's update was read whole")
			}
			if isReal[name] {
				realDone++
			}
		})
	}
	if realDone != readable {
		t.Errorf("%d of the %d readable real files updated or refused as encrypted: every one must be", realDone, readable)
	}
	if incremental < 4 {
		t.Errorf("%d files' updates read incrementally, want at least the 4 generated ones", incremental)
	}
}

// changeEverything rewrites the trees of d in reverse key order (as
// unsorted trees), and gives the first page a new /ID.
func changeEverything(t *testing.T, u *Update, d *Document) {
	t.Helper()
	for _, tr := range []*Tree{d.IDS, d.URLS} {
		if tr == nil {
			continue
		}
		var es []NameEntry
		at := map[string]int{}
		for _, e := range slices.Backward(tr.Entries) {
			i, seen := at[e.Key]
			if !seen {
				i = len(es)
				at[e.Key] = i
				es = append(es, NameEntry{Key: e.Key, KeyObject: e.KeyRef})
			}
			for _, cs := range e.Sets {
				if !cs.Ref.IsZero() && !slices.Contains(es[i].Sets, cs.Ref) {
					es[i].Sets = append(es[i].Sets, cs.Ref)
				}
			}
		}
		es = slices.DeleteFunc(es, func(e NameEntry) bool { return len(e.Sets) == 0 })
		if err := u.SetNameTree(tr.Name, es, TreeShape{Leaf: 4, Fan: 3, Hex: tr.Name == "IDS"}); err != nil {
			t.Fatal(err)
		}
	}
	if len(d.Pages) > 0 {
		if err := u.SetID(d.Pages[0].Ref, webcapture.RawID("0123456789abcdef")); err != nil {
			t.Fatal(err)
		}
	}
}

// An update continued from the one that wrote a file (Continue) writes
// what an update of that file's parse (NewUpdate) writes, byte for byte,
// and reads as it: twice over, as a capture chains its merge, its
// structures and its links.
func TestContinueIsNewUpdate(t *testing.T) {
	files := map[string][]byte{
		"plain":         plain(3, false),
		"plain-objstm":  plain(3, true),
		"broken-objstm": pb.BigBroken(300, true),
	}
	for _, name := range pb.Samples() {
		b, err := pb.Sample(name)
		if err != nil {
			t.Fatal(err)
		}
		files[name] = b
	}
	continued := 0
	for _, name := range slices.Sorted(maps.Keys(files)) {
		t.Run(name, func(t *testing.T) {
			u, err := NewUpdate(files[name], name, Options{})
			if err != nil {
				t.Skip("cannot be updated:", err)
			}
			for step := range 3 {
				d, err := u.Document()
				if err != nil {
					t.Fatal(err)
				}
				if step == 2 {
					want, err := ReadBytes(u.orig, name, Options{})
					if err != nil {
						t.Fatal(err)
					}
					if !reflect.DeepEqual(d, want) {
						t.Errorf("the continued update's Document differs from ReadBytes:\n got %+v\nwant %+v", d, want)
					}
					return
				}
				changeEverything(t, u, d)
				out, err := u.Bytes()
				if err != nil {
					t.Skip("not updated:", err) // certified
				}
				fresh, err := NewUpdate(out, name, Options{})
				if err != nil {
					t.Fatal(err)
				}
				parsed := u.ctx
				if u, err = u.Continue(out); err != nil {
					t.Fatal(err)
				}
				if u.ctx == parsed {
					continued++ // (not parsed again)
				}
				fd, err := fresh.Document()
				if err != nil {
					t.Fatal(err)
				}
				changeEverything(t, fresh, fd)
				want, err := fresh.Bytes()
				if err != nil {
					t.Fatal(err)
				}
				// The same changes, on the continued update.
				cd, err := u.Document()
				if err != nil {
					t.Fatal(err)
				}
				changeEverything(t, u, cd)
				got, err := u.Bytes()
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Fatalf("step %d: the continued update wrote %d bytes, NewUpdate %d, not the same", step, len(got), len(want))
				}
				if u, err = u.Continue(got); err != nil {
					t.Fatal(err)
				}
			}
		})
	}
	if continued == 0 {
		t.Error("no update was continued without a parse")
	}
}

// Pages a browser printed, merged into a new file (streams among their
// objects), are continued from the merge's parse, not parsed again, and
// the continued update reads the file as a parse of it does.
func TestContinueMergedPages(t *testing.T) {
	printed, err := os.ReadFile(filepath.Join("testdata", "chromium-text.pdf"))
	if err != nil {
		t.Fatal(err)
	}
	u, err := NewFileUpdate(printed, "new.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	for range 2 {
		if _, _, err := u.AppendPages(printed, "printed.pdf"); err != nil {
			t.Fatal(err)
		}
	}
	streams := bytes.Count(u.objs.buf.bytes(), []byte("endstream"))
	if streams == 0 {
		t.Fatal("the merge wrote no stream")
	}
	out, err := u.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	parsed := u.ctx
	next, err := u.Continue(out)
	if err != nil {
		t.Fatal(err)
	}
	if next.ctx != parsed {
		t.Fatalf("the merge of %d streams was parsed again", streams)
	}
	got, err := next.Document()
	if err != nil {
		t.Fatal(err)
	}
	want, err := ReadBytes(out, "new.pdf", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("the continued update's Document differs from ReadBytes:\n got %+v\nwant %+v", got, want)
	}
}
