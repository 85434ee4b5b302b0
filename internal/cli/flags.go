package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
	"github.com/webcap/webcap/canon"
	"github.com/webcap/webcap/capture"
)

// The flags several commands share, each parsed in one place: a bad value
// is a usage error as the flags are parsed, before anything runs.

// addProfileFlag adds --profile, the canonicalization of URLS keys, with
// its completions. *p is set as the flags are parsed; def is the default
// (nil: the command decides).
func addProfileFlag(cmd *cobra.Command, p **canon.Profile, def *canon.Profile, usage string) {
	*p = def
	cmd.Flags().Var(choiceValue[*canon.Profile]{p, canon.Profiles(), canon.ParseProfile, "profile"}, "profile", usage)
	_ = cmd.RegisterFlagCompletionFunc("profile", cobra.FixedCompletions(
		[]string{"pdf\tPDF 1.7 / ISO 32000-1", "pdf2\tISO 32000-2", "rfc3986\tRFC 3986 §6"}, cobra.ShellCompDirectiveNoFileComp))
}

// choiceValue is a flag whose value is one of a few, named: parse is the
// library's reading of a name, choices are the values there are.
type choiceValue[T interface {
	comparable
	String() string
}] struct {
	p       *T
	choices []T
	parse   func(string) (T, error)
	typ     string
}

func (v choiceValue[T]) String() string {
	for _, c := range v.choices {
		if v.p != nil && c == *v.p {
			return c.String()
		}
	}
	return ""
}

func (v choiceValue[T]) Set(s string) error {
	x, err := v.parse(s)
	if err != nil {
		names := make([]string, len(v.choices))
		for i, c := range v.choices {
			names[i] = c.String()
		}
		last := len(names) - 1
		return fmt.Errorf("want %s or %s", strings.Join(names[:last], ", "), names[last])
	}
	*v.p = x
	return nil
}

func (v choiceValue[T]) Type() string { return v.typ }

// canonFlags are the flags of the commands that canonicalize URLs.
type canonFlags struct {
	Profile *canon.Profile
	Base    string
	Input   canon.Encoding
}

// add adds --profile, --base and --input.
func (c *canonFlags) add(cmd *cobra.Command) {
	addProfileFlag(cmd, &c.Profile, canon.PDF, "canonicalization rules: pdf, pdf2 or rfc3986")
	cmd.Flags().StringVar(&c.Base, "base", "", "base `URL` for relative references")
	c.Input = canon.Encoded
	cmd.Flags().Var(choiceValue[canon.Encoding]{&c.Input, []canon.Encoding{canon.Encoded, canon.Raw}, canon.ParseEncoding, "state"},
		"input", "encoding state of the URLs: encoded or raw")
	_ = cmd.RegisterFlagCompletionFunc("input", cobra.FixedCompletions(
		[]string{"encoded\tencoded once (default)", "raw\tnever encoded"}, cobra.ShellCompDirectiveNoFileComp))
}

// canonicalizer builds the flags' canonicalizer; a --base that is not an
// absolute URL is a usage error.
func (c *canonFlags) canonicalizer(cmd string) (*canon.Canonicalizer, error) {
	opts := []canon.Option{canon.WithInput(c.Input)}
	if c.Base != "" {
		opts = append(opts, canon.WithBase(c.Base))
	}
	cz, err := canon.New(c.Profile, opts...)
	if err != nil {
		var ce *canon.Error
		if errors.As(err, &ce) {
			return nil, usagef("%s: --base %s: %s", cmd, displayInput(ce.Input), ce.Detail())
		}
		return nil, usagef("%s: --base: %v", cmd, err)
	}
	return cz, nil
}

// outputFlags are -o and --force, of the commands that write a new file.
type outputFlags struct {
	Out   string
	Force bool
}

func (o *outputFlags) add(cmd *cobra.Command, usage string) {
	cmd.Flags().StringVarP(&o.Out, "output", "o", "", usage)
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace OUT.pdf if it exists, and update a certified input although its permissions forbid it")
}

// fetchFlags are the flags of the commands that fetch pages: capture,
// append and refresh.
type fetchFlags struct {
	Profile      *canon.Profile
	Chromium     string
	MaxPages     int
	MaxBytes     byteSize
	Timeout      time.Duration
	PageTimeout  time.Duration
	IgnoreRobots bool
	AllowPrivate bool
	Media        string
	NoSandbox    bool
	WaitIdle     time.Duration
}

// add adds the fetch flags; maxPages is --max-pages' default.
func (o *fetchFlags) add(cmd *cobra.Command, maxPages int) {
	f := cmd.Flags()
	addProfileFlag(cmd, &o.Profile, canon.PDF, "canonicalization for URLS keys: pdf, pdf2 or rfc3986")
	f.StringVar(&o.Chromium, "chromium", "", "the Chromium executable (default: chromium on PATH)")
	f.IntVar(&o.MaxPages, "max-pages", maxPages, "fetch at most `N` pages")
	o.MaxBytes = 100 << 20
	f.Var(&o.MaxBytes, "max-bytes", "start no page once `N` bytes are fetched (k, M, G)")
	f.DurationVar(&o.Timeout, "timeout", 5*time.Minute, "stop fetching after `D` (what was done before it is kept)")
	f.DurationVar(&o.PageTimeout, "page-timeout", 30*time.Second, "skip a page that takes longer than `D` to fetch and render")
	f.BoolVar(&o.IgnoreRobots, "ignore-robots", false, "fetch pages robots.txt forbids")
	f.BoolVar(&o.AllowPrivate, "allow-private", false, "fetch from loopback, private and link-local addresses too (and cloud metadata ones)")
	f.StringVar(&o.Media, "media", "print", "print pages with CSS media `print` or screen")
	f.BoolVar(&o.NoSandbox, "no-sandbox", false, "run Chromium without its sandbox (it always is as root)")
	f.DurationVar(&o.WaitIdle, "wait-idle", capture.DefaultIdleQuiet, "print a page once it has fetched nothing for `D` (at most 10s after its load)")
	_ = cmd.RegisterFlagCompletionFunc("media", cobra.FixedCompletions([]string{"print", "screen"}, cobra.ShellCompDirectiveNoFileComp))
}

// check checks what the fetch flags' types do not.
func (o *fetchFlags) check(cmd string) error {
	switch {
	case o.MaxPages < 1:
		return usagef("%s: --max-pages %d: fetch at least one page", cmd, o.MaxPages)
	case o.Media != "print" && o.Media != "screen":
		return usagef("%s: --media %q: want print or screen", cmd, o.Media)
	case o.WaitIdle <= 0 || o.WaitIdle > capture.DefaultIdleMax:
		return usagef("%s: --wait-idle %v: give a time above 0 and up to %v", cmd, o.WaitIdle, capture.DefaultIdleMax)
	}
	return nil
}

// byteSize is a flag of a number of bytes: 1048576, 500k, 100M, 2G (k, M,
// G: 1024, 1024², 1024³; a trailing B or iB is allowed).
type byteSize int64

func (s *byteSize) String() string {
	switch n := int64(*s); {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%dG", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%dM", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%dk", n>>10)
	default:
		return strconv.FormatInt(n, 10)
	}
}

func (s *byteSize) Set(v string) error {
	t := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSpace(v), "B"), "i")
	mult := int64(1)
	if t != "" {
		switch t[len(t)-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'M':
			mult = 1 << 20
		case 'G':
			mult = 1 << 30
		}
		if mult > 1 {
			t = t[:len(t)-1]
		}
	}
	n, err := strconv.ParseInt(t, 10, 64)
	if err != nil || n <= 0 || n > (1<<62)/mult {
		return errors.New("not a size: give bytes, or a number with k, M or G")
	}
	*s = byteSize(n * mult)
	return nil
}

func (s *byteSize) Type() string { return "size" }

// flagError is every command's answer to a flag it cannot parse: a usage
// error, said as the commands say theirs ("audit: --profile "x": want pdf,
// pdf2 or rfc3986"; "audit: unknown flag --x").
func flagError(cmd *cobra.Command, err error) error {
	var ive *pflag.InvalidValueError
	var nee *pflag.NotExistError
	var vre *pflag.ValueRequiredError
	var ise *pflag.InvalidSyntaxError
	switch {
	case errors.As(err, &nee) && nee.GetSpecifiedShortnames() != "" && nee.GetSpecifiedShortnames() != nee.GetSpecifiedName():
		return usagef("%sunknown flag -%s in -%s", commandPrefix(cmd), nee.GetSpecifiedName(), nee.GetSpecifiedShortnames())
	case errors.As(err, &nee) && nee.GetSpecifiedShortnames() != "":
		return usagef("%sunknown flag -%s", commandPrefix(cmd), nee.GetSpecifiedName())
	case errors.As(err, &nee):
		return usagef("%sunknown flag --%s", commandPrefix(cmd), nee.GetSpecifiedName())
	case errors.As(err, &vre) && vre.GetSpecifiedShortnames() != "":
		return usagef("%s-%s needs a value", commandPrefix(cmd), vre.GetSpecifiedName())
	case errors.As(err, &vre):
		return usagef("%s--%s needs a value", commandPrefix(cmd), vre.GetSpecifiedName())
	case errors.As(err, &ise):
		return usagef("%sbad flag syntax %s", commandPrefix(cmd), ise.GetSpecifiedFlag())
	case !errors.As(err, &ive):
		return &usageError{fmt.Errorf("%s%w", commandPrefix(cmd), err)}
	}
	cause := errors.Unwrap(ive)
	var ne *strconv.NumError
	if errors.As(cause, &ne) {
		cause = ne.Err // "invalid syntax", without strconv's function name
	}
	value := strconv.Quote(ive.GetValue())
	if strings.Contains(cause.Error(), value) { // time: invalid duration "x"
		return usagef("%s: --%s: %v", cmd.Name(), ive.GetFlag().Name, cause)
	}
	return usagef("%s: --%s %s: %v", cmd.Name(), ive.GetFlag().Name, value, cause)
}
