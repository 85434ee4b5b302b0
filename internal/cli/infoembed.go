package cli

import (
	"encoding/hex"

	"github.com/webcap/webcap/pdfio"
)

// info's embedded files: what the catalog's /AF and /Names /EmbeddedFiles
// list (webcap capture --embed-warc puts the WARC there).

// embeddedFileJSON is one embedded file in info --json.
type embeddedFileJSON struct {
	Name         string   `json:"name"`                       // /UF, else /F
	Key          string   `json:"key,omitempty"`              // its /Names /EmbeddedFiles key, when listed there
	Relationship string   `json:"relationship,omitempty"`     // /AFRelationship: Source, Data, ...
	MediaType    string   `json:"mediaType,omitempty"`        // the stream's /Subtype
	Size         *int64   `json:"size" jsonschema:"nullable"` // /Params /Size, as declared; null when absent
	MD5          string   `json:"md5,omitempty"`              // /Params /CheckSum, lower-case hex, as declared
	ModDate      string   `json:"modDate,omitempty"`          // /Params /ModDate, RFC 3339 when it parses
	Object       string   `json:"object"`                     // the embedded file stream, "12 0 R"
	InAF         bool     `json:"inAF"`                       // the catalog's /AF lists it (an associated file)
	Filters      []string `json:"filters"`                    // the stream's /Filter, [] for none
}

func newEmbeddedFilesJSON(d *pdfio.Document) []embeddedFileJSON {
	out := []embeddedFileJSON{}
	for _, f := range d.Attachments {
		j := embeddedFileJSON{Name: f.Name, Key: f.Key, Relationship: f.Relationship, MediaType: f.MediaType,
			MD5: hex.EncodeToString(f.CheckSum), Object: f.Stream.String(), InAF: f.InAF, Filters: append([]string{}, f.Filters...)}
		if f.Size >= 0 {
			j.Size = &f.Size
		}
		if f.ModDate != nil {
			j.ModDate = f.ModDate.String()
		}
		out = append(out, j)
	}
	return out
}

// appendEmbeddedFilesJSON appends ,"embeddedFiles":[...] to b.
func appendEmbeddedFilesJSON(b []byte, d *pdfio.Document) ([]byte, error) {
	j, err := marshal(newEmbeddedFilesJSON(d))
	if err != nil {
		return b, err
	}
	return append(append(b, `,"embeddedFiles":`...), j...), nil
}

// writeEmbeddedFiles writes info's lines about the embedded files.
func writeEmbeddedFiles(p *printer, d *pdfio.Document) {
	if len(d.Attachments) == 0 {
		return
	}
	p.f("\nembedded files: %d\n", len(d.Attachments))
	for _, j := range newEmbeddedFilesJSON(d) {
		size := "size not declared"
		if j.Size != nil {
			size = plural(int(*j.Size), "byte")
		}
		rel := j.Relationship
		if rel == "" {
			rel = "no /AFRelationship"
		}
		media := j.MediaType
		if media == "" {
			media = "no media type"
		}
		af := ""
		if j.InAF {
			af = ", associated (/AF)"
		}
		p.f("  %s (%s): %s, %s, %s%s\n", displayInput(j.Name), j.Object, size, media, rel, af)
	}
}
