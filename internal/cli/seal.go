package cli

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/pdfio"
	"github.com/webcap/webcap/seal"
)

func newSealCmd(ios *IOStreams, runF func(context.Context, *sealOptions) error) *cobra.Command {
	opts := &sealOptions{IO: ios}
	cmd := &cobra.Command{
		Use:   "seal [flags] FILE -o OUT.pdf",
		Short: "Timestamp or sign a capture (RFC 3161, PAdES) as an incremental update",
		Long: `Add to FILE, as incremental updates that keep every byte of it, an RFC 3161
document timestamp, a PAdES signature, or both, so that anyone can check
offline, with openssl or a PDF reader, that the file existed at that time
and has not changed since.

--timestamp-url URL asks that time-stamping authority for a timestamp over
the file (a /DocTimeStamp signature, /SubFilter /ETSI.RFC3161: its token's
imprint is the SHA-256 of every byte but the token itself).

--sign-cert CERT.pem --sign-key KEY.pem (or --sign-p12 FILE.p12 and
--sign-password-file) signs it: /SubFilter /ETSI.CAdES.detached, SHA-256,
ESS signing-certificate-v2, the claimed time in /M (PAdES B-B); with
--timestamp-url the signature value is timestamped too (B-T). CERT.pem
may hold the signer's issuers after its certificate.

--ltv then fetches, for the signer's chain and each TSA's, an OCSP response
(or, when there is no responder or it fails, the CRL), writes them and the
certificates to the document security store (/DSS), and adds a last
document timestamp over it all (B-LTA). To renew an archive timestamp
before its certificate expires, seal the sealed file again with
--timestamp-url --ltv: every earlier seal stays valid.

FILE is never changed, and -o must be another file. Nothing is written
unless every seal is made: a time-stamping authority, OCSP responder or
CRL server that cannot be reached, answers an error, something that is
not what was asked (another digest, another nonce), more than 1 MiB (a
CRL: 32 MiB), or takes longer than --timestamp-timeout fails the command
with exit status 3, and so does a --sign-p12 whose password is wrong.

Check a seal with webcap audit (--trust CA.pem), pdfsig, or openssl:
  openssl ts -verify -data RANGE -in TOKEN -token_in -CAfile CA.pem
  openssl cms -verify -binary -inform DER -in SIG -content RANGE -CAfile CA.pem

capture, append and refresh take the same flags and seal what they write.

Exit status: 0 when sealed, 1 when a certificate of a chain is revoked,
2 for a usage error, 3 when a file cannot be read or written, a service
fails, or the signing credentials cannot be used, 4 when FILE is not a PDF,
too damaged to update, or larger than --max-file-size.`,
		Example: `  $ webcap seal capture.pdf --timestamp-url http://tsa.example/ -o stamped.pdf
  $ webcap seal capture.pdf --sign-cert me.pem --sign-key me.key --timestamp-url http://tsa.example/ -o signed.pdf
  # PAdES B-LTA: signature, its timestamp, OCSP/CRL data, a document timestamp
  $ webcap seal capture.pdf --sign-p12 me.p12 --sign-password-file pw.txt --timestamp-url http://tsa.example/ --ltv -o evidence.pdf
  # renew the archive timestamp of a sealed file
  $ webcap seal evidence.pdf --timestamp-url http://tsa.example/ --ltv -o evidence-2031.pdf`,
		Args: cobra.ExactArgs(1),
		RunE: runner(opts, runF, runSeal, func(args []string) error {
			opts.File = args[0]
			if !opts.sealFlags.asked() {
				return usagef("seal: say how to seal: --timestamp-url, --sign-cert and --sign-key, or --sign-p12")
			}
			return opts.outputFlags.flags("seal", false, true)
		}),
	}
	opts.outputFlags.add(cmd, "write the sealed file to `OUT.pdf`", false)
	opts.sealFlags.add(cmd)
	opts.lim.addMaxFileSize(cmd)
	return cmd
}

type sealOptions struct {
	IO   *IOStreams
	File string
	outputFlags
	sealFlags
	lim limitFlags // --max-file-size
}

func runSeal(ctx context.Context, opts *sealOptions) error {
	r := &runFiles{inPlace: opts.File}
	r.input("", opts.File, opts.IO)
	if err := opts.sealFlags.prepare("seal", opts.IO, r); err != nil {
		return err
	}
	r.output("-o", opts.Out)
	if err := r.check("seal"); err != nil {
		return err
	}
	if err := opts.outputFlags.check("seal", opts.IO, opts.File); err != nil {
		return err
	}
	file, err := opts.lim.readFile("seal", opts.File)
	if err != nil {
		return err
	}
	o := *opts.sealFlags.opts
	o.PDF = opts.lim.pdfOptions(ctx)
	o.PDF.Context = nil // the requests have their own bounds
	o.Write = pdfio.WriteOptions{Replace: opts.Force}
	start := time.Now()
	var res *seal.Result
	release := holdStop(ctx) // the output is written whole, or not at all
	if opts.Out == stdoutName {
		var sealed []byte
		if sealed, res, err = seal.Bytes(ctx, file, opts.File, o); err == nil {
			err = opts.put("seal", opts.IO, opts.File, sealed)
		}
	} else {
		res, err = seal.Write(ctx, file, opts.File, opts.Out, o)
	}
	release()
	if err != nil {
		return fileError("seal", opts.File, err)
	}
	writeSealed(opts.summary(opts.IO), opts.Out, res, int64(len(file)), time.Since(start))
	return nil
}

// writeSealed says what was sealed: a line per seal, the DSS, the sizes.
func writeSealed(w io.Writer, out string, res *seal.Result, orig int64, took time.Duration) {
	name := displayOutput(out)
	for _, s := range res.Seals {
		switch s.Type {
		case pdfio.SealSig:
			ts := ""
			if !s.Time.IsZero() {
				ts = ", timestamp " + s.Time.UTC().Format(time.RFC3339)
			}
			fmt.Fprintf(w, "%s: signature by %q (PAdES %s, claimed time %s%s)\n", name, s.Signer, s.Level, s.M.UTC().Format(time.RFC3339), ts)
		case pdfio.SealDocTimeStamp:
			fmt.Fprintf(w, "%s: document timestamp %s by %q\n", name, s.Time.UTC().Format(time.RFC3339), s.Signer)
		}
	}
	if d := res.DSS; d != nil {
		fmt.Fprintf(w, "%s: validation data: %s, %s, %s\n", name, plural(len(d.Certs), "certificate"), plural(len(d.OCSPs), "OCSP response"), plural(len(d.CRLs), "CRL"))
	}
	fmt.Fprintf(w, "%s: written (%d bytes appended; the original %d bytes are unchanged) in %v\n", name, res.Size-orig, orig, took.Round(time.Millisecond))
}
