package cli

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/internal/limits"
	"github.com/webcap/webcap/pdfio"
)

// passwordEnv names the environment variable that holds the password of
// encrypted files. audit takes it out of its workers' environment and
// hands the password to them with each file, on their stdin: never on
// their command line, which ps shows.
const passwordEnv = "WEBCAP_PASSWORD"

// passwordFlags are the password options of every command that reads a
// PDF. The password comes from, in order: --password-file FILE (its first
// line; "-": stdin), $WEBCAP_PASSWORD, and, when neither gives one and
// stdin is a terminal, a prompt — only once a file turns out to be
// encrypted. Never from the command line, which ps shows: the old
// --password is kept, hidden, to say so.
type passwordFlags struct {
	PasswordFile string
	st           *passwordState
}

// passwordState is what resolve found, and the prompt's answer.
type passwordState struct {
	mu     sync.Mutex
	pw     string
	asked  bool
	prompt func(string) (string, error)
}

func (p *passwordFlags) add(cmd *cobra.Command) {
	f := cmd.Flags()
	f.StringVar(&p.PasswordFile, "password-file", "", "read the password of encrypted files from the first line of `FILE` (-: stdin; default: $"+passwordEnv+", or a prompt on a terminal)")
	f.Var(refusedPassword{}, "password", "refused: a command line shows in ps (use --password-file or $"+passwordEnv+")")
	_ = f.MarkHidden("password") // kept to say why it is refused
}

// resolve finds the password before any file is read: a --password-file
// that cannot be read is an I/O error.
func (p *passwordFlags) resolve(cmd string, ios *IOStreams) error {
	p.st = &passwordState{prompt: ios.ReadPassword}
	switch {
	case p.PasswordFile == "-":
		line, err := firstLine(ios.In)
		if err != nil {
			return &ioError{fmt.Errorf("%s: --password-file -: reading stdin: %w", cmd, err)}
		}
		p.st.pw, p.st.prompt = line, nil
	case p.PasswordFile != "":
		// A regular file or a pipe (<(command)); never a device: only its
		// first line is read, and that line bounded.
		f, _, err := limits.OpenStream(p.PasswordFile, 0, "")
		if err != nil {
			return &ioError{fmt.Errorf("%s: --password-file %w", cmd, pathError(err))}
		}
		defer f.Close()
		line, err := firstLine(f)
		if err != nil {
			return &ioError{fmt.Errorf("%s: --password-file %w", cmd, pathError(err))}
		}
		p.st.pw, p.st.prompt = line, nil
	default:
		p.st.pw = os.Getenv(passwordEnv)
	}
	return nil
}

// refusedPassword is --password: a password on the command line shows in
// ps, so the flag is refused as it is parsed, with where to give the
// password instead.
type refusedPassword struct{}

func (refusedPassword) secret()        {} // never said back (flagError)
func (refusedPassword) String() string { return "" }
func (refusedPassword) Type() string   { return "string" }
func (refusedPassword) Set(string) error {
	return fmt.Errorf("refused: a command line shows in ps; use --password-file PATH (-: stdin) or $%s", passwordEnv)
}

// maxPasswordLine bounds the line firstLine reads: no password is longer.
const maxPasswordLine = 64 << 10

// firstLine reads the first line of r, without its line end, from at
// most maxPasswordLine bytes.
func firstLine(r io.Reader) (string, error) {
	line, err := bufio.NewReader(io.LimitReader(r, maxPasswordLine)).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", err
	}
	return strings.TrimRight(line, "\r\n"), nil
}

// get is the password (after resolve): "" when none was given.
func (p *passwordFlags) get() string {
	if p.st == nil {
		return ""
	}
	p.st.mu.Lock()
	defer p.st.mu.Unlock()
	return p.st.pw
}

// retry reports whether a read that failed with err should be tried again
// with get(): the file is encrypted, no password was given, and the user
// gave one at the prompt (asked once, whatever the number of files).
func (p *passwordFlags) retry(err error, file string) bool {
	if p.st == nil || !errors.Is(err, pdfio.ErrEncrypted) {
		return false
	}
	st := p.st
	st.mu.Lock()
	defer st.mu.Unlock()
	if st.pw != "" {
		return true // asked already, for another file
	}
	if st.asked || st.prompt == nil {
		return false
	}
	st.asked = true
	pw, perr := st.prompt(fmt.Sprintf("webcap: %s is encrypted; password: ", displayInput(file)))
	st.pw = pw
	return perr == nil && pw != ""
}

// isPasswordError reports a file that cannot be read for want of its
// password.
func isPasswordError(err error) bool {
	return errors.Is(err, pdfio.ErrEncrypted) || errors.Is(err, pdfio.ErrWrongPassword)
}

// open is pdfio.Open with the password; its errors are pdfio's.
func (p *passwordFlags) open(path string, opts pdfio.Options) (*pdfio.Document, error) {
	opts.Password = p.get()
	d, err := pdfio.Open(path, opts)
	if err != nil && p.retry(err, path) {
		opts.Password = p.get()
		d, err = pdfio.Open(path, opts)
	}
	return d, sayFlag(err)
}

// openPDF reads the Web Capture structures of the PDF file at path, with
// the password.
func (p *passwordFlags) openPDF(cmd, path string, opts pdfio.Options) (*pdfio.Document, error) {
	d, err := p.open(path, opts)
	if err != nil {
		return nil, readError(cmd, err)
	}
	return d, nil
}

// checkUpdate checks, before any work, that an update of the PDF file held
// in memory can be made (it opens, with the password, and is not
// encrypted).
func (p *passwordFlags) checkUpdate(cmd string, data []byte, name string, opts pdfio.Options) error {
	opts.Password = p.get()
	_, err := pdfio.NewUpdate(data, name, opts)
	if err != nil && p.retry(err, name) {
		opts.Password = p.get()
		_, err = pdfio.NewUpdate(data, name, opts)
	}
	if err != nil {
		return readError(cmd, sayFlag(err))
	}
	return nil
}

// readPDF reads the Web Capture structures of a PDF file held in memory,
// with the password.
func (p *passwordFlags) readPDF(cmd string, data []byte, name string, opts pdfio.Options) (*pdfio.Document, error) {
	opts.Password = p.get()
	d, err := pdfio.ReadBytes(data, name, opts)
	if err != nil && p.retry(err, name) {
		opts.Password = p.get()
		d, err = pdfio.ReadBytes(data, name, opts)
	}
	if err != nil {
		return nil, readError(cmd, sayFlag(err))
	}
	return d, nil
}
