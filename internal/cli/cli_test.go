package cli

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/sharedtest"
	"github.com/webcap/webcap/internal/urlcorpus"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Every command shows an example in its help.
func TestEveryCommandHasExample(t *testing.T) {
	ios, _, _, _ := Test()
	var walk func(*cobra.Command)
	walk = func(c *cobra.Command) {
		if c.Runnable() && !c.Hidden && c.Name() != "help" && strings.TrimSpace(c.Example) == "" {
			t.Errorf("%q has no example", c.CommandPath())
		}
		if c.HasParent() && c.Short == "" {
			t.Errorf("%q has no short help", c.CommandPath())
		}
		for _, sub := range c.Commands() {
			walk(sub)
		}
	}
	walk(newRootCmd(ios))
}

func TestExitCodes(t *testing.T) {
	rows := []struct {
		err  error
		want int
	}{
		{nil, 0},
		{errFailed, 1},
		{usagef("x"), 2},
		{fmt.Errorf("wrapped: %w", usagef("x")), 2},
		{errors.New(`unknown command "x" for "webcap"`), 2},
		{&ioError{io.ErrUnexpectedEOF}, 3},
		{errors.New("anything else"), 1},
	}
	for _, r := range rows {
		if got := exitCode(r.err); got != r.want {
			t.Errorf("exitCode(%v) = %d, want %d", r.err, got, r.want)
		}
	}
}

func TestMainExitCodes(t *testing.T) {
	rows := []struct {
		args  []string
		stdin string
		want  int
	}{
		{[]string{"canon", "http://a/"}, "", 0},
		{[]string{"canon", "http://a:x/"}, "", 1},
		{[]string{"canon"}, "http://a/\nrel\n", 1},
		{[]string{"canon", "--profile", "x"}, "", 2},
		{[]string{"nope"}, "", 2},
		{[]string{"canon"}, "", 0},
	}
	for _, r := range rows {
		ios, in, _, _ := Test()
		in.WriteString(r.stdin)
		if got := Main(context.Background(), r.args, ios); got != r.want {
			t.Errorf("webcap %q = exit %d, want %d", r.args, got, r.want)
		}
	}
}

// A line longer than the read buffer is one URL.
func TestCanonLongLine(t *testing.T) {
	ios, in, out, errOut := Test()
	long := "http://a/" + strings.Repeat("x", 300<<10)
	in.WriteString("HTTP://A/short\n" + long + "\nhttp://b/\n")
	if code := Main(context.Background(), []string{"canon"}, ios); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if want := "http://a/short\n" + long + "\nhttp://b/\n"; out.String() != want {
		t.Errorf("long line: output of %d bytes, want %d", out.Len(), len(want))
	}
}

// Only the line end ("\n", or "\r\n") is taken off a line; step 0 trims
// the rest, and a line of blanks is skipped.
func TestCanonLineEnds(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"lf", "http://a/x\n", "http://a/x\n"},
		{"crlf", "http://a/x\r\n", "http://a/x\n"},
		{"no end", "http://a/x", "http://a/x\n"},
		{"cr at eof", "http://a/x\r", "http://a/x\n"},
		{"two crs", "http://a/x\r\r\n", "http://a/x\n"},
		{"blank lines", "\n\r\n \t\r\nhttp://a/x\n\n", "http://a/x\n"},
		{"one byte", "a:\r\nb:", "a:\nb:\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, in, out, errOut := Test()
			in.WriteString(tc.in)
			if code := Main(context.Background(), []string{"canon"}, ios); code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			if out.String() != tc.want {
				t.Errorf("canon of %q wrote %q, want %q", tc.in, out, tc.want)
			}
		})
	}
}

type failWriter struct{}

func (failWriter) Write([]byte) (int, error) { return 0, errors.New("disk full") }

func TestCanonWriteErrorIsReported(t *testing.T) {
	ios, _, _, errOut := Test()
	ios.Out = failWriter{}
	if code := Main(context.Background(), []string{"canon", "http://a/"}, ios); code != exitIOError {
		t.Errorf("exit %d, want %d", code, exitIOError)
	}
	if !strings.Contains(errOut.String(), "disk full") {
		t.Errorf("stderr %q does not name the write error", errOut)
	}
}

func TestCanonCancel(t *testing.T) {
	ios, in, _, _ := Test()
	in.WriteString(strings.Repeat("http://a/\n", 10000))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if code := Main(ctx, []string{"canon"}, ios); code == 0 {
		t.Error("a cancelled run exited 0")
	}
}

// BenchmarkCanonStream measures "webcap canon" streaming the benchmark
// corpus to a discarding writer, read, canonicalized and written as the
// command does it: one op is one URL; it reports bytes of input and URLs a
// second. (bench/canon-devnull.sh times the whole process on 1,000,000
// URLs against net/url.)
func BenchmarkCanonStream(b *testing.B) {
	corpus := urlcorpus.Generate(10000, 1)
	input := []byte(strings.Join(corpus, "\n") + "\n")
	opts := &canonOptions{canonFlags: canonFlags{Profile: canon.PDF, Input: canon.Encoded}, URLs: []string{"-"}}
	b.SetBytes(int64(len(input)) / int64(len(corpus)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i += len(corpus) {
		opts.IO = &IOStreams{In: bytes.NewReader(input), Out: io.Discard, ErrOut: io.Discard}
		if err := runCanon(context.Background(), opts); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "URLs/s")
}

// The streamed JSON of info, encoded by hand, is exactly the report
// encoded whole by encoding/json: on every sample, on small generated
// captures of both xref flavours, on every real-world file, and on a
// document whose plain strings are not UTF-8 and whose /PZ need
// encoding/json's float forms.
func TestInfoJSONStreamsTheReport(t *testing.T) {
	check := func(name string, d *pdfio.Document) {
		t.Helper()
		var streamed bytes.Buffer
		if err := writeInfoJSON(&streamed, d); err != nil {
			t.Fatal(err)
		}
		whole, _ := marshal(newInfoReport(d))
		if streamed.String() != string(whole)+"\n" {
			t.Errorf("%s: streamed JSON differs from the whole report:\n%s\n%s", name, streamed.String(), whole)
		}
	}
	read := func(name string, b []byte) *pdfio.Document {
		t.Helper()
		d, err := pdfio.ReadBytes(b, name, pdfio.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, name := range pdfbuild.Samples() {
		b, _ := pdfbuild.Sample(name)
		check(name, read(name+".pdf", b))
	}
	for _, objstm := range []bool{false, true} {
		check(fmt.Sprintf("Big(400, %v)", objstm), read("big.pdf", pdfbuild.Big(400, objstm))) // over 32 KB: flushed in parts
	}
	files, _ := filepath.Glob(filepath.Join(sharedtest.Dir(t, "realworld"), "*.pdf"))
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		d, err := pdfio.ReadBytes(b, f, pdfio.Options{})
		if err != nil {
			continue // unreadable files print a failure object, not a report
		}
		check(filepath.Base(f), d)
	}
	d := read("caf\xe9 \u2028<&>.pdf", pdfbuild.Big(12, false))
	d.Defects = append(d.Defects, pdfio.Defect{Kind: "x", Path: "a\xffb", Message: "\x00\t\u2029\xc3"})
	zooms := []float64{0, 1, -2.5, 1e-7, 1.5e-300, 1e21, 5e20, 123456789e20, 0.000001, 1.33}
	for i, z := range zooms {
		d.Pages[i].PZ = &z
	}
	check("odd strings", d)
	// Posted data of every kind, over the writer's 16 KB chunks: text with
	// U+2028 across a chunk's end, bytes that are not UTF-8, empty, a
	// stream three commands share (written once), a string.
	text := []byte(strings.Repeat("a=1&", 4095) + "ab\u2028\u2029\x00\"" + strings.Repeat("\u00e9", 9000))
	latin := append(bytes.Repeat([]byte("caf\xe9"), 9000), '\\')
	empty := []byte{}
	shared := webcapture.Ref{Num: 77}
	v := webcapture.Number{Value: 1.25}
	d.Info = &webcapture.Info{Ref: webcapture.Ref{Num: 5}, Version: &v}
	for i, c := range []struct {
		data *[]byte
		ref  webcapture.Ref
	}{{&text, webcapture.Ref{Num: 70}}, {&latin, shared}, {&empty, webcapture.Ref{Num: 71}}, {&latin, shared},
		{nil, webcapture.Ref{}}, {&text, webcapture.Ref{}}, {&latin, shared}} {
		d.Info.Commands = append(d.Info.Commands, &webcapture.Command{Ref: webcapture.Ref{Num: 80 + i}, URL: "http://a/\xff" + strconv.Itoa(i),
			PostData: c.data, PostRef: c.ref, PostStream: c.ref != webcapture.Ref{}})
	}
	d.Info.Commands[4].PostStream = true // a stream too large to read
	check("posted data", d)
}
