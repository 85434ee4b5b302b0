// Command urlpeer is the peer of "webcap canon" in the whole-process
// benchmark: it reads one URL per line from stdin and writes one result line
// per input line to stdout, with the same buffered I/O as webcap canon
// (a 64 KiB bufio.Reader read with ReadSlice, a 64 KiB bufio.Writer flushed
// at exit), so that the ratio of the two measures the URL work.
//
//	urlpeer -mode neturl < urls.txt > out.txt   # url.Parse, then String
//	urlpeer -mode purell < urls.txt > out.txt   # purell.NormalizeURLString
//
// purell uses the flags of BenchmarkPurell in bench/peers_test.go. A line
// the peer cannot parse gives an empty output line. The line terminator
// ("\n" or "\r\n") is not part of the URL. Each URL costs the one string
// the peer's API needs; nothing else is allocated per line.
package main

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/url"
	"os"

	"github.com/PuerkitoBio/purell"
)

// purellFlags are the flags of BenchmarkPurell in bench/peers_test.go.
const purellFlags = purell.FlagsSafe | purell.FlagRemoveDotSegments | purell.FlagRemoveFragment

func main() {
	mode := flag.String("mode", "neturl", "peer: neturl (url.Parse + String) or purell (NormalizeURLString)")
	flag.Parse()
	var f func(string) (string, error)
	switch *mode {
	case "neturl":
		f = func(s string) (string, error) {
			u, err := url.Parse(s)
			if err != nil {
				return "", err
			}
			return u.String(), nil
		}
	case "purell":
		f = func(s string) (string, error) { return purell.NormalizeURLString(s, purellFlags) }
	default:
		fmt.Fprintf(os.Stderr, "urlpeer: unknown -mode %q (want neturl or purell)\n", *mode)
		os.Exit(2)
	}
	if err := run(os.Stdin, os.Stdout, f); err != nil {
		fmt.Fprintf(os.Stderr, "urlpeer: %v\n", err)
		os.Exit(1)
	}
}

func run(in io.Reader, out io.Writer, f func(string) (string, error)) error {
	br := bufio.NewReaderSize(in, 64<<10)
	w := bufio.NewWriterSize(out, 64<<10)
	var long []byte
	for {
		line, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], line...)
			for errors.Is(err, bufio.ErrBufferFull) {
				line, err = br.ReadSlice('\n')
				long = append(long, line...)
			}
			line = long
		}
		if len(line) > 0 {
			line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
			if s, ferr := f(string(line)); ferr == nil {
				w.WriteString(s)
			}
			w.WriteByte('\n')
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("reading stdin: %w", err)
		}
	}
	if err := w.Flush(); err != nil {
		return fmt.Errorf("writing stdout: %w", err)
	}
	return nil
}
