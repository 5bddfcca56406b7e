package pty

import (
	"os"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func TestSIGQUITExitsAndRestoresTheTerminal(t *testing.T) {
	r := start(t, setup{srv: llmtest.New(t, llmtest.ReplyText("Hi there."))})
	r.waitIdle()
	if err := r.Signal(syscall.SIGQUIT); err != nil {
		t.Fatal(err)
	}
	if code := r.exitCode(); code != 128+int(syscall.SIGQUIT) {
		t.Errorf("want exit code %d after SIGQUIT, got %d; output tail %q", 128+int(syscall.SIGQUIT), code, tail(r.Raw()))
	}
	assertRestored(t, r)
}

// A SIGTSTP from outside suspends the screen as Ctrl+Z does: the terminal
// is restored, then the process stops (the kernel says so), and SIGCONT
// (fg) takes the terminal back and redraws, with the draft still there.
func TestSIGTSTPRestoresTheTerminalAndSIGCONTRedraws(t *testing.T) {
	r := start(t, setup{srv: llmtest.New(t, llmtest.ReplyText("Hi there."))})
	r.waitIdle()
	r.Type("a draft to keep")
	r.waitText("the draft", "a draft to keep")
	if err := r.Signal(syscall.SIGTSTP); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("the terminal restored on SIGTSTP", nil, func(string) bool { return !r.AltScreen() })
	assertRestored(t, r)
	waitStopped(t, r.PID())
	if err := r.Signal(syscall.SIGCONT); err != nil {
		t.Fatal(err)
	}
	r.waitScreen("the screen redrawn on SIGCONT", []string{"a draft to keep"}, func(s string) bool {
		return r.AltScreen() && idleScreen(s)
	})
	r.Type(" and go on")
	r.waitText("typing after the resume", "a draft to keep and go on")
	if !strings.Contains(r.Screen(), "a draft to keep and go on") {
		t.Fatalf("want the editor to take keys again after SIGCONT, got:\n%s", frame(r.Screen()))
	}
}

// waitStopped waits until the kernel reports process pid stopped.
func waitStopped(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(stepLimit)
	for time.Now().Before(deadline) {
		b, _ := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
		if _, after, ok := strings.Cut(string(b), ") "); ok && strings.HasPrefix(after, "T") {
			return
		}
		<-time.After(10 * time.Millisecond)
	}
	t.Fatalf("want tack stopped after SIGTSTP, it was not within %v", stepLimit)
}
