package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/webcap/webcap/pdfio"
)

// Why info --json is encoded by hand: a 20,000-set capture's report is
// 15 MB of JSON, and encoding/json spent more time on it (reflection,
// MarshalJSON results compacted again, a buffer per value: 217 ms and 1.1
// million allocations per report, BenchmarkInfoJSON) than the reader's
// walk over the file. The report's types (infoReport and those under it)
// stay the documented schema, and encoding/json stays the oracle: the
// appenders below write the bytes encoding/json writes for those types
// (no HTML escaping; U+2028 and U+2029 escaped; invalid UTF-8 in a plain
// string as \ufffd; floats as its floatEncoder), which
// TestInfoJSONStreamsTheReport checks on every sample and real-world file.
// The small, rare parts (spiderInfo) still go through encoding/json.

// writeInfoJSON writes the same bytes as encoding infoReport whole, one
// content set at a time, so that a 20,000-set file never holds its report
// (or the encoded text) in memory at once.
func writeInfoJSON(w io.Writer, d *pdfio.Document) error {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriter(w)
		defer bw.Flush()
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
	} else {
		sb, err := marshal(newSpiderInfoJSON(d.Info))
		if err != nil {
			return err
		}
		b = append(b, sb...)
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
		b = newSetJSON(d, cs, i+1).appendJSON(b)
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
	b = append(b, "]}\n"...)
	_, err = bw.Write(b)
	return err
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
			b = bytesJSON(e.Key).appendJSON(b)
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

func (j setJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"index":`...)
	b = strconv.AppendInt(b, int64(j.Index), 10)
	b = append(b, `,"object":`...)
	b = appendPlainString(b, j.Object)
	b = append(b, `,"subtype":`...)
	b = j.Subtype.appendJSON(b)
	b = append(b, `,"id":`...)
	b = appendOptString(b, j.ID)
	b = append(b, `,"idsKeys":`...)
	b = appendStrings(b, j.IDSKeys)
	b = append(b, `,"urlsKeys":`...)
	b = appendBytesList(b, j.URLSKeys)
	b = append(b, `,"orphan":`...)
	b = strconv.AppendBool(b, j.Orphan)
	b = append(b, `,"sources":`...)
	if j.Sources == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		for i, s := range j.Sources {
			if i > 0 {
				b = append(b, ',')
			}
			b = s.appendJSON(b)
		}
		b = append(b, ']')
	}
	if j.ContentType != nil {
		b = append(b, `,"contentType":`...)
		b = j.ContentType.appendJSON(b)
	}
	if j.Created != nil {
		b = append(b, `,"created":`...)
		b = j.Created.appendJSON(b)
	}
	if j.Title != nil {
		b = append(b, `,"title":`...)
		b = j.Title.appendJSON(b)
	}
	if j.TID != nil {
		b = append(b, `,"tid":`...)
		b = appendPlainString(b, *j.TID)
	}
	b = append(b, `,"objects":`...)
	b = appendStrings(b, j.Objects)
	if len(j.Pages) > 0 {
		b = append(b, `,"pages":[`...)
		for i, p := range j.Pages {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, int64(p), 10)
		}
		b = append(b, ']')
	}
	if len(j.RefCounts) > 0 {
		b = append(b, `,"refCounts":[`...)
		for i, c := range j.RefCounts {
			if i > 0 {
				b = append(b, ',')
			}
			b = strconv.AppendInt(b, c, 10)
		}
		b = append(b, ']')
	}
	return append(b, '}')
}

func (s sourceJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"url":`...)
	b = s.URL.appendJSON(b)
	b = append(b, `,"alias":`...)
	b = strconv.AppendBool(b, s.Alias)
	if len(s.Chains) > 0 {
		b = append(b, `,"chains":[`...)
		for i, c := range s.Chains {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendBytesList(b, c)
		}
		b = append(b, ']')
	}
	if s.Updated != nil {
		b = append(b, `,"updated":`...)
		b = s.Updated.appendJSON(b)
	}
	if s.Expires != nil {
		b = append(b, `,"expires":`...)
		b = s.Expires.appendJSON(b)
	}
	b = append(b, `,"submission":`...)
	b = appendPlainString(b, s.Submission)
	if s.Command != "" {
		b = append(b, `,"command":`...)
		b = appendPlainString(b, s.Command)
	}
	if s.SHA256 != "" {
		b = append(b, `,"sha256":`...)
		b = appendPlainString(b, s.SHA256)
	}
	return append(b, '}')
}

func (d *dateJSON) appendJSON(b []byte) []byte {
	b = append(b, `{"raw":`...)
	b = d.Raw.appendJSON(b)
	if d.Time != "" {
		b = append(b, `,"time":`...)
		b = appendPlainString(b, d.Time)
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

func (t *textJSON) appendJSON(b []byte) []byte {
	v, _ := t.MarshalJSON() // a title: one per set, not worth its own path
	return append(b, v...)
}

func appendOptString(b []byte, s *string) []byte {
	if s == nil {
		return append(b, "null"...)
	}
	return appendPlainString(b, *s)
}

func appendStrings(b []byte, ss []string) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendPlainString(b, s)
	}
	return append(b, ']')
}

func appendBytesList(b []byte, ss []bytesJSON) []byte {
	if ss == nil {
		return append(b, "null"...)
	}
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = s.appendJSON(b)
	}
	return append(b, ']')
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
