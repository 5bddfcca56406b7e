package pty

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	uv "github.com/charmbracelet/ultraviolet"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/ptyterm"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
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

// Ctrl+Z in tack run as a job of an interactive bash stops it as any job
// stops: bash reports it stopped, the terminal is bash's again, and fg
// brings the screen back with the draft.
func TestCtrlZSuspendsAJobAndFgRedraws(t *testing.T) {
	bash, err := exec.LookPath("bash")
	if err != nil {
		t.Skip("bash is not installed: job control cannot be tried")
	}
	s := setup{srv: llmtest.New(t, llmtest.ReplyText("Hi there."))}
	home, dir := t.TempDir(), t.TempDir()
	env := append(s.env(home, t.TempDir()), "PS1=$ ", "HISTFILE=/dev/null")
	term, err := ptyterm.Start(ptyterm.Options{Bin: bash, Args: []string{"--norc", "--noprofile", "-i"}, Dir: dir, Env: env, Cols: cols, Rows: rows})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(term.Close)
	r := &run{Terminal: term, t: t, home: home, dir: dir}
	r.waitText("the shell's prompt", "$")
	r.Type(tackbin.Path(t) + "\r")
	r.waitIdle()
	r.Type("a draft to keep")
	r.waitText("the draft", "a draft to keep")
	r.Key('z', uv.ModCtrl)
	// The main screen is back (bash's readline turns its own modes, such
	// as bracketed paste, on again at once, so those prove nothing here).
	r.waitScreen("bash reporting the stopped job", []string{"Stopped"}, func(string) bool { return !r.AltScreen() })
	r.Type("fg\r")
	r.waitScreen("the screen redrawn after fg", []string{"a draft to keep"}, func(s string) bool {
		return r.AltScreen() && idleScreen(s)
	})
	r.Type(" and go on")
	r.waitText("typing after fg", "a draft to keep and go on")
}

// Where no job-control shell could resume it (here tack leads its own
// session, as in a tmux pane), Ctrl+Z says so and tack keeps running.
func TestCtrlZWithoutJobControlSaysSoAndKeepsRunning(t *testing.T) {
	r := start(t, setup{srv: llmtest.New(t, llmtest.ReplyText("Hi there."))})
	r.waitIdle()
	r.Key('z', uv.ModCtrl)
	r.waitText("the notice", "Ctrl+Z suspends tack only when a job-control shell started it")
	r.Type("still here")
	r.waitText("typing after Ctrl+Z", "still here")
}
