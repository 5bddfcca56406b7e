package main

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

// shell runs script with bash in dir, tack's path in $TACK and tack's
// environment against srv with TACK_HOME home, and returns what the
// script wrote.
func shell(t *testing.T, srv *llmtest.Server, home, dir, script string) string {
	t.Helper()
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("these tests run tack in a bash pipeline, and there is no bash: " + err.Error())
	}
	ctx, cancel := context.WithTimeout(context.Background(), exitLimit)
	defer cancel()
	cmd := exec.CommandContext(ctx, bash, "-c", script)
	cmd.Dir = dir
	cmd.Env = append(tackEnv(srv, home), "TACK="+tackbin.Path(t))
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("bash: %v; it wrote %q", err, out)
	}
	return string(out)
}

// A reader that stops early (head) leaves tack writing to a pipe no one
// reads. Like any Unix filter tack then stops, with the status a shell
// gives such a program (141, 128 + SIGPIPE) and nothing on stderr; but
// first it cancels the running turn and records its end, which Go's
// default (death by SIGPIPE at the write) left open. The reader closes
// the pipe before the tool call it started returns, so a write follows.
func TestOutputWhoseReaderWentAwayEndsTheTurnQuietly(t *testing.T) {
	tests := []struct{ name, tack string }{
		{"print", `"$TACK" -p go --output-format stream-json`},
		{"line", `printf 'go\n' | "$TACK"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t,
				llmtest.Reply(llmtest.ToolCall("call_1", "bash", `{"command":"until [ -e gone ]; do sleep 0.05; done"}`, 1)),
				llmtest.ReplyText("done"))
			home, dir := t.TempDir(), t.TempDir()
			status := shell(t, srv, home, dir, `set -o pipefail; `+tt.tack+
				` 2>stderr.txt | { head -1 >/dev/null; exec 0<&-; : >gone; }; echo $?`)
			if strings.TrimSpace(status) != "141" {
				t.Errorf("want the pipeline to end with tack's 141, got %q", status)
			}
			evs := sessionEvents(t, home)
			var end struct{ Reason string }
			if last := lastOfTurn(evs); last.Type != "turn/end" || json.Unmarshal(last.Data, &end) != nil || end.Reason != "aborted" {
				t.Errorf("want the session log to end the turn as aborted, it ends with %s %s", last.Type, last.Data)
			}
			stderr, _ := os.ReadFile(filepath.Join(dir, "stderr.txt"))
			for _, noise := range []string{"pipe", "turn ended", "panic"} {
				if strings.Contains(strings.ToLower(string(stderr)), noise) {
					t.Errorf("want no word of %q on stderr, got %q", noise, stderr)
				}
			}
		})
	}
}

// Output that cannot be written (a full disk; /dev/full answers every
// write with ENOSPC) is an error that stderr names once, with exit 1: it
// was silence and exit 0, the answer lost.
func TestOutputThatCannotBeWrittenFailsSayingSo(t *testing.T) {
	for _, args := range [][]string{{"-p", "go"}, {"-p", "go", "--output-format", "stream-json"}, {}} {
		t.Run(strings.Join(append([]string{"tack"}, args...), " "), func(t *testing.T) {
			full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
			if err != nil {
				t.Skip("this system has no /dev/full to write to: " + err.Error())
			}
			defer full.Close()
			var stderr strings.Builder
			cmd := exec.Command(tackbin.Path(t), args...)
			cmd.Dir, cmd.Env = t.TempDir(), tackEnv(answerServer(t), t.TempDir())
			cmd.Stdin, cmd.Stdout, cmd.Stderr = strings.NewReader("go\n"), full, &stderr
			var ee *exec.ExitError
			if err := cmd.Run(); !errors.As(err, &ee) || ee.ExitCode() != 1 {
				t.Fatalf("want exit 1, got %v; stderr %q", err, stderr.String())
			}
			if got := stderr.String(); strings.Count(got, "no space left on device") != 1 || strings.Contains(got, "turn ended") {
				t.Errorf("want stderr to say once that stdout could not be written, got %q", got)
			}
		})
	}
}
