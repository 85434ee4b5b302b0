package cli

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/webcap/webcap/internal/pdfbuild"
)

// encrypted writes pdfbuild's capture sample encrypted by qpdf (user
// password "user", owner "owner").
func encrypted(t *testing.T) string {
	t.Helper()
	qpdf, err := exec.LookPath("qpdf")
	if err != nil {
		t.Skip("qpdf is not installed")
	}
	dir := t.TempDir()
	b, err := pdfbuild.Sample("capture")
	if err != nil {
		t.Fatal(err)
	}
	in, out := filepath.Join(dir, "plain.pdf"), filepath.Join(dir, "enc.pdf")
	if err := os.WriteFile(in, b, 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := exec.Command(qpdf, "--encrypt", "user", "owner", "256", "--", in, out).CombinedOutput(); err != nil {
		t.Fatalf("qpdf --encrypt: %v %s", err, b)
	}
	return out
}

// On a terminal, the password is asked once, and only when a file turns
// out to be encrypted and no other source gave one.
func TestPasswordPrompt(t *testing.T) {
	enc := encrypted(t)
	t.Setenv(passwordEnv, "")
	for _, tc := range []struct {
		name   string
		args   []string
		answer string
		asked  int
		want   int
	}{
		{"info", []string{"info", enc, enc}, "user", 1, 0},
		{"info wrong", []string{"info", enc}, "nope", 1, 3},
		{"lookup", []string{"lookup", enc, "http://www.example.com/"}, "owner", 1, 0},
		{"audit", []string{"audit", "--in-process", enc, enc}, "user", 1, 0},
		{"fix", []string{"fix", "--dry-run", enc}, "user", 1, 0},
		{"not encrypted", []string{"info", filepath.Join(filepath.Dir(enc), "plain.pdf")}, "user", 0, 0},
		{"file given", []string{"info", "--password-file", os.DevNull, enc}, "user", 0, 3},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ios, _, _, stderr := Test()
			asked := 0
			ios.ReadPassword = func(prompt string) (string, error) {
				asked++
				if !strings.Contains(prompt, "is encrypted; password: ") {
					t.Errorf("prompt %q", prompt)
				}
				return tc.answer, nil
			}
			if code := Main(context.Background(), tc.args, ios); code != tc.want || asked != tc.asked {
				t.Errorf("webcap %q: exit %d, asked %d times; want exit %d, asked %d; stderr %q", tc.args, code, asked, tc.want, tc.asked, stderr)
			}
		})
	}
}

// The audit's child gets the password in its environment, replacing one
// there, and none when there is none.
func TestChildEnv(t *testing.T) {
	t.Setenv(passwordEnv, "old")
	for _, tc := range []struct{ pw, want string }{{"secret", passwordEnv + "=secret"}, {"", ""}} {
		var got []string
		for _, kv := range childEnv(tc.pw) {
			if strings.HasPrefix(kv, passwordEnv+"=") {
				got = append(got, kv)
			}
		}
		want := []string{}
		if tc.want != "" {
			want = append(want, tc.want)
		}
		if !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("childEnv(%q) has %q, want %q", tc.pw, got, want)
		}
	}
}
