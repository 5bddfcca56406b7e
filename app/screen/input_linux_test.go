package screen

import (
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	creack "github.com/creack/pty"
	"golang.org/x/sys/unix"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// hangLimit bounds each wait, telling a hang from a slow step.
const hangLimit = 30 * time.Second

// ptyScreen opens a screen on a new pseudo-terminal and returns it, the
// master side (where the test types) and the events the screen sends.
func ptyScreen(t *testing.T) (*Screen, *os.File, *os.File, chan tea.Msg) {
	t.Helper()
	master, tty, err := creack.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	t.Cleanup(func() { master.Close(); tty.Close() })
	// What the screen writes (its frames, the terminal's echo) is read
	// and dropped, so that no write waits on a full buffer.
	go func() { _, _ = io.Copy(io.Discard, master) }()
	s, err := Open(Options{In: tty, Out: tty, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Interval: interval, Width: 40, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	if !s.ReadsKeys() {
		t.Fatal("want the screen to read the keys of a terminal it can open again")
	}
	events := make(chan tea.Msg, 64)
	stop := s.Watch(func(m tea.Msg) { events <- m })
	t.Cleanup(func() { stop(); _ = s.Close() })
	return s, master, tty, events
}

// typeOn types text on the terminal whose master side is master.
func typeOn(t *testing.T, master *os.File, text string) {
	t.Helper()
	if _, err := master.WriteString(text); err != nil {
		t.Fatal(err)
	}
}

// typed waits for the key press of text's first rune.
func typed(t *testing.T, events chan tea.Msg, text string) {
	t.Helper()
	timer := time.NewTimer(hangLimit)
	defer timer.Stop()
	for {
		select {
		case m := <-events:
			if k, ok := m.(uv.KeyPressEvent); ok {
				if k.Text != text {
					t.Fatalf("want the key %q, got %q", text, k.Text)
				}
				return
			}
		case <-timer.C:
			t.Fatalf("want the key %q within %v, got none", text, hangLimit)
		}
	}
}

// lineOn reads a line from the terminal's slave side, as a program the
// terminal was lent to reads it (through a description of its own, which
// takes a deadline).
func lineOn(t *testing.T, tty *os.File) string {
	t.Helper()
	f, err := os.OpenFile(tty.Name(), os.O_RDONLY|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.SetReadDeadline(time.Now().Add(hangLimit)); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, err := f.Read(buf)
	if err != nil {
		t.Fatalf("want a line for the program the terminal was lent to, got %v", err)
	}
	return string(buf[:n])
}

// Keys reach the program while the screen holds the terminal; once it is
// given back (Release, as for Ctrl+Z or the editor) every byte typed goes
// to whoever reads the terminal then, and after Restore to the program
// again.
func TestKeysTypedWhileTheTerminalIsLentAreNotTaken(t *testing.T) {
	s, master, tty, events := ptyScreen(t)
	typeOn(t, master, "a")
	typed(t, events, "a")
	if err := s.Release(); err != nil {
		t.Fatal(err)
	}
	typeOn(t, master, "for the shell\n")
	if got := lineOn(t, tty); got != "for the shell\n" {
		t.Fatalf("want the line typed while the terminal was lent, whole, got %q", got)
	}
	if err := s.Restore(); err != nil {
		t.Fatal(err)
	}
	typeOn(t, master, "b")
	typed(t, events, "b")
}

// A program lent the terminal (the external editor) reads its keys from
// it, and the program's keys come back when it ends.
func TestAProgramLentTheTerminalReadsItsKeys(t *testing.T) {
	s, master, tty, events := ptyScreen(t)
	out := t.TempDir() + "/line"
	cmd := exec.Command("sh", "-c", `IFS= read -r line && printf '%s' "$line" > "$1"`, "sh", out)
	lent := make(chan error, 1)
	go func() { lent <- s.Lend(cmd) }()
	// Typed once the terminal is lent: cooked again, which Release makes
	// it only after the screen's reader stopped. (A line typed before
	// that is the screen's to read.) The shell may not read yet; the line
	// waits in the terminal for it.
	testkit.Eventually(t, "the terminal lent, in cooked mode", func() bool {
		tio, err := unix.IoctlGetTermios(int(tty.Fd()), unix.TCGETS)
		return err == nil && tio.Lflag&unix.ICANON != 0
	})
	typeOn(t, master, "an edited line\n")
	if err := <-lent; err != nil {
		t.Fatalf("want the program to read its line and end, got %v", err)
	}
	b, err := os.ReadFile(out)
	if err != nil || string(b) != "an edited line" {
		t.Fatalf("want the program to have read the line typed, got %q (%v)", b, err)
	}
	typeOn(t, master, "c")
	typed(t, events, "c")
}

// After Close nothing reads the terminal: what is typed then is the
// shell's.
func TestNothingReadsTheTerminalAfterClose(t *testing.T) {
	s, master, tty, events := ptyScreen(t)
	typeOn(t, master, "a")
	typed(t, events, "a")
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	typeOn(t, master, "after tack\n")
	if got := lineOn(t, tty); !strings.HasSuffix(got, "after tack\n") {
		t.Fatalf("want the line typed after Close left for the shell, got %q", got)
	}
}

// When the terminal hangs up (its other side closed, as when the window is
// closed) nothing can be typed any more: the program ends.
func TestATerminalThatHangsUpEndsTheProgram(t *testing.T) {
	master, tty, err := creack.Open()
	if err != nil {
		t.Skipf("no pseudo-terminal: %v", err)
	}
	defer tty.Close()
	// Nothing reads the master, so that closing it hangs the terminal up
	// at once (a read under way would hold it open); the few bytes the
	// screen writes fit in the terminal's buffer.
	s, err := Open(Options{In: tty, Out: tty, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Interval: interval, Width: 40, Height: 5})
	if err != nil {
		t.Fatal(err)
	}
	events := make(chan tea.Msg, 64)
	stop := s.Watch(func(m tea.Msg) { events <- m })
	defer func() { stop(); _ = s.Close() }()
	if err := master.Close(); err != nil {
		t.Fatal(err)
	}
	timer := time.NewTimer(hangLimit)
	defer timer.Stop()
	for {
		select {
		case msg := <-events:
			ended, ok := msg.(inputEndedMsg)
			if !ok {
				continue
			}
			_, cmd := s.Model(&echo{}).Update(ended)
			if cmd == nil || cmd() != tea.Quit() {
				t.Fatalf("want the program told to quit when the terminal hangs up, got %v", cmd)
			}
			if err := s.InputErr(); err != nil {
				t.Errorf("want no read error reported for a hangup, got %v", err)
			}
			return
		case <-timer.C:
			t.Fatalf("want the reader to report the hangup within %v, got nothing", hangLimit)
		}
	}
}
