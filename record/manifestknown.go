// The manifest's known shape, read directly: what encoding/json gives for
// an ordinary manifest, without its reflection, its scanner's second pass
// or a string allocation per value.

package record

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// decodeKnown decodes data, a whole manifest, into m (a zero Manifest but
// for name and dir) as encoding/json (DisallowUnknownFields, UseNumber)
// would, and reports the offset where its object ends. It is a reader of
// the ordinary only: on anything it is not sure encoding/json reads the
// same way (a name not spelled exactly as a field's, a name given twice,
// null, a value of another type, a number an integer field would refuse,
// invalid UTF-8, a lone surrogate escape, commands' settings, text after
// the object, any syntax error) it returns ok false, and m is to be
// thrown away: the manifest then goes the strict way, which finds its
// error, if any, where it always found it. FuzzDecodeKnown holds it to
// encoding/json.
//
// As it reads, it gathers what scanManifestText finds in the text for
// schemaSure: keys, the members named version, page and object counted,
// or nil when a string is empty (a member given as "" looks absent). It
// refuses the rest of what scanManifestText looks for (null, an escaped
// name, a name in another case) itself; TestDecodeKnown holds keys to
// scanManifestText's.
//
// The strings it decodes are substrings of one copy of data (a manifest
// of 100,000 page sets has some 700,000 of them).
func decodeKnown(data []byte, m *Manifest) (end int64, keys *[nameCount]int, ok bool) {
	d := &knownDecoder{data: data, text: string(data)}
	presized := presizePageSets(m, data)
	d.space()
	if !d.manifest(m) {
		return 0, nil, false
	}
	end = int64(d.i)
	if d.space(); d.i != len(data) {
		return 0, nil, false
	}
	if presized && len(m.PageSets) == 0 {
		m.PageSets = nil // (as parseManifestBytes does after encoding/json)
	}
	if !d.empty {
		keys = &d.keys
	}
	return end, keys, true
}

// knownDecoder reads data from i; text is data as a string, of which the
// strings decoded without escapes are substrings. keys counts the members
// named version, page and object; empty says a string was "".
type knownDecoder struct {
	data  []byte
	text  string
	i     int
	keys  [nameCount]int
	empty bool
}

// The JSON names of the manifest's fields, in the order of the masks
// knownDecoder.object keeps (TestDecodeKnownFields holds them to the
// types' tags).
var (
	manifestFields = []string{"input", "profile", "sources", "warc", "auxForm", "version", "commands", "pageSets", "imageSets"}
	commandFields  = []string{"name", "url", "levels", "sameSite", "samePath", "submit", "post", "contentType", "headers", "settings"}
	pageSetFields  = []string{"pages", "url", "redirects", "source", "contentType", "captured", "expires", "title", "submission", "command"}
	imageSetFields = []string{"url", "redirects", "source", "captured", "expires", "images"}
	imageFields    = []string{"page", "name", "object"}
)

func (d *knownDecoder) manifest(m *Manifest) bool {
	return d.object(manifestFields, func(f int) bool {
		switch f {
		case 0:
			return d.str(&m.Input)
		case 1:
			return d.str(&m.Profile)
		case 2:
			return d.str(&m.Sources)
		case 3:
			return d.str(&m.WARC)
		case 4:
			return d.str(&m.AuxForm)
		case 5:
			d.keys[nameVersion]++
			return d.float(&m.Version)
		case 6:
			return d.array(func() bool {
				m.Commands = append(m.Commands, Command{})
				return d.command(&m.Commands[len(m.Commands)-1])
			}, func() { m.Commands = []Command{} })
		case 7:
			return d.array(func() bool {
				m.PageSets = append(m.PageSets, PageSet{})
				return d.pageSet(&m.PageSets[len(m.PageSets)-1])
			}, func() {
				if m.PageSets == nil {
					m.PageSets = []PageSet{}
				}
			})
		case 8:
			return d.array(func() bool {
				m.ImageSets = append(m.ImageSets, ImageSet{})
				return d.imageSet(&m.ImageSets[len(m.ImageSets)-1])
			}, func() { m.ImageSets = []ImageSet{} })
		}
		return false
	})
}

func (d *knownDecoder) command(c *Command) bool {
	return d.object(commandFields, func(f int) bool {
		switch f {
		case 0:
			return d.str(&c.Name)
		case 1:
			return d.str(&c.URL)
		case 2:
			c.Levels = new(int64)
			return d.integer(c.Levels)
		case 3:
			return d.boolean(&c.SameSite)
		case 4:
			return d.boolean(&c.SamePath)
		case 5:
			return d.boolean(&c.Submit)
		case 6:
			c.Post = new(string)
			return d.str(c.Post)
		case 7:
			return d.str(&c.ContentType)
		case 8:
			return d.str(&c.Headers)
		}
		return false // settings: free-form values, encoding/json's
	})
}

func (d *knownDecoder) pageSet(s *PageSet) bool {
	return d.object(pageSetFields, func(f int) bool {
		switch f {
		case 0:
			return d.str(&s.Pages)
		case 1:
			return d.str(&s.URL)
		case 2:
			return d.redirects(&s.Redirects)
		case 3:
			return d.str(&s.Source)
		case 4:
			return d.str(&s.ContentType)
		case 5:
			return d.str(&s.Captured)
		case 6:
			return d.str(&s.Expires)
		case 7:
			return d.str(&s.Title)
		case 8:
			return d.str(&s.Submission)
		case 9:
			return d.str(&s.Command)
		}
		return false
	})
}

func (d *knownDecoder) imageSet(s *ImageSet) bool {
	return d.object(imageSetFields, func(f int) bool {
		switch f {
		case 0:
			return d.str(&s.URL)
		case 1:
			return d.redirects(&s.Redirects)
		case 2:
			return d.str(&s.Source)
		case 3:
			return d.str(&s.Captured)
		case 4:
			return d.str(&s.Expires)
		case 5:
			return d.array(func() bool {
				s.Images = append(s.Images, Image{})
				im := &s.Images[len(s.Images)-1]
				return d.object(imageFields, func(f int) bool {
					switch f {
					case 0:
						d.keys[namePage]++
						return d.int(&im.Page)
					case 1:
						return d.str(&im.Name)
					}
					d.keys[nameObject]++
					return d.int(&im.Object)
				})
			}, func() { s.Images = []Image{} })
		}
		return false
	})
}

func (d *knownDecoder) redirects(r *[][]string) bool {
	return d.array(func() bool {
		*r = append(*r, nil)
		chain := &(*r)[len(*r)-1]
		return d.array(func() bool {
			*chain = append(*chain, "")
			return d.str(&(*chain)[len(*chain)-1])
		}, func() { *chain = []string{} })
	}, func() { *r = [][]string{} })
}

// space skips JSON white space.
func (d *knownDecoder) space() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// next skips white space and reports whether c follows, taking it.
func (d *knownDecoder) next(c byte) bool {
	d.space()
	if d.i < len(d.data) && d.data[d.i] == c {
		d.i++
		return true
	}
	return false
}

// object reads an object whose member names are all of fields, each at
// most once, calling member with each name's index to read its value.
func (d *knownDecoder) object(fields []string, member func(f int) bool) bool {
	if !d.next('{') {
		return false
	}
	if d.next('}') {
		return true
	}
	var seen uint32
	for {
		if !d.next('"') {
			return false
		}
		f := d.name(fields)
		if f < 0 || seen&(1<<f) != 0 || !d.next(':') {
			return false
		}
		seen |= 1 << f
		d.space()
		if !member(f) {
			return false
		}
		if d.next('}') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// name reads a member's name after its opening quote: the index of the
// field it spells exactly, without escapes, or -1.
func (d *knownDecoder) name(fields []string) int {
	start := d.i
	for d.i < len(d.data) && d.data[d.i] != '"' && d.data[d.i] != '\\' {
		d.i++
	}
	if d.i == len(d.data) || d.data[d.i] != '"' {
		return -1
	}
	s := d.data[start:d.i]
	d.i++
	for f, name := range fields {
		if string(s) == name {
			return f
		}
	}
	return -1
}

// array reads an array, calling elem before each element; empty is
// called for [] (encoding/json makes a nil slice an empty one).
func (d *knownDecoder) array(elem func() bool, empty func()) bool {
	if !d.next('[') {
		return false
	}
	if d.next(']') {
		empty()
		return true
	}
	for {
		d.space()
		if !elem() {
			return false
		}
		if d.next(']') {
			return true
		}
		if !d.next(',') {
			return false
		}
	}
}

// str reads a string into s: a substring of text when it holds no escape.
func (d *knownDecoder) str(s *string) bool {
	if d.i >= len(d.data) || d.data[d.i] != '"' {
		return false
	}
	d.i++
	start, high := d.i, false
	for ; d.i < len(d.data); d.i++ {
		switch c := d.data[d.i]; {
		case c == '"':
			if high && !utf8.Valid(d.data[start:d.i]) {
				return false // encoding/json makes each bad byte U+FFFD
			}
			*s = d.text[start:d.i]
			d.empty = d.empty || d.i == start
			d.i++
			return true
		case c == '\\':
			return d.escaped(s, start)
		case c < 0x20:
			return false
		case c >= 0x80:
			high = true
		}
	}
	return false
}

// escaped reads the rest of a string that holds an escape at i, from its
// start: \" \\ \/ \b \f \n \r \t and \uXXXX (a surrogate only as half of
// a pair).
func (d *knownDecoder) escaped(s *string, start int) bool {
	b := append([]byte(nil), d.data[start:d.i]...)
	for d.i < len(d.data) {
		c := d.data[d.i]
		switch {
		case c == '"':
			if !utf8.Valid(d.data[start:d.i]) {
				return false
			}
			d.i++
			*s = string(b)
			return true
		case c < 0x20:
			return false
		case c != '\\':
			b = append(b, c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.data) {
			return false
		}
		d.i += 2
		switch e := d.data[d.i-1]; e {
		case '"', '\\', '/':
			b = append(b, e)
		case 'b':
			b = append(b, '\b')
		case 'f':
			b = append(b, '\f')
		case 'n':
			b = append(b, '\n')
		case 'r':
			b = append(b, '\r')
		case 't':
			b = append(b, '\t')
		case 'u':
			r, ok := d.hex4()
			if !ok {
				return false
			}
			if utf16.IsSurrogate(r) {
				if !d.hasPrefix(`\u`) {
					return false
				}
				d.i += 2
				r2, ok := d.hex4()
				if r = utf16.DecodeRune(r, r2); !ok || r == utf8.RuneError {
					return false
				}
			}
			b = utf8.AppendRune(b, r)
		default:
			return false
		}
	}
	return false
}

func (d *knownDecoder) hasPrefix(p string) bool {
	return len(d.data)-d.i >= len(p) && string(d.data[d.i:d.i+len(p)]) == p
}

// hex4 reads the four hexadecimal digits of a \u escape.
func (d *knownDecoder) hex4() (rune, bool) {
	if len(d.data)-d.i < 4 {
		return 0, false
	}
	var r rune
	for _, c := range d.data[d.i : d.i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	d.i += 4
	return r, true
}

func (d *knownDecoder) boolean(v *bool) bool {
	switch {
	case d.hasPrefix("true"):
		*v, d.i = true, d.i+4
	case d.hasPrefix("false"):
		*v, d.i = false, d.i+5
	default:
		return false
	}
	return true
}

// number reads a JSON number's text: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?,
// and whether it has a fraction or an exponent.
func (d *knownDecoder) number() (s string, real, ok bool) {
	start := d.i
	if d.hasPrefix("-") {
		d.i++
	}
	switch {
	case d.hasPrefix("0"):
		d.i++
	case d.digits() == 0:
		return "", false, false
	}
	if d.hasPrefix(".") {
		d.i++
		if d.digits() == 0 {
			return "", false, false
		}
		real = true
	}
	if d.hasPrefix("e") || d.hasPrefix("E") {
		d.i++
		if d.hasPrefix("+") || d.hasPrefix("-") {
			d.i++
		}
		if d.digits() == 0 {
			return "", false, false
		}
		real = true
	}
	return d.text[start:d.i], real, true
}

func (d *knownDecoder) digits() int {
	start := d.i
	for d.i < len(d.data) && '0' <= d.data[d.i] && d.data[d.i] <= '9' {
		d.i++
	}
	return d.i - start
}

// integer reads an integer that fits an int64 (encoding/json refuses 1.0
// and 1e2 for an integer field).
func (d *knownDecoder) integer(v *int64) bool {
	s, real, ok := d.number()
	if !ok || real {
		return false
	}
	n, err := strconv.ParseInt(s, 10, 64)
	*v = n
	return err == nil
}

func (d *knownDecoder) int(v *int) bool {
	var n int64
	if !d.integer(&n) || int64(int(n)) != n {
		return false
	}
	*v = int(n)
	return true
}

func (d *knownDecoder) float(v *float64) bool {
	s, _, ok := d.number()
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(s, 64)
	*v = f
	return err == nil
}
