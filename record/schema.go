// The manifest against its schema: no name twice in an object, and valid
// against docs/schemas/manifest.schema.json (draft 2020-12), by validators
// that are not webcap's.

package record

import (
	"bytes"
	"errors"
	"fmt"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/webcap/webcap/docs"
	"github.com/webcap/webcap/internal/jsonstrict"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// uniqueNames refuses an object that names a member twice
// (jsonstrict.Unique): encoding/json keeps the last silently, and the
// manifest would not say what it seems to. The error names the member,
// its line and column, and where it is.
func uniqueNames(name string, data []byte) error {
	dup := jsonstrict.Unique(data)
	if dup == nil {
		return nil
	}
	return &ManifestError{File: name, Line: dup.Line, Col: dup.Col, Field: dup.Field,
		Err: fmt.Errorf("%q is given twice in one object (JSON keeps only one)", dup.Member)}
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

// validateSchema validates the manifest, decoded by
// jsonschema.UnmarshalJSON, against its schema; the error names the first
// field that is wrong, and what is wrong with it.
func validateSchema(name string, v any) error {
	sch, err := manifestSchema()
	if err != nil {
		return fmt.Errorf("the manifest schema: %w", err) // a broken build of webcap
	}
	err = sch.Validate(v)
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return err
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	field := jsonstrict.Field(ve.InstanceLocation)
	msg := ve.ErrorKind.LocalizedString(message.NewPrinter(language.English))
	return &ManifestError{File: name, Field: field, Err: fmt.Errorf("%s (webcap help schema manifest)", msg)}
}
