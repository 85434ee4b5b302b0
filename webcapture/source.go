package webcapture

import (
	"crypto/md5"
	"crypto/sha256"
	"mime"
	"strings"

	"github.com/gabriel-vasile/mimetype"
	"github.com/webcap/webcap/canon"
)

// A SourceKind is which identifier rule applies to a source (PDF 1.7
// §10.9.2): a page with auxiliary files, or a file whose identifier is the
// MD5 of its bytes (an image, a PDF, any other file).
type SourceKind int

// The kinds of source. SourceAuto asks SourceID to decide.
const (
	SourceAuto  SourceKind = iota
	SourcePage             // an HTML or XHTML page: its bytes, then its auxiliary files' identifiers
	SourceImage            // an image: the MD5 of its bytes (an image set's rule)
	SourcePDF              // a PDF file: the MD5 of its bytes (a page set made from a PDF)
	SourceFile             // any other file (plain text, XML, JSON, ...): the MD5 of its bytes
)

func (k SourceKind) String() string {
	switch k {
	case SourcePage:
		return "page"
	case SourceImage:
		return "image"
	case SourcePDF:
		return "pdf"
	case SourceFile:
		return "file"
	}
	return "auto"
}

// KindOf decides which identifier rule applies to data: by the media type
// declared for it (a server's Content-Type, a content set's /CT, a
// manifest's contentType), and when none is declared (or only
// application/octet-stream), by the media type its bytes show, sniffed with
// github.com/gabriel-vasile/mimetype (net/http's sniffer takes SVG for a
// page, XHTML for plain XML, and misses AVIF and HTML after a byte-order
// mark). HTML and XHTML are pages; image/* are images; application/pdf is a
// PDF; anything else is a file. It returns the media type it decided by,
// without parameters.
func KindOf(data []byte, contentType string) (SourceKind, string) {
	mt, err := mediaType(contentType)
	if err != nil || mt == "application/octet-stream" {
		mt, _, _ = mime.ParseMediaType(mimetype.Detect(data).String())
	}
	mt = strings.ToLower(mt)
	switch {
	case mt == "text/html" || mt == "application/xhtml+xml":
		return SourcePage, mt
	case strings.HasPrefix(mt, "image/"):
		return SourceImage, mt
	case mt == "application/pdf":
		return SourcePDF, mt
	}
	return SourceFile, mt
}

// mediaType is mime.ParseMediaType's media type of a Content-Type: a
// plain one (lower-case type/subtype of letters, digits, '.', '+' and '-',
// without parameters or spaces, as "text/html") is its own, without the
// parameter map ParseMediaType makes for every value.
func mediaType(contentType string) (string, error) {
	slash := strings.IndexByte(contentType, '/')
	plain := slash > 0 && slash < len(contentType)-1
	for i := 0; plain && i < len(contentType); i++ {
		switch c := contentType[i]; {
		case 'a' <= c && c <= 'z', '0' <= c && c <= '9', c == '.', c == '+', c == '-':
		default:
			plain = i == slash
		}
	}
	if plain {
		return contentType, nil
	}
	mt, _, err := mime.ParseMediaType(contentType)
	return mt, err
}

// SourceOptions say what is known of a source besides its bytes.
type SourceOptions struct {
	// Kind forces a rule; SourceAuto (the zero value) lets KindOf decide
	// from ContentType and the bytes.
	Kind SourceKind
	// ContentType is the media type declared for the source, if any.
	ContentType string
	// URL, Aux, AuxEncoding and Profile are a page's, as PageSetOptions.
	URL         string
	Aux         AuxSource
	AuxEncoding AuxEncoding
	Profile     *canon.Profile
	// Text asks for the source's text identifier too (Source.TextID), when
	// it has text: a page (HasText), or a source whose media type (as
	// declared, or as sniffed) is text/*. A page's text comes from the
	// same decoding and the same pass of the HTML tokenizer as its
	// identifier.
	Text bool
}

// A Source is a source's identifier and how it was made.
type Source struct {
	Kind      SourceKind
	MediaType string // the media type the rule was chosen by ("" when Kind was forced)
	ID        ID
	// SHA256 is the SHA-256 of the source's own bytes, as retrieved: the
	// bytes the identifier rule hashes first (for an image, a PDF or another
	// file, all it hashes; for a page, the page before its auxiliary
	// identifiers), the bytes a WARC response record's payload digest
	// covers. A source information dictionary records it as /WCSHA256.
	SHA256 [sha256.Size]byte
	// Page is how a page's identifier was made (its auxiliary files, and
	// whether all were found); nil for the other kinds.
	Page *PageSetResult
	// TextID and Text are the source's text identifier and its text, as
	// TextID(data, the media type) gives them, when SourceOptions.Text
	// asked and the source has text; nil and "" otherwise.
	TextID *ID
	Text   string
}

// Complete reports whether the identifier is the source's whole
// identifier: false for a page some of whose auxiliary files were not
// found (Page.Aux says which).
func (s *Source) Complete() bool { return s.Page == nil || s.Page.Complete }

// SourceID computes a source's digital identifier by the rule that applies
// to it (KindOf, or opts.Kind): for a page, PageSetID; for anything else,
// the MD5 of its bytes. It is the one place that decides: every command
// that computes, checks or records an identifier calls it. It also gives
// the SHA-256 of the same bytes (Source.SHA256).
func SourceID(data []byte, opts SourceOptions) (*Source, error) {
	s := &Source{Kind: opts.Kind, SHA256: SHA256(data)}
	if s.Kind == SourceAuto {
		s.Kind, s.MediaType = KindOf(data, opts.ContentType)
	}
	ct := opts.ContentType
	if ct == "" && s.MediaType != "" {
		ct = s.MediaType
	}
	text := opts.Text && (HasText(s.Kind, s.MediaType) || strings.HasPrefix(strings.ToLower(ct), "text/"))
	if s.Kind != SourcePage {
		s.ID = md5.Sum(data)
		if text {
			s.setText(textID(PageText(data, ct)))
		}
		return s, nil
	}
	scan := scanPage(data, ct, true, text)
	r, err := pageSetID(data, PageSetOptions{URL: opts.URL, ContentType: ct, Aux: opts.Aux, AuxEncoding: opts.AuxEncoding, Profile: opts.Profile}, scan)
	if err != nil {
		return nil, err
	}
	s.ID, s.Page = r.ID, r
	if text {
		s.setText(textID(scan.text))
	}
	return s, nil
}

func (s *Source) setText(id ID, text string) { s.TextID, s.Text = &id, text }

// SHA256 returns the SHA-256 of a source's bytes, as retrieved: the bytes
// SourceID is given, which its identifier rule hashes first (Source.SHA256).
// It is the one place that decides which bytes a /WCSHA256 covers.
func SHA256(data []byte) [sha256.Size]byte { return sha256.Sum256(data) }

// HasText reports whether a text identifier (TID) makes sense for a source
// of this kind and media type: pages and text files.
func HasText(kind SourceKind, mediaType string) bool {
	return kind == SourcePage || strings.HasPrefix(mediaType, "text/")
}
