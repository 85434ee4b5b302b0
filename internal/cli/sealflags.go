package cli

import (
	"context"
	"fmt"
	"io"
	"net/url"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/seal"
)

// sealFlags are the sealing flags of seal, capture, append and refresh:
// a document timestamp (--timestamp-url), a PAdES signature (--sign-cert
// and --sign-key, or --sign-p12 with --sign-password-file), and LTV
// (--ltv). capture, append and refresh seal the file they made before it
// is written: a service that fails leaves no output (exit 3).
type sealFlags struct {
	TimestampURL     string
	SignCert         string
	SignKey          string
	SignP12          string
	SignPasswordFile string
	LTV              bool
	SignReason       string
	SignName         string
	SealTimeout      time.Duration

	opts *seal.Options // after prepare, when a flag asks for a seal
}

func (s *sealFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&s.TimestampURL, "timestamp-url", "", "seal with an RFC 3161 timestamp from the time-stamping authority at `URL` (with a signature: the signature's timestamp)")
	f.StringVar(&s.SignCert, "sign-cert", "", "sign with the certificate in `CERT.pem` (its issuers may follow it), its key in --sign-key")
	f.StringVar(&s.SignKey, "sign-key", "", "the signing key, in `KEY.pem` (PKCS#8, PKCS#1 or SEC 1; not encrypted: use --sign-p12)")
	f.StringVar(&s.SignP12, "sign-p12", "", "sign with the key and certificates of the PKCS#12 file `FILE.p12`")
	f.StringVar(&s.SignPasswordFile, "sign-password-file", "", "read --sign-p12's password from the first line of `FILE` (-: stdin)")
	f.BoolVar(&s.LTV, "ltv", false, "add the chains' OCSP responses or CRLs (a /DSS), then a document timestamp (PAdES B-LTA; needs --timestamp-url)")
	f.StringVar(&s.SignReason, "sign-reason", "", "the signature's /Reason `TEXT`")
	f.StringVar(&s.SignName, "sign-name", "", "the signature's /Name `TEXT` (default: the certificate's common name)")
	f.DurationVar(&s.SealTimeout, "timestamp-timeout", 0, "bound each request to the time-stamping authority, an OCSP responder or a CRL server to `D` (default "+seal.DefaultTimeout.String()+")")
}

// asked says whether a flag asks for a seal.
func (s *sealFlags) asked() bool {
	return s.TimestampURL != "" || s.SignCert != "" || s.SignKey != "" || s.SignP12 != "" || s.LTV
}

// prepare checks the sealing flags, adds their files to the run's inputs,
// and loads the signer: before any work starts, so that a wrong password
// loses no crawl.
func (s *sealFlags) prepare(cmd string, ios *IOStreams, r *runFiles) error {
	if !s.asked() {
		if s.SignPasswordFile != "" || s.SignReason != "" || s.SignName != "" {
			return usagef("%s: --sign-password-file, --sign-reason and --sign-name go with a signature (--sign-cert and --sign-key, or --sign-p12)", cmd)
		}
		return nil
	}
	switch {
	case (s.SignCert != "") != (s.SignKey != ""):
		return usagef("%s: --sign-cert and --sign-key go together", cmd)
	case s.SignP12 != "" && s.SignCert != "":
		return usagef("%s: sign with --sign-cert and --sign-key, or with --sign-p12: not both", cmd)
	case s.SignPasswordFile != "" && s.SignP12 == "":
		return usagef("%s: --sign-password-file is --sign-p12's password", cmd)
	case s.LTV && s.TimestampURL == "":
		return usagef("%s: --ltv needs --timestamp-url (its last document timestamp)", cmd)
	case s.SealTimeout < 0:
		return usagef("%s: --timestamp-timeout %v: give a positive duration", cmd, s.SealTimeout)
	}
	if s.TimestampURL != "" {
		if u, err := url.Parse(s.TimestampURL); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return usagef("%s: --timestamp-url %q: give an http or https URL", cmd, s.TimestampURL)
		}
	}
	if r != nil {
		r.input("--sign-cert", s.SignCert, nil)
		r.input("--sign-key", s.SignKey, nil)
		r.input("--sign-p12", s.SignP12, nil)
		r.input("--sign-password-file", s.SignPasswordFile, ios)
	}
	o := &seal.Options{TimestampURL: s.TimestampURL, LTV: s.LTV, Name: s.SignName, Reason: s.SignReason, Timeout: s.SealTimeout}
	var err error
	switch {
	case s.SignCert != "":
		o.Signer, err = seal.LoadPEM(s.SignCert, s.SignKey)
	case s.SignP12 != "":
		var pw string
		if pw, err = s.password(cmd, ios); err != nil {
			return err
		}
		o.Signer, err = seal.LoadPKCS12(s.SignP12, pw)
	}
	if err != nil {
		return fmt.Errorf("%s: %w", cmd, err)
	}
	s.opts = o
	return nil
}

// password reads --sign-password-file's first line, as --password-file is
// read (-: stdin; a regular file or a pipe, never a device).
func (s *sealFlags) password(cmd string, ios *IOStreams) (string, error) {
	if s.SignPasswordFile == "" {
		return "", nil
	}
	var r io.Reader = ios.In
	if s.SignPasswordFile != "-" {
		f, _, err := limits.OpenStream(s.SignPasswordFile, 0, "")
		if err != nil {
			return "", &ioError{fmt.Errorf("%s: --sign-password-file %w", cmd, pathError(err))}
		}
		defer f.Close()
		r = f
	}
	line, err := firstLine(r)
	if err != nil {
		return "", &ioError{fmt.Errorf("%s: --sign-password-file %s: %w", cmd, s.SignPasswordFile, err)}
	}
	return line, nil
}

// seal seals *pdf, the file a command made (named name), when the flags
// ask for it, replacing it with the sealed bytes, and returns how to read
// back what is then written (read, or a parse of the sealed bytes). An
// interrupted run still seals what it keeps, each request bounded by
// --timestamp-timeout.
func (s *sealFlags) seal(ctx context.Context, cmd, name string, pdf *[]byte, read func(string) (*pdfio.Document, error)) (func(string) (*pdfio.Document, error), error) {
	if s.opts == nil || *pdf == nil {
		return read, nil
	}
	if ctx.Err() != nil {
		ctx = context.WithoutCancel(ctx)
	}
	sealed, _, err := seal.Bytes(ctx, *pdf, name, *s.opts)
	if err != nil {
		return nil, fmt.Errorf("%s: nothing written: sealing: %w", cmd, err)
	}
	*pdf = sealed
	return func(name string) (*pdfio.Document, error) { return pdfio.ReadBytes(sealed, name, pdfio.Options{}) }, nil
}
