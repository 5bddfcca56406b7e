package snapshots

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

// TestMain builds tack for the binary tests, and lets this test binary
// serve as the sandbox helper of the sessions the in-process tests open.
func TestMain(m *testing.M) {
	sandbox.ServeIfHelper()
	os.Exit(tackbin.Main(m))
}

func TestTUIRefusesWithoutATerminal(t *testing.T) {
	bin := tackbin.Path(t)
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
