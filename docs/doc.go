// Package docs ships the JSON Schemas in docs/schemas inside the binary:
// the schema of every command's --json output and of the build manifest
// (webcap help schema NAME prints one). The files are the one copy: the
// published documents are the embedded ones. internal/cli's tests generate
// the output schemas from the Go types and check that these files match
// them byte for byte (go test ./internal/cli -run Schema -update rewrites
// them); record validates every manifest against manifest.schema.json.
package docs

import (
	"embed"
	"io/fs"
	"sort"
	"strings"
)

//go:embed schemas/*.schema.json
var schemas embed.FS

// Schema returns the JSON Schema called name (e.g. "info", "manifest"), as
// docs/schemas/NAME.schema.json holds it.
func Schema(name string) ([]byte, error) {
	return fs.ReadFile(schemas, "schemas/"+name+".schema.json")
}

// SchemaNames lists the schemas, sorted.
func SchemaNames() []string {
	entries, _ := fs.ReadDir(schemas, "schemas")
	var names []string
	for _, e := range entries {
		names = append(names, strings.TrimSuffix(e.Name(), ".schema.json"))
	}
	sort.Strings(names)
	return names
}
