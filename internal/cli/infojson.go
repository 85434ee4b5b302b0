package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/webcap/webcap/pdfio"
)

// writeInfoJSON writes the same bytes as encoding infoReport whole, but one
// content set at a time, so that a 20,000-set file never holds its report
// (or the encoded text) in memory at once.
func writeInfoJSON(w io.Writer, d *pdfio.Document) error {
	bw, ok := w.(*bufio.Writer)
	if !ok {
		bw = bufio.NewWriter(w)
		defer bw.Flush()
	}
	head := newInfoReportHead(d)
	b, err := marshal(head)
	if err != nil {
		return err
	}
	// The head ends with `"contentSets":null,"defects":[...],"counts":{...}}`:
	// write everything before contentSets, then the sets, then the rest.
	cut := bytes.Index(b, []byte(`"contentSets":null`))
	bw.Write(b[:cut])
	bw.WriteString(`"contentSets":[`)
	for i, cs := range d.Sets {
		if i > 0 {
			bw.WriteByte(',')
		}
		sb, err := marshal(newSetJSON(d, cs, i+1))
		if err != nil {
			return err
		}
		bw.Write(sb)
	}
	bw.WriteByte(']')
	bw.Write(b[cut+len(`"contentSets":null`):])
	_, err = bw.WriteString("\n")
	return err
}

// newInfoReportHead is newInfoReport without the content sets.
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
