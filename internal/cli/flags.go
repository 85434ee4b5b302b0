package cli

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/dustin/go-humanize"
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

// addAllowOutsideFlag adds --allow-outside: the files a mirror, a manifest
// or a page names may be read outside its directory (mirror.Options).
func addAllowOutsideFlag(cmd *cobra.Command, allow *bool) {
	cmd.Flags().BoolVar(allow, "allow-outside", false, "read what a mirror's or manifest's symbolic links, paths and file: URLs lead to outside its directory (else refused)")
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

// outputFlags are -o, --force and --in-place, of the commands that write
// a PDF; their rules are in output.go.
type outputFlags struct {
	Out     string
	Force   bool
	InPlace bool
}

// add adds -o and --force, and --in-place when the command writes an
// update of an input PDF (inPlace).
func (o *outputFlags) add(cmd *cobra.Command, usage string, inPlace bool) {
	cmd.Flags().StringVarP(&o.Out, "output", "o", "", usage+` ("-": stdout)`)
	cmd.Flags().BoolVar(&o.Force, "force", false, "replace -o's file if it exists, and update a certified input although its permissions forbid it")
	if inPlace {
		cmd.Flags().BoolVar(&o.InPlace, "in-place", false, "replace the input file (a symbolic link stays one)")
	}
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
	Settle       time.Duration
	Session      bool
	Bookmarks    string
	crawlMemory  // --max-memory, --browser-memory (capmem.go)
	progressFlags
}

// add adds the fetch flags; maxPages is --max-pages' default.
func (o *fetchFlags) add(cmd *cobra.Command, maxPages int) {
	f := cmd.Flags()
	addProfileFlag(cmd, &o.Profile, canon.PDF, "canonicalization for URLS keys: pdf, pdf2 or rfc3986")
	f.StringVar(&o.Chromium, "chromium", "", "the Chromium executable (default: chromium on PATH)")
	f.IntVar(&o.MaxPages, "max-pages", maxPages, "fetch at most `N` pages")
	o.MaxBytes = 100 << 20
	f.Var(&o.MaxBytes, "max-bytes", "start no page once `SIZE` is fetched (500kB, 100MiB, 2GB)")
	f.DurationVar(&o.Timeout, "timeout", 5*time.Minute, "stop fetching after `D` (what was done before it is kept)")
	f.DurationVar(&o.PageTimeout, "page-timeout", 30*time.Second, "skip a page that takes longer than `D` to fetch and render (a robots.txt slower than D forbids its origin); a resource of a page (image, style, script, font, frame) not arrived within D/2 of its start is left out and named, and the page printed without it")
	f.BoolVar(&o.IgnoreRobots, "ignore-robots", false, "fetch pages robots.txt forbids, or whose robots.txt cannot be read")
	f.BoolVar(&o.AllowPrivate, "allow-private", false, "fetch from loopback, private and link-local addresses too (and cloud metadata ones)")
	f.StringVar(&o.Media, "media", "print", "print pages with CSS media `print` or screen")
	f.BoolVar(&o.NoSandbox, "no-sandbox", false, "run Chromium without its sandbox (it always is as root)")
	f.DurationVar(&o.WaitIdle, "wait-idle", capture.DefaultIdleQuiet, "print a page once it has fetched nothing for `D` (at most 10s after its load; 50ms for a still page: no script, media or animation)")
	f.DurationVar(&o.Settle, "settle", capture.DefaultSettle, "once a page has settled, run the timers it has pending for up to `D` of page time on virtual time (no real waiting), so content its scripts add later is printed; 0: none")
	f.BoolVar(&o.Session, "session", false, "render the pages one at a time in queue order in one browser context, so the cookies and storage a page leaves reach the pages after it (default: each page in an empty context, as a stranger sees it); refresh does so for a file captured so")
	_ = cmd.RegisterFlagCompletionFunc("media", cobra.FixedCompletions([]string{"print", "screen"}, cobra.ShellCompDirectiveNoFileComp))
	f.StringVar(&o.Bookmarks, "bookmarks", string(capture.BookmarksSites), "bookmarks: `sites` (an item per site, one per page under it, each opening its page and tagged with its Article) or none")
	_ = cmd.RegisterFlagCompletionFunc("bookmarks", cobra.FixedCompletions([]string{"sites", "none"}, cobra.ShellCompDirectiveNoFileComp))
	o.crawlMemory.add(cmd)
	o.progressFlags.add(cmd)
}

// maxSettle bounds --settle: a page whose timers never end runs them for
// all of it, in the CPU time that takes.
const maxSettle = time.Minute

// check checks what the fetch flags' types do not.
func (o *fetchFlags) check(cmd string) error {
	switch {
	case o.MaxPages < 1:
		return usagef("%s: --max-pages %d: fetch at least one page", cmd, o.MaxPages)
	case o.Media != "print" && o.Media != "screen":
		return usagef("%s: --media %q: want print or screen", cmd, o.Media)
	case o.Bookmarks != string(capture.BookmarksSites) && o.Bookmarks != string(capture.BookmarksNone):
		return usagef("%s: --bookmarks %q: want sites or none", cmd, o.Bookmarks)
	case o.WaitIdle <= 0 || o.WaitIdle > capture.DefaultIdleMax:
		return usagef("%s: --wait-idle %v: give a time above 0 and up to %v", cmd, o.WaitIdle, capture.DefaultIdleMax)
	case o.Settle < 0 || o.Settle > maxSettle:
		return usagef("%s: --settle %v: give a time from 0 (none) up to %v", cmd, o.Settle, maxSettle)
	}
	if err := o.crawlMemory.check(cmd); err != nil {
		return err
	}
	return o.progressFlags.check(cmd)
}

// byteSize is a flag of a number of bytes, read and written by
// go-humanize: 1048576, 500kB, 100MiB, 2GB, 1.5GiB (kB, MB, GB: powers of
// 1000; KiB, MiB, GiB: powers of 1024; k, M, G alone are kB, MB, GB).
type byteSize int64

func (s *byteSize) String() string { return humanize.IBytes(uint64(*s)) }

func (s *byteSize) Set(v string) error {
	n, err := humanize.ParseBytes(v)
	if err != nil || n == 0 || n > math.MaxInt64 {
		return errors.New("not a size: give bytes, or a number with kB, MB, GB (powers of 1000) or KiB, MiB, GiB (of 1024)")
	}
	*s = byteSize(n)
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
	if _, ok := ive.GetFlag().Value.(interface{ secret() }); ok { // a password is not said back
		return usagef("%s: --%s: %v", cmd.Name(), ive.GetFlag().Name, cause)
	}
	value := strconv.Quote(ive.GetValue())
	if strings.Contains(cause.Error(), value) { // time: invalid duration "x"
		return usagef("%s: --%s: %v", cmd.Name(), ive.GetFlag().Name, cause)
	}
	return usagef("%s: --%s %s: %v", cmd.Name(), ive.GetFlag().Name, value, cause)
}
