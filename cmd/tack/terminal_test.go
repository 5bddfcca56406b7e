package main

import (
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestLineTerminalCtrlCCancelsTheTurnThenExits drives line mode in a
// pseudo-terminal: the first Ctrl+C cancels the running turn, the next one,
// at an idle prompt, exits.
func TestLineTerminalCtrlCCancelsTheTurnThenExits(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("partial", 0), llmtest.Stall()))
	home := t.TempDir()
	cmd := exec.Command(tackBin, "--ui", "line")
	cmd.Dir = t.TempDir()
	cmd.Env = []string{"PATH=/usr/bin:/bin", "HOME=" + home, "TACK_HOME=" + home, "TERM=xterm",
		"DEEPSEEK_BASE_URL=" + srv.URL(), "DEEPSEEK_API_KEY=test"}
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Rows: 24, Cols: 100})
	if err != nil {
		t.Fatal(err)
	}
	defer tty.Close()
	out := &lockedBuffer{}
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := tty.Read(buf)
			out.Write(buf[:n])
			if err != nil {
				return
			}
		}
	}()
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(out.String(), want) {
			if time.Now().After(deadline) {
				t.Fatalf("want the terminal to show %q within 10s, got %q", want, out.String())
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("> ")
	tty.WriteString("hi\r")
	select {
	case <-srv.Stalled():
	case <-time.After(10 * time.Second):
		t.Fatalf("want the stream to stall within 10s, terminal shows %q", out.String())
	}
	waitFor("partial")
	tty.WriteString("\x03")
	waitFor("Turn cancelled.")
	tty.WriteString("\x03")
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("want exit 0 after Ctrl+C at the idle prompt, got %v (terminal %q)", err, out.String())
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("want tack to exit after the second Ctrl+C, terminal shows %q", out.String())
	}
}
