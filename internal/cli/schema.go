package cli

import (
	"fmt"
	"io"
	"strings"
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
		{"capture-seed", "stream", "capture --urls-from --jsonl: one object per seed, as each is done"},
		{"append", "document", "append --json: as capture's, with the input"},
		{"refresh", "document", "refresh --json: what changed, page by page"},
		{"refresh-report", "document", "refresh --report FILE.json: what changed, with a word diff of each changed page"},
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

// newSchemaTopic is the help topic "schema": webcap help schema lists the
// schemas, webcap help schema NAME prints one; an unknown NAME is a usage
// error.
func newSchemaTopic(ios *IOStreams) *cobra.Command {
	return newTopicCmd(ios, topic{
		Use:   "schema [NAME]",
		Short: "JSON Schemas of every --json output and of the build manifest",
		Example: `  # The schemas there are
  $ webcap help schema
  # info --json's schema
  $ webcap help schema info`,
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case len(args) > 1:
				return fmt.Errorf("give one schema name, not %d", len(args))
			case len(args) == 1 && !isSchema(args[0]):
				return fmt.Errorf("no schema %q (webcap help schema lists them)", args[0])
			}
			return nil
		},
		Complete: func(args []string, toComplete string) []cobra.Completion {
			if len(args) > 0 {
				return nil
			}
			var out []cobra.Completion
			for _, t := range schemaTopics() {
				if strings.HasPrefix(t.name, toComplete) {
					out = append(out, cobra.CompletionWithDesc(t.name, t.about))
				}
			}
			return out
		},
		Show: showSchema,
	})
}

func isSchema(name string) bool {
	for _, t := range schemaTopics() {
		if t.name == name {
			return true
		}
	}
	return false
}

// showSchema prints the list of schemas, or the one args names as
// docs/schemas holds it.
func showSchema(w io.Writer, args []string) error {
	if len(args) == 1 {
		b, err := docs.Schema(args[0])
		if err != nil { // a topic without its file: TestSchemaTopics fails first
			return fmt.Errorf("no schema %s: %w", args[0], err)
		}
		_, err = w.Write(b)
		return err
	}
	fmt.Fprintf(w, "%s\n\nSchemas:\n", schemaHelp)
	tw := tabwriter.NewWriter(w, 2, 8, 2, ' ', 0)
	for _, t := range schemaTopics() {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", t.name, t.kind, t.about)
	}
	return tw.Flush()
}
