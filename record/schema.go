// The manifest against its schema: no name twice in an object, and valid
// against docs/schemas/manifest.schema.json (draft 2020-12), by validators
// that are not webcap's.

package record

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/go-json-experiment/json/jsontext"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/webcap/webcap/docs"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// uniqueNames refuses an object that names a member twice: encoding/json
// keeps the last silently, and the manifest would not say what it seems
// to. The error names the member, its line and column, and where it is.
// Text that is not JSON is left to the decoder, whose errors say more.
func uniqueNames(name string, data []byte) error {
	dec := jsontext.NewDecoder(bytes.NewReader(data))
	_, err := dec.ReadValue()
	var se *jsontext.SyntacticError
	if !errors.As(err, &se) || !errors.Is(se.Err, jsontext.ErrDuplicateName) {
		return nil
	}
	member := se.JSONPointer.LastToken()
	field := pointerField(se.JSONPointer.Parent())
	if field != "" {
		field += "." + member
	} else {
		field = member
	}
	off := se.ByteOffset
	if i := bytes.Index(data[off:], []byte(`"`)); i >= 0 {
		off += int64(i) // the name itself
	}
	return at(name, data, off, field, fmt.Errorf("%q is given twice in one object (JSON keeps only one)", member))
}

// pointerField writes a JSON Pointer as the manifest's errors name fields:
// /pageSets/0/url is pageSets[0].url.
func pointerField(p jsontext.Pointer) string {
	var b strings.Builder
	for tok := range p.Tokens() {
		if tok != "" && strings.Trim(tok, "0123456789") == "" {
			fmt.Fprintf(&b, "[%s]", tok)
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(tok)
	}
	return b.String()
}

// manifestSchema is the manifest's schema, compiled once.
var manifestSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	b, err := docs.Schema("manifest")
	if err != nil {
		return nil, err
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	const url = "https://github.com/webcap/webcap/docs/schemas/manifest.schema.json"
	if err := c.AddResource(url, doc); err != nil {
		return nil, err
	}
	return c.Compile(url)
})

// validateSchema validates the manifest against its schema; the error
// names the first field that is wrong, and what is wrong with it.
func validateSchema(name string, data []byte) error {
	sch, err := manifestSchema()
	if err != nil {
		return fmt.Errorf("the manifest schema: %w", err) // a broken build of webcap
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(data))
	if err != nil {
		return &ManifestError{File: name, Err: err}
	}
	err = sch.Validate(v)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	field := ""
	for _, tok := range ve.InstanceLocation {
		switch {
		case strings.Trim(tok, "0123456789") == "" && tok != "":
			field += "[" + tok + "]"
		case field == "":
			field = tok
		default:
			field += "." + tok
		}
	}
	msg := ve.ErrorKind.LocalizedString(message.NewPrinter(language.English))
	return &ManifestError{File: name, Field: field, Err: fmt.Errorf("%s (webcap help schema manifest)", msg)}
}
