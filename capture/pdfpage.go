package capture

// A URL whose answer is a PDF file.
//
// Chromium shows a PDF file in its viewer, and prints the viewer: one
// grey page with the file's name on it. Acrobat put the PDF file's own
// pages into the capture (PDF 1.7 §10.9.2: a page set's source may be a
// PDF file, its identifier the MD5 of the file's bytes). So does webcap:
// the document the guarded client fetched (recorded for a WARC, its
// identifier computed from its bytes as every other source's) is not
// given to the browser, which loads an empty page in its place (servePDF);
// the page's printed pages are then the file's own pages (pdfPage),
// copied with their resources, annotations and structure by the copier
// that joins printed pages (pdfio.Update.AppendPages). A file that cannot
// be copied (encrypted, damaged, past pdfio's bounds: too large, a
// stream that inflates past its limit, a page tree too deep) is a skip
// of kind SkipPDF that says why.

import (
	"context"
	"errors"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"path"
	"strings"

	"github.com/chromedp/cdproto/fetch"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// SkipPDF is the kind of skip of a URL whose answer is a PDF file whose
// pages cannot be copied (encrypted, damaged, past the reader's bounds).
const SkipPDF = "pdf"

// A PDFError says why the PDF file a URL answered cannot be captured.
type PDFError struct {
	URL string
	Err error // pdfio's
}

func (e *PDFError) Error() string {
	if errors.Is(e.Err, pdfio.ErrEncryptedWrite) || errors.Is(e.Err, pdfio.ErrEncrypted) {
		// (pdfio's words are an update's: "writing to an encrypted file")
		return "an encrypted PDF file: its pages cannot be copied"
	}
	return fmt.Sprintf("a PDF file whose pages cannot be copied: %v", e.Err)
}

func (e *PDFError) Unwrap() error { return e.Err }

// isPDF reports whether r is a whole answer whose body is a PDF file, by
// the identifier rule that applies to it (webcapture.KindOf: its
// Content-Type, or its bytes when it declares none or
// application/octet-stream).
func isPDF(r *Response) bool {
	return r != nil && r.Usable() && !r.Redirect && r.Kind() == webcapture.SourcePDF
}

// blankPage is what the browser loads in place of a PDF file.
const blankPage = "<!DOCTYPE html><html><head><title></title></head><body></body></html>"

// servePDF returns what the browser is given for resp, the answer to a
// request of the page's own frame: params, unless resp is a PDF file,
// which is kept from the browser's viewer (an empty page instead).
func servePDF(resp *Response, params *fetch.FulfillRequestParams) *fetch.FulfillRequestParams {
	if params == nil || !isPDF(resp) {
		return params
	}
	return &fetch.FulfillRequestParams{RequestID: params.RequestID, ResponseCode: http.StatusOK,
		ResponseHeaders: []*fetch.HeaderEntry{
			{Name: "Content-Type", Value: "text/html; charset=utf-8"},
			{Name: "Content-Security-Policy", Value: "default-src 'none'"},
		},
		Body: []byte(blankPage)}
}

// pdfPage makes p, when its document is a PDF file, a page whose printed
// pages are the file's own: the file is copied as the capture will copy
// it (within ctx and pdfio's default bounds), and an error is a
// *PDFError. A page of any other document is left as it is.
func pdfPage(ctx context.Context, p *Page) error {
	if p == nil || !isPDF(p.Document) {
		return nil
	}
	if err := copyable(ctx, p.Document.Body, p.URL); err != nil {
		return &PDFError{URL: p.URL, Err: err}
	}
	p.PDF, p.Links, p.Title = p.Document.Body, nil, fileTitle(p.URL)
	return nil
}

// copyable copies the pages of pdf, named by u, into a new file as the
// capture's merger will (pdfio's default bounds, and ctx's), and fails as
// the merger's copy would: a file that cannot be copied is a skip, not
// the end of the capture.
func copyable(ctx context.Context, pdf []byte, u string) error {
	name := fileTitle(u)
	if name == "" {
		name = u
	}
	up, err := pdfio.NewFileUpdate(nil, name, pdfio.Options{Context: ctx})
	if err != nil {
		return err
	}
	if _, _, err := up.AppendPages(pdf, name); err != nil {
		return err
	}
	if ctx.Err() != nil {
		return context.Cause(ctx)
	}
	return nil
}

// fileTitle is the title of a PDF file's page set, as a browser names a
// PDF file: the last segment of its URL's path ("" when it has none).
func fileTitle(u string) string {
	pu, err := url.Parse(u)
	if err != nil {
		return ""
	}
	switch b := path.Base(strings.TrimSuffix(pu.Path, "/")); b {
	case ".", "/":
		return ""
	default:
		return b
	}
}

// setContentType is the /CT of the page set of doc: its declared
// Content-Type, or application/pdf for a PDF file that declared none
// (or application/octet-stream), sniffed.
func setContentType(doc *Response) string {
	ct := doc.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); (err != nil || mt == "application/octet-stream") && doc.Kind() == webcapture.SourcePDF {
		return "application/pdf"
	}
	return ct
}
