package cli

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/docs"
)

// The schema help topic: the JSON Schemas of every --json output and of
// the build manifest, as docs/schemas publishes them (package docs embeds
// that one copy).

// schemaTopic is one schema: its name (webcap help schema NAME, and
// "schema": "webcap.NAME/1" in the output), its kind, and what it
// describes.
type schemaTopic struct {
	name  string
	kind  string // stream: an object per line; document: one document; input: what webcap reads
	about string
}

func schemaTopics() []schemaTopic {
	return []schemaTopic{
		{"canon", "stream", "canon --json: one object per URL"},
		{"id", "stream", "id --json: one object per file"},
		{"info", "stream", "info --json: one object per file"},
		{"lookup", "stream", "lookup --json: one object per query"},
		{"audit-file", "stream", "audit --jsonl: one object per file, as each is done"},
		{"audit", "document", "audit --json: every file's findings and a summary"},
		{"build", "document", "build --json: the content sets added"},
		{"fix", "document", "fix --json: the repairs, planned or made"},
		{"capture", "document", "capture --json: the pages captured and the URLs skipped"},
		{"append", "document", "append --json: as capture's, with the input"},
		{"refresh", "document", "refresh --json: what changed, page by page"},
		{"version", "document", "version --json"},
		{"manifest", "input", "the manifest webcap build reads"},
	}
}

const schemaHelp = `Every webcap command prints JSON with --json, of one of two kinds: a
stream (one object per input, each on its own line: canon, id, info,
lookup, audit --jsonl) or one document (the other commands). Each object
or document starts with "schema": "webcap.NAME/1", NAME being one of the
JSON Schemas (draft 2020-12) below; "webcap help schema NAME" prints one.

A failure is in the JSON too: an input that fails is an object with
"error": {"message", "kind"} in the stream or document (kind: failed, io or
interrupted, as the exit status), and a command that fails as a whole
prints {"schema", "input", "output", "error"}. A usage error (exit status
2) prints no JSON. The exit status is the same with --json as without.
One concept has one name in every command: docs/json.md lists them.

The same schemas are in docs/schemas in the source.`

// newSchemaTopic is the help topic "schema", with one topic per schema:
// webcap help schema lists them, webcap help schema NAME prints one.
func newSchemaTopic(ios *IOStreams) *cobra.Command {
	topic := &cobra.Command{
		Use:   "schema",
		Short: "JSON Schemas of every --json output and of the build manifest",
		Long:  schemaHelp,
	}
	topic.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c != topic {
			printSchema(ios, c.Name())
			return
		}
		fmt.Fprintf(ios.Out, "%s\n\nSchemas:\n", schemaHelp)
		tw := tabwriter.NewWriter(ios.Out, 2, 8, 2, ' ', 0)
		for _, t := range schemaTopics() {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", t.name, t.kind, t.about)
		}
		tw.Flush()
		fmt.Fprintf(ios.Out, "\nUsage:\n  webcap help schema NAME\n")
	})
	for _, t := range schemaTopics() {
		topic.AddCommand(&cobra.Command{Use: t.name, Short: "JSON Schema: " + t.about})
	}
	return topic
}

// printSchema prints a schema as docs/schemas holds it.
func printSchema(ios *IOStreams, name string) {
	b, err := docs.Schema(name)
	if err != nil { // a topic without its file: TestSchemaTopics fails first
		fmt.Fprintf(ios.ErrOut, "webcap: help schema: no schema %s\n", name)
		return
	}
	ios.Out.Write(b)
}
