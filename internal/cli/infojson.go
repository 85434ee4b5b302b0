package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/webcapture"
)

// Why info --json is encoded by hand: a 20,000-set capture's report is
// 15 MB of JSON, and encoding/json spent more time on it (reflection,
// MarshalJSON results compacted again, a buffer per value: 217 ms, 65 MB
// and 1.1 million allocations per report, BenchmarkInfoJSON) than the
// reader spends parsing the objects of its object streams. The library
// options do not close that: go-json-experiment/json (v2 with
// v1.DefaultOptionsV1 and EscapeForHTML(false), byte-identical here)
// encoded the 20,000 content sets in 138 ms against encoding/json's 148 ms
// and the appenders' 39 ms (29 MB and 860,000 allocations against 0.9 MB
// and 79,000), since it still walks setJSON by reflection and calls the
// MarshalJSON methods. So the report's types (infoReport and those under
// it) stay the documented schema, and encoding/json stays the oracle: the
// appenders below write the bytes encoding/json writes for those types
// (no HTML escaping; U+2028 and U+2029 escaped; invalid UTF-8 in a plain
// string as \ufffd; floats as its floatEncoder), which
// TestInfoJSONStreamsTheReport checks on every sample, on generated
// captures of both flavours, on every real-world file and on odd strings
// and floats. The small, rare parts (a command's settings) still go
// through encoding/json; a command's posted data, which can be the one
// large value of a report, is written by writeLargeBytes straight from its
// decoded bytes. With it all, writing the report takes about 40 ms, 1.6 MB
// and 79,000 allocations.

// writeInfoJSON writes the same bytes as encoding infoReport whole, one
// content set at a time, so that a 20,000-set file never holds its report
// (or the encoded text) in memory at once.
func writeInfoJSON(w io.Writer, d *pdfio.Document) error {
	bw, buffered := w.(*bufio.Writer)
	if !buffered {
		bw = bufio.NewWriter(w)
	}
	b := make([]byte, 0, 64<<10)
	var err error
	b = append(b, `{"schema":`...)
	b = appendPlainString(b, schemaName("info"))
	b = append(b, `,"input":`...)
	b = appendPlainString(b, d.File)
	b = append(b, `,"version":`...)
	b = appendPlainString(b, d.Version)
	b = append(b, `,"encrypted":`...)
	b = strconv.AppendBool(b, d.Encrypted)
	b = append(b, `,"pages":`...)
	b = strconv.AppendInt(b, int64(len(d.Pages)), 10)
	b = append(b, `,"spiderInfo":`...)
	if d.Info == nil {
		b = append(b, "null"...)
	} else if b, err = appendSpiderInfoJSON(b, d.Info, bw); err != nil {
		return err
	}
	index := make(map[*pdfio.ContentSet]int, len(d.Sets))
	for i, cs := range d.Sets {
		index[cs] = i + 1
	}
	for _, t := range []struct {
		name string
		tree *pdfio.Tree
	}{{`,"ids":`, d.IDS}, {`,"urls":`, d.URLS}} {
		b = append(b, t.name...)
		if b, err = appendTreeJSON(b, t.tree, index, bw); err != nil {
			return err
		}
	}
	index = nil
	b = append(b, `,"contentSets":[`...)
	for i, cs := range d.Sets {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendSetJSON(b, d, cs, i+1)
		if b, err = flushed(b, bw); err != nil {
			return err
		}
	}
	b = append(b, `],"defects":[`...)
	for i, df := range d.Defects {
		if i > 0 {
			b = append(b, ',')
		}
		b = defectJSON{string(df.Kind), df.Path, df.Object.String(), df.Message}.appendJSON(b)
		if b, err = flushed(b, bw); err != nil {
			return err
		}
	}
	b = append(b, `],"counts":`...)
	b = counts(d).appendJSON(b)
	b = append(b, `,"pageZoom":[`...)
	n := 0
	for _, p := range d.Pages {
		if p.PZ == nil {
			continue
		}
		if n > 0 {
			b = append(b, ',')
		}
		n++
		if b, err = (pageZoomJSON{Page: p.Number, PZ: *p.PZ}).appendJSON(b); err != nil {
			return err
		}
		if b, err = flushed(b, bw); err != nil {
			return err
		}
	}
	b = append(b, `],"priorActions":[`...)
	for i, j := range newPriorActionsJSON(d) {
		if i > 0 {
			b = append(b, ',')
		}
		b = j.appendJSON(b)
	}
	b = append(b, ']')
	if b, err = appendEmbeddedFilesJSON(b, d); err != nil {
		return err
	}
	if b, err = appendSealsJSON(b, d); err != nil {
		return err
	}
	b = append(b, "}\n"...)
	if _, err = bw.Write(b); err != nil || buffered {
		return err // (the caller's buffer is the caller's to flush)
	}
	return bw.Flush()
}

// flushed hands b to w once it has grown past half its first capacity,
// and returns it emptied.
func flushed(b []byte, w *bufio.Writer) ([]byte, error) {
	if len(b) < 32<<10 {
		return b, nil
	}
	_, err := w.Write(b)
	return b[:0], err
}

// appendSpiderInfoJSON appends what newSpiderInfoJSON(info) encodes to, a
// command at a time, each command's posted data written from the decoded
// bytes through w (writeLargeBytes): one /P stream of 60 MiB is 63 MB of
// answer, which encoding/json held four times over (the string made of
// the bytes, MarshalJSON's result, its compacted copy, the encoder's
// buffer) on its way out.
func appendSpiderInfoJSON(b []byte, info *webcapture.Info, w *bufio.Writer) ([]byte, error) {
	b = append(b, `{"object":`...)
	b = appendRef(b, info.Ref)
	b = append(b, `,"version":`...)
	if v := spiderVersion(info); v == nil {
		b = append(b, "null"...)
	} else {
		b = appendPlainString(b, *v)
	}
	b = append(b, `,"commands":[`...)
	posted := map[webcapture.Ref]int{}
	for i, c := range info.Commands {
		if i > 0 {
			b = append(b, ',')
		}
		cj, post := newCommandJSON(c, i, posted)
		var err error
		if b, err = cj.appendJSON(b, post, w); err != nil {
			return b, err
		}
	}
	return append(b, "]}"...), nil
}

// appendJSON appends c as encoding/json writes it, with post (when not
// nil) as its postData.
func (c *commandJSON) appendJSON(b []byte, post []byte, w *bufio.Writer) ([]byte, error) {
	b = append(b, `{"object":`...)
	b = appendPlainString(b, c.Object)
	b = append(b, `,"url":`...)
	b = c.URL.appendJSON(b)
	b = append(b, `,"levels":`...)
	b = strconv.AppendInt(b, c.Levels, 10)
	b = append(b, `,"flags":[`...)
	for i, f := range c.Flags {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPlainString(b, f)
	}
	b = append(b, `],"flagBits":`...)
	b = strconv.AppendUint(b, uint64(c.FlagBits), 10)
	b = append(b, `,"method":`...)
	b = appendPlainString(b, c.Method)
	var err error
	if post != nil {
		b = append(b, `,"postData":`...)
		if b, err = writeLargeBytes(b, post, w, 16<<10); err != nil {
			return b, err
		}
	}
	if c.PostDataOf != nil {
		b = append(b, `,"postDataOf":`...)
		b = strconv.AppendInt(b, int64(*c.PostDataOf), 10)
	}
	if c.ContentType != nil {
		b = append(b, `,"contentType":`...)
		b = c.ContentType.appendJSON(b)
	}
	if c.Headers != nil {
		b = append(b, `,"headers":`...)
		b = c.Headers.appendJSON(b)
	}
	if c.Settings != nil { // (small, and rare: encoding/json)
		sb, err := marshal(c.Settings)
		if err != nil {
			return b, err
		}
		b = append(append(b, `,"settings":`...), sb...)
	}
	return flushed(append(b, '}'), w)
}

// writeLargeBytes appends what bytesJSON(p).appendJSON appends, chunk
// bytes of p at a time, handing b to w whenever it has grown (flushed):
// the one way a value of any size read from a file is written, from its
// bytes straight to the output. A chunk ends at the start of a rune, so
// that appendEscaped sees each rune whole (U+2028 and U+2029 are escaped).
func writeLargeBytes(b []byte, p []byte, w *bufio.Writer, chunk int) ([]byte, error) {
	valid := utf8.Valid(p)
	if valid {
		b = append(b, '"')
	} else {
		b = append(b, `{"hex":"`...)
	}
	var err error
	for len(p) > 0 {
		n := min(chunk, len(p))
		if valid {
			for n < len(p) && n > 0 && !utf8.RuneStart(p[n]) {
				n--
			}
			if n == 0 { // (a chunk shorter than the rune)
				_, n = utf8.DecodeRune(p)
			}
			b = appendEscaped(b, p[:n]) // (read in place: no copy)
		} else {
			b = appendUpperHex(b, p[:n])
		}
		p = p[n:]
		if b, err = flushed(b, w); err != nil {
			return b, err
		}
	}
	if valid {
		return append(b, '"'), nil
	}
	return append(b, `"}`...), nil
}

// newInfoReportHead is newInfoReport without the content sets: with
// newInfoReport, the oracle writeInfoJSON is held to.
func newInfoReportHead(d *pdfio.Document) *infoReport {
	rep := &infoReport{Schema: schemaName("info"), Input: d.File, Version: d.Version, Encrypted: d.Encrypted, Pages: len(d.Pages)}
	if d.Info != nil {
		rep.SpiderInfo = newSpiderInfoJSON(d.Info)
	}
	index := make(map[*pdfio.ContentSet]int, len(d.Sets))
	for i, cs := range d.Sets {
		index[cs] = i + 1
	}
	rep.IDS, rep.URLS = newTreeJSON(d.IDS, index), newTreeJSON(d.URLS, index)
	rep.Defects = []defectJSON{}
	for _, df := range d.Defects {
		rep.Defects = append(rep.Defects, defectJSON{string(df.Kind), df.Path, df.Object.String(), df.Message})
	}
	rep.Counts = counts(d)
	rep.PageZoom, rep.PriorActions = newZoomJSON(d), newPriorActionsJSON(d)
	rep.EmbeddedFiles = newEmbeddedFilesJSON(d)
	rep.Seals = newSealsJSON(d)
	return rep
}

// appendTreeJSON appends what newTreeJSON(t, index) encodes to, a key at a
// time.
func appendTreeJSON(b []byte, t *pdfio.Tree, index map[*pdfio.ContentSet]int, w *bufio.Writer) ([]byte, error) {
	if t == nil {
		return append(b, "null"...), nil
	}
	b = append(b, `{"object":`...)
	b = appendPlainString(b, t.Root.String())
	b = append(b, `,"entries":`...)
	b = strconv.AppendInt(b, int64(len(t.Entries)), 10)
	b = append(b, `,"nodes":`...)
	b = strconv.AppendInt(b, int64(t.Nodes), 10)
	b = append(b, `,"depth":`...)
	b = strconv.AppendInt(b, int64(t.Depth), 10)
	b = append(b, `,"keys":[`...)
	for i, e := range t.Entries {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"key":`...)
		if t.Name == "IDS" {
			b = appendHexID(b, e.Key)
		} else {
			b = urlJSON(e.Key).appendJSON(b)
		}
		b = append(b, `,"array":`...)
		b = strconv.AppendBool(b, e.Array)
		b = append(b, `,"sets":[`...)
		for k, cs := range e.Sets {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(index[cs]), 10)
		}
		b = append(b, "]}"...)
		var err error
		if b, err = flushed(b, w); err != nil {
			return b, err
		}
	}
	return append(b, "]}"...), nil
}

// appendHexID appends webcapture.RawID(key).Hex() as a JSON string: the
// key's bytes in upper-case hex (ASCII, no escaping needed).
func appendHexID(b []byte, key string) []byte {
	const digits = "0123456789ABCDEF"
	b = append(b, '"')
	for i := 0; i < len(key); i++ {
		b = append(b, digits[key[i]>>4], digits[key[i]&0xF])
	}
	return append(b, '"')
}

// appendSetJSON appends what newSetJSON(d, cs, i) encodes to, straight
// from the content set: no setJSON, hex strings or reference strings are
// made on the way.
func appendSetJSON(b []byte, d *pdfio.Document, cs *pdfio.ContentSet, i int) []byte {
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, `,"object":`...)
	b = appendRef(b, cs.Ref)
	b = append(b, `,"subtype":`...)
	b = bytesJSON(cs.Subtype).appendJSON(b)
	b = append(b, `,"id":`...)
	if cs.ID == nil {
		b = append(b, "null"...)
	} else {
		b = appendHexID(b, string(*cs.ID))
	}
	b = append(b, `,"idsKeys":[`...)
	for k, key := range cs.IDSKeys {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendHexID(b, key)
	}
	b = append(b, `],"urlsKeys":[`...)
	for k, key := range cs.URLSKeys {
		if k > 0 {
			b = append(b, ',')
		}
		b = urlJSON(key).appendJSON(b)
	}
	b = append(b, `],"orphan":`...)
	b = strconv.AppendBool(b, cs.Orphan)
	b = append(b, `,"sources":[`...)
	for k, si := range cs.Sources {
		if k > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"url":`...)
		b = urlJSON(si.URLs.URL).appendJSON(b)
		b = append(b, `,"alias":`...)
		b = strconv.AppendBool(b, si.URLs.Alias)
		if len(si.URLs.Chains) > 0 {
			b = append(b, `,"chains":[`...)
			for c, chain := range si.URLs.Chains {
				if c > 0 {
					b = append(b, ',')
				}
				b = append(b, '[')
				for u, url := range chain {
					if u > 0 {
						b = append(b, ',')
					}
					b = urlJSON(url).appendJSON(b)
				}
				b = append(b, ']')
			}
			b = append(b, ']')
		}
		if si.Updated != nil {
			b = append(b, `,"updated":`...)
			b = appendDateJSON(b, si.Updated)
		}
		if si.Expires != nil {
			b = append(b, `,"expires":`...)
			b = appendDateJSON(b, si.Expires)
		}
		b = append(b, `,"submission":`...)
		b = appendPlainString(b, si.SubmissionOrDefault().String())
		if si.Command != nil {
			b = append(b, `,"command":`...)
			b = appendPlainString(b, si.Command.String())
		}
		if si.SHA256 != nil && len(*si.SHA256) > 0 {
			b = append(b, `,"sha256":`...)
			b = appendPlainString(b, sha256Hex(*si.SHA256))
		}
		b = append(b, '}')
	}
	b = append(b, ']')
	if cs.ContentType != nil {
		b = append(b, `,"contentType":`...)
		b = bytesJSON(*cs.ContentType).appendJSON(b)
	}
	if cs.Created != nil {
		b = append(b, `,"created":`...)
		b = appendDateJSON(b, cs.Created)
	}
	if cs.Title != nil {
		b = append(b, `,"title":`...)
		v, _ := textJSON(*cs.Title).MarshalJSON() // one per set: not worth its own path
		b = append(b, v...)
	}
	if cs.TextID != nil {
		b = append(b, `,"tid":`...)
		b = appendHexID(b, string(*cs.TextID))
	}
	b = append(b, `,"objects":[`...)
	for k, o := range cs.Objects {
		if k > 0 {
			b = append(b, ',')
		}
		b = appendRef(b, o)
	}
	b = append(b, ']')
	if cs.IsPageSet() {
		if pages := d.PageNumbers(cs); len(pages) > 0 {
			b = append(b, `,"pages":[`...)
			for k, p := range pages {
				if k > 0 {
					b = append(b, ',')
				}
				b = strconv.AppendInt(b, int64(p), 10)
			}
			b = append(b, ']')
		}
	}
	if len(cs.RefCounts) > 0 {
		b = append(b, `,"refCounts":[`...)
		for k, c := range cs.RefCounts {
			if k > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, c, 10)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

// appendRef appends webcapture.Ref.String as a JSON string.
func appendRef(b []byte, r webcapture.Ref) []byte {
	if r.IsZero() {
		return append(b, `"direct"`...)
	}
	b = append(b, '"')
	b = strconv.AppendInt(b, int64(r.Num), 10)
	b = append(b, ' ')
	b = strconv.AppendInt(b, int64(r.Gen), 10)
	return append(b, ` R"`...)
}

// appendDateJSON appends what newDateJSON(d) encodes to.
func appendDateJSON(b []byte, d *webcapture.Date) []byte {
	b = append(b, `{"raw":`...)
	b = bytesJSON(d.Raw).appendJSON(b)
	if d.Valid {
		b = append(b, `,"time":"`...)
		b = d.Time.AppendFormat(b, time.RFC3339) // digits, '-', ':', 'T', 'Z', '+': nothing to escape
		b = append(b, '"')
	}
	b = append(b, `,"valid":`...)
	b = strconv.AppendBool(b, d.Valid)
	return append(b, '}')
}

func (d defectJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"kind":`...)
	b = appendPlainString(b, d.Kind)
	b = append(b, `,"path":`...)
	b = appendPlainString(b, d.Path)
	b = append(b, `,"object":`...)
	b = appendPlainString(b, d.Object)
	b = append(b, `,"message":`...)
	b = appendPlainString(b, d.Message)
	return append(b, '}')
}

func (c countsJSON) appendJSON(b []byte) []byte {
	for _, f := range []struct {
		name string
		n    int
	}{{`{"contentSets":`, c.ContentSets}, {`,"pageSets":`, c.PageSets}, {`,"imageSets":`, c.ImageSets},
		{`,"orphans":`, c.Orphans}, {`,"pages":`, c.Pages}, {`,"pagesWithID":`, c.PagesWithID},
		{`,"images":`, c.Images}, {`,"imagesWithID":`, c.ImagesWithID}, {`,"defects":`, c.Defects}} {
		b = append(b, f.name...)
		b = strconv.AppendInt(b, int64(f.n), 10)
	}
	return append(b, '}')
}

func (z pageZoomJSON) appendJSON(b []byte) ([]byte, error) {
	b = append(b, `{"page":`...)
	b = strconv.AppendInt(b, int64(z.Page), 10)
	b = append(b, `,"pz":`...)
	b, err := appendFloat(b, z.PZ)
	return append(b, '}'), err
}

func (a priorActionJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"page":`...)
	b = strconv.AppendInt(b, int64(a.Page), 10)
	b = append(b, `,"annot":`...)
	b = appendPlainString(b, a.Annot)
	b = append(b, `,"kind":`...)
	b = appendPlainString(b, a.Kind)
	if a.Action != "" {
		b = append(b, `,"action":`...)
		b = appendPlainString(b, a.Action)
	}
	if a.URI != nil {
		b = append(b, `,"uri":`...)
		b = a.URI.appendJSON(b)
	}
	return append(b, '}')
}

func (s bytesJSON) appendJSON(b []byte) []byte {
	if utf8.ValidString(string(s)) {
		return appendJSONString(b, string(s))
	}
	return appendHexJSON(b, string(s))
}

// appendPlainString quotes a Go string as encoding/json does without HTML
// escaping: as appendJSONString, with each byte of invalid UTF-8 replaced
// by \ufffd.
func appendPlainString(b []byte, s string) []byte {
	if utf8.ValidString(s) {
		return appendJSONString(b, s)
	}
	b = append(b, '"')
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, `\ufffd`...)
		} else {
			b = appendEscaped(b, s[i:i+n])
		}
		i += n
	}
	return append(b, '"')
}

// appendFloat writes a float64 as encoding/json's floatEncoder does: the
// shortest decimal that reads back exactly, in exponent form only below
// 1e-6 or from 1e21 on, with the exponent's leading zero dropped (1e-7,
// not 1e-07). NaN and infinities are its error.
func appendFloat(b []byte, f float64) ([]byte, error) {
	if math.IsInf(f, 0) || math.IsNaN(f) {
		_, err := json.Marshal(f)
		return b, err
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}

// writeLine writes v as JSON on a line of its own: an object of a stream.
func writeLine(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	return enc.Encode(v)
}

// marshal is json.Marshal without HTML escaping, as the encoders use.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil // without Encode's newline
}
