package cli

import (
	"context"
	"fmt"
	"io"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/pdfio"
)

// capture --embed-warc, append --embed-warc, refresh --embed-warc: the WARC
// the command writes (--warc), inside the PDF it writes, as a
// document-level associated file (pdfio.WARCAttachment: application/warc,
// /AFRelationship /Source). The WARC holds the PDF as it was before the
// WARC was put in it (it cannot hold itself): the PDF is written, then the
// WARC, complete, then the WARC is embedded by an incremental update of
// the PDF, whose bytes before it are the WARC's PDF record, and the result
// goes to -o. The WARC's bytes stream from its file into the output: a
// large archive takes no memory.

// embedFlags is --embed-warc.
type embedFlags struct {
	EmbedWARC bool
}

// embedWARCUsage is --embed-warc's help line, the same for capture,
// append and refresh.
const embedWARCUsage = "also put the --warc file into the PDF, as an associated file (/AFRelationship /Source): webcap audit then recomputes every content set's identifier from it, offline"

func (e *embedFlags) add(cmd *cobra.Command) {
	cmd.Flags().BoolVar(&e.EmbedWARC, "embed-warc", false, embedWARCUsage)
}

// check says --embed-warc needs --warc (warc, its file).
func (e *embedFlags) check(cmd, warc string) error {
	if e.EmbedWARC && warc == "" {
		return usagef("%s: --embed-warc embeds the WARC the command writes: give --warc OUT.warc.gz", cmd)
	}
	return nil
}

// writeRead writes the command's PDF (pdf, read back by read), sealed as
// s asks (sealflags.go), and its WARC (writeWARC, to warc, given the PDF
// it archives). Without --embed-warc: the PDF sealed, written, then the
// WARC of the sealed PDF, as before. With it, the seal must cover the
// WARC, so the WARC comes first, of the PDF as it was made, then the
// update that embeds it, then the seals: written streamed when there is
// no seal (the WARC's bytes read from its file as they are written), in
// memory when there is (seal.Bytes seals bytes). The document returned
// is read's: the Web Capture structures, which the embedding does not
// change.
func (e *embedFlags) writeRead(ctx context.Context, cmd string, o *outputFlags, s *sealFlags, ios *IOStreams, input string, pdf []byte,
	read func(name string) (*pdfio.Document, error), warc string, writeWARC func(pdf []byte) error) (*pdfio.Document, error) {
	target := o.target(input)
	if !e.EmbedWARC {
		read, err := s.seal(ctx, cmd, target, &pdf, read)
		if err != nil {
			return nil, err
		}
		d, err := o.writeRead(cmd, ios, input, pdf, read)
		if err != nil {
			return nil, err
		}
		return d, writeWARC(pdf)
	}
	if err := writeWARC(pdf); err != nil {
		return nil, err
	}
	a, err := pdfio.WARCAttachment(warc)
	if err != nil {
		return nil, &ioError{fmt.Errorf("%s: --embed-warc: %w", cmd, err)}
	}
	u, err := pdfio.NewUpdate(pdf, target, pdfio.Options{AllowCertified: o.Force})
	if err == nil {
		err = u.Attach(a)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: --embed-warc: %w", cmd, err)
	}
	if s.opts != nil {
		embedded, err := u.Bytes()
		if err != nil {
			return nil, &ioError{fmt.Errorf("%s: --embed-warc: %w", cmd, err)}
		}
		if read, err = s.seal(ctx, cmd, target, &embedded, read); err != nil {
			return nil, err
		}
		return o.writeRead(cmd, ios, input, embedded, read)
	}
	if err := o.stream(cmd, ios, input, u.WriteTo); err != nil {
		return nil, err
	}
	d, err := read(target)
	return readBack(cmd, d, err)
}

// stream is put for a result written by write (pdfio.Update.WriteTo):
// into a temporary file renamed over the target, or to stdout.
func (o *outputFlags) stream(cmd string, ios *IOStreams, input string, write func(io.Writer) (int64, error)) error {
	path := o.target(input)
	if path == stdoutName {
		if _, err := write(ios.Out); err != nil {
			return &ioError{fmt.Errorf("%s: writing the PDF to stdout: %w", cmd, err)}
		}
		return nil
	}
	out, err := pdfio.CreateOutput(path, pdfio.WriteOptions{Replace: o.Force || o.InPlace})
	if err != nil {
		return &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	defer out.Close()
	if _, err := write(out); err != nil {
		return &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	if err := out.Commit(); err != nil {
		return &ioError{fmt.Errorf("%s: %w", cmd, err)}
	}
	return nil
}
