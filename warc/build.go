package warc

import (
	"time"
)

// The record kinds a crawler writes, ready for Writer.Write, which fills
// in the digests and the length. Each has its WARC-Record-ID already, so
// that records can refer to each other before they are written. date is
// the time of the fetch (WARC-Date, UTC, seconds; now if zero).

// NewRequest returns a request record of an HTTP request message.
func NewRequest(uri string, date time.Time, httpMessage []byte) *Record {
	return newRecord(TypeRequest, uri, date, "application/http; msgtype=request", httpMessage)
}

// NewResponse returns a response record of an HTTP response message as
// it came over the wire (status line, header, body as sent).
func NewResponse(uri string, date time.Time, httpMessage []byte) *Record {
	return newRecord(TypeResponse, uri, date, "application/http; msgtype=response", httpMessage)
}

// NewResource returns a resource record: data that was not fetched over
// HTTP, such as the PDF made from a capture ("urn:pdf:" and its start URL,
// the ArchiveWeb.page convention).
func NewResource(uri string, date time.Time, contentType string, data []byte) *Record {
	return newRecord(TypeResource, uri, date, contentType, data)
}

// NewMetadata returns a metadata record (WARC/1.1 §6.6): what a crawler
// knows about another record, such as the TLS facts of a response's
// connection, tied to it by ConcurrentTo or WARC-Refers-To.
func NewMetadata(uri string, date time.Time, contentType string, data []byte) *Record {
	return newRecord(TypeMetadata, uri, date, contentType, data)
}

// NewRevisit returns a revisit record of profile identical-payload-digest
// (WARC/1.1 §6.7.2): a response whose payload equals that of the record
// orig (written, so that its payload digest is known), so only the HTTP
// header is kept.
func NewRevisit(uri string, date time.Time, httpHeader []byte, orig *Record) *Record {
	r := newRecord(TypeRevisit, uri, date, "application/http; msgtype=response", httpHeader)
	r.Header = append(r.Header,
		Field{"WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest"},
		Field{FieldRefersTo, orig.ID()},
		Field{"WARC-Refers-To-Target-URI", orig.TargetURI()},
		Field{"WARC-Refers-To-Date", orig.Header.Get(FieldDate)},
		Field{FieldPayloadDigest, orig.Header.Get(FieldPayloadDigest)})
	return r
}

// ConcurrentTo adds WARC-Concurrent-To: r was made in the same fetch as
// other (a request and its response).
func (r *Record) ConcurrentTo(other *Record) *Record {
	r.Header = append(r.Header, Field{FieldConcurrentTo, other.ID()})
	return r
}

func newRecord(typ, uri string, date time.Time, contentType string, block []byte) *Record {
	r := &Record{Version: V1_1, Header: Header{{FieldType, typ}, {FieldRecordID, NewRecordID()}, {FieldTargetURI, uri}}, Block: block}
	if !date.IsZero() {
		r.Header = append(r.Header, Field{FieldDate, date.UTC().Format(time.RFC3339)})
	}
	r.Header = append(r.Header, Field{FieldContentType, contentType})
	return r
}
