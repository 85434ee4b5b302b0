// Package canon canonicalizes URLs for the keys of a PDF's URLS name tree
// (PDF Reference 1.7 §10.9.3 "URL Strings"; ISO 32000-1 and ISO 32000-2
// §14.10.3), and for comparing the URLs of today's web by RFC 3986 §6.
//
// # Usage
//
//	key, err := canon.Canonical("HTTP://Example.COM:80/a/./b/../c#top")
//	// key == "http://example.com/a/c"
//
//	c, err := canon.New(canon.RFC3986, canon.WithBase("http://a/b/c/d;p?q"), canon.WithInput(canon.Raw))
//	key, err = c.String("../g?x=100%")
//	buf, err = c.Append(buf[:0], "g") // no allocation when buf has room
//	ex, err := c.Explain("../../../g") // every step, before and after
//
// # Profiles
//
// A Profile is a named set of rules; there are three.
//
//   - PDF (the default): keys as PDF 1.7 and ISO 32000-1 define them. Dot
//     segments follow RFC 1808 §4 step 6: a ".." that would climb above the
//     root is kept ("http://a/../g" stays). Default ports: http 80, ftp 21.
//     Nothing else is normalized.
//   - PDF2: keys as ISO 32000-2 defines them. As PDF, but dot segments follow
//     RFC 3986 §5.2.4 remove_dot_segments: a ".." above the root is dropped.
//   - RFC3986: matching equivalent URLs of today's web. RFC 3986 dot segments;
//     escape hex upper-cased and escapes of unreserved characters
//     (A–Z a–z 0–9 - . _ ~) decoded; an empty path with an authority becomes
//     "/"; default ports of http 80, https 443, ftp 21, ws 80 and wss 443.
//
// No profile decodes an escape of a reserved character (%2F, %3F, %23, %25 …),
// sorts the query, strips "www" or changes the case of a path.
//
// # The steps
//
// Every URL goes through these steps, in this order (Step names them):
//
//	0  trim leading and trailing ASCII whitespace and C0 controls
//	1  make the URL absolute: RFC 3986 §5.2.2 with the §5.2.3 merge, then the
//	   profile's dot rule on the resolved path of a relative reference
//	2  strip the fragment: cut at the leftmost '#'
//	3  lower-case the scheme (ASCII letters)
//	4  lower-case the host; a host with non-ASCII characters goes through IDNA
//	5  file://localhost/x becomes file:///x
//	6  remove the profile's default port for the scheme
//	E  the encoding pass of the one-encoding-pass assumption (below)
//	7  dot segments, by the profile's rule, on every hierarchical path
//
// # The one-encoding-pass assumption
//
// The PDF text assumes that a canonical URL has gone through exactly one
// encoding pass, since no number of encoding or decoding passes can make an
// arbitrary URL stable ("%00" may be an encoded NUL or three characters). The
// caller declares which state the input is in (WithInput):
//
//   - Encoded (default), for URLs found in HTML and HTTP, which are encoded
//     once already: a well-formed %XX escape is kept as written (in PDF and
//     PDF2 even its hex case). Characters that can never survive an encoding
//     pass are encoded once, as UTF-8 with upper-case hex: C0 controls,
//     space, DEL, every non-ASCII character, and " < >. A '%' not followed by
//     two hex digits becomes %25, and a byte that is not valid UTF-8 is
//     encoded as itself. PDF and PDF2 keep the other "unsafe" characters of
//     RFC 1738 ({ } | \ ^ ~ [ ] and the backtick) as they are, because real
//     Acrobat files hold keys such as file:///C|/Users/x/ToBeSigned.txt and a
//     key must canonicalize to itself. RFC3986 encodes { } | \ ^ ` [ ] too.
//   - Raw, for components that were never encoded: the delimiters
//     : / ? # [ ] @ keep their roles, and every '%' is encoded (100% becomes
//     100%25). Under PDF and PDF2 raw input is otherwise encoded exactly as
//     encoded input is, so file:///C|/x has one key in both states. Under
//     RFC3986 everything outside unreserved, sub-delims and ": @ / ?" is
//     encoded.
//
// The encoding pass touches the userinfo, the path and the query; the host is
// handled by step 4 alone. The base URL is always taken as encoded. The
// result is always printable ASCII.
//
// # Decisions the PDF text leaves open
//
// The PDF text names the steps but not these details; the package decides
// them as follows.
//
//   - Resolution is RFC 3986's, not RFC 1808's: "?y" against
//     http://a/b/c/d;p?q gives http://a/b/c/d;p?y, ";x" gives
//     http://a/b/c/;x, and an empty reference gives the base without its
//     fragment. A reference with a scheme is absolute, even "http:g"
//     (strict parsing). A relative reference without a base, or against a
//     base that is not hierarchical (mailto:x), is an error.
//   - Step 1 does no dot processing of an absolute reference; step 7 handles
//     every path, and only of hierarchical URLs (with an authority, or a path
//     that starts with '/'). mailto: and urn: paths are left alone.
//   - Under PDF, RFC 1808's rules apply to the path without its leading '/',
//     so http://a/./g becomes http://a/g while http://a/../g stays: the RFC
//     1808 answer "http://a/./g" comes from its step 5, which an absolute
//     URL never reaches. Empty segments are complete segments:
//     http://a/b//../c becomes http://a/b/c. RFC 1808's ";params" are part
//     of the last segment, so "g;x=1/../y" resolves to http://a/b/c/y.
//   - Under RFC3986, escapes are normalized in one left-to-right scan after
//     the encoding pass and before step 7, so http://a/b/%2E%2E/g becomes
//     http://a/g. For a relative reference, step 1's dot rule runs on the
//     path as written, before "%2E" is decoded, as RFC 3986 §5.2.2 does.
//   - Hosts: a host must be valid UTF-8, as written and with its escapes
//     read as octets; a host with non-ASCII characters then goes through
//     UTS #46 ToASCII of Unicode 15.0.0 before anything else (see "Hosts and
//     IDNA" below); then a host holding a character that RFC 3986 does not
//     allow in a reg-name is an error. ASCII letters are
//     lower-cased; in PDF and PDF2 escapes in a host keep their hex case. An
//     IPv6 literal keeps its brackets and has its hex digits lower-cased,
//     without compression; an RFC 6874 zone ("%25eth0") is allowed and kept
//     as written. An IPvFuture literal is lower-cased.
//   - The userinfo is the part of the authority before its last '@'; it keeps
//     its letter case and goes through the encoding pass like the path. A '['
//     or ']' in the authority anywhere but around an IP literal is an error.
//   - Ports are compared as numbers (":080" is port 80); an empty port loses
//     its colon; other ports are written in decimal without leading zeros. A
//     port that is not all ASCII digits, or is above 65535, is an error.
//   - Empty delimiters are kept: "http://@a/" and "http://a/b?" keep their
//     '@' and '?'.
//   - A URL without an authority whose path would start with "//" after
//     step 7 gets "/." in front (http:/.//evil.com/x stays so), so that it can
//     never turn into a URL with an authority.
//   - Step 5 compares the host with "localhost" after step 4 and keeps any
//     userinfo or port.
//
// # Hosts and IDNA
//
// Step 4 of the PDF text says only "convert it to lowercase ASCII". For an
// ASCII host that is ASCII lower-casing, and it is all that happens to one.
// For a host with non-ASCII characters (http://München.de/) the sentence
// defines nothing: lower-casing ü gives ü, which is not ASCII, and a URLS key
// is an ASCII string. Such a host must become ASCII somehow to be a key at
// all, and the standard way, the one browsers use to make the host they
// request, is IDNA: UTS #46 mapping (which lower-cases, folds compatibility
// characters and normalizes) and then Punycode, so München.de becomes
// xn--mnchen-3ya.de. The key of a page is then the ASCII host a browser asked
// the server for, and the spellings a browser takes for one host (München.de,
// münchen.de, ＭÜＮＣＨＥＮ.de) share one key.
//
// Every profile uses UTS #46 of Unicode 15.0.0 with the options of the WHATWG
// URL Standard: nontransitional processing (ß is kept, not mapped to "ss"),
// CheckBidi and CheckJoiners on, CheckHyphens, VerifyDnsLength and
// UseSTD3ASCIIRules off (after IDNA, the reg-name check rejects the ASCII
// characters no host may hold). Only a host with non-ASCII characters goes
// through IDNA: an ASCII host, xn-- labels included, is lower-cased as
// written.
//
// A key must canonicalize to itself forever: a key written into a PDF today
// must be found again by the key that any later build computes from the same
// URL. UTS #46 changes between Unicode versions (Unicode 15.1 maps ẞ, U+1E9E,
// to ß where 15.0 maps it to "ss", so http://ẞ.de/ would become
// http://xn--zca.de/ instead of http://ss.de/; each version also makes valid
// characters that older tables reject), so the version is pinned. The IDNA
// code is internal/idna15: golang.org/x/net/idna with only its Unicode 15.0.0
// tables, and copies of the golang.org/x/text packages it uses (normalization,
// bidi classes) with theirs. A copy is needed because the module proxy serves
// golang.org/x/net at the version go.mod names, but that version still picks
// its tables by the Go version that builds it (by build tags: Unicode 15.0.0
// up to Go 1.26, 17.0.0 from Go 1.27) and its algorithm by the standard
// library's unicode.Version, so a toolchain upgrade alone would change keys.
// One fix is made to the copy: the Bidi rule applies when a label holds a
// right-to-left character after mapping, not before (ℵ maps to א), as UTS
// #46 says and ICU does. Tests hold the version: internal/idna15 checks
// every code point against IdnaMappingTable.txt 15.0.0; canon's tests check
// the cases where later versions differ, compare every code point's host
// with ICU 72 (Unicode 15.0, through PyICU), and run the IdnaTestV2.txt
// 15.0.0 conformance vectors when the file is there.
// Moving to another Unicode version changes keys; it is a decision to make on
// purpose, with a migration of existing keys, never a side effect of an
// upgrade.
//
// A host must be valid UTF-8, as written and with every well-formed escape
// read as the octet it stands for (a reg-name's escapes are UTF-8 octets, RFC
// 3986 §3.2.2); otherwise it is a bad host (ErrBadHost), reported at the first
// byte or escape that breaks UTF-8, in every profile and input state. IDNA
// would read each invalid byte as U+FFFD, so that hosts that differ only in
// such bytes (m\xFCnchen.de and m\xE4nchen.de, Latin-1) would share the key
// http://xn--mnchen-b078a.de/. A host in another charset must be converted
// to UTF-8 before it is canonicalized.
//
// # Errors
//
// Canonicalization never panics, on any byte string. A URL that cannot be
// canonicalized gets an *Error naming the input, the step, the byte offset
// and the reason; it wraps one of ErrNoBase, ErrOpaqueBase, ErrBadPort,
// ErrBadHost or ErrBadIPv6.
//
// # Performance
//
// String and Append first read the URL once to see whether it is plainly
// canonical (no step would change it) but for a fragment, which step 2 only
// drops; most URLs met in practice are, and they cost one scan and no
// allocation. Every other URL goes through the steps in one pass that writes
// the result as it goes; when the scan had found the scheme and the
// authority canonical before it gave up, that pass starts after them. On a
// corpus of 10,000 generated URLs (internal/urlcorpus) this takes about 0.4
// of the time of net/url's Parse and String, with at most one allocation per
// URL.
//
// # Properties
//
// For every URL x that canonicalizes, in either encoding state, the result is
// printable ASCII and canonicalizing it again as encoded input gives it back.
package canon
