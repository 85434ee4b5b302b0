package pdfio

import (
	"bytes"
	"compress/zlib"
	"errors"
	"fmt"
	"io"
	"strconv"

	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/types"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/webcapture"
)

// An AttachedFile is an embedded file of the document (attach.go): a file
// specification the catalog's /AF array or its /Names /EmbeddedFiles tree
// lists, with the /EF stream it holds.
type AttachedFile struct {
	Key          string         // its /Names /EmbeddedFiles key; "" when the tree does not list it
	Name         string         // UF, else F: the file name
	Description  string         // Desc
	Relationship string         // AFRelationship (name); "" when absent
	MediaType    string         // the stream's /Subtype, decoded ("application/warc"); "" when absent
	Spec         webcapture.Ref // the file specification; zero when direct
	Stream       webcapture.Ref // the embedded file stream (/EF /UF, else /F); zero when none
	InAF         bool           // the catalog's /AF lists it
	Size         int64          // Params /Size; -1 when absent or not an integer
	CheckSum     []byte         // Params /CheckSum (an MD5, 16 bytes); nil when absent
	ModDate      *webcapture.Date
	Filters      []string // the stream's /Filter names, in order
	Length       int64    // the stream's bytes as the file holds them (encoded)
	Problem      string   // why the stream cannot be read ("" when it can)
	// SetsAfter are the content sets whose objects come after the
	// stream's in the file (its object stream's, for an object in one): a
	// later update wrote them, after the file was embedded.
	SetsAfter []webcapture.Ref

	raw    []byte
	params bool // the stream's /DecodeParms are not empty
}

// maxAttachments bounds the embedded files read: the /AF array and the
// /EmbeddedFiles tree's entries.
const maxAttachments = 10000

// Open returns a reader of the file's bytes, decoded: the stream's bytes as
// they are when it has no filter (a view of the file, no copy), inflated
// when it has /FlateDecode alone. Reading more than max decoded bytes
// fails with a *limits.SizeError (a flate bomb stops at max); other
// filters are not decoded (an error).
func (f *AttachedFile) Open(max int64) (io.ReadCloser, error) {
	switch {
	case f.Problem != "":
		return nil, errors.New(f.Problem)
	case len(f.Filters) == 0:
		if int64(len(f.raw)) > max {
			return nil, &limits.SizeError{Size: int64(len(f.raw)), Max: max}
		}
		return io.NopCloser(bytes.NewReader(f.raw)), nil
	case len(f.Filters) == 1 && (f.Filters[0] == "FlateDecode" || f.Filters[0] == "Fl") && !f.params:
		z, err := zlib.NewReader(bytes.NewReader(f.raw))
		if err != nil {
			return nil, fmt.Errorf("FlateDecode: %w", err)
		}
		return &cappedReader{r: z, c: z, max: max}, nil
	}
	return nil, fmt.Errorf("the stream's filters %v (with /DecodeParms: %t) are not decoded here: only none, or /FlateDecode alone", f.Filters, f.params)
}

// Section returns the file's bytes as the file holds them, and their
// length, when its stream has no filter (a view, no copy: what Open
// reads); false when it has one.
func (f *AttachedFile) Section() (io.ReaderAt, int64, bool) {
	if f.Problem != "" || len(f.Filters) > 0 {
		return nil, 0, false
	}
	return bytes.NewReader(f.raw), int64(len(f.raw)), true
}

// cappedReader fails once more than max bytes were read.
type cappedReader struct {
	r   io.Reader
	c   io.Closer
	n   int64
	max int64
}

func (c *cappedReader) Read(p []byte) (int, error) {
	if int64(len(p)) > c.max-c.n+1 {
		p = p[:c.max-c.n+1]
	}
	n, err := c.r.Read(p)
	c.n += int64(n)
	if c.n > c.max {
		return n - int(c.n-c.max), &limits.SizeError{Size: c.n, Max: c.max}
	}
	return n, err
}

func (c *cappedReader) Close() error { return c.c.Close() }

// readAttachments reads the file specifications of the catalog's /AF and
// of /Names /EmbeddedFiles (names, the catalog's /Names resolved), each
// once. A malformed entry is skipped: the attachments are no Web Capture
// structure, and a reader of them checks what it reads (audit).
func (r *reader) readAttachments(cat types.Dict, names types.Dict) {
	seen := map[webcapture.Ref]*AttachedFile{}
	add := func(o types.Object, path, key string, inAF bool) {
		if len(r.doc.Attachments) >= maxAttachments {
			return
		}
		obj, ref, ok := r.resolve(o, path)
		if !ok {
			return
		}
		if f := seen[ref]; f != nil && !ref.IsZero() {
			f.InAF = f.InAF || inAF
			if f.Key == "" {
				f.Key = key
			}
			return
		}
		d, isDict := obj.(types.Dict)
		if !isDict {
			return
		}
		f := r.attachedFile(d, ref, path)
		f.Key, f.InAF = key, inAF
		r.doc.Attachments = append(r.doc.Attachments, f)
		if !ref.IsZero() {
			seen[ref] = f
		}
	}
	if o, ok := cat["AF"]; ok {
		v, _, _ := r.resolve(o, "AF")
		a, _ := v.(types.Array)
		for i, e := range a {
			add(e, "AF["+strconv.Itoa(i)+"]", "", true)
		}
	}
	if o, ok := names["EmbeddedFiles"]; ok {
		r.eachTreeEntry(o, "Names/EmbeddedFiles", func(key string, v types.Object, path string) {
			add(v, path, key, false)
		})
	}
}

// attachedFile reads a file specification.
func (r *reader) attachedFile(d types.Dict, ref webcapture.Ref, path string) *AttachedFile {
	f := &AttachedFile{Spec: ref, Size: -1}
	text := func(key string) string {
		v, _, _ := r.resolveKey(d[key], path, key)
		s, _ := rawString(v)
		return webcapture.Text(s).String()
	}
	f.Name = text("UF")
	if f.Name == "" {
		f.Name = text("F")
	}
	f.Description = text("Desc")
	if n, ok := d["AFRelationship"].(types.Name); ok {
		f.Relationship = string(n)
	}
	efObj, _, _ := r.resolveKey(d["EF"], path, "EF")
	ef, _ := efObj.(types.Dict)
	so, ok := ef["UF"]
	if !ok {
		so = ef["F"]
	}
	obj, sref, _ := r.resolve(so, path+"/EF")
	sd, isStream := obj.(types.StreamDict)
	f.Stream = sref
	if !isStream {
		f.Problem = "the file specification has no embedded file stream (/EF)"
		if so != nil {
			f.Problem = "the embedded file (/EF) is " + typeName(obj) + ", not a stream"
		}
		return f
	}
	if n, ok := sd.Dict["Subtype"].(types.Name); ok {
		f.MediaType = string(n) // pdfcpu decodes #xx
	}
	f.raw, f.Length = sd.Raw, int64(len(sd.Raw))
	switch v := sd.Dict["Filter"].(type) {
	case types.Name:
		f.Filters = []string{string(v)}
	case types.Array:
		for _, e := range v {
			n, _ := e.(types.Name)
			f.Filters = append(f.Filters, string(n))
		}
	}
	switch v := sd.Dict["DecodeParms"].(type) {
	case types.Dict:
		f.params = len(v) > 0
	case types.Array:
		f.params = len(v) > 0
	}
	po, _, _ := r.resolveKey(sd.Dict["Params"], path, "Params")
	params, _ := po.(types.Dict)
	if s, ok := params["Size"].(types.Integer); ok {
		f.Size = int64(s)
	}
	if v, _, _ := r.resolveKey(params["CheckSum"], path, "CheckSum"); v != nil {
		if s, ok := rawString(v); ok {
			f.CheckSum = []byte(s)
		}
	}
	if v, _, _ := r.resolveKey(params["ModDate"], path, "ModDate"); v != nil {
		if s, ok := rawString(v); ok {
			dt, _ := webcapture.ParseDate(s)
			f.ModDate = &dt
		}
	}
	return f
}

// eachTreeEntry calls f with each key and value of a name tree whose
// values are not content sets (/EmbeddedFiles), walked within the
// reader's bounds (depth, nodes, each node once); malformed nodes and
// keys are skipped.
func (r *reader) eachTreeEntry(root types.Object, path string, f func(key string, v types.Object, path string)) {
	seen := map[webcapture.Ref]bool{}
	nodes := 0
	var walk func(o types.Object, path string, depth int)
	walk = func(o types.Object, path string, depth int) {
		obj, ref, ok := r.resolve(o, path)
		if !ok || depth > r.opts.MaxTreeDepth || nodes >= r.opts.MaxTreeNodes || (!ref.IsZero() && seen[ref]) {
			return
		}
		seen[ref] = true
		nodes++
		d, _ := obj.(types.Dict)
		if kids, ok := d["Kids"]; ok {
			k, _, _ := r.resolveKey(kids, path, "Kids")
			a, _ := k.(types.Array)
			for i, kid := range a {
				walk(kid, path+"/Kids["+strconv.Itoa(i)+"]", depth+1)
			}
			return
		}
		n, _, _ := r.resolveKey(d["Names"], path, "Names")
		a, _ := n.(types.Array)
		for i := 0; i+1 < len(a); i += 2 {
			ko, _, _ := r.resolve(a[i], path)
			key, ok := rawString(ko)
			if ok {
				f(key, a[i+1], path+"/Names["+strconv.Itoa(i+1)+"]")
			}
		}
	}
	walk(root, path, 1)
}

// setsAfter fills each attachment's SetsAfter, once every set is read.
func (r *reader) setsAfter() {
	for _, f := range r.doc.Attachments {
		if f.Stream.IsZero() {
			continue
		}
		at := r.objectOffset(f.Stream.Num)
		for _, cs := range r.doc.Sets {
			if !cs.Ref.IsZero() && r.objectOffset(cs.Ref.Num) > at {
				f.SetsAfter = append(f.SetsAfter, cs.Ref)
			}
		}
	}
}

// objectOffset is where object num is in the file: its own offset, or
// its object stream's; -1 when not known.
func (r *reader) objectOffset(num int) int64 {
	e := r.entry(num)
	if e.none() {
		return -1
	}
	if stm, ok := e.stream(); e.compressed() && ok {
		if e = r.entry(stm); e.none() {
			return -1
		}
	}
	return entOffset(e)
}
