// Package warc reads and writes WARC files (ISO 28500; WARC/1.0 and
// WARC/1.1): records, one gzip member per record or an uncompressed file,
// and the HTTP messages in response and request records, and it serves an
// archive's responses by canonical URL as a webcapture.AuxSource (Source),
// so that the Web Capture identifiers of a PDF can be recomputed from the
// bytes a crawler archived.
//
// # Why our own reader
//
// The Go WARC modules were considered, and this package's reader and
// writer kept (decided for issue 28). Two modules are refused by the
// module proxy this project builds with: "go list -m -versions
// github.com/internetarchive/gowarc" and "… github.com/slyrz/warc" answer
// "403 Forbidden, server response: This module version is not available".
// github.com/nlnwa/gowarc v3.1.0 and github.com/CorentinB/warc v0.8.33
// were measured against this package on the same inputs (figures as
// measured for issue 28). gowarc runs out of memory on a 200 MB header
// line; it spools a 4 GiB record to the temporary directory before the
// caller sees its length; it takes over 60 s on a header field repeated
// 25,000 times (its validation is quadratic); it silently reads a
// whole-file gzip member as one record; and it decodes no chunked or gzip
// payload. Its speed equals this package's (0.96–1.13× the CPU time).
// None of this can be wrapped from outside: the bounds must hold while
// the record is read, not after. So this package stays, with its own
// limits on hostile input (Limits), and no further modules. It is checked
// against independent implementations, not against itself only: WARCs
// written by GNU wget --warc-file (and --warc-dedup) read back record for
// record, and WARCs this package writes are read by node-warc (see the
// tests).
//
// # Records
//
// Reader reads records in order. A file that starts with the gzip magic
// bytes is read as a series of gzip members (one per record, as the
// specification recommends; a member holding several records is read too);
// any other file as uncompressed records. Header field names compare
// without regard to case, a continuation line (starting with a space or a
// tab) continues the previous field's value, and a block is exactly
// Content-Length bytes, followed by two CRLFs. Every read is bounded
// (Limits): the header's size (64 KiB), a block's size (256 MiB), the
// blank lines between records (64 KiB), an HTTP header in a block (1 MiB,
// before net/http parses it), the number of gzip members and records
// (2^20 each), and the size of a decoded HTTP payload or content (256
// MiB). Hostile input is an error wrapping ErrFormat that names the record
// and where it starts, never a panic.
//
// A record is read as a stream (NextHeader, then Read): its block is never
// held whole unless the caller asks (Next). A Source (LoadFile) reads the
// file once, checks each record's digests and decodes each response's
// content as it streams past, and keeps only where each response starts
// (a gzip member's offset, and the bytes into it when a member holds
// several records): Open reads it again from there, as a stream. So the
// memory a WARC file takes is its index, whatever its records' sizes;
// Options bound the rest like any input's: the file's size, and a context
// (a deadline, a memory ceiling) that stops the reading.
//
// # Payloads and the bytes an identifier covers
//
// A response record of type application/http; msgtype=response holds the
// HTTP response as it came over the wire. Its payload (Payload) is the
// entity body with the transfer coding removed (chunked): that is what a
// WARC-Payload-Digest covers. Its content (HTTPResponse.Content) is the
// payload with the content coding removed as well (Content-Encoding gzip,
// x-gzip, deflate; identity), the file a browser saves and the bytes
// webcap's capture reads (Go's HTTP client removes a gzip coding): a Web
// Capture identifier is computed over the content, here in one function,
// Content. A revisit record's block may stop after the HTTP header (wget
// --warc-dedup writes them so): its header still says how the original's
// body came (Transfer-Encoding: chunked, a Content-Length), no body is
// decoded from it, and it stands for its original (WARC-Refers-To, else
// the same WARC-Payload-Digest) in a Source. A digest is verified when present (VerifyDigests): sha1 and
// sha256, in base32 or hex; a payload digest may cover the payload or the
// body as sent (tools differ for chunked bodies), and either is accepted.
//
// # Writing
//
// Writer writes one record per gzip member (or uncompressed), and fills in
// what a record lacks: WARC-Record-ID (urn:uuid, random), WARC-Date,
// Content-Length, WARC-Block-Digest and, for HTTP messages, a
// WARC-Payload-Digest, as sha256: in lower-case hex. NewRequest,
// NewResponse, NewResource, NewRevisit (identical-payload-digest) and
// NewMetadata make the records a crawler writes, each with its record ID already, and
// ConcurrentTo ties a request to its response; WriteInfo writes warcinfo.
package warc
