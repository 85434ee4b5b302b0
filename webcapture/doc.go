// Package webcapture is the data model of PDF Web Capture (PDF Reference 1.7
// §10.9; ISO 32000-1 and ISO 32000-2 §14.10): the Web Capture information
// dictionary (SpiderInfo) and its command dictionaries, content sets (page
// sets and image sets), source information with URL alias chains, and the
// digital identifiers that key the IDS name tree.
//
// The model holds what a file says, not what the specification wants it to
// say: a malformed identifier keeps its bytes (RawID), a date that does not
// parse keeps its text (Date), a text string keeps its bytes (Text), and an
// optional key that is absent is a nil pointer, so that a reader can show a
// damaged file truthfully and an auditor can judge it. Package pdfio reads
// and writes these values; this package never touches PDF syntax.
//
// Field comments name the PDF key, its type and, for optional keys, the
// default the specification gives when the key is absent.
//
// # Digital identifiers
//
// Identifiers are MD5 digests (PDF 1.7 §10.9.2, "Digital Identifiers"). The
// specification leaves several choices open; this package makes them so:
//
//   - An image set's identifier (ImageSetID) is the MD5 of the image file
//     as retrieved; a page set made from a PDF (PDFSourceID) has the MD5 of
//     the PDF file's own bytes (external streams are left out, Appendix H
//     note 164). Both read their input once, in constant memory.
//   - A page set's identifier (PageSetID) is MD5 over the page's bytes
//     followed by the identifiers of its auxiliary files, each once, in
//     order of first reference. The references are those of HTMLReferences
//     (img src and srcset, source srcset, input type=image, object data,
//     embed src, frame and iframe src, the background attribute), found in
//     the page decoded to UTF-8 by its declared charset, resolved against
//     its first <base href> or its own URL, and canonicalized (package
//     canon, PDF profile), so that one file referenced two ways counts once.
//     data:, javascript:, about: and same-document references are not
//     files. An auxiliary file's identifier is the MD5 of its bytes,
//     whatever it is (a framed page's own references are not followed).
//   - How an auxiliary identifier is fed to MD5 — "strings representing the
//     digital identifiers" — is not defined anywhere; the default is the 16
//     raw bytes (identifiers are byte strings, and the unique-name rules
//     escape bytes that only raw identifiers hold), and AuxEncoding offers
//     upper- and lower-case hex too.
//   - A reference that cannot be resolved or read leaves the result
//     incomplete (PageSetResult.Complete is false, and the reference says
//     why): the digest is then of what was found, and is not the page's
//     identifier. A capture (package capture) records such a digest only
//     for a reference that it could not or must not fetch — another scheme
//     than http and https (file:, ftp:), an address it may not reach (a
//     loopback, private or cloud metadata one), an answer that is not a
//     whole 200 — and the page's identifier then covers the page and the
//     auxiliary files that were fetched, in the same order, the others left
//     out; the capture's report names each one left out and why. Whoever
//     recomputes it from an archive of the same fetches gets the same
//     digest.
//   - Only whole 200 answers are identifier material: a 304 (Not Modified)
//     or 206 (Partial Content) answer carries no body to hash, and a
//     redirect's body is not the resource.
//   - The text identifier (TextID) is the MD5 of the page's text as
//     PageText defines it: decoded to UTF-8, character data between tags
//     with entities decoded, script and style excluded, white space runs
//     collapsed to one space and trimmed. Markup-only changes keep it; text
//     changes change it. Acrobat's own TIDs cannot be reproduced (its
//     extraction is not documented), so a file's TID is opaque. SourceID
//     gives it too when asked (SourceOptions.Text): a page is then decoded
//     and tokenized once for both identifiers, in one loop (scanHTML) that
//     HTMLReferences and PageText also use, not once per identifier (x/net/html's
//     tokenizer and charset sniffing are most of an identifier's cost).
//     That loop reads a page with a scanner of this package's own
//     (scanFast), which follows x/net/html's Tokenizer state for state for
//     the little an identifier needs (text, tags, their attributes) without
//     its allocations (a 4 KB buffer per page, a copy of every tag name and
//     attribute: a build scans 100,000 pages); a page it is not sure of (a
//     NUL byte, markup cut by the end, a script's "<!--" escapes, an
//     entity in an attribute kept) is read by the Tokenizer itself, which
//     stays the oracle: FuzzScanPage compares the two on every input.
//   - Beside each identifier, webcap records the SHA-256 of the source's
//     bytes (SHA256, Source.SHA256) in its own key of the source
//     information, /WCSHA256 (SourceInfo.SHA256; docs/sha256.md says where
//     and why): the bytes the identifier rule hashes first, which a WARC's
//     sha256: payload digest covers. Identifiers stay MD5.
//   - Unique names (DestinationName, FieldName) append the page set's
//     identifier to an original name after the escape pass (NUL, '.', '\')
//     and, for form fields, the nibble pass (two letters A-P per byte).
package webcapture
