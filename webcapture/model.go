package webcapture

import (
	"fmt"
	"strings"
)

// Info is the Web Capture information dictionary, the catalog's SpiderInfo
// (PDF 1.7 Table 10.37; ISO 32000-1 Table 350).
type Info struct {
	Ref      Ref        // where the dictionary is; zero if direct
	Version  *Number    // V, number, required; ISO: shall be 1.0 (Acrobat writes 1.25)
	Commands []*Command // C, array of indirect command dictionaries, in execution order
}

// A Command is a Web Capture command dictionary (PDF 1.7 Tables 10.43–10.44;
// ISO 32000-1 Tables 357–358).
type Command struct {
	Ref         Ref       // where the dictionary is; zero if direct
	URL         string    // URL, ASCII string, required: the initial URL
	Levels      *int64    // L, integer, default 1: levels of links followed
	Flags       *Flags    // F, integer, default 0
	PostData    *[]byte   // P, string or stream: the posted data; present = POST
	PostStream  bool      // P was a stream (PostData nil: a stream too large to read)
	PostRef     Ref       // the stream P is, when it is one (read or written): commands may share it
	ContentType *string   // CT, ASCII string, default application/x-www-form-urlencoded
	Headers     *string   // H, string: extra request header lines, each ending in CR LF
	Settings    *Settings // S, command settings dictionary
}

// Depth returns L, or its default 1.
func (c *Command) Depth() int64 {
	if c.Levels == nil {
		return 1
	}
	return *c.Levels
}

// FlagsOrDefault returns F, or its default 0.
func (c *Command) FlagsOrDefault() Flags {
	if c.Flags == nil {
		return 0
	}
	return *c.Flags
}

// IsPost reports whether the command is an HTTP POST: P is present (its
// data is PostData, unless P is a stream the reader did not read).
func (c *Command) IsPost() bool { return c.PostData != nil || c.PostStream }

// Flags is a command's F: an unsigned 32-bit field whose bit 1 is the
// lowest-order bit.
type Flags uint32

// The defined flags; every other bit is reserved and must be 0.
const (
	SameSite Flags = 1 << 0 // bit 1: follow links to the initial URL's host only
	SamePath Flags = 1 << 1 // bit 2: follow links below the initial URL's path only
	Submit   Flags = 1 << 2 // bit 3: the command is a form submission
)

// Reserved returns the bits that are set but not defined.
func (f Flags) Reserved() Flags { return f &^ (SameSite | SamePath | Submit) }

// String lists the set flags by name: "SameSite|Submit", "0" for none, and
// reserved bits as hex.
func (f Flags) String() string {
	var parts []string
	for _, d := range []struct {
		f    Flags
		name string
	}{{SameSite, "SameSite"}, {SamePath, "SamePath"}, {Submit, "Submit"}} {
		if f&d.f != 0 {
			parts = append(parts, d.name)
		}
	}
	if r := f.Reserved(); r != 0 {
		parts = append(parts, fmt.Sprintf("reserved(0x%X)", uint32(r)))
	}
	if len(parts) == 0 {
		return "0"
	}
	return strings.Join(parts, "|")
}

// Settings is a command settings dictionary (PDF 1.7 Table 10.45; ISO
// 32000-1 Table 359).
type Settings struct {
	Ref     Ref              // where the dictionary is; zero if direct
	Global  Dict             // G, dictionary: settings for every conversion engine
	Engines []EngineSettings // C, dictionary keyed by engine name, in key order
}

// EngineSettings is one entry of a settings dictionary's C.
type EngineSettings struct {
	Key      Name       // the key as written: company:product:version:contentType
	Engine   EngineName // Key parsed; zero if it does not parse
	Err      error      // why Key does not parse, or nil
	Settings Object     // the value: a dictionary for a conforming file
}

// An EngineName names a conversion engine: company:product:version:contentType
// (PDF 1.7 §10.9.6). Every field is case-sensitive; Product may be empty.
type EngineName struct {
	Company, Product, Version, ContentType string
}

// String joins the fields with ':'.
func (e EngineName) String() string {
	return e.Company + ":" + e.Product + ":" + e.Version + ":" + e.ContentType
}

// ParseEngineName parses an engine name such as "ADBE:H2PDF:1.0:HTML" or
// "ADBE::1.0:HTML". It must have four fields; only the product may be empty;
// no field holds ':'; and as a PDF name it is at most 127 bytes.
func ParseEngineName(s string) (EngineName, error) {
	f := strings.Split(s, ":")
	if len(f) != 4 {
		return EngineName{}, fmt.Errorf("webcapture: engine name %q has %d fields, want company:product:version:contentType", s, len(f))
	}
	e := EngineName{f[0], f[1], f[2], f[3]}
	switch {
	case e.Company == "":
		return e, fmt.Errorf("webcapture: engine name %q has no company", s)
	case e.Version == "":
		return e, fmt.Errorf("webcapture: engine name %q has no version", s)
	case e.ContentType == "":
		return e, fmt.Errorf("webcapture: engine name %q has no content type", s)
	case len(s) > 127:
		return e, fmt.Errorf("webcapture: engine name %q is %d bytes, longer than a PDF name may be (127)", s, len(s))
	}
	return e, nil
}

// A Subtype is a content set's S: SPS or SIS.
type Subtype string

// The two content-set subtypes.
const (
	PageSet  Subtype = "SPS" // Spider page set
	ImageSet Subtype = "SIS" // Spider image set
)

// A ContentSet is a Web Capture content set, a page set or an image set
// (PDF 1.7 Tables 10.38–10.40; ISO 32000-1 Tables 352–354).
type ContentSet struct {
	Ref         Ref           // where the dictionary is; zero if direct
	Type        *Name         // Type, name, optional: SpiderContentSet (Acrobat never writes it)
	Subtype     Subtype       // S, name, required: SPS or SIS (other values kept as found)
	ID          *RawID        // ID, byte string, required: the digital identifier
	Objects     []Ref         // O, array, required: indirect references to pages (SPS) or image XObjects (SIS)
	Sources     []*SourceInfo // SI, dictionary or array, required
	SourceArray bool          // SI was an array
	ContentType *string       // CT, ASCII string: MIME type of the source
	Created     *Date         // TS, date: when the set was created
	Title       *Text         // T, text string (page sets)
	TextID      *RawID        // TID, byte string (page sets): MD5 of the source's text
	RefCounts   []int64       // R, integer or array (image sets): pages using each O entry
	RefArray    bool          // R was an array
}

// IsPageSet reports whether S is SPS.
func (cs *ContentSet) IsPageSet() bool { return cs.Subtype == PageSet }

// IsImageSet reports whether S is SIS.
func (cs *ContentSet) IsImageSet() bool { return cs.Subtype == ImageSet }

// SourceURLs returns every URL the set's sources name, each once, in order:
// for each source, its redirect chains and then its final URL.
func (cs *ContentSet) SourceURLs() []string {
	var out []string
	seen := map[string]bool{}
	for _, si := range cs.Sources {
		for _, u := range si.URLs.All() {
			if !seen[u] {
				seen[u] = true
				out = append(out, u)
			}
		}
	}
	return out
}

// SourceInfo is a source information dictionary (PDF 1.7 Table 10.41; ISO
// 32000-1 Table 355).
type SourceInfo struct {
	Ref        Ref         // where the dictionary is; zero if direct
	URLs       AliasedURLs // AU, ASCII string or URL alias dictionary, required
	Updated    *Date       // TS, date: last time the set was known up to date with this source
	Expires    *Date       // E, date: when the set goes out of date
	Submission *int64      // S, integer, default 0 (page sets only): see Submission
	Command    *Ref        // C, indirect reference to a command dictionary (page sets only)
	// SHA256 is webcap's own key WCSHA256, not in ISO 32000: a byte string
	// of 32 bytes, the SHA-256 of the source's bytes (Source.SHA256). It is
	// kept as read, whatever its length; nil when absent.
	SHA256 *RawID // WCSHA256, byte string (webcap's private key)
}

// SubmissionOrDefault returns S, or its default 0.
func (si *SourceInfo) SubmissionOrDefault() Submission {
	if si.Submission == nil {
		return NotSubmitted
	}
	return Submission(*si.Submission)
}

// Submission is how a source was reached: a source information's S.
type Submission int64

// The defined submission types.
const (
	NotSubmitted Submission = 0 // not by form submission
	SubmitGET    Submission = 1 // form submission by HTTP GET
	SubmitPOST   Submission = 2 // form submission by HTTP POST
)

func (s Submission) String() string {
	switch s {
	case NotSubmitted:
		return "none"
	case SubmitGET:
		return "GET"
	case SubmitPOST:
		return "POST"
	}
	return fmt.Sprintf("undefined(%d)", int64(s))
}

// AliasedURLs is a source's AU: one URL, or a URL alias dictionary (PDF 1.7
// Table 10.42) naming the final URL and the redirect chains that led to it.
type AliasedURLs struct {
	Ref    Ref        // the alias dictionary's place; zero if direct or a plain string
	Alias  bool       // AU was a URL alias dictionary
	URL    string     // the plain string, or the dictionary's U (required)
	Chains [][]string // C, array of arrays of ASCII strings: redirect chains, in order
}

// All returns every URL named, each once: the chains in order, then URL.
func (a AliasedURLs) All() []string {
	var out []string
	seen := map[string]bool{}
	add := func(u string) {
		if !seen[u] {
			seen[u] = true
			out = append(out, u)
		}
	}
	for _, chain := range a.Chains {
		for _, u := range chain {
			add(u)
		}
	}
	if a.URL != "" {
		add(a.URL)
	}
	return out
}
