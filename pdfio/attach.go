package pdfio

import (
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/webcapture"
)

// Embedded files as document-level associated files (ISO 32000-2 §7.11.4,
// §14.13; PDF 1.7 §3.10.3): an /EmbeddedFile stream with /Params << /Size
// /CheckSum /ModDate >>, a file specification with /F, /UF, /Desc,
// /AFRelationship and /EF, listed in the catalog's /AF array and in its
// /Names /EmbeddedFiles tree. Decisions:
//
//   - the stream is written unfiltered: the file's bytes are in the PDF as
//     they are on disk (a .warc.gz stays gzip-compressed record by record,
//     and pdfdetach -save gives the same bytes back);
//   - the bytes are read from Attachment.Open while the update is written
//     (WriteTo), in 32 KiB pieces: an attachment of a gigabyte takes no
//     more memory than one of a kilobyte. They must be exactly Size bytes
//     with the MD5 given, or the write fails (the file changed since it
//     was measured);
//   - /AF and /Names /EmbeddedFiles keep every entry they had; a name the
//     tree already has gets " (2)", " (3)"... as its key (the file
//     specification keeps the name);
//   - /AFRelationship is PDF 2.0's (and PDF/A-3's), but the header version
//     is not raised to 2.0 (pdfcpu refuses /AF in a 2.0 file, and readers
//     of 1.7 ignore what they do not know): a file older than 1.7 gets a
//     catalog /Version of 1.7, embedded files' version.

// An Attachment is a file to embed (Update.Attach).
type Attachment struct {
	Name         string    // the file name: /F and /UF, and the /EmbeddedFiles key
	MediaType    string    // the MIME type: the stream's /Subtype ("application/warc")
	Relationship string    // /AFRelationship: Source, Data, Alternative, Supplement, EncryptedPayload, FormData, Schema or Unspecified ("" is Unspecified)
	Description  string    // /Desc; "" for none
	ModDate      time.Time // /Params /ModDate; zero for none
	Size         int64     // /Params /Size: the file's length
	MD5          [16]byte  // /Params /CheckSum
	// Open returns the file's bytes, read while the update is written:
	// exactly Size bytes whose MD5 is MD5.
	Open func() (io.ReadCloser, error)
}

// Relationships are the values of /AFRelationship (ISO 32000-2 Table 43).
var Relationships = []string{"Source", "Data", "Alternative", "Supplement", "EncryptedPayload", "FormData", "Schema", "Unspecified"}

// WARCMediaType is the media type of a WARC file (ISO 28500 Annex, IANA),
// compressed or not.
const WARCMediaType = "application/warc"

// FileAttachment makes an Attachment of the file at path: its base name,
// size, MD5 and modification time measured now (read once, in pieces), its
// bytes opened again when the update is written. mediaType and rel are
// the attachment's; the description is empty.
func FileAttachment(path, mediaType, rel string) (Attachment, error) {
	f, err := os.Open(path)
	if err != nil {
		return Attachment{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return Attachment{}, err
	}
	if !fi.Mode().IsRegular() {
		return Attachment{}, &os.PathError{Op: "attach", Path: path, Err: ErrNotRegular}
	}
	h := md5.New()
	n, err := io.Copy(h, f)
	if err != nil {
		return Attachment{}, err
	}
	a := Attachment{Name: filepath.Base(path), MediaType: mediaType, Relationship: rel,
		ModDate: fi.ModTime().UTC().Truncate(time.Second), Size: n,
		Open: func() (io.ReadCloser, error) { return os.Open(path) }}
	copy(a.MD5[:], h.Sum(nil))
	return a, nil
}

// WARCAttachment makes the Attachment of the WARC file at path, as
// --embed-warc embeds it: media type application/warc (a .warc.gz too: its
// records are gzip members of a WARC), relationship Source (the data the
// document's content was made from), described as the web archive of the
// capture.
func WARCAttachment(path string) (Attachment, error) {
	a, err := FileAttachment(path, WARCMediaType, "Source")
	if err != nil {
		return Attachment{}, err
	}
	a.Description = "Web archive (WARC) of the capture: every request and response"
	return a, nil
}

// attachedData is where an attachment's bytes go in the update: at offset
// at of the objects written (between "stream\n" and "\nendstream").
type attachedData struct {
	at int
	a  Attachment
}

// Attach embeds a file as a document-level associated file: its stream
// and file specification are written with the update, its bytes read from
// a.Open when the update is written (WriteTo, Bytes).
func (u *Update) Attach(a Attachment) error {
	if u.unwritable != nil {
		return u.unwritable
	}
	if err := checkAttachment(&a); err != nil {
		return &Error{File: u.name, Op: "update", Err: err}
	}
	stream := u.objs.reserve()
	params := types.Dict{"Size": types.Integer(a.Size), "CheckSum": hexString(string(a.MD5[:]))}
	if !a.ModDate.IsZero() {
		params["ModDate"] = literalString(a.ModDate.UTC().Format("D:20060102150405Z"))
	}
	sd := types.Dict{"Type": types.Name("EmbeddedFile"), "Params": params, "Length": types.Integer(a.Size)}
	if a.MediaType != "" {
		sd["Subtype"] = types.Name(a.MediaType) // written with its "/" as #2F
	}
	u.objs.putStream(stream, sd, a)
	ef := types.Dict{"F": *types.NewIndirectRef(stream, 0), "UF": *types.NewIndirectRef(stream, 0)}
	fs := types.Dict{"Type": types.Name("Filespec"), "F": textObject(a.Name), "UF": textObject(a.Name),
		"AFRelationship": types.Name(a.Relationship), "EF": ef}
	if a.Description != "" {
		fs["Desc"] = textObject(a.Description)
	}
	spec := u.add(fs)
	if err := u.listAttachment(a.Name, spec); err != nil {
		return &Error{File: u.name, Op: "update", Err: err}
	}
	return nil
}

// checkAttachment checks a and sets its defaults.
func checkAttachment(a *Attachment) error {
	switch {
	case a.Name == "":
		return errors.New("an attachment needs a name")
	case a.Size < 0:
		return fmt.Errorf("attachment %s: size %d", a.Name, a.Size)
	case a.Open == nil:
		return fmt.Errorf("attachment %s: no bytes (Open is nil)", a.Name)
	case strings.ContainsAny(a.MediaType, "\x00"):
		return fmt.Errorf("attachment %s: media type %q", a.Name, a.MediaType)
	}
	if a.Relationship == "" {
		a.Relationship = "Unspecified"
	}
	for _, r := range Relationships {
		if r == a.Relationship {
			return nil
		}
	}
	return fmt.Errorf("attachment %s: /AFRelationship %q is none of %s", a.Name, a.Relationship, strings.Join(Relationships, ", "))
}

// textObject is a text string object for s (PDFDocEncoding, or UTF-16BE).
func textObject(s string) types.Object {
	t := string(webcapture.EncodeText(s))
	if strings.IndexFunc(t, func(r rune) bool { return r < ' ' || r > '~' }) >= 0 {
		return hexString(t)
	}
	return literalString(t)
}

// listAttachment adds the file specification spec to the catalog's /AF
// (after what it holds) and to /Names /EmbeddedFiles under name (or name
// (2), ... when the tree has it), and makes the catalog's version at least
// 1.7.
func (u *Update) listAttachment(name string, spec types.IndirectRef) error {
	catObj, err := u.lookup(u.root())
	if err != nil {
		return err
	}
	cat, ok := catObj.(types.Dict)
	if !ok {
		return errors.New("the catalog is not a dictionary")
	}
	af, ok := u.catalogEdits["AF"].(types.Array)
	if !ok {
		if af, _, err = u.elements(cat["AF"]); err != nil {
			return fmt.Errorf("the catalog's /AF: %w", err)
		}
	}
	u.editCatalog("AF", append(af, spec))
	if u.files == nil {
		entries, err := u.treeEntries("EmbeddedFiles")
		if err != nil {
			return err
		}
		u.files = append([]treeEntry{}, entries...)
	}
	taken := make(map[string]bool, len(u.files))
	for _, e := range u.files {
		taken[e.Key] = true
	}
	key := name
	for i := 2; taken[key]; i++ {
		key = name + " (" + strconv.Itoa(i) + ")"
	}
	u.files = append(u.files, treeEntry{Key: key, Value: spec})
	if v := u.version(cat); v < 17 {
		u.editCatalog("Version", types.Name("1.7"))
	}
	return nil
}

// flushAttachments builds the /EmbeddedFiles tree over the entries the
// file had and those Attach added, once.
func (u *Update) flushAttachments() error {
	if u.files == nil {
		return nil
	}
	root, err := buildNameTree(u.files, TreeShape{}, u.alloc)
	if err != nil {
		return err
	}
	if u.names == nil {
		if err := u.loadNames(); err != nil {
			return err
		}
	}
	u.names["EmbeddedFiles"] = root
	u.files = nil
	return nil
}

// version is the file's version times ten (17 for 1.7): the header's, or
// the catalog's /Version when later (ISO 32000-1 §7.7.2).
func (u *Update) version(cat types.Dict) int {
	v := 0
	if h := u.ctx.HeaderVersion; h != nil {
		v = versionTimesTen(h.String())
	}
	if n, ok := cat["Version"].(types.Name); ok {
		v = max(v, versionTimesTen(string(n)))
	}
	return v
}

func versionTimesTen(s string) int {
	maj, min, ok := strings.Cut(s, ".")
	a, err1 := strconv.Atoi(maj)
	b, err2 := strconv.Atoi(min)
	if !ok || err1 != nil || err2 != nil || len(min) != 1 {
		return 0
	}
	return 10*a + b
}

// putStream writes the dictionary of stream object num, whose data (a's
// bytes, Size of them) is read when the update is written.
func (w *objectWriter) putStream(num int, d types.Dict, a Attachment) {
	w.offs = append(w.offs, objOffset{num: num, off: w.buf.Len()})
	b := w.buf.begin()
	appendRef(b, num, 0, " obj\n")
	if err := appendDict(b, d); err != nil && w.err == nil {
		w.err = err
	}
	b.WriteString("\nstream\n")
	w.buf.end()
	w.data = append(w.data, attachedData{at: w.buf.Len(), a: a})
	w.buf.Write([]byte("\nendstream\nendobj\n"))
}

// shift is how many attached bytes come before offset off of the
// objects written.
func (w *objectWriter) shift(off int) int64 {
	var n int64
	for _, d := range w.data {
		if d.at <= off {
			n += d.a.Size
		}
	}
	return n
}

// writeObjects writes the objects, with the attachments' bytes where they
// go.
func (w *objectWriter) writeObjects(out io.Writer, name string) error {
	last := 0
	for _, d := range w.data {
		if err := w.buf.writeRange(out, last, d.at); err != nil {
			return err
		}
		if err := copyAttachment(out, d.a); err != nil {
			return &Error{File: name, Op: "update", Err: err}
		}
		last = d.at
	}
	return w.buf.writeRange(out, last, w.buf.Len())
}

// copyAttachment copies a's bytes to out: exactly a.Size of them, with
// the MD5 a says.
func copyAttachment(out io.Writer, a Attachment) error {
	rc, err := a.Open()
	if err != nil {
		return fmt.Errorf("attachment %s: %w", a.Name, err)
	}
	defer rc.Close()
	h := md5.New()
	n, err := io.CopyN(io.MultiWriter(out, h), rc, a.Size)
	if errors.Is(err, io.EOF) {
		return fmt.Errorf("attachment %s: %d bytes, not the %d measured (the file changed)", a.Name, n, a.Size)
	}
	if err != nil {
		return fmt.Errorf("attachment %s: %w", a.Name, err)
	}
	var one [1]byte
	if k, _ := io.ReadFull(rc, one[:]); k > 0 {
		return fmt.Errorf("attachment %s: more than the %d bytes measured (the file changed)", a.Name, a.Size)
	}
	if string(h.Sum(nil)) != string(a.MD5[:]) {
		return fmt.Errorf("attachment %s: its bytes no longer have the MD5 measured (the file changed)", a.Name)
	}
	return nil
}

// countWriter counts what it writes, and keeps the first error.
type countWriter struct {
	w   io.Writer
	n   int64
	err error
}

func (c *countWriter) Write(p []byte) (int, error) {
	if c.err != nil {
		return 0, c.err
	}
	n, err := c.w.Write(p)
	c.n += int64(n)
	c.err = err
	return n, err
}
