package webcapture

import (
	"crypto/md5"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/webcap/webcap/canon"
)

// PageSetOptions say where a page came from and where its auxiliary files
// are.
type PageSetOptions struct {
	URL         string         // the page's own URL, for relative references
	ContentType string         // the page's Content-Type header, if known (for its charset)
	Aux         AuxSource      // the auxiliary files; nil: none can be found
	AuxEncoding AuxEncoding    // how each auxiliary identifier is fed to MD5
	Profile     *canon.Profile // how references are canonicalized; nil: PDF
}

// A PageSetResult is a page set identifier and how it was made.
type PageSetResult struct {
	ID ID
	// Complete is false when some reference could not be resolved or read:
	// ID then leaves out their identifiers, and is not the page's
	// identifier.
	Complete bool
	Base     string   // the URL relative references were resolved against
	Aux      []AuxRef // each auxiliary file once, in order of first reference
	Skipped  []AuxRef // references that are not auxiliary files (data:, javascript:, #anchor)
}

// An AuxRef is one auxiliary file of a page.
type AuxRef struct {
	First Reference // where it is first referenced
	URL   string    // its canonical URL ("" when it could not be made)
	ID    ID        // its identifier: the MD5 of its bytes (when Found)
	Found bool
	Err   string // why it was not found or skipped
	// Refused: the source holds it but refused to read it (ErrRefused: a
	// file outside the directory the sources are confined to).
	Refused bool
}

// PageSetID computes the identifier of a page set made from an HTML page
// (PDF 1.7 §10.9.2): MD5 over the page's bytes, then over the identifier of
// each auxiliary file the page references, each once, in order of first
// reference. References are found by HTMLReferences in the page decoded to
// UTF-8, resolved against <base href> or opts.URL, and canonicalized (so a
// file referenced two ways counts once). An auxiliary file's identifier is
// the MD5 of its bytes, whatever its type (a framed page included: its own
// auxiliary files are not followed). A non-HTML page (text/plain) has no
// references: its identifier is the MD5 of its bytes.
func PageSetID(page []byte, opts PageSetOptions) (*PageSetResult, error) {
	return pageSetID(page, opts, scanPage(page, opts.ContentType, true, false))
}

// pageSetID is PageSetID from the page's scan (scanPage with refs).
func pageSetID(page []byte, opts PageSetOptions, scan pageScan) (*PageSetResult, error) {
	res := &PageSetResult{Complete: true}
	refs := scan.refs
	c, err := resolver(scan.base, opts, res, slices.ContainsFunc(refs, auxiliary))
	if err != nil {
		return nil, err
	}
	h := md5.New()
	h.Write(page)
	var seen map[string]bool // (made for the first reference: most pages of a build have none)
	var buf []byte
	for _, ref := range refs {
		a := AuxRef{First: ref}
		if skip := notAuxiliary(ref.Raw); skip != "" {
			a.Err = skip
			res.Skipped = append(res.Skipped, a)
			continue
		}
		if seen == nil {
			seen = map[string]bool{}
		}
		switch u, err := canonical(c, ref.Raw); {
		case err != nil:
			a.Err = err.Error()
			if !seen["\x00"+ref.Raw] {
				seen["\x00"+ref.Raw] = true
				res.Aux = append(res.Aux, a)
				res.Complete = false
			}
			continue
		case seen[u]:
			continue
		default:
			seen[u] = true
			a.URL = u
		}
		a.ID, a.Found, a.Err, a.Refused = auxID(opts.Aux, a.URL)
		if a.Found {
			buf = opts.AuxEncoding.appendID(buf[:0], a.ID)
			h.Write(buf)
		} else {
			res.Complete = false
		}
		res.Aux = append(res.Aux, a)
	}
	h.Sum(res.ID[:0])
	return res, nil
}

// resolver sets res.Base, the URL the page's references resolve against,
// and returns their canonicalizer, or an error when that URL does not
// canonicalize. Without a reference to resolve (need false: none, or only
// what notAuxiliary skips, as most pages of a build) the canonicalizer
// is not made, only the URL checked (nil, nil when it canonicalizes).
func resolver(base string, opts PageSetOptions, res *PageSetResult, need bool) (*canon.Canonicalizer, error) {
	effective := opts.URL
	if base != "" {
		if opts.URL != "" {
			c, err := canon.New(opts.Profile, canon.WithBase(opts.URL))
			if err != nil {
				return nil, fmt.Errorf("webcapture: page URL %q: %w", opts.URL, err)
			}
			if b, err := c.String(base); err == nil {
				effective = b
			}
		} else if b, err := canon.New(opts.Profile); err == nil {
			if s, err := b.String(base); err == nil {
				effective = s
			}
		}
	}
	res.Base = effective
	if effective == "" {
		if !need {
			return nil, nil
		}
		return canon.New(opts.Profile)
	}
	if !need {
		// canon.New's check of a base is that it canonicalizes without one
		// (String's plain URL fast path, else the same steps): when it does,
		// New would not fail; when it does not, New words the error.
		if _, err := noBase(opts.Profile).String(effective); err == nil {
			return nil, nil
		}
	}
	c, err := canon.New(opts.Profile, canon.WithBase(effective)) // (no slice of options made per page)
	if err != nil {
		return nil, fmt.Errorf("webcapture: base URL %q: %w", effective, err)
	}
	return c, nil
}

// noBase is a canonicalizer of the profile p (PDF if nil) without a base.
func noBase(p *canon.Profile) *canon.Canonicalizer {
	if p == nil || p == canon.PDF {
		return pdfNoBase
	}
	c, _ := canon.New(p) // (fails only for a bad base, and there is none)
	return c
}

var pdfNoBase, _ = canon.New(canon.PDF)

// auxiliary says whether a reference is one pageSetID resolves: not one
// notAuxiliary skips.
func auxiliary(ref Reference) bool { return notAuxiliary(ref.Raw) == "" }

func canonical(c *canon.Canonicalizer, raw string) (string, error) {
	u, err := c.String(raw)
	if errors.Is(err, canon.ErrNoBase) {
		return "", fmt.Errorf("relative reference %q and no page URL to resolve it against", raw)
	}
	return u, err
}

// notAuxiliary says why a reference is not an auxiliary file, or "".
func notAuxiliary(raw string) string {
	lower := strings.ToLower(raw)
	switch {
	case strings.HasPrefix(lower, "data:"):
		return "inline data: URL"
	case strings.HasPrefix(lower, "javascript:"):
		return "javascript: URL"
	case strings.HasPrefix(raw, "#"):
		return "a place in the same document"
	case strings.HasPrefix(lower, "about:"):
		return "about: URL"
	}
	return ""
}

func auxID(src AuxSource, u string) (id ID, found bool, reason string, refused bool) {
	if src == nil {
		return ID{}, false, "no source of auxiliary files given", false
	}
	rc, err := src.Open(u)
	if err != nil {
		return ID{}, false, err.Error(), errors.Is(err, ErrRefused)
	}
	defer rc.Close()
	id, err = digest(rc)
	if err != nil {
		return ID{}, false, err.Error(), false
	}
	return id, true, "", false
}
