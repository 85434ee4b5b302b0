package warc

import "fmt"

// A Problem is a record of a Source whose WARC-Block-Digest or
// WARC-Payload-Digest does not verify (VerifyDigests): the archive
// contradicts itself there, and its content cannot vouch for anything.
type Problem struct {
	RecordID  string // WARC-Record-ID, as written (<urn:uuid:…>)
	Type      string // WARC-Type
	TargetURI string // WARC-Target-URI, as written
	Err       error  // wraps ErrDigest
}

func (p Problem) String() string {
	return fmt.Sprintf("%s record %s %s: %v", p.Type, p.RecordID, p.TargetURI, p.Err)
}

// DigestProblems returns the records whose digests did not verify when the
// Source was loaded, in the order of the file. Their responses are served
// all the same (Open): a caller that trusts the archive should say so.
func (s *Source) DigestProblems() []Problem {
	return append([]Problem(nil), s.digests...)
}

// RecordInfo names the response record that holds a URL's content, so that
// a digest computed over the content can be tied to the archive.
type RecordInfo struct {
	ID            string // WARC-Record-ID of the response (a revisit's: its original's)
	PayloadDigest string // WARC-Payload-Digest as written; "" if none
	// ContentEncoding is the response's Content-Encoding ("" for
	// identity). When it is not "", the payload digest covers the encoded
	// entity, and the content (what Open serves, what an identifier and a
	// /WCSHA256 cover) is its decoding: the same bytes, as sent and as
	// saved.
	ContentEncoding string
}

func recordInfo(rec *Record, resp *HTTPResponse) RecordInfo {
	enc := resp.Header.Get("Content-Encoding")
	if enc == "identity" {
		enc = ""
	}
	return RecordInfo{ID: rec.ID(), PayloadDigest: rec.Header.Get(FieldPayloadDigest), ContentEncoding: enc}
}

// RecordOf returns the response record whose content Open serves for the
// canonical URL u (no redirect followed), if the archive has one.
func (s *Source) RecordOf(u string) (RecordInfo, bool) {
	e, ok := s.content[u]
	return e.rec, ok
}
