//go:build unix

package ptyterm

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A child that left the program's process group keeps the slave side
// open after the program is killed; Close must end all the same (a
// blocking master side held it for as long as the child lived).
func TestCloseEndsWhileAChildOfItsOwnHoldsTheTerminal(t *testing.T) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		t.Skip("no sh on PATH")
	}
	setsid, err := exec.LookPath("setsid")
	if err != nil {
		t.Skip("no setsid on PATH (util-linux)")
	}
	term, err := Start(Options{
		Bin: sh, Args: []string{"-c", setsid + " sleep 600 & echo child=$!; exec sleep 600"},
		Env: []string{"PATH=" + os.Getenv("PATH")}, Cols: 80, Rows: 24,
	})
	if err != nil {
		t.Fatal(err)
	}
	screen, _, err := term.WaitScreen(time.Minute, func(s string) bool { return strings.Contains(s, "child=") })
	if err != nil {
		term.Close()
		t.Fatalf("want the child's pid on screen, got (%v):\n%s", err, screen)
	}
	pid := childPID(t, screen)
	t.Cleanup(func() { _ = syscall.Kill(pid, syscall.SIGKILL) })
	closed := make(chan struct{})
	go func() { term.Close(); close(closed) }()
	select {
	case <-closed:
	case <-time.After(time.Minute):
		t.Fatal("want Close to end while the child still holds the slave side, it hung")
	}
}

func childPID(t *testing.T, screen string) int {
	t.Helper()
	_, rest, _ := strings.Cut(screen, "child=")
	pid, err := strconv.Atoi(strings.Fields(rest)[0])
	if err != nil {
		t.Fatalf("want a pid after child=, got %q", rest)
	}
	return pid
}

// TypeNow's text reaches the terminal's input, and the screen that shows
// its echo was read after it was typed.
func TestTypeNowIsEchoedAfterItWasTyped(t *testing.T) {
	cat, err := exec.LookPath("cat")
	if err != nil {
		t.Skip("no cat on PATH")
	}
	term, err := Start(Options{Bin: cat, Env: []string{"PATH=" + os.Getenv("PATH")}, Cols: 80, Rows: 24})
	if err != nil {
		t.Fatal(err)
	}
	defer term.Close()
	typed, err := term.TypeNow("typed now")
	if err != nil {
		t.Fatal(err)
	}
	screen, shown, err := term.WaitScreen(time.Minute, func(s string) bool { return strings.Contains(s, "typed now") })
	if err != nil {
		t.Fatalf("want the typed text echoed, got (%v):\n%s", err, screen)
	}
	if shown.Before(typed) {
		t.Fatalf("want the echo read after the text was typed, got it read %v before", typed.Sub(shown))
	}
}
