package main

import (
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/ptyterm"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

// TestLineTerminalCtrlCCancelsTheTurnThenExits drives line mode in a
// pseudo-terminal: the first Ctrl+C cancels the running turn, the next one,
// at an idle prompt, exits.
func TestLineTerminalCtrlCCancelsTheTurnThenExits(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("partial", 0), llmtest.Stall()))
	home := t.TempDir()
	term, err := ptyterm.Start(ptyterm.Options{
		Bin: tackbin.Path(t), Args: []string{"--ui", "line"}, Dir: t.TempDir(), Cols: 100, Rows: 24,
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TACK_HOME=" + home, "TERM=xterm",
			"DEEPSEEK_BASE_URL=" + srv.URL(), "DEEPSEEK_API_KEY=test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	waitFor := func(want string) {
		t.Helper()
		if screen, _, err := term.WaitScreen(testkit.WaitLimit, func(s string) bool { return strings.Contains(s, want) }); err != nil {
			t.Fatalf("want the terminal to show %q: %v; it shows:\n%s", want, err, screen)
		}
	}
	waitFor("\n>") // the prompt; the screen drops trailing blanks
	term.Type("hi")
	term.Key(vt.KeyEnter)
	select {
	case <-srv.Stalled():
	case <-time.After(testkit.WaitLimit):
		t.Fatalf("want the stream to stall, terminal shows:\n%s", term.Screen())
	}
	waitFor("partial")
	term.Key('c', vt.ModCtrl)
	waitFor("Turn cancelled.")
	term.Key('c', vt.ModCtrl)
	code, err := term.Wait(testkit.WaitLimit)
	if err != nil || code != 0 {
		t.Fatalf("want exit 0 after Ctrl+C at the idle prompt, got %d, %v; terminal shows:\n%s", code, err, term.Screen())
	}
}
