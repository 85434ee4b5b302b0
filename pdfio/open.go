package pdfio

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"runtime/debug"
	"sync"
	"time"

	"github.com/pdfcpu/pdfcpu/pkg/api"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu"
	"github.com/pdfcpu/pdfcpu/pkg/pdfcpu/model"
	"github.com/webcap/webcap/internal/limits"
)

// Options control reading. The zero value is ready to use.
type Options struct {
	// Password opens an encrypted file (user or owner password).
	Password string
	// Timeout bounds parsing; 0 means DefaultTimeout.
	Timeout time.Duration
	// MaxTreeDepth and MaxTreeNodes bound each name-tree walk; 0 means
	// DefaultMaxTreeDepth and DefaultMaxTreeNodes.
	MaxTreeDepth, MaxTreeNodes int
	// MaxFileSize refuses larger files before parsing; 0 means
	// DefaultMaxFileSize.
	MaxFileSize int64
	// AllowCertified lets an Update write to a certified document
	// although its permissions forbid it (the certification then no longer
	// validates); without it, Update.Bytes refuses with a *CertifiedError.
	AllowCertified bool
	// Context, when not nil, bounds the whole read, not only the parse:
	// once it is done (a deadline passed, a memory ceiling, an interrupt),
	// the reader stops at its next object or tree node and the read fails
	// with an *Error wrapping context.Cause. Timeout still bounds the
	// parse alone.
	Context context.Context
	// MaxStreamDecode bounds the bytes one stream decodes to (an object
	// stream, a command's /P), and MaxDecodeTotal those all the streams
	// of a read decode to, each stream decoded once however many objects
	// use it; 0 means DefaultMaxStreamDecode and DefaultMaxDecodeTotal. A
	// stream past either is not read (decode.go): the object that needed
	// it is a TooLarge defect.
	MaxStreamDecode, MaxDecodeTotal int64
}

// Defaults for Options.
const (
	DefaultTimeout      = 2 * time.Minute
	DefaultMaxTreeDepth = 64
	DefaultMaxTreeNodes = 1 << 20
	DefaultMaxFileSize  = limits.DefaultMaxFileSize
	// One stream inflating to more than 64 MiB is no Web Capture data
	// (object streams hold a hundred objects or so, posted form data
	// kilobytes); 512 MiB in all is eight such streams.
	DefaultMaxStreamDecode = 64 << 20
	DefaultMaxDecodeTotal  = 512 << 20
)

// Errors wrapped by *Error.
var (
	// ErrEncrypted: the file is encrypted and no Options.Password was
	// given.
	ErrEncrypted = errors.New("encrypted: a password is needed to read it")
	// ErrWrongPassword: the file is encrypted and Options.Password opens
	// it neither as the user's nor as the owner's password.
	ErrWrongPassword = errors.New("encrypted: wrong password")
	// ErrTooLarge: the file is larger than Options.MaxFileSize (the
	// error is a *limits.SizeError).
	ErrTooLarge = limits.ErrTooLarge
	// ErrTimeout: parsing took longer than Options.Timeout.
	ErrTimeout = errors.New("parsing took too long")
	// ErrNotPDF: the file is no PDF at all (empty, or no %PDF- header in
	// its first 1024 bytes, ISO 32000-1 §7.5.2 and its implementation
	// note), as opposed to a PDF too damaged to parse.
	ErrNotPDF = errors.New("not a PDF")
)

// An Error reports a file that cannot be read: which file, what failed.
// Its message is "FILE: what is wrong" ("a.pdf: no such file or
// directory", "a.txt: not a PDF: no %PDF- header"); Op is for programs.
type Error struct {
	File string // the file's path or name
	Op   string // "open", "parse" or "read"
	Err  error  // what is wrong, without the file's name
	// Stack is where a panic inside the reader happened (a bug, reported
	// as an internal error); it is not part of Error's message.
	Stack []byte
}

func (e *Error) Error() string { return e.File + ": " + e.Err.Error() }
func (e *Error) Unwrap() error { return e.Err }

// Unreadable reports whether the file could not be read at all: it could
// not be opened or read, is not a PDF, does not parse, is encrypted with a
// password not given, or is too large; not a file read that cannot be
// updated, and not a bug inside the reader.
func (e *Error) Unreadable() bool {
	return (e.Op == "open" || e.Op == "read" || e.Op == "parse") && e.Stack == nil
}

// Invalid reports whether the file is unreadable for what it holds, a
// finding about the file that reading it again cannot change: it is not a
// PDF, does not parse, is larger than Options.MaxFileSize, or its parse
// took longer than Options.Timeout, or its read passed a limit of
// Options.Context (a deadline, a memory ceiling: a hostile file). The other unreadable
// files are an operational failure worth retrying: the file could not be
// opened or read, or it is encrypted and the password was not given or is
// wrong.
func (e *Error) Invalid() bool {
	switch {
	case errors.Is(e.Err, limits.ErrLimit):
		return true
	case !e.Unreadable(), errors.Is(e.Err, ErrEncrypted), errors.Is(e.Err, ErrWrongPassword), errors.Is(e.Err, context.Canceled):
		return false
	case errors.Is(e.Err, ErrNotPDF), errors.Is(e.Err, ErrTooLarge), errors.Is(e.Err, ErrTimeout):
		return true
	}
	return e.Op == "parse"
}

// Open reads the Web Capture structures of the file at path. The file is
// read into memory first: pdfcpu seeks and reads once per object, and from
// memory that costs a copy instead of two system calls. A path that is no
// regular file is refused before it is opened (a named pipe would block
// the open), a file larger than Options.MaxFileSize before it is read
// (limits.Open).
func Open(path string, opts Options) (*Document, error) {
	opts = opts.withDefaults()
	f, _, err := limits.Open(path, opts.MaxFileSize, "")
	if err != nil {
		op := "open"
		if errors.Is(err, ErrTooLarge) {
			op = "read"
		}
		return nil, &Error{File: path, Op: op, Err: withoutPath(err)}
	}
	defer f.Close()
	b, err := limits.ReadAll(f, opts.MaxFileSize, "")
	if err != nil {
		return nil, &Error{File: path, Op: "read", Err: withoutPath(err)}
	}
	return readFile(b, path, opts, true)
}

// Read reads the Web Capture structures of the PDF in rs; name is the file
// name errors and the Document carry. The file is read into memory, into
// a buffer of its size.
func Read(rs io.ReadSeeker, name string, opts Options) (doc *Document, err error) {
	opts = opts.withDefaults()
	size, err := rs.Seek(0, io.SeekEnd)
	if err == nil {
		_, err = rs.Seek(0, io.SeekStart)
	}
	if err != nil {
		return nil, &Error{File: name, Op: "read", Err: err}
	}
	if size > opts.MaxFileSize {
		return nil, &Error{File: name, Op: "read", Err: &limits.SizeError{Size: size, Max: opts.MaxFileSize}}
	}
	b, err := limits.ReadSized(rs, size)
	if err != nil {
		return nil, &Error{File: name, Op: "read", Err: err}
	}
	return readFile(b, name, opts, true)
}

// readBytes reads the Web Capture structures of the PDF b; it parses, then
// walks what pdfcpu built, checking it against the bytes.
func readBytes(b []byte, name string, opts Options) (doc *Document, err error) {
	return readFile(b, name, opts, false)
}

// readFile is readBytes; outside: b is a file read from outside (Open,
// Read), whose read may lower the GC percent (lowersGC).
func readFile(b []byte, name string, opts Options, outside bool) (doc *Document, err error) {
	if int64(len(b)) > opts.MaxFileSize {
		return nil, &Error{File: name, Op: "read", Err: &limits.SizeError{Size: int64(len(b)), Max: opts.MaxFileSize}}
	}
	var gc gcHold
	if outside {
		gc.decide(len(b), false)
		defer gc.end()
	}
	share := newValueShare() // (nothing edits what a read parses: valueShare)
	ctx, filed, err := lazyParseShared(b, opts, share)
	if errors.Is(err, errLazy) || eagerOnly.Load() {
		filed = nil
		ctx, err = parse(b, opts)
	}
	if outside {
		gc.decide(len(b), len(filed) > 0)
	}
	if err != nil {
		return nil, &Error{File: name, Op: "parse", Err: parseError(b, err)}
	}
	// pdfcpu has loaded every object and stream by now (only objects in
	// object streams wait, and their streams are in memory): let go of the
	// reader.
	ctx.Read.RS = nil
	defer func() {
		if p := recover(); p != nil {
			doc, err = nil, internalError(name, p)
		}
	}()
	dec := newDecoder(ctx.XRefTable, opts)
	dec.share, dec.readOnly, dec.src = share, true, b
	if len(filed) > 0 {
		dec.file, dec.filed = b, filed // (parsed again from b: filedObject)
	}
	return newReader(ctx, dec, name, opts, b).read(), nil
}

// stopRead is the panic that ends a read whose Options.Context is done,
// raised where the reader looks at it (checkStop) and recovered where the
// read began (internalError), with the context's cause: so the reader's
// many walks need not each say they stopped.
type stopRead struct{ cause error }

// checkStop ends the read (a stopRead panic) once its context is done.
func (r *reader) checkStop() {
	if c := r.opts.Context; c != nil && c.Err() != nil {
		panic(stopRead{context.Cause(c)})
	}
}

// headerWindow is how far into a file its %PDF- header may be (ISO
// 32000-1 §7.5.2, implementation note 13 of PDF Reference 1.7: Acrobat
// looks in the first 1024 bytes).
const headerWindow = 1024

// xrefEntryLimit bounds the entries the cross-reference streams of a file
// of size bytes may list: one a byte, at least 65,536, at most pdfcpu's
// own limit. An entry is an object, which takes bytes in the file, or a
// free number, which a writer lists only among objects; ten million
// entries inflated from a 50 KB file made a table of ten million that
// took 38 s and 2.5 GB to read. A stream over the limit is refused by
// pdfcpu, which then rebuilds the table from the objects it finds
// (WC-PDF-XREF, badSection).
func xrefEntryLimit(size int) int {
	return min(max(size, 1<<16), model.DefaultResourceLimits().MaxXRefEntries)
}

// parseError is pdfcpu's failure to parse b said by its real cause: a file
// that is no PDF at all says so (ErrNotPDF), decided from the bytes
// themselves, not from the error pdfcpu happens to return first.
func parseError(b []byte, err error) error {
	switch {
	case errors.Is(err, ErrEncrypted), errors.Is(err, ErrWrongPassword), errors.Is(err, ErrTimeout),
		errors.Is(err, limits.ErrLimit), errors.Is(err, context.Canceled):
		return err
	case len(b) == 0:
		return fmt.Errorf("%w: the file is empty", ErrNotPDF)
	case !bytes.Contains(b[:min(len(b), headerWindow)], []byte("%PDF-")):
		return fmt.Errorf("%w: no %%PDF- header", ErrNotPDF)
	case errors.Is(err, pdfcpu.ErrCorruptHeader):
		return fmt.Errorf("%w: a malformed %%PDF- header", ErrNotPDF)
	}
	return fmt.Errorf("cannot be parsed: %w", err)
}

// withoutPath is an error of the os package without the operation and path
// it repeats ("open /x: no such file" is "no such file": Error says the
// file and the operation once).
func withoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// internalError is a panic inside the reader (a bug: hostile input must
// not cause one), as an error naming the file, with the stack kept aside.
func internalError(name string, p any) *Error {
	if gp, ok := p.(*goroutinePanic); ok {
		if s, ok := gp.value.(stopRead); ok {
			p = s
		}
	}
	if s, ok := p.(stopRead); ok { // the context is done: no bug
		return &Error{File: name, Op: "read", Err: s.cause}
	}
	if gp, ok := p.(*goroutinePanic); ok { // raised again from a reader's goroutine (alongside)
		return &Error{File: name, Op: "read", Err: fmt.Errorf("internal error: %v", gp.value), Stack: gp.stack}
	}
	return &Error{File: name, Op: "read", Err: fmt.Errorf("internal error: %v", p), Stack: debug.Stack()}
}

func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.MaxTreeDepth <= 0 {
		o.MaxTreeDepth = DefaultMaxTreeDepth
	}
	if o.MaxTreeNodes <= 0 {
		o.MaxTreeNodes = DefaultMaxTreeNodes
	}
	if o.MaxFileSize <= 0 {
		o.MaxFileSize = DefaultMaxFileSize
	}
	if o.MaxStreamDecode <= 0 {
		o.MaxStreamDecode = DefaultMaxStreamDecode
	}
	if o.MaxDecodeTotal <= 0 {
		o.MaxDecodeTotal = DefaultMaxDecodeTotal
	}
	return o
}

var disableConfigDir sync.Once

// config is the one place pdfcpu's configuration is built: no config
// directory (pdfcpu would otherwise create one, or exit the process when it
// cannot), relaxed reading (real files have broken xref tables that pdfcpu
// repairs), no validation, and resource limits chosen, not pdfcpu's
// defaults: a stream pdfcpu decodes itself (decode.go says which) to
// Options.MaxStreamDecode, not 512 MiB; the encoded bytes of one stream
// to the file's size limit (they are in the file). pdfcpu's bounds on
// counts (objects, cross-reference entries, objects in an object stream,
// the size of its header, nesting) are kept: they bound what pdfcpu
// allocates, and no real file comes near them.
func config(opts Options) *model.Configuration {
	opts = opts.withDefaults()
	disableConfigDir.Do(api.DisableConfigDir)
	conf := model.NewDefaultConfiguration()
	conf.ValidationMode = model.ValidationRelaxed
	conf.PostProcessValidate = false
	conf.UserPW, conf.OwnerPW = opts.Password, opts.Password
	conf.DecodeAllStreams = false // streams are decoded when the reader needs them (decode.go)
	conf.Limits.MaxDecodeBytes = opts.MaxStreamDecode
	conf.Limits.MaxStreamBytes = opts.MaxFileSize
	return conf
}

// parse runs pdfcpu's reader on b under the deadline, in a goroutine so
// that a parse that ignores its context still cannot hold the caller past
// it, and turns a panic into an error. A /Prev chain that loops is broken
// first (prevloop.go), and a cross-reference stream cut to its entries
// (xrefpad.go).
func parse(b []byte, opts Options) (*model.Context, error) {
	rs := bytes.NewReader(withoutXRefPadding(withoutPrevLoop(b)))
	conf := config(opts)
	conf.Limits.MaxXRefEntries = xrefEntryLimit(len(b))
	parent := opts.Context
	if parent == nil {
		parent = context.Background()
	}
	goctx, cancel := context.WithTimeout(parent, opts.Timeout)
	defer cancel()
	type result struct {
		ctx *model.Context
		err error
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			if p := recover(); p != nil {
				r = result{nil, fmt.Errorf("pdfcpu panicked: %v", p)}
			}
			done <- r
		}()
		r.ctx, r.err = pdfcpu.ReadWithContext(goctx, rs, conf)
	}()
	select {
	case r := <-done:
		if r.err != nil && parent.Err() != nil {
			return nil, context.Cause(parent)
		}
		if r.err != nil {
			return nil, classify(r.err, opts.Password != "")
		}
		return r.ctx, nil
	case <-goctx.Done():
		if parent.Err() != nil { // the caller's limit, or an interrupt
			return nil, context.Cause(parent)
		}
		return nil, fmt.Errorf("%w (more than %v)", ErrTimeout, opts.Timeout)
	}
}

// classify names what pdfcpu's error means; withPassword says a password
// was given (pdfcpu says "wrong password" when none was).
func classify(err error, withPassword bool) error {
	if errors.Is(err, pdfcpu.ErrWrongPassword) || errors.Is(err, pdfcpu.ErrOwnerPasswordRequired) {
		if withPassword {
			return ErrWrongPassword
		}
		return ErrEncrypted
	}
	if errors.Is(err, context.DeadlineExceeded) {
		return ErrTimeout
	}
	return err
}

// ReadBytes is Read for a file held in memory.
func ReadBytes(b []byte, name string, opts Options) (*Document, error) {
	return readBytes(b, name, opts.withDefaults())
}
