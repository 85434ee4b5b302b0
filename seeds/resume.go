package seeds

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"

	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
)

// Done is what Complete found of a seed's outputs.
type Done struct {
	Pages, Sets int
}

// Complete says whether a seed's outputs are complete: its PDF a regular
// file that reads and audits with no error and holds a page set; with a
// WARC asked for, that WARC a regular file that reads whole, its last
// record the PDF's own (a resource record whose block digest is the
// PDF's SHA-256). The error says what is not; it wraps fs.ErrNotExist
// when the PDF is absent.
func Complete(c *Config, seed string) (Done, error) {
	path := c.PDF(seed)
	data, err := readRegular(path)
	if err != nil {
		return Done{}, err
	}
	d, err := pdfio.ReadBytes(data, path, pdfio.Options{})
	if err != nil {
		return Done{}, err
	}
	sum := audit.Summarize(audit.Check(d, audit.Options{Profile: c.Capture.Profile}))
	done := Done{Pages: len(d.Pages), Sets: pageSets(d)}
	switch {
	case sum.Count(audit.Serious) > 0:
		return Done{}, fmt.Errorf("%s: %s", path, sum)
	case done.Sets == 0:
		return Done{}, fmt.Errorf("%s: no page set", path)
	}
	if w := c.WARCPath(seed); w != "" {
		if err := warcHolds(w, warc.SHA256(data)); err != nil {
			return Done{}, fmt.Errorf("%s: %w", w, err)
		}
	}
	return done, nil
}

// readRegular reads a regular file (never through a link: what is in DIR
// was written there), at most pdfio's default file size.
func readRegular(path string) ([]byte, error) {
	fi, err := os.Lstat(path)
	switch {
	case err != nil:
		return nil, err
	case !fi.Mode().IsRegular():
		return nil, fmt.Errorf("%s: %s, not a regular file", path, kind(fi.Mode()))
	case fi.Size() > pdfio.DefaultMaxFileSize:
		return nil, fmt.Errorf("%s: %d bytes: more than %d", path, fi.Size(), int64(pdfio.DefaultMaxFileSize))
	}
	return os.ReadFile(path)
}

// warcHolds says whether the WARC at path reads whole and ends with a
// resource record of the PDF whose digest is digest.
func warcHolds(path, digest string) error {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return errors.New("absent")
	case err != nil:
		return err
	case !fi.Mode().IsRegular():
		return errors.New("not a regular file")
	}
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	r := warc.NewReader(f)
	var last *warc.Record
	for {
		rec, err := r.NextHeader()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if _, err := io.Copy(io.Discard, r); err != nil {
			return err
		}
		last = rec
	}
	if last == nil || last.Type() != "resource" || last.Header.Get(warc.FieldBlockDigest) != digest {
		return errors.New("does not end with this PDF's record")
	}
	return nil
}
