package audit

import (
	"crypto/md5"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/warc"
	"github.com/webcap/webcap/webcapture"
)

// A file that carries its own web archive (webcap capture --warc
// --embed-warc: an embedded file with /AFRelationship /Source and the
// media type application/warc) is checked against it, with no
// Options.Sources: every content set's /ID (and /WCSHA256) is recomputed
// from the archive's records by the WC-SOURCE-* rules, and the archive's
// digests are verified. Where the archive is the file's own declared
// source, a set that disagrees with it is the file contradicting itself:
// WC-SOURCE-MISMATCH and WC-SOURCE-DIGEST, warnings against sources given
// from outside (which may have changed since), are the errors
// WC-EMBED-MISMATCH and WC-EMBED-DIGEST; a set whose source the archive
// lacks is WC-EMBED-MISSING. How many sets the archive verified is
// WC-EMBED-VERIFIED. Every embedded file's /Params /Size and /CheckSum
// are compared with its bytes (WC-EMBED-CHECKSUM).

// maxEmbedded bounds the bytes an embedded file is read to (decoded: a
// flate bomb stops there).
const maxEmbedded = 1 << 30

// embedRule is the rule of a finding against the embedded archive, for
// the WC-SOURCE-* rule it stands for.
var embedRule = map[string]string{
	"WC-SOURCE-MISMATCH": "WC-EMBED-MISMATCH",
	"WC-SOURCE-DIGEST":   "WC-EMBED-DIGEST",
	"WC-SOURCE-MISSING":  "WC-EMBED-MISSING",
}

// embedded checks every embedded file's checksum and, with no
// Options.Sources, makes the embedded web archives the sources: each file
// embedded with /AFRelationship /Source and the media type
// application/warc, read as one archive in /AF order (append and refresh
// --embed-warc add theirs after the capture's), so that a URL's last
// response wins. Archives of both kinds (gzip members, and not) cannot be
// read as one: then the last alone is read.
func (a *auditor) embedded() {
	checked := map[webcapture.Ref]bool{} // streams: many file specifications may share one
	for _, f := range a.d.Attachments {
		if a.stopped() {
			return
		}
		if !f.Stream.IsZero() && checked[f.Stream] {
			continue
		}
		checked[f.Stream] = true
		a.checksum(f)
	}
	if a.opts.Sources != nil {
		return
	}
	ws := EmbeddedWARCs(a.d)
	if len(ws) == 0 {
		return
	}
	var parts []part
	var names []string
	gzipped := false
	var total int64 // what the parts hold, within maxEmbedded
	for i, f := range ws {
		p, err := a.section(f, maxEmbedded-total)
		if err != nil {
			a.add("WC-EMBED-UNREADABLE", f.Stream, "", "the embedded WARC %s cannot be read: %v; no content set was checked against it", f.Name, err)
			return
		}
		var magic [2]byte
		n, _ := p.ReadAt(magic[:], 0)
		gz := n == 2 && magic[0] == 0x1f && magic[1] == 0x8b
		if i > 0 && gz != gzipped {
			parts, names = nil, nil // (the last alone)
		}
		gzipped = gz
		parts, names = append(parts, p), append(names, f.Name)
		total += p.size
	}
	last := ws[len(ws)-1]
	a.embedName = "the embedded WARC " + strings.Join(names, ", ")
	if len(names) > 1 {
		a.embedName = "the embedded WARCs " + strings.Join(names, ", ")
	}
	all := concat(parts)
	src, err := warc.LoadReaderAt(all, all.size, a.embedName, warc.Options{Profile: a.opts.Profile, Context: a.opts.Context})
	if err != nil {
		a.add("WC-EMBED-UNREADABLE", last.Stream, "", "%s cannot be read: %v; no content set was checked against it", a.embedName, withoutPrefix(err, a.embedName+": "))
		return
	}
	a.opts.Sources, a.embed = src, last
	a.after = map[webcapture.Ref]bool{}
	for _, r := range last.SetsAfter {
		a.after[r] = true
	}
}

// section returns the bytes of an embedded file as a part of the
// archive: its stream's bytes, or, for a filtered stream, its bytes
// decoded (within max: what the parts before left of maxEmbedded) into a
// temporary file, removed once the check is done (closeEmbedded). The
// archive's records are read from there when a set needs them: only
// where each is is held.
func (a *auditor) section(f *pdfio.AttachedFile, max int64) (part, error) {
	if ra, n, ok := f.Section(); ok {
		return part{ra, n}, nil
	}
	if err := a.tooLarge[f]; err != nil {
		return part{}, err
	}
	rc, err := f.Open(max)
	if err != nil {
		return part{}, err
	}
	defer rc.Close()
	tmp, err := os.CreateTemp("", "webcap-embedded-*.warc")
	if err != nil {
		return part{}, err
	}
	a.temps = append(a.temps, tmp)
	n, err := io.Copy(tmp, rc)
	if err != nil {
		return part{}, err
	}
	return part{tmp, n}, nil
}

// closeEmbedded removes the temporary files section made.
func (a *auditor) closeEmbedded() {
	for _, f := range a.temps {
		f.Close()
		os.Remove(f.Name())
	}
}

// A part is size bytes read with ReadAt.
type part struct {
	io.ReaderAt
	size int64
}

// concatenation is parts one after another, as one io.ReaderAt.
type concatenation struct {
	parts []part
	size  int64
}

func concat(parts []part) *concatenation {
	c := &concatenation{parts: parts}
	for _, p := range parts {
		c.size += p.size
	}
	return c
}

func (c *concatenation) ReadAt(b []byte, off int64) (int, error) {
	if len(b) == 0 {
		return 0, nil
	}
	n := 0
	for _, p := range c.parts {
		if off >= p.size {
			off -= p.size
			continue
		}
		for n < len(b) && off < p.size {
			want := b[n:min(len(b), n+int(p.size-off))]
			k, err := p.ReadAt(want, off)
			n, off = n+k, off+int64(k)
			if err != nil && !(errors.Is(err, io.EOF) && k == len(want)) {
				return n, err
			}
		}
		if n == len(b) {
			return n, nil
		}
		off = 0
	}
	return n, io.EOF
}

// Embedded reports whether findings checked the file's sets against its
// embedded web archive (a WC-EMBED-VERIFIED finding).
func Embedded(findings []Finding) bool {
	for _, f := range findings {
		if f.Rule == "WC-EMBED-VERIFIED" {
			return true
		}
	}
	return false
}

// EmbeddedWARCs returns the web archives d carries as its source: the
// embedded files with /AFRelationship /Source and the media type
// application/warc, in the order d.Attachments has them, each stream
// once. Read as one archive they hold at most maxEmbedded bytes: when
// they hold more, the last alone is returned.
func EmbeddedWARCs(d *pdfio.Document) []*pdfio.AttachedFile {
	var out []*pdfio.AttachedFile
	seen := map[webcapture.Ref]bool{}
	var size int64
	for _, f := range d.Attachments {
		if f.Relationship != "Source" || !strings.EqualFold(f.MediaType, pdfio.WARCMediaType) || (!f.Stream.IsZero() && seen[f.Stream]) {
			continue
		}
		seen[f.Stream] = true
		out = append(out, f)
		size += f.Length
	}
	if size > maxEmbedded && len(out) > 1 {
		out = out[len(out)-1:]
	}
	return out
}

// checksum compares an embedded file's /Params /Size and /CheckSum with
// its bytes, read once (bounded: maxEmbedded).
func (a *auditor) checksum(f *pdfio.AttachedFile) {
	if f.Size < 0 && f.CheckSum == nil {
		return // nothing declared
	}
	rc, err := f.Open(maxEmbedded)
	if err != nil {
		if errors.Is(err, limits.ErrLimit) {
			a.add("WC-LIMIT", f.Stream, "", "the embedded file %s is not checked: %v", f.Name, err)
		}
		return // a filter not decoded here: the file is not checked
	}
	defer rc.Close()
	h := md5.New()
	n, err := io.Copy(h, rc)
	switch {
	case errors.Is(err, limits.ErrLimit):
		a.add("WC-LIMIT", f.Stream, "/Params", "the embedded file %s decodes to more than %d bytes: its /Params are not checked", f.Name, int64(maxEmbedded))
		if a.tooLarge == nil {
			a.tooLarge = map[*pdfio.AttachedFile]error{}
		}
		a.tooLarge[f] = err // (not decoded again: section)
		return
	case err != nil:
		a.add("WC-EMBED-UNREADABLE", f.Stream, "", "the embedded file %s cannot be decoded: %v", f.Name, err)
		return
	}
	if f.Size >= 0 && f.Size != n {
		a.add("WC-EMBED-CHECKSUM", f.Stream, "/Params", "the embedded file %s: /Params /Size is %d, but its stream holds %d bytes", f.Name, f.Size, n)
	}
	if sum := h.Sum(nil); f.CheckSum != nil && string(f.CheckSum) != string(sum) {
		a.add("WC-EMBED-CHECKSUM", f.Stream, "/Params", "the embedded file %s: /Params /CheckSum is <%X>, but its %d bytes have the MD5 <%X>", f.Name, f.CheckSum, n, sum)
	}
}

// verified reports how many content sets the embedded archive verified
// (WC-EMBED-VERIFIED): of checked sets with an /ID, ok found no warning
// or error.
func (a *auditor) verified(ok, checked int) {
	if a.embed == nil {
		return
	}
	a.add("WC-EMBED-VERIFIED", a.embed.Stream, "", "%d of %d content sets verified against %s (%d records): their /ID (and /WCSHA256) recomputed from its responses alone", ok, checked, a.embedName, a.opts.Sources.(*warc.Source).Records)
}

// withoutPrefix is err's message without prefix.
func withoutPrefix(err error, prefix string) string {
	return strings.TrimPrefix(err.Error(), prefix)
}

// sourcesName is how a message names the sources: "the sources", or "the
// embedded WARC NAME".
func (a *auditor) sourcesName() string {
	if a.embed != nil {
		return a.embedName
	}
	return "the sources"
}
