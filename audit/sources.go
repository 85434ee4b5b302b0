package audit

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// sources recomputes each content set's identifier from its source data
// (Options.Sources): an image set's and a PDF source's are the MD5 of the
// bytes; an HTML page set's is PageSetID, tried with each representation of
// the auxiliary identifiers (the specification does not fix one).
func (a *auditor) sources() {
	src := a.opts.Sources
	if src == nil {
		return
	}
	ok, checked := 0, 0
	for _, cs := range a.d.Sets {
		if cs.ID == nil {
			continue
		}
		if a.stopped() { // each set reads its source files
			return
		}
		checked++
		if a.after[cs.Ref] {
			a.add("WC-SOURCE-MISSING", cs.Ref, "/SI", "the set was written by an update after %s was put in the file: the archive does not vouch for it", a.sourcesName())
			continue
		}
		url, data, refused := a.fetch(src, cs)
		if data == nil {
			why := ""
			if refused != nil {
				why = ": " + refused.Error()
			}
			a.add("WC-SOURCE-MISSING", cs.Ref, "/SI", "none of the set's source URLs (%s) is among %s%s", strings.Join(cs.SourceURLs(), ", "), a.sourcesName(), why)
			continue
		}
		before := a.warnings()
		if a.compare(cs, url, data, src) {
			a.sha256s(cs, url, data, src)
		}
		if !a.warned(before) {
			ok++
		}
	}
	a.archiveDigests(src)
	a.verified(ok, checked)
}

// warned reports whether a warning or an error was found since there
// were before of them (warnings).
func (a *auditor) warned(before int) bool { return a.warnings() > before }

// archiveDigests reports the records of a WARC file given as sources whose
// digests do not verify (WC-SOURCE-DIGEST), each on the content set whose
// source URL it holds (the first), or on the file.
func (a *auditor) archiveDigests(src webcapture.AuxSource) {
	w, ok := src.(*warc.Source)
	if !ok {
		return
	}
	for _, p := range w.DigestProblems() {
		obj, key, what := webcapture.Ref{}, "", "no content set's source"
		if u, err := a.canon.String(p.TargetURI); err == nil {
			for _, cs := range a.d.Sets {
				if a.hasSource(w, cs, u) {
					obj, key, what = cs.Ref, "/SI", "this content set's source"
					break
				}
			}
		}
		a.add("WC-SOURCE-DIGEST", obj, key, "%s: the %s record %s for %s (%s) does not match its bytes: %v", a.sourcesName(), p.Type, p.RecordID, p.TargetURI, what, p.Err)
	}
}

// hasSource reports whether one of the set's source URLs is the canonical
// URL u, or leads to it in src (follow).
func (a *auditor) hasSource(src webcapture.AuxSource, cs *pdfio.ContentSet, u string) bool {
	for _, s := range cs.SourceURLs() {
		if k, err := a.canon.String(s); err == nil && (k == u || follow(src, k) == u) {
			return true
		}
	}
	return false
}

// where names the WARC record that holds the canonical URL key's bytes,
// when the sources are a WARC file: "" otherwise.
func (a *auditor) where(src webcapture.AuxSource, key string) string {
	w, ok := src.(*warc.Source)
	if !ok {
		return ""
	}
	r, ok := w.RecordOf(key)
	if !ok {
		return ""
	}
	var parts []string
	if r.ID != "" {
		parts = append(parts, "WARC record "+r.ID)
		if a.embed != nil {
			parts[len(parts)-1] += " of " + a.sourcesName()
		}
	}
	if r.PayloadDigest != "" {
		parts = append(parts, "WARC-Payload-Digest "+r.PayloadDigest)
	}
	if len(parts) == 0 {
		return ""
	}
	if r.ContentEncoding != "" {
		parts = append(parts, "of the entity as sent with Content-Encoding "+r.ContentEncoding+" (decoded here)")
	}
	return "; " + strings.Join(parts, ", ")
}

// sha256s checks each source information's /WCSHA256 (webcap's, where
// present and well formed) against the SHA-256 of its URL's bytes among
// the sources (webcapture.SHA256: the bytes the identifier rule hashes
// first). A URL the sources do not hold is not checked. It runs when the
// set's /ID was not found to differ from its source's (WC-SOURCE-MISMATCH
// already says the source changed): a SHA-256 that differs then is a
// wrong /WCSHA256, or other bytes with the same MD5.
func (a *auditor) sha256s(cs *pdfio.ContentSet, url string, data []byte, src webcapture.AuxSource) {
	for i, si := range cs.Sources {
		if si.SHA256 == nil || len(*si.SHA256) != sha256.Size {
			continue // absent, or WC-SI-SHA256
		}
		key, err := a.canon.String(si.URLs.URL)
		if err != nil {
			continue
		}
		b := data
		if key != url {
			if b = a.read(src, key); b == nil {
				continue
			}
		}
		if got := webcapture.SHA256(b); string(got[:]) != string(*si.SHA256) {
			obj := si.Ref
			if obj.IsZero() {
				obj = cs.Ref
			}
			a.add("WC-SOURCE-SHA256", obj, "/WCSHA256", "SI[%d] /WCSHA256 is %x, but the %d bytes of %s have the SHA-256 %x%s", i, []byte(*si.SHA256), len(b), key, got, a.where(src, key))
		}
	}
}

// fetch returns the data of the first of the set's source URLs that the
// sources hold, by canonical URL (the end of its redirect chain in a WARC
// file: follow); nil data when none, with the first refusal
// (webcapture.ErrRefused: a file outside the sources' directory) if any.
func (a *auditor) fetch(src webcapture.AuxSource, cs *pdfio.ContentSet) (string, []byte, error) {
	var refused error
	for _, u := range cs.SourceURLs() {
		key, err := a.canon.String(u)
		if err != nil {
			continue
		}
		key = follow(src, key)
		data, err := a.open(src, key)
		if data != nil {
			return key, data, nil
		}
		if refused == nil && errors.Is(err, webcapture.ErrRefused) {
			refused = err
		}
	}
	return "", nil, refused
}

// read returns the data the sources hold at the canonical URL key (at
// the end of its redirect chain: follow), or nil.
func (a *auditor) read(src webcapture.AuxSource, key string) []byte {
	data, _ := a.open(src, follow(src, key))
	return data
}

// follow returns where the canonical URL key leads in the sources: in a
// WARC file, the last URL of the redirect chain the archive holds for it
// (warc.Source.Chain: /old-news, answered 301 to /news, leads to /news,
// whose 200 response a set captured from /old-news was made from, as id
// --warc reads it); key itself in other sources, or when the archive
// answered it with no redirect.
func follow(src webcapture.AuxSource, key string) string {
	w, ok := src.(*warc.Source)
	if !ok {
		return key
	}
	chain := w.Chain(key)
	return chain[len(chain)-1]
}

// open is read with the reason the data is not there.
func (a *auditor) open(src webcapture.AuxSource, key string) ([]byte, error) {
	rc, err := src.Open(key)
	if err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(rc, 1<<30))
	rc.Close()
	if err != nil {
		return nil, err
	}
	if data == nil {
		data = []byte{} // an empty file is found
	}
	return data, nil
}

// compare recomputes the set's identifier from its source; false when it
// differs (WC-SOURCE-MISMATCH).
func (a *auditor) compare(cs *pdfio.ContentSet, url string, data []byte, src webcapture.AuxSource) bool {
	want := string(*cs.ID)
	opts := webcapture.SourceOptions{URL: url, Aux: src, Profile: a.opts.Profile}
	if cs.IsImageSet() {
		opts.Kind = webcapture.SourceImage
	} else if cs.ContentType != nil {
		opts.ContentType = *cs.ContentType // what the server declared, recorded
	}
	var incomplete *webcapture.PageSetResult
	forms := []webcapture.AuxEncoding{webcapture.AuxRaw, webcapture.AuxHexUpper, webcapture.AuxHexLower}
	var first webcapture.ID
	for i, enc := range forms {
		opts.AuxEncoding = enc
		s, err := webcapture.SourceID(data, opts)
		if err != nil {
			return true
		}
		if s.Page == nil {
			// An image, a PDF, another file: the MD5 of the bytes.
			if string(s.ID[:]) != want {
				a.add("WC-SOURCE-MISMATCH", cs.Ref, "/ID", "/ID is <%s>, but %s now has the identifier <%s> (MD5 of its %d bytes%s)", cs.ID.Hex(), url, s.ID, len(data), a.where(src, url))
				return false
			}
			return true
		}
		res := s.Page
		if i == 0 {
			first = res.ID
		}
		if !res.Complete {
			incomplete = res
			break
		}
		if string(res.ID[:]) == want {
			if enc != webcapture.AuxRaw {
				a.add("WC-SOURCE-FORM", cs.Ref, "/ID", "/ID matches %s when auxiliary identifiers are hashed as %s digits", url, enc)
			}
			return true
		}
		if len(res.Aux) == 0 {
			break // no auxiliary files: the forms cannot differ
		}
	}
	if incomplete != nil {
		n, refused := 0, ""
		for _, r := range incomplete.Aux {
			if !r.Found {
				n++
			}
			if r.Refused && refused == "" {
				refused = fmt.Sprintf(" (%s: %s)", r.URL, r.Err)
			}
		}
		a.add("WC-SOURCE-INCOMPLETE", cs.Ref, "/ID", "the identifier of %s cannot be recomputed: %d of %d auxiliary files are missing%s", url, n, len(incomplete.Aux), refused)
		return true
	}
	a.add("WC-SOURCE-MISMATCH", cs.Ref, "/ID", "/ID is <%s>, but %s now has the page-set identifier <%s> (with any form of its auxiliary identifiers%s)", cs.ID.Hex(), url, first, a.where(src, url))
	return false
}
