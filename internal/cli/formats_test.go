package cli

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/webcap/webcap/audit"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/webcapture"
)

// The published schemas audit/export's tests vendor, with their provenance.
const formatSchemas = "../../audit/export/testdata/schemas"

// auditFormat runs webcap audit --format format on the capture and damaged
// samples and a file that is not a PDF, in a temporary directory, and
// returns its output, report --format's of the same files' audit --jsonl,
// and audit's exit status.
func auditFormat(t *testing.T, format string) (audited, reported []byte, code int) {
	t.Helper()
	dir := t.TempDir()
	files := []string{filepath.Join(dir, "notapdf.pdf")}
	if err := os.WriteFile(files[0], []byte("hello\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"capture", "damaged"} {
		b, err := pdfbuild.Sample(name)
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, name+".pdf")
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, p)
	}
	ios, _, out, errOut := Test()
	code = Main(context.Background(), append([]string{"audit", "--in-process", "--format", format}, files...), ios)
	if errOut.Len() > 0 {
		t.Errorf("audit --format %s: stderr %s", format, errOut)
	}
	// The same files through a shard and webcap report.
	ios, _, shard, _ := Test()
	Main(context.Background(), append([]string{"audit", "--in-process", "--jsonl"}, files...), ios)
	shardFile := filepath.Join(dir, "shard.jsonl")
	if err := os.WriteFile(shardFile, shard.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	var rep *bytes.Buffer
	ios, _, rep, errOut = Test()
	if c := Main(context.Background(), []string{"report", "--format", format, shardFile}, ios); c != code || errOut.Len() > 0 {
		t.Errorf("report --format %s: exit %d, stderr %q; want audit's exit %d, nothing", format, c, errOut, code)
	}
	return out.Bytes(), rep.Bytes(), code
}

// TestAuditFormatsValidate validates what audit --format and report
// --format print, through the commands (the JSON results converted to the library's), against the
// published schemas: the XSDs with xmllint, SARIF's JSON Schema with
// santhosh-tekuri/jsonschema, Archivematica's output with the contract's
// checker (json.loads and ast.literal_eval).
func TestAuditFormatsValidate(t *testing.T) {
	for _, tc := range []struct {
		format  string
		code    int // audit's exit status, but archivematica's
		schemas []string
	}{
		{"junit", exitInvalid, []string{"JUnit.xsd", "junit-10.xsd"}},
		{"premis", exitInvalid, []string{"premis-v3-0.xsd"}},
		{"sarif", exitInvalid, []string{"sarif-schema-2.1.0.json"}},
		{"archivematica", exitOK, []string{"check_fpr_output.py"}}, // the not-a-PDF is a finding (kind invalid), said in the output: no operational failure
		{"verapdf", exitInvalid, nil},                              // no published schema: audit/export checks its structure against real reports
	} {
		t.Run(tc.format, func(t *testing.T) {
			audited, reported, code := auditFormat(t, tc.format)
			if code != tc.code {
				t.Errorf("exit %d, want %d", code, tc.code)
			}
			for _, out := range [][]byte{audited, reported} {
				if len(out) == 0 {
					t.Fatal("no output")
				}
				for _, s := range tc.schemas {
					validateFormat(t, s, out)
				}
			}
		})
	}
}

func validateFormat(t *testing.T, schema string, out []byte) {
	t.Helper()
	path := filepath.Join(formatSchemas, schema)
	switch {
	case strings.HasSuffix(schema, ".xsd"):
		if _, err := exec.LookPath("xmllint"); err != nil {
			t.Skip("xmllint not installed (Debian: libxml2-utils)")
		}
		doc := filepath.Join(t.TempDir(), "out.xml")
		os.WriteFile(doc, out, 0o644)
		if b, err := exec.Command("xmllint", "--noout", "--nonet", "--schema", path, doc).CombinedOutput(); err != nil {
			t.Errorf("xmllint --schema %s: %v\n%s", schema, err, b)
		}
	case strings.HasSuffix(schema, ".py"):
		if _, err := exec.LookPath("python3"); err != nil {
			t.Skip("python3 not installed")
		}
		var args []string
		for i, line := range strings.SplitAfter(strings.TrimSuffix(string(out), "\n"), "\n") {
			p := filepath.Join(t.TempDir(), "line"+string(rune('0'+i))+".json")
			os.WriteFile(p, []byte(line), 0o644)
			args = append(args, p)
		}
		if b, err := exec.Command("python3", append([]string{path}, args...)...).CombinedOutput(); err != nil {
			t.Errorf("%s: %v\n%s", schema, err, b)
		}
	default:
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		c := jsonschema.NewCompiler()
		if err := c.AddResource(schema, doc); err != nil {
			t.Fatal(err)
		}
		sch, err := c.Compile(schema)
		if err != nil {
			t.Fatal(err)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
		if err != nil {
			t.Fatal(err)
		}
		if err := sch.Validate(v); err != nil {
			t.Errorf("does not validate against %s: %v", schema, err)
		}
	}
}

// fileResult maps the JSON's error kinds and findings to the library's.
func TestFileResult(t *testing.T) {
	for _, tc := range []struct {
		kind        string
		operational bool
		status      audit.Status
	}{{"io", true, audit.Unchecked}, {"interrupted", true, audit.Unchecked}, {"invalid", false, audit.NotWellFormed}, {"failed", false, audit.NotWellFormed}, {"a-newer-kind", false, audit.NotWellFormed}} {
		r := fileResult(fileJSON{Input: "a.pdf", Error: &errorJSON{Message: "m", Kind: tc.kind}})
		if r.Error.Operational() != tc.operational || r.Status() != tc.status {
			t.Errorf("kind %q: Operational() = %v, Status() = %q; want %v, %q", tc.kind, r.Error.Operational(), r.Status(), tc.operational, tc.status)
		}
	}
	r := fileResult(fileJSON{Input: "a.pdf", Findings: []findingJSON{
		{Rule: "WC-TREE-ORDER", Severity: "error", Object: "12 3 R", Key: "/Names"},
		{Rule: "WC-INFO-V-VALUE", Severity: "warning"},
		{Rule: "WC-DEPRECATED", Severity: "info"},
	}})
	want := []audit.Finding{
		{Rule: "WC-TREE-ORDER", Severity: audit.Serious, Object: webcapture.Ref{Num: 12, Gen: 3}, Key: "/Names"},
		{Rule: "WC-INFO-V-VALUE", Severity: audit.Caution},
		{Rule: "WC-DEPRECATED", Severity: audit.Notice},
	}
	if !reflect.DeepEqual(r.Findings, want) || r.Status() != audit.NotValid {
		t.Errorf("fileResult(...).Findings = %+v, status %q; want %+v, Well-Formed, but not valid", r.Findings, r.Status(), want)
	}
}

// The Archivematica command's verdicts and exit statuses, as
// docs/formats.md states them: a file that is not a PDF is a finding
// (kind invalid: fail, Not well-formed, exit 0); one that cannot be read
// is a failure of the command (Not checked, exit 3).
func TestArchivematicaExit(t *testing.T) {
	dir := t.TempDir()
	for name, b := range map[string]string{"notapdf.pdf": "hello\n", "empty.pdf": ""} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		file, kind, out string
		code            int
	}{
		{"notapdf.pdf", "invalid", `"fail","eventOutcomeDetailNote":"format=\"PDF\"; result=\"Not well-formed\"; error=\"not a PDF: no %PDF- header\""`, exitOK},
		{"empty.pdf", "invalid", `result=\"Not well-formed\"; error=\"not a PDF: the file is empty\""`, exitOK},
		{"missing.pdf", "io", `"fail","eventOutcomeDetailNote":"format=\"PDF\"; result=\"Not checked\"`, exitIOError},
	} {
		p := filepath.Join(dir, tc.file)
		ios, _, out, _ := Test()
		if code := Main(context.Background(), []string{"audit", "--in-process", "--format", "archivematica", "--quiet", p}, ios); code != tc.code || !strings.Contains(out.String(), tc.out) {
			t.Errorf("audit --format archivematica %s: exit %d, %s; want %d and %s", tc.file, code, out, tc.code, tc.out)
		}
		ios, _, out, _ = Test()
		Main(context.Background(), []string{"audit", "--in-process", "--json", p}, ios)
		if want := `"kind":"` + tc.kind + `"`; !strings.Contains(out.String(), want) {
			t.Errorf("audit --json %s: %s, want %s", tc.file, out, want)
		}
	}
	doc, err := os.ReadFile("../../docs/formats.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"has error kind `invalid`", "`fail` with `result=\"Not well-formed\"`", "exit 0"} {
		if !bytes.Contains(doc, []byte(want)) {
			t.Errorf("docs/formats.md does not say %q", want)
		}
	}
}
