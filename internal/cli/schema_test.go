package cli

import (
	"bytes"
	"context"
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	invopop "github.com/invopop/jsonschema"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/webcap/webcap/docs"
)

// outputTypes are the Go types of each schema's objects: what the command
// prints, then (when it can fail as a whole) its failure object.
var outputTypes = map[string][]any{
	"canon":          {canonJSON{}, failureJSON{}},
	"id":             {idJSON{}, failureJSON{}},
	"info":           {infoReport{}, failureJSON{}},
	"lookup":         {lookupJSON{}, failureJSON{}},
	"audit-file":     {fileLineJSON{}, failureJSON{}},
	"audit":          {auditReport{}, failureJSON{}},
	"build":          {buildSummary{}, failureJSON{}},
	"fix":            {fixSummary{}, failureJSON{}},
	"capture":        {captureSummary{}, failureJSON{}},
	"capture-seed":   {seedLineJSON{}},
	"append":         {captureSummary{}, failureJSON{}},
	"refresh":        {refreshSummary{}, failureJSON{}},
	"refresh-report": {refreshReportJSON{}},
	"version":        {versionInfo{}},
}

// The schemas in docs/schemas (shipped in the binary) are the ones the Go
// types give: generated here by invopop/jsonschema, and compared byte for
// byte (go test ./internal/cli -run TestSchemas -update rewrites them).
func TestSchemas(t *testing.T) {
	for _, topic := range schemaTopics() {
		if topic.name == "manifest" { // written by hand, checked in record
			continue
		}
		types, ok := outputTypes[topic.name]
		if !ok {
			t.Errorf("schema %s: no Go type", topic.name)
			continue
		}
		want := generateSchema(t, topic, types)
		got, err := docs.Schema(topic.name)
		switch {
		case *update:
			if err := os.WriteFile(filepath.Join("..", "..", "docs", "schemas", topic.name+".schema.json"), want, 0o644); err != nil {
				t.Fatal(err)
			}
		case err != nil:
			t.Errorf("schema %s: %v (go test ./internal/cli -run TestSchemas -update writes it)", topic.name, err)
		case !bytes.Equal(got, want):
			t.Errorf("docs/schemas/%s.schema.json is not what the Go types give (go test ./internal/cli -run TestSchemas -update rewrites it)", topic.name)
		}
	}
	if len(docs.SchemaNames()) != len(schemaTopics()) && !*update {
		t.Errorf("docs/schemas holds %v, the topics are %d", docs.SchemaNames(), len(schemaTopics()))
	}
}

func generateSchema(t *testing.T, topic schemaTopic, types []any) []byte {
	r := &invopop.Reflector{
		ExpandedStruct: true,
		Mapper:         mapSchema,
		Namer:          func(t reflect.Type) string { return strings.TrimSuffix(t.Name(), "JSON") },
		LookupComment:  fieldComments(t),
	}
	root := &invopop.Schema{
		Version:     invopop.Version,
		ID:          invopop.ID("https://github.com/webcap/webcap/docs/schemas/" + topic.name + ".schema.json"),
		Title:       "webcap " + topic.name,
		Description: "The JSON webcap prints: " + topic.about + " (a " + topic.kind + "). See docs/json.md.",
		Definitions: invopop.Definitions{},
	}
	var variants []*invopop.Schema
	for _, ty := range types {
		s := r.Reflect(ty)
		for k, d := range s.Definitions {
			root.Definitions[k] = d
		}
		s.Version, s.ID, s.Definitions = "", "", nil
		p, ok := s.Properties.Get("schema")
		if !ok {
			t.Fatalf("%T has no schema field", ty)
		}
		if first := s.Properties.Oldest(); first.Key != "schema" {
			t.Errorf("%T: the first field is %s, not schema", ty, first.Key)
		}
		p.Const = schemaName(topic.name)
		variants = append(variants, s)
	}
	if len(variants) == 1 {
		v := variants[0]
		v.Version, v.ID, v.Title, v.Description, v.Definitions = root.Version, root.ID, root.Title, root.Description, root.Definitions
		root = v
	} else {
		root.AnyOf = variants
	}
	if len(root.Definitions) == 0 {
		root.Definitions = nil
	}
	b, err := json.MarshalIndent(root, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return append(b, '\n')
}

// mapSchema gives the schema of the types that marshal themselves.
func mapSchema(t reflect.Type) *invopop.Schema {
	hex := func(what string) *invopop.Schema {
		props := invopop.NewProperties()
		props.Set("hex", &invopop.Schema{Type: "string", Pattern: "^([0-9A-F]{2})*$", Description: "upper-case hex of the bytes"})
		return &invopop.Schema{OneOf: []*invopop.Schema{
			{Type: "string", Description: what},
			{Type: "object", Properties: props, Required: []string{"hex"}, AdditionalProperties: invopop.FalseSchema},
		}}
	}
	switch t {
	case reflect.TypeFor[bytesJSON]():
		return hex("the bytes, when they are valid UTF-8")
	case reflect.TypeFor[textJSON]():
		return hex("the text decoded, when every byte decodes")
	}
	return nil
}

// fieldComments looks up the comment of a field of this package's types
// or capture's, as its description (the types' own comments speak of Go).
func fieldComments(t *testing.T) func(reflect.Type, string) string {
	comments := map[string]string{} // package path.Type.Field
	fset := token.NewFileSet()
	for pkg, dir := range map[string]string{"github.com/webcap/webcap/internal/cli": ".", "github.com/webcap/webcap/capture": "../../capture"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.go"))
		for _, file := range files {
			if strings.HasSuffix(file, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, file, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			ast.Inspect(f, func(n ast.Node) bool {
				ts, ok := n.(*ast.TypeSpec)
				if !ok {
					return true
				}
				if st, ok := ts.Type.(*ast.StructType); ok {
					for _, fl := range st.Fields.List {
						text := strings.TrimSpace(fl.Comment.Text())
						if text == "" {
							text = strings.TrimSpace(fl.Doc.Text())
						}
						for _, name := range fl.Names {
							if text != "" {
								comments[pkg+"."+ts.Name.Name+"."+name.Name] = strings.Join(strings.Fields(text), " ")
							}
						}
					}
				}
				return true
			})
		}
	}
	return func(ty reflect.Type, field string) string {
		if field == "" {
			return ""
		}
		return comments[ty.PkgPath()+"."+ty.Name()+"."+field]
	}
}

// checkSchema validates each JSON value in out against the schema its
// "schema" field names, as docs/schemas ships it, with a validator that is
// not webcap's (santhosh-tekuri/jsonschema): the tests that read a
// command's --json (runJSON, runJSONLines: the browser suites' capture,
// append and refresh among them) check it so.
func checkSchema(t *testing.T, out []byte) {
	t.Helper()
	dec := json.NewDecoder(bytes.NewReader(out))
	dec.UseNumber()
	for {
		var v any
		if err := dec.Decode(&v); err == io.EOF {
			return
		} else if err != nil {
			t.Fatalf("output is not JSON: %v", err)
		}
		obj, _ := v.(map[string]any)
		name, _ := obj["schema"].(string)
		name = strings.TrimSuffix(strings.TrimPrefix(name, "webcap."), "/1")
		b, err := docs.Schema(name)
		if err != nil {
			t.Fatalf("output names no schema webcap ships (%q): %v", obj["schema"], err)
		}
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(name+".schema.json", doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(name + ".schema.json")
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("output does not validate against schema %s: %v", name, err)
		}
	}
}

// webcap help schema lists every schema; webcap help schema NAME prints
// the one docs/schemas holds, byte for byte.
func TestHelpSchema(t *testing.T) {
	ios, _, out, _ := Test()
	if code := Main(context.Background(), []string{"help", "schema"}, ios); code != 0 {
		t.Fatalf("help schema: exit %d", code)
	}
	for _, name := range docs.SchemaNames() {
		if !strings.Contains(out.String(), "\n  "+name+" ") {
			t.Errorf("help schema does not list %s:\n%s", name, out)
		}
		ios, _, out, _ := Test()
		want, _ := docs.Schema(name)
		if code := Main(context.Background(), []string{"help", "schema", name}, ios); code != 0 || !bytes.Equal(out.Bytes(), want) {
			t.Errorf("help schema %s: exit %d, %d bytes, want the %d of docs/schemas/%s.schema.json", name, code, out.Len(), len(want), name)
		}
	}
}
