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
type Limits struct {
	MaxHeader  int   // bytes of a record's version line and header
	MaxBlock   int64 // bytes of a record's block, and of a decoded payload
	MaxRecords int   // records in a file
	MaxMembers int   // gzip members in a file
}

// DefaultLimits are the limits of NewReader.
var DefaultLimits = Limits{MaxHeader: 64 << 10, MaxBlock: 256 << 20, MaxRecords: 1 << 20, MaxMembers: 1 << 20}

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
	return d
}

// ErrFormat is wrapped by every error about the file's syntax or limits.
var ErrFormat = errors.New("not a valid WARC file")

// A Reader reads the records of a WARC file in order.
type Reader struct {
	lim     Limits
	in      *counter      // the file's bytes read
	src     *bufio.Reader // the file
	br      *bufio.Reader // records (decompressed, if gzip)
	members *members      // nil: uncompressed
	n       int           // records read
	offset  int64         // where the last record read starts in the file, or -1
	err     error
}

// counter counts the bytes read through it.
type counter struct {
	r io.Reader
	n int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
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
		rd.br = bufio.NewReader(rd.members)
	} else {
		rd.br = rd.src
	}
	return rd
}

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
func (r *Reader) Offset() int64 { return r.offset }

// Next returns the next record, or io.EOF after the last. After any other
// error the Reader returns that error again.
func (r *Reader) Next() (*Record, error) {
	if r.err != nil {
		return nil, r.err
	}
	rec, err := r.next()
	if err != nil {
		if err != io.EOF {
			err = fmt.Errorf("%w: record %d: %w", ErrFormat, r.n+1, err)
		}
		r.err = err
	}
	return rec, err
}

func (r *Reader) next() (*Record, error) {
	// Skip the blank lines between records (more than the two CRLFs some
	// tools write).
	for {
		b, err := r.br.Peek(1)
		if err != nil {
			if err == io.EOF {
				return nil, io.EOF
			}
			return nil, err
		}
		if b[0] != '\r' && b[0] != '\n' {
			break
		}
		r.br.ReadByte()
	}
	if r.n >= r.lim.MaxRecords {
		return nil, fmt.Errorf("more than %d records", r.lim.MaxRecords)
	}
	switch m := r.members; {
	case m == nil:
		r.offset = r.in.n - int64(r.src.Buffered())
	case m.produced == int64(r.br.Buffered()):
		r.offset = m.start // nothing of this member read before the record
	default:
		r.offset = -1
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
	rec.Block = make([]byte, 0, min(n, 1<<20))
	buf := bytes.NewBuffer(rec.Block)
	if _, err := io.CopyN(buf, r.br, n); err != nil {
		return nil, fmt.Errorf("block shorter than its Content-Length %d: %w", n, noEOF(err))
	}
	rec.Block = buf.Bytes()
	r.n++
	return rec, nil
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

// members reads the gzip members of src one after another, counting them.
type members struct {
	src      *bufio.Reader
	in       *counter // under src
	z        *gzip.Reader
	n        int
	max      int
	start    int64 // the current member's offset in the file
	produced int64 // bytes the current member has given
}

func (m *members) Read(p []byte) (int, error) {
	for {
		if m.z != nil {
			n, err := m.z.Read(p)
			m.produced += int64(n)
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
		m.start, m.produced = m.in.n-int64(m.src.Buffered()), 0
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
