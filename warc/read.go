package warc

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Limits bound what a Reader accepts; a zero field takes the default's.
// Every limit passed is an error wrapping ErrFormat that names the record
// and the limit: no real archive comes near them.
type Limits struct {
	MaxHeader  int   // bytes of a record's version line and header
	MaxBlock   int64 // bytes of a record's block, and of a decoded payload or content
	MaxRecords int   // records in a file
	MaxMembers int   // gzip members in a file
	// MaxGap is the bytes of blank lines between two records (the
	// specification's two CRLFs, and the more some tools write), and
	// after the last.
	MaxGap int
	// MaxHTTPHeader is the bytes of an HTTP message's header, its start
	// line and fields, in a record's block: net/http's
	// DefaultMaxHeaderBytes (1 MiB); servers and browsers accept far less.
	MaxHTTPHeader int
}

// DefaultLimits are the limits of NewReader.
var DefaultLimits = Limits{MaxHeader: 64 << 10, MaxBlock: 256 << 20, MaxRecords: 1 << 20, MaxMembers: 1 << 20,
	MaxGap: 64 << 10, MaxHTTPHeader: 1 << 20}

func (l Limits) orDefault() Limits {
	d := DefaultLimits
	if l.MaxHeader > 0 {
		d.MaxHeader = l.MaxHeader
	}
	if l.MaxBlock > 0 {
		d.MaxBlock = l.MaxBlock
	}
	if l.MaxRecords > 0 {
		d.MaxRecords = l.MaxRecords
	}
	if l.MaxMembers > 0 {
		d.MaxMembers = l.MaxMembers
	}
	if l.MaxGap > 0 {
		d.MaxGap = l.MaxGap
	}
	if l.MaxHTTPHeader > 0 {
		d.MaxHTTPHeader = l.MaxHTTPHeader
	}
	return d
}

// ErrFormat is wrapped by every error about the file's syntax or limits.
var ErrFormat = errors.New("not a valid WARC file")

// A Reader reads the records of a WARC file in order: whole (Next), or
// as a stream, the header (NextHeader) and then the block (Read), so that
// a large block is never held.
type Reader struct {
	lim     Limits
	in      *counter      // the file's bytes read
	src     *bufio.Reader // the file
	br      *bufio.Reader // records (decompressed, if gzip)
	members *members      // nil: uncompressed
	n       int           // records started
	block   int64         // bytes of the current record's block not yet read
	at      position      // where the current record starts
	err     error
}

// A position is where a record starts: skip bytes into what the file
// gives from offset on (decompressed, from a gzip member there; 0 when
// the record starts the member, or in an uncompressed file).
type position struct{ offset, skip int64 }

func (p position) String() string {
	if p.skip == 0 {
		return fmt.Sprintf("at byte %d", p.offset)
	}
	return fmt.Sprintf("at byte %d of the gzip member at byte %d", p.skip, p.offset)
}

// counter counts the bytes read through it, and keeps the first error
// other than io.EOF the file gave (one that is no fault of the format).
type counter struct {
	r   io.Reader
	n   int64
	err error
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	if err != nil && err != io.EOF && c.err == nil {
		c.err = err
	}
	return n, err
}

// NewReader returns a Reader of r with DefaultLimits.
func NewReader(r io.Reader) *Reader { return NewReaderLimits(r, Limits{}) }

// NewReaderLimits returns a Reader of r with limits lim.
func NewReaderLimits(r io.Reader, lim Limits) *Reader {
	rd := &Reader{lim: lim.orDefault(), in: &counter{r: r}}
	rd.src = bufio.NewReader(rd.in)
	if magic, _ := rd.src.Peek(2); len(magic) == 2 && magic[0] == 0x1f && magic[1] == 0x8b {
		rd.members = &members{src: rd.src, in: rd.in, max: rd.lim.MaxMembers}
		rd.br = bufio.NewReaderSize(rd.members, readBuffer)
	} else {
		rd.br = rd.src
	}
	return rd
}

// readBuffer is the size of the buffer of decompressed records.
const readBuffer = 4096

// Members returns how many gzip members have been started (0 for an
// uncompressed file).
func (r *Reader) Members() int {
	if r.members == nil {
		return 0
	}
	return r.members.n
}

// Offset returns where the record Next last returned starts in the file:
// the offset of its gzip member, when the record starts one, or of its
// version line in an uncompressed file; -1 when it cannot be told (a
// member that holds several records). A Reader of the file positioned
// there reads the record first.
func (r *Reader) Offset() int64 {
	if r.at.skip != 0 {
		return -1
	}
	return r.at.offset
}

// Next returns the next record, its block read whole (at most
// Limits.MaxBlock bytes), or io.EOF after the last. After any other error
// the Reader returns that error again.
func (r *Reader) Next() (*Record, error) {
	rec, err := r.NextHeader()
	if err != nil {
		return nil, err
	}
	buf := bytes.NewBuffer(make([]byte, 0, min(r.block, 1<<20)))
	if _, err := io.Copy(buf, r); err != nil {
		return nil, err
	}
	rec.Block = buf.Bytes()
	return rec, nil
}

// NextHeader returns the next record without its block (Block is nil),
// or io.EOF after the last: the block is read by Read, and what is left
// of it unread is skipped by the next call. After any other error the
// Reader returns that error again.
func (r *Reader) NextHeader() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	if r.block > 0 { // the rest of the last block, unread
		if _, err := io.CopyN(io.Discard, r, r.block); err != nil {
			return nil, err
		}
	}
	rec, err := r.header()
	if err != nil {
		if err != io.EOF {
			err = r.fail(r.n+1, r.at, err)
		}
		r.err = err
	}
	return rec, err
}

// Read reads the block of the record NextHeader last returned; io.EOF at
// its end.
func (r *Reader) Read(p []byte) (int, error) {
	if r.err != nil {
		return 0, r.err
	}
	if r.block <= 0 {
		return 0, io.EOF
	}
	if int64(len(p)) > r.block {
		p = p[:r.block]
	}
	n, err := r.br.Read(p)
	r.block -= int64(n)
	switch {
	case err == io.EOF && r.block > 0:
		err = fmt.Errorf("block shorter than its Content-Length: %w", io.ErrUnexpectedEOF)
	case err == io.EOF, err == nil:
		return n, nil
	}
	r.err = r.fail(r.n, r.at, err)
	return n, r.err
}

// fail is the error of record n at at: a fault of the format (ErrFormat),
// or the file's own (an I/O error, a context done) as the file gave it.
func (r *Reader) fail(n int, at position, err error) error {
	if r.in.err != nil {
		err = r.in.err
	} else {
		err = fmt.Errorf("%w: %w", ErrFormat, err)
	}
	return fmt.Errorf("record %d %v: %w", n, at, err)
}

// skipGap skips the blank lines before a record, at most MaxGap bytes.
func (r *Reader) skipGap() error {
	for gap := 0; ; gap++ {
		b, err := r.br.Peek(1)
		if err != nil {
			return err
		}
		if b[0] != '\r' && b[0] != '\n' {
			return nil
		}
		if gap >= r.lim.MaxGap {
			return fmt.Errorf("more than %d bytes of blank lines between records", r.lim.MaxGap)
		}
		r.br.ReadByte()
	}
}

// position returns where the next byte of the records starts.
func (r *Reader) position() position {
	m := r.members
	if m == nil {
		return position{offset: r.in.n - int64(r.src.Buffered())}
	}
	at := m.total - int64(r.br.Buffered())
	p := position{offset: -1, skip: at}
	for _, s := range m.starts {
		if s.at <= at {
			p = position{offset: s.offset, skip: at - s.at}
		}
	}
	return p
}

func (r *Reader) header() (*Record, error) {
	if err := r.skipGap(); err != nil {
		r.at = r.position()
		return nil, err
	}
	r.at = r.position()
	if r.n >= r.lim.MaxRecords {
		return nil, fmt.Errorf("more than %d records", r.lim.MaxRecords)
	}
	budget := r.lim.MaxHeader
	version, err := r.line(&budget)
	if err != nil {
		return nil, err
	}
	if version != V1_0 && version != V1_1 {
		return nil, fmt.Errorf("version line %.40q, want WARC/1.0 or WARC/1.1", version)
	}
	rec := &Record{Version: version}
	for {
		l, err := r.line(&budget)
		if err != nil {
			return nil, err
		}
		if l == "" {
			break
		}
		if l[0] == ' ' || l[0] == '\t' {
			if len(rec.Header) == 0 {
				return nil, errors.New("continuation line before any field")
			}
			last := &rec.Header[len(rec.Header)-1]
			last.Value = strings.TrimSpace(last.Value + " " + strings.TrimSpace(l))
			continue
		}
		name, value, ok := strings.Cut(l, ":")
		if !ok || !validName(name) {
			return nil, fmt.Errorf("header line %.60q is not NAME: VALUE", l)
		}
		rec.Header = append(rec.Header, Field{name, strings.TrimSpace(value)})
	}
	cl := rec.Header.Get(FieldContentLength)
	n, err := strconv.ParseInt(cl, 10, 64)
	if err != nil || n < 0 || cl[0] == '+' {
		return nil, fmt.Errorf("Content-Length %.40q is not a length", cl)
	}
	if n > r.lim.MaxBlock {
		return nil, fmt.Errorf("block of %d bytes, over the limit of %d", n, r.lim.MaxBlock)
	}
	r.n++
	r.block = n
	return rec, nil
}

// discard skips n bytes of the records (decompressed): a Reader of a file
// positioned at a position's offset, after discard(skip), reads the
// record there first.
func (r *Reader) discard(n int64) error {
	_, err := io.CopyN(io.Discard, r.br, n)
	return noEOF(err)
}

// line reads one line of the header, without its CRLF (or LF), within
// *budget bytes.
func (r *Reader) line(budget *int) (string, error) {
	var sb strings.Builder
	for {
		frag, err := r.br.ReadSlice('\n')
		*budget -= len(frag)
		if *budget < 0 {
			return "", errors.New("header over the size limit")
		}
		sb.Write(frag)
		if err == bufio.ErrBufferFull {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("header cut short: %w", noEOF(err))
		}
		break
	}
	s := strings.TrimSuffix(sb.String(), "\n")
	return strings.TrimSuffix(s, "\r"), nil
}

func noEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// validName: a field name is an RFC 9110 token.
func validName(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte(`()<>@,;:\"/[]?={}`, c) >= 0 {
			return false
		}
	}
	return true
}

// members reads the gzip members of src one after another, counting them
// and keeping where the last few start (Reader.position).
type members struct {
	src    *bufio.Reader
	in     *counter // under src
	z      *gzip.Reader
	n      int
	max    int
	total  int64         // bytes given, over every member
	starts []memberStart // the members that started within the last readBuffer bytes given, and the one before
}

// A memberStart is where a gzip member is in the file, and how many bytes
// the members before it gave.
type memberStart struct{ offset, at int64 }

func (m *members) Read(p []byte) (int, error) {
	for {
		if m.z != nil {
			n, err := m.z.Read(p)
			m.total += int64(n)
			if err != io.EOF {
				return n, err
			}
			if n > 0 {
				return n, nil
			}
		}
		if _, err := m.src.Peek(1); err != nil {
			return 0, err // io.EOF: after the last member
		}
		if m.n >= m.max {
			return 0, fmt.Errorf("more than %d gzip members", m.max)
		}
		m.n++
		m.start(m.in.n - int64(m.src.Buffered()))
		var err error
		if m.z == nil {
			m.z, err = gzip.NewReader(m.src)
		} else {
			err = m.z.Reset(m.src)
		}
		if err != nil {
			return 0, fmt.Errorf("gzip member %d: %w", m.n, noEOF(err))
		}
		m.z.Multistream(false)
	}
}

// start notes a member starting at offset. The bytes not yet read from
// the Reader's buffer are at most readBuffer: a member that started
// before them, and not the last to, holds none of them.
func (m *members) start(offset int64) {
	m.starts = append(m.starts, memberStart{offset, m.total})
	i := 0
	for i+1 < len(m.starts) && m.starts[i+1].at <= m.total-readBuffer {
		i++
	}
	m.starts = m.starts[i:]
}
