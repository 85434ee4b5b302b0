package warc

import (
	"bufio"
	"compress/gzip"
	"crypto/rand"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// A Writer writes records, each as its own gzip member when Gzip is set.
type Writer struct {
	w    io.Writer
	gzip bool
	z    *gzip.Writer
	// Now gives WARC-Date for a record that has none (time.Now if nil).
	Now func() time.Time
}

// NewWriter returns a Writer to w; gz: one gzip member per record.
func NewWriter(w io.Writer, gz bool) *Writer { return &Writer{w: w, gzip: gz} }

// NewRecordID returns a new WARC-Record-ID: a random (version 4) UUID URN
// in angle brackets.
func NewRecordID() string {
	var u [16]byte
	rand.Read(u[:])
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	return fmt.Sprintf("<urn:uuid:%x-%x-%x-%x-%x>", u[0:4], u[4:6], u[6:8], u[8:10], u[10:])
}

// Write writes rec, first filling in what it lacks: the version
// (WARC/1.1), WARC-Record-ID, WARC-Date, WARC-Block-Digest, and for an
// HTTP message with a body a WARC-Payload-Digest (of the payload, transfer
// coding removed); Content-Length is always set from the block. rec's
// Header is updated in place, so that its ID can be referred to.
func (w *Writer) Write(rec *Record) error {
	if rec.Version == "" {
		rec.Version = V1_1
	}
	if rec.ID() == "" {
		rec.Header.Set(FieldRecordID, NewRecordID())
	}
	if rec.Header.Get(FieldDate) == "" {
		now := time.Now
		if w.Now != nil {
			now = w.Now
		}
		rec.Header.Set(FieldDate, now().UTC().Format(time.RFC3339))
	}
	if rec.Header.Get(FieldBlockDigest) == "" {
		rec.Header.Set(FieldBlockDigest, SHA256(rec.Block))
	}
	if rec.Header.Get(FieldPayloadDigest) == "" && (rec.IsHTTP("response") || rec.IsHTTP("request")) {
		if i := headerEnd(rec.Block); i >= 0 && i < len(rec.Block) {
			if resp, err := rec.ParseResponse(Limits{}); err == nil && rec.IsHTTP("response") {
				rec.Header.Set(FieldPayloadDigest, SHA256(resp.Payload))
			} else {
				rec.Header.Set(FieldPayloadDigest, SHA256(rec.Block[i:]))
			}
		}
	}
	rec.Header.Set(FieldContentLength, strconv.Itoa(len(rec.Block)))
	return w.WriteRaw(rec)
}

// WriteRaw writes rec as it is, but for Content-Length, which it must
// have right. A field whose name or value cannot be written is an error.
func (w *Writer) WriteRaw(rec *Record) error {
	if rec.Version != V1_0 && rec.Version != V1_1 {
		return fmt.Errorf("warc: version %q", rec.Version)
	}
	if cl, err := strconv.ParseInt(rec.Header.Get(FieldContentLength), 10, 64); err != nil || cl != int64(len(rec.Block)) {
		return fmt.Errorf("warc: Content-Length %q for a block of %d bytes", rec.Header.Get(FieldContentLength), len(rec.Block))
	}
	for _, f := range rec.Header {
		if !validName(f.Name) || strings.ContainsAny(f.Value, "\r\n") || f.Value != strings.TrimSpace(f.Value) {
			return fmt.Errorf("warc: header field %q: %q cannot be written", f.Name, f.Value)
		}
	}
	out := w.w
	if w.gzip {
		if w.z == nil {
			w.z = gzip.NewWriter(w.w)
		} else {
			w.z.Reset(w.w)
		}
		out = w.z
	}
	bw := bufio.NewWriter(out)
	bw.WriteString(rec.Version + "\r\n")
	for _, f := range rec.Header {
		bw.WriteString(f.Name + ": " + f.Value + "\r\n")
	}
	bw.WriteString("\r\n")
	bw.Write(rec.Block)
	bw.WriteString("\r\n\r\n")
	if err := bw.Flush(); err != nil {
		return err
	}
	if w.gzip {
		return w.z.Close()
	}
	return nil
}

// WriteInfo writes a warcinfo record (application/warc-fields) with the
// given fields, e.g. software, format, conformsTo, and returns its ID.
func (w *Writer) WriteInfo(filename string, fields Header) (string, error) {
	var b strings.Builder
	for _, f := range fields {
		fmt.Fprintf(&b, "%s: %s\r\n", f.Name, f.Value)
	}
	rec := &Record{Header: Header{{FieldType, TypeWarcinfo}}, Block: []byte(b.String())}
	if filename != "" {
		rec.Header.Set("WARC-Filename", filename)
	}
	rec.Header.Set(FieldContentType, "application/warc-fields")
	if err := w.Write(rec); err != nil {
		return "", err
	}
	return rec.ID(), nil
}
