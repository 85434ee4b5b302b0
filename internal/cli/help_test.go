package cli

import (
	"context"
	"strings"
	"testing"

	"github.com/webcap/webcap/audit"
)

// The help topics through Main: what they print and the exit code.
func TestHelpTopics(t *testing.T) {
	cases := []struct {
		name   string
		args   []string
		code   int
		stdout []string // each somewhere in stdout
		stderr string
	}{
		{"exit codes", []string{"help", "exit-codes"}, exitOK, []string{"2  usage error"}, ""},
		{"exit codes directly", []string{"exit-codes"}, exitOK, []string{"2  usage error"}, ""},
		{"rules", []string{"help", "rules"}, exitOK, []string{"Severities", "WC-PDF-XREF (error)\n", "WC-SOURCE-FORM (info)\n"}, ""},
		{"one rule", []string{"help", "rules", "WC-PZ"}, exitOK, []string{"WC-PZ (warning)\n    a page's preferred zoom /PZ that is not a positive number\n    Reference: ISO 32000-1 Table 30\n"}, ""},
		{"rule with its paragraph", []string{"help", "rules", "WC-R-COUNT"}, exitOK, []string{"WC-R-COUNT (warning)\n", "Reference: ISO 32000-1 §14.10.4.3\n\n    WC-R-ZERO, WC-R-COUNT and WC-IMAGE-UNUSED compare"}, ""},
		{"rule in lower case", []string{"help", "rules", "wc-pz"}, exitOK, []string{"WC-PZ (warning)"}, ""},
		{"rule directly", []string{"rules", "WC-PZ"}, exitOK, []string{"WC-PZ (warning)"}, ""},
		{"unknown rule", []string{"help", "rules", "WC-NOPE"}, exitUsage, nil, `webcap: help rules: no rule "WC-NOPE"`},
		{"unknown rule directly", []string{"rules", "WC-NOPE"}, exitUsage, nil, `webcap: help rules: no rule "WC-NOPE"`},
		{"unknown schema directly", []string{"schema", "nope"}, exitUsage, nil, `no schema "nope"`},
		{"unknown topic", []string{"help", "nope"}, exitUsage, nil, `webcap: help: no command or topic "nope"`},
		{"no topic takes a flag", []string{"help", "exit-codes", "--bogus"}, exitUsage, nil, "--bogus"},
		{"exit codes take no argument", []string{"help", "exit-codes", "x"}, exitUsage, nil, `"x"`},
		{"schemas", []string{"help", "schema"}, exitOK, []string{"Schemas:\n", "  manifest        input ", "  refresh-report  document  refresh --report"}, ""},
		{"one schema", []string{"help", "schema", "info"}, exitOK, []string{`"$id": "https://github.com/webcap/webcap/docs/schemas/info.schema.json"`}, ""},
		{"unknown schema", []string{"help", "schema", "nope"}, exitUsage, nil, `webcap: help schema: no schema "nope"`},
		{"one schema at a time", []string{"help", "schema", "info", "id"}, exitUsage, nil, "give one schema name, not 2"},
		{"a command", []string{"help", "canon"}, exitOK, []string{"webcap canon [flags]"}, ""},
		{"root", []string{"help"}, exitOK, []string{"Additional help topics:", "webcap rules "}, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, out, errOut := Test()
			if code := Main(context.Background(), tc.args, ios); code != tc.code {
				t.Errorf("exit %d, want %d; stderr:\n%s", code, tc.code, errOut)
			}
			for _, s := range tc.stdout {
				if !strings.Contains(out.String(), s) {
					t.Errorf("stdout lacks %q:\n%s", s, out)
				}
			}
			if tc.stderr != "" && !strings.Contains(errOut.String(), tc.stderr) {
				t.Errorf("stderr = %q, want %q in it", errOut, tc.stderr)
			}
			if tc.code != exitOK && out.Len() > 0 {
				t.Errorf("stdout on failure: %q", out)
			}
		})
	}
}

// webcap help rules shows every rule of the library's table, in its order,
// with its severity, summary and reference.
func TestHelpRulesListsEveryRule(t *testing.T) {
	var b strings.Builder
	if err := showRules(&b, nil); err != nil {
		t.Fatal(err)
	}
	text := b.String()
	flat := strings.Join(strings.Fields(text), " ")
	at := 0
	for _, r := range audit.Rules {
		head := "\n" + r.ID + " (" + r.Severity.String() + ")\n"
		i := strings.Index(text[at:], head)
		if i < 0 {
			t.Errorf("no %q after offset %d", head, at)
			continue
		}
		at += i + len(head)
		for _, s := range []string{r.Summary, "Reference: " + r.Spec} {
			if !strings.Contains(flat, strings.Join(strings.Fields(s), " ")) {
				t.Errorf("%s: no %q", r.ID, s)
			}
		}
	}
	for _, l := range strings.Split(text, "\n") {
		if n := len([]rune(l)); n > ruleWidth+4 && strings.Contains(l, " ") {
			t.Errorf("line of %d characters: %q", n, l)
		}
	}
}

func TestWrap(t *testing.T) {
	cases := []struct {
		name, text string
		width      int
		want       string
	}{
		{"empty", "", 10, ""},
		{"fits", "a b c", 10, "  a b c\n"},
		{"breaks", "aaa bbb ccc", 9, "  aaa bbb\n  ccc\n"},
		{"long word alone", "a bbbbbbbbbbbb c", 6, "  a\n  bbbbbbbbbbbb\n  c\n"},
		{"runes count", "§§§ §§§", 9, "  §§§ §§§\n"},
		{"spaces collapse", " a \n b ", 10, "  a b\n"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var b strings.Builder
			wrap(&b, tc.text, "  ", tc.width)
			if got := b.String(); got != tc.want {
				t.Errorf("wrap(%q, %d) = %q, want %q", tc.text, tc.width, got, tc.want)
			}
		})
	}
}
