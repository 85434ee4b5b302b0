package canon

import (
	"fmt"
	"strings"
)

// A Profile is a named set of canonicalization rules. The three predefined
// profiles are the only ones; they are safe for concurrent use.
type Profile struct {
	name string
	// keepAbove keeps ".." segments that would climb above the root
	// (RFC 1808 §4 step 6 as the PDF text applies it) instead of dropping
	// them (RFC 3986 §5.2.4).
	keepAbove bool
	// normEscapes upper-cases the hex of every escape and decodes escapes
	// of unreserved characters (RFC 3986 §6.2.2.1, §6.2.2.2).
	normEscapes bool
	// rootPath writes "/" for an empty path when there is an authority
	// (RFC 3986 §6.2.3).
	rootPath bool
	// encMask and rawMask name the class of bytes that the encoding pass
	// must encode in the encoded and the raw input state.
	encMask, rawMask uint16
	ports            []schemePort
}

type schemePort struct {
	scheme string
	port   int
}

var (
	// PDF canonicalizes URLS name-tree keys as PDF 1.7 and ISO 32000-1 define
	// them: RFC 1808 dot-segment rules (a ".." above the root is kept),
	// default ports http 80 and ftp 21, and no other normalization. It is the
	// default profile.
	PDF = &Profile{
		name:      "pdf",
		keepAbove: true,
		encMask:   cEncPDF,
		rawMask:   cEncPDF,
		ports:     []schemePort{{"http", 80}, {"ftp", 21}},
	}

	// PDF2 canonicalizes URLS keys as ISO 32000-2 defines them: as PDF, but
	// dot segments follow RFC 3986 §5.2.4 (a ".." above the root is dropped).
	PDF2 = &Profile{
		name:    "pdf2",
		encMask: cEncPDF,
		rawMask: cEncPDF,
		ports:   []schemePort{{"http", 80}, {"ftp", 21}},
	}

	// RFC3986 matches equivalent URLs of today's web by RFC 3986 §6.2.2 and
	// §6.2.3: RFC 3986 dot segments, escape hex upper-cased, escapes of
	// unreserved characters decoded, an empty path with an authority written
	// as "/", the characters RFC 3986 forbids encoded, and the default ports
	// of http, https, ftp, ws and wss removed.
	RFC3986 = &Profile{
		name:        "rfc3986",
		normEscapes: true,
		rootPath:    true,
		encMask:     cEncRFC,
		rawMask:     cEncRFCRaw,
		ports: []schemePort{
			{"http", 80}, {"https", 443}, {"ftp", 21}, {"ws", 80}, {"wss", 443},
		},
	}
)

// Profiles lists the predefined profiles, the default first.
func Profiles() []*Profile { return []*Profile{PDF, PDF2, RFC3986} }

// Name returns the profile's name: "pdf", "pdf2" or "rfc3986".
func (p *Profile) Name() string { return p.name }

// String returns the profile's name.
func (p *Profile) String() string { return p.name }

// ParseProfile returns the predefined profile with the given name.
func ParseProfile(name string) (*Profile, error) {
	for _, p := range Profiles() {
		if p.name == name {
			return p, nil
		}
	}
	return nil, fmt.Errorf("canon: unknown profile %q (want pdf, pdf2 or rfc3986)", name)
}

// defaultPort returns p's default port for scheme, or -1. The
// scheme is compared without regard to ASCII case.
func defaultPort[S string | []byte](p *Profile, scheme S) int {
	for _, sp := range p.ports {
		if equalFoldASCII(scheme, sp.scheme) {
			return sp.port
		}
	}
	return -1
}

// Encoding is the encoding state of an input URL: how many encoding passes
// it has been through (see the package documentation).
type Encoding uint8

const (
	// Encoded input has been through one encoding pass, as URLs found in
	// HTML and HTTP have. Well-formed escapes are kept as written.
	Encoded Encoding = iota
	// Raw input was never encoded: every '%' is a literal percent sign.
	Raw
)

func (e Encoding) String() string {
	if e == Raw {
		return "raw"
	}
	return "encoded"
}

// ParseEncoding returns the Encoding named "encoded" or "raw".
func ParseEncoding(name string) (Encoding, error) {
	switch strings.ToLower(name) {
	case "encoded":
		return Encoded, nil
	case "raw":
		return Raw, nil
	}
	return 0, fmt.Errorf("canon: unknown input encoding %q (want encoded or raw)", name)
}
