package seal

import (
	"context"
	"crypto/sha256"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"github.com/digitorus/timestamp"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
)

// Options say which seals Apply adds.
type Options struct {
	// TimestampURL is an RFC 3161 time-stamping authority (http or https):
	// alone, a document timestamp; with a Signer, the signature's
	// timestamp (PAdES B-T).
	TimestampURL string
	// Signer signs the file (PAdES B-B; B-T with TimestampURL).
	Signer *Signer
	// LTV adds the chains and their revocation data (a /DSS) and then a
	// document timestamp over it (PAdES B-LTA). It needs TimestampURL.
	LTV bool
	// Name, Reason and Location go in the signature dictionary (Name
	// defaults to the signer certificate's common name).
	Name, Reason, Location string
	// Now is the clock of the claimed signing time /M (nil: time.Now).
	Now func() time.Time
	// HTTPClient makes the requests to the services (nil: a client of
	// its own); Timeout bounds each request, its answer read whole
	// included (0: DefaultTimeout).
	HTTPClient *http.Client
	Timeout    time.Duration
	// Reserve is the bytes reserved for each seal's /Contents (0: enough
	// for the chains given and a TSA's token; a seal that does not fit is
	// made once more with the room it needs).
	Reserve int
	// PDF bounds the reading of the input; Write says how the output is
	// written (Replace: an existing file may be replaced).
	PDF   pdfio.Options
	Write pdfio.WriteOptions
}

// ErrNothing: the options ask for no seal.
var ErrNothing = errors.New("nothing to seal with: give a time-stamping authority (--timestamp-url) or a signer (--sign-cert and --sign-key, or --sign-p12)")

// Check says whether the options ask for something that can be done.
func (o *Options) Check() error {
	switch {
	case o.Signer == nil && o.TimestampURL == "":
		return ErrNothing
	case o.LTV && o.TimestampURL == "":
		return errors.New("LTV (--ltv) needs a time-stamping authority (--timestamp-url) for its document timestamp")
	case o.TimestampURL != "" && len(httpURLs([]string{o.TimestampURL})) == 0:
		return fmt.Errorf("the time-stamping authority %q is not an http or https URL", o.TimestampURL)
	}
	return nil
}

// A Result says what was added, a Seal per signature or timestamp, in the
// order of the file's revisions.
type Result struct {
	Seals []Sealed
	DSS   *pdfio.DSS // what the /DSS added holds (LTV), or nil
	Size  int64      // the sealed file's size
}

// Sealed is one seal added.
type Sealed struct {
	Type   string    // pdfio.SealSig or pdfio.SealDocTimeStamp
	Signer string    // the signer's subject (Sig) or the TSA's
	M      time.Time // the claimed time (Sig)
	Time   time.Time // the token's time (a Sig's signature timestamp, a DocTimeStamp's)
	Level  string    // PAdES level: B-B, B-T, B-LTA; "" for a document timestamp
}

// Apply seals in into out: a signature, a timestamp, or both, then
// with o.LTV the validation data and a document timestamp, each seal an
// incremental update that keeps every byte before it. in is never
// changed; out is written atomically, and not at all when a service fails
// (an error wrapping ErrService) or anything else does.
func Apply(ctx context.Context, in, out string, o Options) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	if pdfio.SameFile(in, out) {
		return nil, fmt.Errorf("%s: the output is the input: a seal is written to a new file", out)
	}
	max := o.PDF.MaxFileSize
	if max <= 0 {
		max = limits.DefaultMaxFileSize
	}
	file, err := limits.ReadFile(in, max, "--max-file-size")
	if err != nil {
		return nil, &pdfio.Error{File: in, Op: "read", Err: err}
	}
	return Write(ctx, file, in, out, o)
}

// Write is Apply on file, the input's bytes already read (named name in
// errors).
func Write(ctx context.Context, file []byte, name, out string, o Options) (*Result, error) {
	if err := o.Check(); err != nil {
		return nil, err
	}
	w, err := pdfio.CreateOutput(out, o.Write)
	if err != nil {
		return nil, err
	}
	defer w.Close()
	res, err := newSealer(&o).run(ctx, file, name, func(u *pdfio.Update, sign pdfio.SealSign, last bool) ([]byte, error) {
		if !last {
			return u.SealedBytes(sign)
		}
		return nil, u.WriteSealed(w, sign)
	})
	if err != nil {
		return nil, err
	}
	if res.Size, err = w.Size(); err != nil {
		return nil, err
	}
	if err := w.Commit(); err != nil {
		return nil, err
	}
	return res, nil
}

// Bytes is Apply in memory: file (named name in errors) sealed. It is how
// capture, append and refresh seal what they made before it is written.
func Bytes(ctx context.Context, file []byte, name string, o Options) ([]byte, *Result, error) {
	if err := o.Check(); err != nil {
		return nil, nil, err
	}
	var sealed []byte
	res, err := newSealer(&o).run(ctx, file, name, func(u *pdfio.Update, sign pdfio.SealSign, last bool) ([]byte, error) {
		b, err := u.SealedBytes(sign)
		sealed = b
		return b, err
	})
	if err != nil {
		return nil, nil, err
	}
	res.Size = int64(len(sealed))
	return sealed, res, nil
}

// sealer runs the stages of one sealing.
type sealer struct {
	o   *Options
	cl  *client
	val validation
	res Result
}

func newSealer(o *Options) *sealer {
	return &sealer{o: o, cl: newClient(o)}
}

// writeFunc writes an update with its seal; last: the final stage (the
// bytes returned are the next stage's input otherwise).
type writeFunc func(u *pdfio.Update, sign pdfio.SealSign, last bool) ([]byte, error)

// run makes the stages: the signature (or, without a signer, a document
// timestamp), then with LTV the DSS and a document timestamp.
func (s *sealer) run(ctx context.Context, file []byte, name string, write writeFunc) (*Result, error) {
	o := s.o
	if o.Signer != nil {
		s.val.add(o.Signer.Cert)
		s.val.add(o.Signer.Chain...)
	}
	first := pdfio.SealField{Type: pdfio.SealDocTimeStamp}
	if o.Signer != nil {
		now := time.Now
		if o.Now != nil {
			now = o.Now
		}
		first = pdfio.SealField{Type: pdfio.SealSig, Name: o.Name, Reason: o.Reason, Location: o.Location, M: now().UTC().Truncate(time.Second)}
		if first.Name == "" {
			first.Name = o.Signer.Cert.Subject.CommonName
		}
	}
	cur, err := s.stage(ctx, file, name, first, nil, write, !o.LTV)
	if err != nil {
		return nil, err
	}
	if !o.LTV {
		return &s.res, nil
	}
	if err := s.val.revocation(ctx, s.cl); err != nil {
		return nil, err
	}
	dss := s.val.finish()
	s.res.DSS = &dss
	if _, err := s.stage(ctx, cur, name, pdfio.SealField{Type: pdfio.SealDocTimeStamp}, &dss, write, true); err != nil {
		return nil, err
	}
	return &s.res, nil
}

// stage adds one seal (and dss) to file as an update; a seal that does not
// fit the room reserved is made once more with the room it needs.
func (s *sealer) stage(ctx context.Context, file []byte, name string, f pdfio.SealField, dss *pdfio.DSS, write writeFunc, last bool) ([]byte, error) {
	f.Size = s.reserve(f.Type)
	popts := s.o.PDF
	for try := 0; ; try++ {
		u, err := pdfio.NewUpdate(file, name, popts)
		if err != nil {
			return nil, err
		}
		if dss != nil {
			if err := u.AddDSS(*dss); err != nil {
				return nil, err
			}
		}
		if err := u.AddSeal(f); err != nil {
			return nil, err
		}
		done := Sealed{Type: f.Type, M: f.M}
		b, err := write(u, s.signer(ctx, f, &done), last)
		var se *pdfio.SealSizeError
		if errors.As(err, &se) && try < 2 {
			f.Size = se.Need + 1024
			continue
		}
		var ce *pdfio.CertifiedError
		if errors.As(err, &ce) && !popts.AllowCertified && certifiedAllows(ce.Certification, f) {
			popts.AllowCertified = true
			continue
		}
		if err != nil {
			return nil, err
		}
		s.res.Seals = append(s.res.Seals, done)
		return b, nil
	}
}

// certifiedAllows says whether a certified document's DocMDP permission
// allows seal f: a document timestamp and its DSS always (ISO 32000-2
// §12.8.2.2.2, Table 257: they are not changes to the document), a
// signature with /P 2 or 3 (signing is allowed).
func certifiedAllows(c *pdfio.Certification, f pdfio.SealField) bool {
	return f.Type == pdfio.SealDocTimeStamp || c.Permission >= 2
}

// reserve is the room for a seal's /Contents: a TSA's token (its chain
// included: some kB), and for a signature the signer's chain and the
// signature besides.
func (s *sealer) reserve(typ string) int {
	if s.o.Reserve > 0 {
		return s.o.Reserve
	}
	n := 8 << 10
	if typ == pdfio.SealSig {
		n = 4 << 10
		n += len(s.o.Signer.Cert.Raw)
		for _, c := range s.o.Signer.Chain {
			n += len(c.Raw)
		}
		if s.o.TimestampURL != "" {
			n += 8 << 10
		}
	}
	return n
}

// signer is the SealSign of field f: the CMS signature (with its
// timestamp) or the document timestamp token over the covered bytes.
func (s *sealer) signer(ctx context.Context, f pdfio.SealField, done *Sealed) pdfio.SealSign {
	return func(covered io.Reader) ([]byte, error) {
		h := sha256.New()
		if _, err := io.Copy(h, covered); err != nil {
			return nil, err
		}
		digest := h.Sum(nil)
		if f.Type == pdfio.SealDocTimeStamp {
			ts, err := s.cl.token(ctx, s.o.TimestampURL, digest)
			if err != nil {
				return nil, err
			}
			s.tokenMet(ts, done)
			return ts.RawToken, nil
		}
		signer := s.o.Signer
		done.Signer, done.Level = subject(signer.Cert), "B-B"
		var stamp func([]byte) ([]byte, error)
		if s.o.TimestampURL != "" {
			stamp = func(sig []byte) ([]byte, error) {
				sum := sha256.Sum256(sig)
				ts, err := s.cl.token(ctx, s.o.TimestampURL, sum[:])
				if err != nil {
					return nil, err
				}
				signerName := done.Signer
				s.tokenMet(ts, done)
				done.Signer, done.Level = signerName, "B-T"
				return ts.RawToken, nil
			}
		}
		cms, err := signCMS(digest, signer, stamp)
		if err == nil && s.o.LTV {
			done.Level = "B-LTA"
		}
		return cms, err
	}
}

// tokenMet records a token's time and its TSA's chain (for the DSS).
func (s *sealer) tokenMet(ts *timestamp.Timestamp, done *Sealed) {
	done.Time = ts.Time
	if c := tsaCert(ts); c != nil {
		done.Signer = subject(c)
		s.val.add(c)
	}
	s.val.add(ts.Certificates...)
}

func subject(c *x509.Certificate) string {
	if c.Subject.CommonName != "" {
		return c.Subject.CommonName
	}
	return c.Subject.String()
}
