package app

import (
	"strings"
	"testing"

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
