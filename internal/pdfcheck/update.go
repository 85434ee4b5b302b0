package pdfcheck

import (
	"bytes"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/pdfio"
)

// AppendPage adds to b, by an incremental update, the pages of another
// file (pdfbuild.Web's): what a tamperer appends after a seal. A
// certified file is updated all the same (pdfio.Options.AllowCertified).
func AppendPage(b []byte) ([]byte, error) {
	u, err := pdfio.NewUpdate(b, "in.pdf", pdfio.Options{AllowCertified: true})
	if err != nil {
		return nil, err
	}
	if _, _, err := u.AppendPages(pdfbuild.Web(false), "other.pdf"); err != nil {
		return nil, err
	}
	return u.Bytes()
}

// FlipStream changes one bit of the first byte of the first stream's data
// in a copy of b: a byte every seal covers.
func FlipStream(b []byte) []byte {
	out := bytes.Clone(b)
	i := bytes.Index(out, []byte("stream\n"))
	out[i+len("stream\n")] ^= 0x01
	return out
}
