// Package seal signs and timestamps PDF files (issue 28, items 4 to 6):
// PAdES signatures and RFC 3161 document timestamps, each written by
// pdfio's incremental writer as an update that keeps every byte before it,
// so that a capture proves its own time and integrity with the standard
// tools (openssl, pdfsig, Acrobat).
//
// Standards:
//   - ISO 32000-2 §12.8: the signature dictionary (/Type /Sig or
//     /DocTimeStamp, /ByteRange over the whole revision but /Contents),
//     its field and widget, /AcroForm /SigFlags 3, the DSS (§12.8.4.3).
//   - ETSI EN 319 142-1 (PAdES): /SubFilter /ETSI.CAdES.detached with
//     ESS signing-certificate-v2 and no signing-time attribute (the claimed
//     time is /M): baseline B-B; with the signature's timestamp as the
//     unsigned attribute signature-time-stamp, B-T; with a DSS holding
//     the chains and their OCSP responses or CRLs, then a document
//     timestamp (/SubFilter /ETSI.RFC3161), B-LTA.
//   - RFC 3161: the time-stamp request (SHA-256 imprint, a nonce, the
//     TSA's certificate asked for) and its answer, checked before use:
//     granted, its signature valid, by a certificate for time-stamping,
//     over the imprint and with the nonce asked.
//   - RFC 5652 (CMS), RFC 5035 (ESS v2), RFC 6960 (OCSP), RFC 5280 (CRL).
//
// Usage:
//
//	s, err := seal.LoadPEM("signer.pem", "key.pem") // or seal.LoadPKCS12(file, password)
//	...
//	res, err := seal.Apply(ctx, "capture.pdf", "sealed.pdf", seal.Options{
//		Signer: s, TimestampURL: "http://tsa.example/", LTV: true})
//
// Bytes does the same in memory: capture, append and refresh seal the file
// they made before it is written, so that a service that fails leaves no
// output.
//
// Decisions:
//   - Nothing is written unless every seal is made: a time-stamping
//     authority, OCSP responder or CRL server that cannot be reached,
//     answers past its bound (1 MiB; a CRL 32 MiB) or its timeout, or
//     answers something that cannot be used is an error wrapping
//     ErrService, and the output is not created.
//   - The covered bytes are hashed as they are read back from the file
//     written (pdfio.Update.WriteSealed), not held twice.
//   - CMS is built by github.com/digitorus/pkcs7; the timestamp request
//     and answer by github.com/digitorus/timestamp; PKCS#12 is read by
//     software.sslmate.com/src/go-pkcs12.
//   - A chain's revocation data is an OCSP response when the certificate
//     names a responder that answers, else its CRL; a revoked certificate
//     is an error (RevokedError), and no seal is made with it.
//   - Verification of seals (the auditor's) is in verify*.go.
package seal
