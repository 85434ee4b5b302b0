package cli

import (
	"bytes"
	"context"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
	"github.com/webcap/webcap/internal/testpki"
)

// TestSeal runs webcap seal against the test PKI on loopback: each case's
// exit status, what it says, and whether it wrote the output.
func TestSeal(t *testing.T) {
	p, err := testpki.New()
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	dir := t.TempDir()
	t.Chdir(dir)
	f, err := p.WriteFiles(dir)
	if err != nil {
		t.Fatal(err)
	}
	capture, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile("in.pdf", capture, 0o644); err != nil {
		t.Fatal(err)
	}
	os.WriteFile("wrong.txt", []byte("not the password\n"), 0o600)
	tsa := p.TSAURL()
	down := func(w http.ResponseWriter, r *http.Request) { http.Error(w, "down", http.StatusInternalServerError) }
	for _, tc := range []struct {
		name   string
		args   []string
		tsa    http.HandlerFunc
		code   int
		out    string // regexp on what it says (stdout and stderr)
		writes bool
	}{
		{"timestamp", []string{"--timestamp-url", tsa}, nil, exitOK, `out.pdf: document timestamp \S+ by "webcap test TSA"`, true},
		{"b-t", []string{"--sign-cert", f.Chain, "--sign-key", f.Key, "--timestamp-url", tsa, "--sign-reason", "evidence"}, nil, exitOK, `signature by "webcap test signer" \(PAdES B-T`, true},
		{"b-lta", []string{"--sign-cert", f.Chain, "--sign-key", f.Key, "--timestamp-url", tsa, "--ltv"}, nil, exitOK, `validation data: 3 certificates, 2 OCSP responses, 0 CRLs`, true},
		{"p12", []string{"--sign-p12", f.P12, "--sign-password-file", f.Password}, nil, exitOK, `signature by "webcap test signer" \(PAdES B-B`, true},
		{"p12-wrong-password", []string{"--sign-p12", f.P12, "--sign-password-file", "wrong.txt"}, nil, exitIOError, `seal: .*signer.p12: wrong password`, false},
		{"tsa-down", []string{"--sign-cert", f.Chain, "--sign-key", f.Key, "--timestamp-url", tsa}, down, exitIOError, `seal: in.pdf: the time-stamping authority at \S+: HTTP status 500`, false},
		{"nothing", nil, nil, exitUsage, `seal: say how to seal`, false},
		{"ltv-alone", []string{"--ltv", "--sign-p12", f.P12}, nil, exitUsage, `--ltv needs --timestamp-url`, false},
		{"cert-no-key", []string{"--sign-cert", f.Chain}, nil, exitUsage, `--sign-cert and --sign-key go together`, false},
		{"bad-url", []string{"--timestamp-url", "file:///etc/passwd"}, nil, exitUsage, `give an http or https URL`, false},
		{"other-key", []string{"--sign-cert", f.Signer, "--sign-key", f.Other}, nil, exitIOError, `not the key of the certificate`, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			os.Remove("out.pdf")
			if tc.tsa != nil {
				p.SetTSA(tc.tsa)
				defer p.SetTSA(nil)
			}
			ios, _, stdout, stderr := Test()
			args := append([]string{"seal", "in.pdf", "-o", "out.pdf"}, tc.args...)
			code := Main(context.Background(), args, ios)
			said := stdout.String() + stderr.String()
			if code != tc.code || !regexp.MustCompile(tc.out).MatchString(said) {
				t.Errorf("webcap %q: exit %d\n%s\nwant %d and %q", args, code, said, tc.code, tc.out)
			}
			_, err := os.Stat("out.pdf")
			if (err == nil) != tc.writes {
				t.Errorf("out.pdf written: %v, want %v", err == nil, tc.writes)
			}
			if b, _ := os.ReadFile("in.pdf"); !bytes.Equal(b, capture) {
				t.Error("in.pdf changed")
			}
			if tc.writes {
				pdfsigValid(t, "out.pdf", strings.Contains(tc.name, "b-") || tc.name == "p12")
			}
		})
	}
	// -o naming the input: refused before anything is read.
	ios, _, _, stderr := Test()
	if code := Main(context.Background(), []string{"seal", "in.pdf", "-o", "./in.pdf", "--force", "--timestamp-url", tsa}, ios); code != exitUsage || !strings.Contains(stderr.String(), "is an input of this run") {
		t.Errorf("seal in.pdf -o ./in.pdf: exit %d, %s", code, stderr)
	}
	// --sign-password-file -: the password on stdin.
	ios, in, _, stderr := Test()
	in.WriteString(testpki.Password + "\n")
	os.Remove("out.pdf")
	if code := Main(context.Background(), []string{"seal", "in.pdf", "-o", "out.pdf", "--sign-p12", f.P12, "--sign-password-file", "-"}, ios); code != exitOK {
		t.Errorf("seal --sign-password-file -: exit %d, %s", code, stderr)
	}
	// -o -: the sealed PDF on stdout, what was done on stderr.
	ios, _, stdout, stderr := Test()
	if code := Main(context.Background(), []string{"seal", "in.pdf", "-o", "-", "--timestamp-url", tsa}, ios); code != exitOK || !bytes.HasPrefix(stdout.Bytes(), capture) || !strings.Contains(stderr.String(), "document timestamp") {
		t.Errorf("seal -o -: exit %d, %d bytes out, %s", code, stdout.Len(), stderr)
	}
}

// pdfsigValid checks with pdfsig that every signature of file is valid
// (sig: the file has one).
func pdfsigValid(t *testing.T, file string, sig bool) {
	t.Helper()
	if _, err := exec.LookPath("pdfsig"); err != nil || !sig {
		return
	}
	out, _ := exec.Command("pdfsig", file).CombinedOutput()
	if !strings.Contains(string(out), "Signature Validation: Signature is Valid") {
		t.Errorf("pdfsig %s:\n%s", file, out)
	}
}
