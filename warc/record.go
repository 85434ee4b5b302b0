package warc

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// Record types (WARC/1.1 §6).
const (
	TypeWarcinfo     = "warcinfo"
	TypeResponse     = "response"
	TypeResource     = "resource"
	TypeRequest      = "request"
	TypeMetadata     = "metadata"
	TypeRevisit      = "revisit"
	TypeConversion   = "conversion"
	TypeContinuation = "continuation"
)

// Field names this package reads or writes.
const (
	FieldType          = "WARC-Type"
	FieldRecordID      = "WARC-Record-ID"
	FieldDate          = "WARC-Date"
	FieldTargetURI     = "WARC-Target-URI"
	FieldContentType   = "Content-Type"
	FieldContentLength = "Content-Length"
	FieldBlockDigest   = "WARC-Block-Digest"
	FieldPayloadDigest = "WARC-Payload-Digest"
	FieldConcurrentTo  = "WARC-Concurrent-To"
	FieldRefersTo      = "WARC-Refers-To"
	FieldWarcinfoID    = "WARC-Warcinfo-ID"
)

// Version strings.
const (
	V1_0 = "WARC/1.0"
	V1_1 = "WARC/1.1"
)

// A Field is one named field of a record's header.
type Field struct {
	Name, Value string
}

// Header is a record's header fields, in order. Names compare without
// regard to case.
type Header []Field

// Get returns the value of the first field named name, or "".
func (h Header) Get(name string) string {
	for _, f := range h {
		if strings.EqualFold(f.Name, name) {
			return f.Value
		}
	}
	return ""
}

// Set replaces the first field named name, or appends one.
func (h *Header) Set(name, value string) {
	for i, f := range *h {
		if strings.EqualFold(f.Name, name) {
			(*h)[i].Value = value
			return
		}
	}
	*h = append(*h, Field{name, value})
}

// A Record is one WARC record: its version line, its header and its block.
type Record struct {
	Version string // "WARC/1.0" or "WARC/1.1"
	Header  Header
	Block   []byte
}

// Type returns WARC-Type.
func (r *Record) Type() string { return r.Header.Get(FieldType) }

// ID returns WARC-Record-ID.
func (r *Record) ID() string { return r.Header.Get(FieldRecordID) }

// TargetURI returns WARC-Target-URI, without the angle brackets WARC/1.0
// examples (and some tools) put around it.
func (r *Record) TargetURI() string {
	u := r.Header.Get(FieldTargetURI)
	if len(u) >= 2 && u[0] == '<' && u[len(u)-1] == '>' {
		u = u[1 : len(u)-1]
	}
	return u
}

// Date returns WARC-Date (W3C-ISO8601 in UTC, seconds or finer).
func (r *Record) Date() (time.Time, error) {
	d := r.Header.Get(FieldDate)
	t, err := time.Parse(time.RFC3339Nano, d)
	if err != nil {
		return time.Time{}, fmt.Errorf("WARC-Date %q: %w", d, errors.Unwrap(err))
	}
	return t, nil
}

// IsHTTP reports whether the block is an HTTP message of msgtype (request
// or response): Content-Type application/http, with msgtype=... when given.
func (r *Record) IsHTTP(msgtype string) bool {
	ct := strings.ToLower(r.Header.Get(FieldContentType))
	mt, params, _ := strings.Cut(ct, ";")
	if strings.TrimSpace(mt) != "application/http" {
		return false
	}
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if k == "msgtype" {
			return strings.Trim(v, `"`) == msgtype
		}
	}
	return true
}
