package export

import (
	"encoding/xml"
	"io"
	"strconv"
)

// xmlw writes an XML document a token or an element at a time, with the
// indenting encoder of xmlDoc, until the first error, which it keeps: a
// report is written as it is read, never built whole. What it writes is
// what the encoder writes of the same elements as Go values.
type xmlw struct {
	w   io.Writer
	enc *xml.Encoder
	err error
}

// open starts element name.
func (x *xmlw) open(name string, attrs ...xml.Attr) {
	if x.err == nil {
		x.err = x.enc.EncodeToken(xml.StartElement{Name: xml.Name{Local: name}, Attr: attrs})
	}
}

// close ends element name.
func (x *xmlw) close(name string) {
	if x.err == nil {
		x.err = x.enc.EncodeToken(xml.EndElement{Name: xml.Name{Local: name}})
	}
}

// elem writes v as element name.
func (x *xmlw) elem(v any, name string) {
	if x.err == nil {
		x.err = x.enc.EncodeElement(v, start(name))
	}
}

// text writes s as character data, escaped as the encoder escapes a
// string field (newlines too: xml.EscapeText).
func (x *xmlw) text(s string) {
	if x.err == nil {
		x.err = x.enc.Flush()
	}
	if x.err == nil {
		x.err = xml.EscapeText(x.w, []byte(s))
	}
}

// attr is an attribute.
func attr(name, value string) xml.Attr { return xml.Attr{Name: xml.Name{Local: name}, Value: value} }

// intAttr is an attribute of an integer value.
func intAttr(name string, v int) xml.Attr { return attr(name, strconv.Itoa(v)) }
