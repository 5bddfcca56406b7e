package linemode

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestAShellLineRunsAndItsOutputReachesTheModel pipes a `!command` and a
// prompt after it: the command runs at once (nothing asks), its output is
// shown, and the model reads it as context with the prompt.
func TestAShellLineRunsAndItsOutputReachesTheModel(t *testing.T) {
	d := startDoor(t, doorConfig{}, llmtest.ReplyText("Seen it."))
	d.feed("!echo shell-output-here")
	d.feed("what did it print?")
	d.eof()
	d.wantExit(t, 0)
	if out := d.out.String(); !strings.Contains(out, "$ echo shell-output-here\nshell-output-here\n") {
		t.Errorf("want the command and its output on the screen, got %q", out)
	}
	if n := len(d.srv.Requests()); n != 1 {
		t.Fatalf("want the prompt alone to reach the model (1 request), got %d", n)
	}
	users := strings.Join(d.userTexts(t), "\n---\n")
	if !strings.Contains(users, "$ echo shell-output-here\nshell-output-here") || !strings.Contains(users, "what did it print?") {
		t.Errorf("want the model to read the shell context and the prompt, got %q", users)
	}
	if strings.Contains(users, "!echo") {
		t.Errorf("want the ! line run, not sent as a prompt, got %q", users)
	}
}
