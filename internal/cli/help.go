package cli

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
)

// Help topics are what a user needs that belongs to no one command: the exit
// codes, the audit rules. A topic is a command with no run function, so
// cobra lists it under "Additional help topics", and "webcap help TOPIC"
// and "webcap TOPIC" both show it; its help function prints the topic for
// the arguments after its name ("webcap help rules WC-PZ"). cobra's own help
// command drops those arguments, so newHelpCmd replaces it: it checks them
// with the topic's Args (a usage error) and passes them on.

// A topic is one help topic: how it is called and what it prints.
type topic struct {
	Use     string // "rules [RULE...]"
	Short   string // one line, for the list of topics
	Example string
	Args    cobra.PositionalArgs // checks the arguments; nil: none
	// Complete completes an argument; nil: none.
	Complete func(args []string, toComplete string) []cobra.Completion
	// Show prints the topic for args, which Args has accepted.
	Show func(w io.Writer, args []string) error
}

// newTopicCmd returns topic t as a command. Its Long is the topic without
// arguments as a preformatted block, which is what the man pages and the
// Markdown reference show (see docs_test.go).
func newTopicCmd(ios *IOStreams, t topic) *cobra.Command {
	if t.Args == nil {
		t.Args = cobra.NoArgs
	}
	var long strings.Builder
	if err := t.Show(&long, nil); err != nil {
		panic(fmt.Sprintf("help topic %s: %v", t.Use, err)) // a bug: Show with no argument cannot fail
	}
	cmd := &cobra.Command{
		Use:         t.Use,
		Short:       t.Short,
		Long:        preformatted(long.String()),
		Example:     t.Example,
		Args:        t.Args,
		Annotations: map[string]string{topicAnnotation: "true"},
		// A topic has no flag of its own.
		DisableFlagsInUseLine: true,
	}
	if t.Complete != nil {
		cmd.ValidArgsFunction = func(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return t.Complete(args, toComplete), cobra.ShellCompDirectiveNoFileComp
		}
	}
	cmd.SetHelpFunc(func(c *cobra.Command, _ []string) {
		args := c.Flags().Args() // set by cobra ("webcap rules X") or by newHelpCmd
		if err := c.ValidateArgs(args); err != nil {
			fmt.Fprintf(ios.ErrOut, "webcap: help %s: %v\n", c.Name(), err)
			return
		}
		if err := t.Show(ios.Out, args); err != nil {
			fmt.Fprintf(ios.ErrOut, "webcap: help %s: %v\n", c.Name(), err)
		}
	})
	return cmd
}

// topicAnnotation marks a help topic's command.
const topicAnnotation = "webcap:topic"

func isTopic(c *cobra.Command) bool { return c.Annotations[topicAnnotation] != "" }

// preformatted indents text as a Markdown code block.
func preformatted(text string) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = "    " + l
		}
	}
	return strings.Join(lines, "\n")
}

// newHelpCmd replaces cobra's help command, to pass a topic its arguments
// and to make an unknown topic a usage error.
func newHelpCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "help [command | topic [argument...]]",
		Short: "Help about any command or topic",
		Long: `Help shows the help of any command ("webcap help audit" is "webcap audit
--help"), or a help topic: "webcap help exit-codes", "webcap help rules".`,
		Example: `  $ webcap help audit
  $ webcap help exit-codes
  $ webcap help rules WC-R-ZERO`,
		ValidArgsFunction: completeHelp,
		RunE: func(c *cobra.Command, args []string) error {
			target, rest, err := c.Root().Find(args)
			if err != nil || target == nil {
				return usagef("help: no command or topic %q", strings.Join(args, " "))
			}
			if isTopic(target) {
				if err := target.ParseFlags(rest); err != nil {
					return &usageError{fmt.Errorf("help %s: %w", target.Name(), err)}
				}
				if err := target.ValidateArgs(target.Flags().Args()); err != nil {
					return &usageError{fmt.Errorf("help %s: %w", target.Name(), err)}
				}
			}
			target.InitDefaultHelpFlag()
			target.InitDefaultVersionFlag()
			return target.Help()
		},
	}
}

// completeHelp completes "webcap help": the commands and topics under the
// words so far, then a topic's own arguments.
func completeHelp(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	target, rest, err := c.Root().Find(args)
	if err != nil {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	if target == nil {
		target = c.Root()
	}
	if isTopic(target) {
		if target.ValidArgsFunction == nil {
			return nil, cobra.ShellCompDirectiveNoFileComp
		}
		return target.ValidArgsFunction(target, rest, toComplete)
	}
	var out []cobra.Completion
	for _, sub := range target.Commands() {
		if (sub.IsAvailableCommand() || isTopic(sub)) && strings.HasPrefix(sub.Name(), toComplete) {
			out = append(out, cobra.CompletionWithDesc(sub.Name(), sub.Short))
		}
	}
	return out, cobra.ShellCompDirectiveNoFileComp
}

func newExitCodesTopic(ios *IOStreams) *cobra.Command {
	return newTopicCmd(ios, topic{
		Use:     "exit-codes",
		Short:   "Exit codes of every webcap command",
		Example: `  $ webcap help exit-codes`,
		Show: func(w io.Writer, _ []string) error {
			_, err := io.WriteString(w, exitCodesHelp)
			return err
		},
	})
}

func newRulesTopic(ios *IOStreams) *cobra.Command {
	return newTopicCmd(ios, topic{
		Use:   "rules [RULE...]",
		Short: "The rules webcap audit checks, with their severities and references",
		Example: `  # Every rule
  $ webcap help rules
  # Two rules
  $ webcap help rules WC-R-ZERO WC-PZ`,
		Args: func(_ *cobra.Command, args []string) error {
			for _, a := range args {
				if _, ok := ruleNamed(a); !ok {
					return fmt.Errorf("no rule %q (webcap help rules lists them)", a)
				}
			}
			return nil
		},
		Complete: func(args []string, toComplete string) []cobra.Completion {
			var out []cobra.Completion
			for _, r := range audit.Rules {
				if strings.HasPrefix(r.ID, strings.ToUpper(toComplete)) {
					out = append(out, cobra.CompletionWithDesc(r.ID, r.Severity.String()+": "+r.Summary))
				}
			}
			return out
		},
		Show: showRules,
	})
}

// ruleNamed finds a rule by its ID, in any case.
func ruleNamed(id string) (audit.Rule, bool) {
	for _, r := range audit.Rules {
		if strings.EqualFold(r.ID, id) {
			return r, true
		}
	}
	return audit.Rule{}, false
}

const rulesIntro = `webcap audit checks these rules (audit.Rules; docs/rules.md in the source
explains some at length). Severities follow what real files show, since every viewer reads what
Acrobat writes: an error is a structure that is broken or a lookup that gives a wrong or no answer;
a warning is a departure that Acrobat itself makes, or one that breaks no lookup; info is worth
knowing and not wrong. "webcap help rules RULE..." shows some rules only, with the paragraph that
explains them when there is one.`

// showRules prints the rules named by ids; all of them, after rulesIntro,
// when there is none. Each is its ID and severity, then its summary and
// reference indented, and, when named, the paragraph that explains it, if
// the library has one (Rule.Detail).
func showRules(w io.Writer, ids []string) error {
	rules := audit.Rules
	if len(ids) > 0 {
		rules = nil
		for _, id := range ids {
			r, _ := ruleNamed(id)
			rules = append(rules, r)
		}
	}
	var b strings.Builder
	if len(ids) == 0 {
		wrap(&b, rulesIntro, "", ruleWidth)
		b.WriteByte('\n')
	}
	for i, r := range rules {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s (%s)\n", r.ID, r.Severity)
		wrap(&b, r.Summary, "    ", ruleWidth)
		wrap(&b, "Reference: "+r.Spec, "    ", ruleWidth)
		if d := r.Detail(); d != "" && len(ids) > 0 {
			b.WriteByte('\n')
			wrap(&b, d, "    ", ruleWidth)
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// ruleWidth is the width rules are wrapped to: 80 columns, less the indent
// of a preformatted block in a man page.
const ruleWidth = 72

// wrap writes text in lines of at most width characters (longer words
// alone), each starting with indent.
func wrap(b *strings.Builder, text, indent string, width int) {
	n := 0
	for _, word := range strings.Fields(text) {
		l := len([]rune(word))
		switch {
		case n == 0:
		case n+1+l > width:
			b.WriteByte('\n')
			n = 0
		default:
			b.WriteByte(' ')
			n++
		}
		if n == 0 {
			b.WriteString(indent)
			n = len(indent)
		}
		b.WriteString(word)
		n += l
	}
	if n > 0 {
		b.WriteByte('\n')
	}
}
