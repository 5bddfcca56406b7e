package snapshots

import (
	"bytes"
	"errors"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// buildTack builds the tack binary once per test.
func buildTack(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "tack")
	out, err := exec.Command("go", "build", "-o", bin, "../cmd/tack").CombinedOutput()
	if err != nil {
		t.Fatalf("build tack: %v\n%s", err, out)
	}
	return bin
}

func TestTUIRefusesWithoutATerminal(t *testing.T) {
	bin := buildTack(t)
	cmd := exec.Command(bin, "--ui", "tui")
	cmd.Env = []string{"TACK_HOME=" + t.TempDir(), "HOME=" + t.TempDir(), "PATH=/usr/bin:/bin"}
	cmd.Stdin = strings.NewReader("")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 1 {
		t.Fatalf("want exit status 1, got %v", err)
	}
	for _, want := range []string{"--ui line", "-p"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("want stderr to name %q, got %q", want, stderr.String())
		}
	}
	if stdout.Len() != 0 {
		t.Errorf("want nothing on stdout, got %q", stdout.String())
	}
}
