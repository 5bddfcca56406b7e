package launch

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/session"
)

func TestShellRunsAtOnceAndAddsItsOutputAsContext(t *testing.T) {
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key"}
	s, err := Open(Options{Home: t.TempDir(), Cwd: t.TempDir(), Getenv: func(k string) string { return env[k] },
		PermissionMode: "ask"})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// No front door answers approvals here: a `!command` that asked would
	// wait for ever instead of running.
	run := s.Shell(context.Background(), "echo hello from the shell")
	if run.Failed || !strings.Contains(run.Output, "hello from the shell") {
		t.Fatalf("want the command run and its output returned, got %+v", run)
	}
	if run.Card.Terminal == nil || run.Card.Terminal.Command != "echo hello from the shell" {
		t.Fatalf("want a terminal card for the command, got %+v", run.Card)
	}
	var context string
	for _, e := range s.Agent.Events() {
		if m, ok := e.Data.(session.UserMessage); ok && m.Kind == session.KindContext && m.Origin == ShellOrigin {
			context = m.Text
		}
	}
	if want := "$ echo hello from the shell\nhello from the shell"; !strings.Contains(context, want) {
		t.Fatalf("want the session to gain context holding %q, got %q", want, context)
	}
	if got := ShellCommandOf(context); got != "echo hello from the shell" {
		t.Fatalf("want the command read back from the context, got %q", got)
	}
}

// writeSession writes a closed session log holding prompts, active at at.
func writeSession(t *testing.T, home, cwd, id string, at time.Time, prompts ...string) {
	t.Helper()
	l, err := session.Create(session.PathFor(home, cwd, id), session.Header{Version: 1, ID: id, Created: at, Cwd: cwd})
	if err != nil {
		t.Fatal(err)
	}
	for i, p := range prompts {
		for _, d := range []session.Data{
			session.TurnStart{Turn: i + 1},
			session.UserMessage{Turn: i + 1, Kind: session.KindPrompt, Text: p},
			session.TurnEnd{Turn: i + 1, Reason: session.StopCompleted},
		} {
			if _, err := l.Append(at.Add(time.Duration(i)*time.Minute), d); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

func TestPromptHistoryReadsTheWorkspacesOtherSessionsNewestFirst(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	day := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	writeSession(t, home, cwd, "20260301-090000-aaaa", day, "fix the parser", "shared prompt")
	writeSession(t, home, cwd, "20260301-100000-bbbb", day.Add(time.Hour), "write the README", "shared prompt")
	writeSession(t, home, t.TempDir(), "20260301-110000-cccc", day.Add(2*time.Hour), "not this workspace")
	s := openForTest(t, home, cwd, "")
	defer s.Close()
	got := s.PromptHistory(context.Background())
	want := []string{"shared prompt", "write the README", "shared prompt", "fix the parser"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("want %q, got %q", want, got)
	}
}

func TestCommandsStartFromOptionsEnvironNotTheProcess(t *testing.T) {
	t.Setenv("TACK_PROBE", "from-the-process")
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key"}
	for _, tt := range []struct {
		environ []string
		want    string
	}{{nil, "[]"}, {[]string{"TACK_PROBE=from-options"}, "[from-options]"}} {
		s, err := Open(Options{Home: t.TempDir(), Cwd: t.TempDir(), Getenv: func(k string) string { return env[k] },
			Environ: tt.environ})
		if err != nil {
			t.Fatal(err)
		}
		run := s.Shell(context.Background(), `echo "[$TACK_PROBE]"`)
		s.Close()
		if !strings.Contains(run.Output, tt.want) {
			t.Errorf("Environ %q: want %s, got %q", tt.environ, tt.want, run.Output)
		}
	}
}
