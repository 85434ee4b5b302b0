package cli

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"os"

	"github.com/spf13/cobra"
	"github.com/webcap/webcap/audit"
)

// trustFlags is audit's --trust: the anchors the chains of a file's
// signatures and timestamps must reach (WC-SEAL-UNTRUSTED otherwise).
type trustFlags struct {
	Trust []string // PEM files of CA certificates, as given

	// What load read: audit loads it before any file (its flag check),
	// a worker at its first file, which it audits one at a time.
	loaded bool
	pool   *x509.CertPool
	err    error
}

func (t *trustFlags) add(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&t.Trust, "trust", nil, "trust anchors for the seals' chains: a PEM `FILE` of CA certificates (repeatable); without it every seal is reported untrusted")
}

// load reads the --trust files once: each must hold at least one
// certificate.
func (t *trustFlags) load() (*x509.CertPool, error) {
	if t.loaded {
		return t.pool, t.err
	}
	t.loaded = true
	func() {
		if len(t.Trust) == 0 {
			return
		}
		t.pool = x509.NewCertPool()
		for _, name := range t.Trust {
			b, err := os.ReadFile(name)
			if err != nil {
				t.err = &ioError{fmt.Errorf("--trust: %w", err)}
				return
			}
			n := 0
			for block, rest := pem.Decode(b); block != nil; block, rest = pem.Decode(rest) {
				if block.Type != "CERTIFICATE" {
					continue
				}
				c, err := x509.ParseCertificate(block.Bytes)
				if err != nil {
					t.err = usagef("--trust %s: a certificate that cannot be read: %v", name, err)
					return
				}
				t.pool.AddCert(c)
				n++
			}
			if n == 0 {
				t.err = usagef("--trust %s: no PEM certificate in it", name)
				return
			}
		}
	}()
	return t.pool, t.err
}

// args are the flags a worker is given.
func (t *trustFlags) args() []string {
	var a []string
	for _, name := range t.Trust {
		a = append(a, "--trust", name)
	}
	return a
}

// apply sets what the seal rules need in o: the anchors, and the file's
// bytes (opened again, read where the seals' ranges say); close closes it.
func (t *trustFlags) apply(path string, o *audit.Options) (close func(), err error) {
	if o.Trust, err = t.load(); err != nil {
		return func() {}, err
	}
	f, err := os.Open(path)
	if err != nil {
		return func() {}, nil // the file was read: without it the seals are not verified, what follows them is still named
	}
	if st, err := f.Stat(); err == nil {
		o.File, o.FileSize = f, st.Size()
	}
	return func() { f.Close() }, nil
}
