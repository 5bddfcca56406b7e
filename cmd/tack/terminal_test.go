package main

import (
	"os"
	"path/filepath"
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

// startInTerminal runs the binary with args on a pseudo-terminal whose
// TERM is term.
func startInTerminal(t *testing.T, srv *llmtest.Server, term string, args ...string) *ptyterm.Terminal {
	t.Helper()
	home := t.TempDir()
	tt, err := ptyterm.Start(ptyterm.Options{
		Bin: tackbin.Path(t), Args: args, Dir: t.TempDir(), Cols: 100, Rows: 24,
		Env: []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TACK_HOME=" + home, "TERM=" + term,
			"DEEPSEEK_BASE_URL=" + srv.URL(), "DEEPSEEK_API_KEY=test"},
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(tt.Close)
	return tt
}

func TestDumbTerminalGetsLineModeAndTheFullScreenRefuses(t *testing.T) {
	srv := llmtest.New(t)
	term := startInTerminal(t, srv, "dumb")
	if screen, _, err := term.WaitScreen(testkit.WaitLimit, func(s string) bool { return strings.Contains(s, "ready.") }); err != nil {
		t.Fatalf("want line mode's banner on a dumb terminal: %v; it shows:\n%s", err, screen)
	}
	if term.AltScreen() || strings.Contains(term.Raw(), "\x1b[?1049h") {
		t.Errorf("want no alternate screen on a dumb terminal, got %q", term.Raw())
	}
	term.Key('d', vt.ModCtrl)
	if code, err := term.Wait(testkit.WaitLimit); err != nil || code != 0 {
		t.Errorf("want exit 0 at Ctrl+D, got %d, %v; terminal shows:\n%s", code, err, term.Screen())
	}

	term = startInTerminal(t, srv, "dumb", "--ui", "tui")
	if code, err := term.Wait(testkit.WaitLimit); err != nil || code != 1 {
		t.Errorf("want exit 1 for --ui tui on a dumb terminal, got %d, %v", code, err)
	}
	want := "cannot draw on a dumb terminal (TERM=dumb); use --ui line"
	testkit.Eventually(t, "the refusal naming TERM=dumb and --ui line", func() bool { return strings.Contains(term.Raw(), want) },
		func() string { return term.Raw() })
}

// `tack "task" > answers.txt` at a terminal is line mode with stdout in
// a file: the banner and prompt go there, and the terminal showed nothing
// while tack waited for a line. stderr, still the terminal, now says what
// tack waits for. The task on the command line, which line mode dropped,
// is answered into the file, and so is a typed one.
func TestLineWithStdoutElsewhereSaysWhatItWaitsFor(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Answered the task."), llmtest.ReplyText("Answered."))
	home, dir := t.TempDir(), t.TempDir()
	term, err := ptyterm.Start(ptyterm.Options{
		Bin: "/bin/sh", Args: []string{"-c", `exec "$0" "the task" > answers.txt`, tackbin.Path(t)}, Dir: dir, Cols: 100, Rows: 24,
		Env: append(tackEnv(srv, home), "TERM=xterm"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	if screen, _, err := term.WaitScreen(testkit.WaitLimit, func(s string) bool { return strings.Contains(s, "press Enter") }); err != nil {
		t.Fatalf("want the terminal to say what tack waits for: %v; it shows:\n%s", err, screen)
	}
	waitRequests(t, srv, 1)
	term.Type("hi")
	term.Key(vt.KeyEnter)
	waitRequests(t, srv, 2)
	term.Key('d', vt.ModCtrl)
	if code, err := term.Wait(testkit.WaitLimit); err != nil || code != 0 {
		t.Fatalf("want exit 0 at the end of input, got %d, %v; terminal shows:\n%s", code, err, term.Screen())
	}
	got := string(testkit.ReadFile(t, filepath.Join(dir, "answers.txt")))
	if !strings.Contains(got, "Answered the task.") || !strings.Contains(got, "Answered.") {
		t.Errorf("want both answers in the file, got %q", got)
	}
	if last := srv.Requests()[0].Messages; last[len(last)-1].Content != "the task" {
		t.Errorf("want the command line's task as the first message, got %+v", last[len(last)-1])
	}
}
