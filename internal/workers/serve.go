package workers

import (
	"bufio"
	"bytes"
	"io"
)

// Serve is a worker's loop: it reads tasks from r, a line each, and writes
// handle's answer to each on w as a line of its own, until the end of r.
// An answer must not hold a newline.
func Serve(r io.Reader, w io.Writer, handle func(task []byte) []byte) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriterSize(w, 64<<10)
	for {
		line, err := in.ReadBytes('\n')
		if len(line) > 0 {
			answer := handle(bytes.TrimSuffix(line, []byte("\n")))
			out.Write(answer)
			out.WriteByte('\n')
			if err := out.Flush(); err != nil {
				return err
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
