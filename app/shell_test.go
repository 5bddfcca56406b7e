package app

import (
	"context"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

func TestShellCommandOutputShowsOnceOnItsCard(t *testing.T) {
	m, _ := newTestModel(nil)
	keys.TypeText(keys.Into(m), "!printf 'a\\nb'")
	m.Update(keys.Key("enter"))
	m.Update(shellMsg{callID: "user_shell_1", run: launch.ShellRun{
		Card:   card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: "printf 'a\\nb'", Output: "first-row\nsecond-row\n"}},
		Output: "first-row\nsecond-row\n",
	}})
	m.Update(eventsMsg{events: []agent.Event{agent.Logged{Event: session.Event{Type: "user/message", Data: session.UserMessage{
		Kind: session.KindContext, Origin: launch.ShellOrigin, Text: launch.ShellContext("printf 'a\\nb'", "first-row\nsecond-row\n"),
	}}}}})
	s := ansi.Strip(screen(m))
	for _, row := range []string{"first-row", "second-row"} {
		if n := strings.Count(s, row); n != 1 {
			t.Fatalf("want %q once, on the card, got it %d times:\n%s", row, n, s)
		}
	}
	if want := "Context · shell: added the output of `printf 'a\\nb'` to the conversation"; !strings.Contains(s, want) {
		t.Fatalf("want the context as one line %q, got:\n%s", want, s)
	}
}

// blockingShell runs every `!command` until it is stopped.
type blockingShell struct{ *countingBackend }

func (b blockingShell) Shell(ctx context.Context, command string) launch.ShellRun {
	select {
	case <-ctx.Done():
	case <-time.After(time.Minute):
	}
	return launch.ShellRun{Output: "interrupted: " + command, Failed: true}
}

// A `!command` that runs on is stopped by Esc, or Ctrl+C, as a turn is;
// before, Esc only armed the rewind picker and the command ran to its
// timeout.
func TestEscAndCtrlCStopARunningShellCommand(t *testing.T) {
	for _, key := range []string{"esc", "ctrl+c"} {
		be := blockingShell{&countingBackend{}}
		m := New(Options{Backend: be, Width: 80, Height: 24})
		m.Update(subscribedMsg{sessionID: "s-1", sub: be})
		done := make(chan tea.Msg, 1)
		run := m.shell("sleep 100")
		go func() { done <- run() }()
		m.Update(keys.Key(key))
		select {
		case msg := <-done:
			m.Update(msg)
		case <-time.After(30 * time.Second):
			t.Fatalf("%s: want the command stopped, it runs on", key)
		}
		if m.armedEsc || m.armedCtC || len(m.stopShells) != 0 {
			t.Errorf("%s: want it to stop the command alone (rewind armed %v, exit armed %v, %d running)", key, m.armedEsc, m.armedCtC, len(m.stopShells))
		}
		if s := ansi.Strip(screen(m)); !strings.Contains(s, "✗ Bash") {
			t.Errorf("%s: want the stopped command's card settled, got:\n%s", key, s)
		}
	}
}

// The hint that Esc stops a `!command` goes when the last one ends;
// before, it stayed above the editor until the next key.
func TestShellHintClearsWhenTheCommandEnds(t *testing.T) {
	m, _ := newTestModel(nil)
	m.shell("true")
	m.shell("sleep 1")
	m.Update(shellMsg{callID: "user_shell_1"})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, shellHint) {
		t.Fatalf("want the hint %q while a command runs, got:\n%s", shellHint, s)
	}
	m.Update(shellMsg{callID: "user_shell_2"})
	if s := ansi.Strip(screen(m)); strings.Contains(s, shellHint) {
		t.Fatalf("want the hint %q gone once the commands ended, got:\n%s", shellHint, s)
	}
}
