package hostile

import (
	"crypto"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/digitorus/timestamp"
	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
)

// Sealing (issue 28, items 4 to 6): a time-stamping authority is a server
// webcap does not control. Whatever it answers (a gigabyte, an answer that
// never ends, a token for another document), webcap seal reads a bounded
// amount for a bounded time, says what is wrong, exits 3 and writes
// nothing; a PKCS#12 file with a wrong password, or -o naming the input,
// is refused the same way. Before: webcap had no seal command and no
// sealing flags (exit 2, "unknown command "seal"").

// sealBefore is what /work/webcap-old did with every seal command line.
const sealBefore = `exit 2, 0.01 s CPU, 18 MB: unknown command "seal" (no seal command, no sealing flags)`

// sealWith is a Setup: the test PKI on loopback with tsa as its
// time-stamping authority (nil: the real one), its files and a capture
// (x.pdf) in dir, and the arguments args with {tsa} the TSA's URL and
// {p12} the PKCS#12 file.
func sealWith(tsa func(p *testpki.PKI, stop <-chan struct{}) http.HandlerFunc, args ...string) func(dir string) ([]string, func(), error) {
	return func(dir string) ([]string, func(), error) {
		p, err := testpki.New()
		if err != nil {
			return nil, nil, err
		}
		stop := make(chan struct{})
		cleanup := func() { close(stop); p.Close() }
		if tsa != nil {
			p.SetTSA(tsa(p, stop))
		}
		if _, err := p.WriteFiles(dir); err != nil {
			cleanup()
			return nil, nil, err
		}
		b, err := pdfbuild.Sample("capture")
		if err == nil {
			err = Write(dir, "x.pdf", b)
		}
		if err == nil {
			err = Write(dir, "wrong-password.txt", []byte("not "+testpki.Password+"\n"))
		}
		if err != nil {
			cleanup()
			return nil, nil, err
		}
		out := make([]string, len(args))
		for i, a := range args {
			switch a {
			case "{tsa}":
				a = p.TSAURL()
			case "{p12}":
				a = filepath.Join(dir, "signer.p12")
			}
			out[i] = a
		}
		return out, cleanup, nil
	}
}

// gigabyteTSA answers 1 GB of zeros, as fast as it is read.
func gigabyteTSA(*testpki.PKI, <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/timestamp-reply")
		w.Header().Set("Content-Length", fmt.Sprint(1<<30))
		zeros := make([]byte, 64<<10)
		for n := 0; n < 1<<30; n += len(zeros) {
			if _, err := w.Write(zeros); err != nil {
				return
			}
		}
	}
}

// endlessTSA starts an answer and never ends it.
func endlessTSA(_ *testpki.PKI, stop <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/timestamp-reply")
		w.Write([]byte{0x30, 0x84})
		w.(http.Flusher).Flush()
		select {
		case <-stop:
		case <-r.Context().Done():
		}
	}
}

// otherImprintTSA answers a valid token, signed by the TSA, with the
// request's nonce, for the digest of another document.
func otherImprintTSA(p *testpki.PKI, _ <-chan struct{}) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<16))
		q, err := timestamp.ParseRequest(b)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		other := sha256.Sum256([]byte("another document"))
		resp, err := p.Token(crypto.SHA256, other[:], q.Nonce, true, time.Now())
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		w.Write(resp)
	}
}

// noOutput is a Check that nothing was written beside x.pdf: no out.pdf,
// no temporary file.
func noOutput(dir string) error {
	if _, err := os.Lstat(filepath.Join(dir, "out.pdf")); err == nil {
		return fmt.Errorf("out.pdf was written")
	}
	tmps, _ := filepath.Glob(filepath.Join(dir, ".*.tmp"))
	if len(tmps) > 0 {
		return fmt.Errorf("temporary files left: %v", tmps)
	}
	return nil
}

// sealInput is a Check that x.pdf is still the capture written.
func sealInput(dir string) error {
	b, err := pdfbuild.Sample("capture")
	if err != nil {
		return err
	}
	return Unchanged("x.pdf", b)(dir)
}

func init() {
	Register(
		Case{
			Name:   "seal-tsa-gigabyte",
			Part:   Bounds,
			Setup:  sealWith(gigabyteTSA, "seal", "x.pdf", "--timestamp-url", "{tsa}", "-o", "out.pdf"),
			Exit:   3,
			Stderr: []string{`^webcap: seal: x.pdf: the time-stamping authority at http://127\.0\.0\.1:\d+/tsa: the answer is larger than 1048576 bytes$`},
			Check:  All(noOutput, sealInput),
			MaxCPU: 5 * time.Second,
			MaxRSS: 200 << 20,
			Before: sealBefore,
		},
		Case{
			Name:   "seal-tsa-never-ends",
			Part:   Bounds,
			Setup:  sealWith(endlessTSA, "seal", "x.pdf", "--timestamp-url", "{tsa}", "--timestamp-timeout", "2s", "-o", "out.pdf"),
			Exit:   3,
			Stderr: []string{`^webcap: seal: x.pdf: the time-stamping authority at \S+: no complete answer within 2s`},
			Check:  All(noOutput, sealInput),
			MaxCPU: 5 * time.Second,
			MaxRSS: 200 << 20,
			Before: sealBefore,
		},
		Case{
			Name:   "seal-tsa-other-imprint",
			Part:   Inputs,
			Setup:  sealWith(otherImprintTSA, "seal", "x.pdf", "--timestamp-url", "{tsa}", "-o", "out.pdf"),
			Exit:   3,
			Stderr: []string{`^webcap: seal: x.pdf: the time-stamping authority at \S+: the token is for another digest`},
			Check:  All(noOutput, sealInput),
			MaxCPU: 5 * time.Second,
			MaxRSS: 200 << 20,
			Before: sealBefore,
		},
		Case{
			Name:   "seal-p12-wrong-password",
			Part:   Inputs,
			Setup:  sealWith(nil, "seal", "x.pdf", "--sign-p12", "{p12}", "--sign-password-file", "wrong-password.txt", "--timestamp-url", "{tsa}", "-o", "out.pdf"),
			Exit:   3,
			Stderr: []string{`^webcap: seal: \S+signer\.p12: wrong password \(--sign-password-file\)$`},
			Check:  All(noOutput, sealInput),
			MaxCPU: 5 * time.Second,
			MaxRSS: 200 << 20,
			Before: sealBefore,
		},
		Case{
			Name:   "seal-output-is-input",
			Part:   Outputs,
			Setup:  sealWith(nil, "seal", "x.pdf", "--timestamp-url", "{tsa}", "--force", "-o", "x.pdf"),
			Exit:   2,
			Stderr: []string{`^webcap: seal: -o x\.pdf is an input of this run`},
			Check:  All(noOutput, sealInput),
			MaxCPU: 5 * time.Second,
			MaxRSS: 200 << 20,
			Before: sealBefore,
		},
	)
}
