// Package ptyterm runs a program (the built tack binary, see tackbin) in a
// pseudo-terminal and renders what it writes in the x/vt emulator, so tests
// can wait for text on the screen, type keys the way a terminal sends them
// and check the raw escape sequences the program leaves behind.
//
// The emulator also plays the terminal's part in conversations: its replies
// to queries (primary device attributes, cursor position reports, colour
// queries) travel back into the pseudo-terminal like a real terminal's,
// and keys are sent through it so they are encoded for the modes the
// program switched on.
package ptyterm

import (
	"bytes"
	"errors"
	"fmt"
	"image/color"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"

	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
	creack "github.com/creack/pty"

	"github.com/tack-agent/tack/snapshots/testkit/vtfeed"
)

// Options describe one run of the binary.
type Options struct {
	Bin  string
	Args []string
	Dir  string   // working directory
	Env  []string // the whole environment; nothing is inherited
	Cols int
	Rows int
	// Background is the terminal's background colour, which it reports to
	// an OSC 11 query; black when nil.
	Background color.Color
	// NoColourReplies makes the terminal one that ignores colour queries,
	// as many do: its replies to them are dropped.
	NoColourReplies bool
	// SynchronizedOutput makes the terminal one that reports synchronized
	// output (mode 2026) as supported, as kitty, WezTerm, ghostty and
	// iTerm2 do, so the program wraps its frames in it; x/vt itself
	// reports the mode unrecognised.
	SynchronizedOutput bool
}

// Terminal is a running process on the slave side of a pseudo-terminal
// whose master side is read into an emulator.
type Terminal struct {
	cmd     *exec.Cmd
	master  *os.File
	em      *vt.SafeEmulator
	feed    *vtfeed.Writer // what the program writes, on its way to em
	started time.Time

	mu      sync.Mutex
	raw     bytes.Buffer
	changed chan struct{}      // closed and replaced after every write to the screen
	wrote   time.Time          // when the bytes that last changed the screen were read
	first   time.Time          // when the program first wrote
	modes   map[ansi.Mode]bool // set by the emulator's callbacks, inside Write under mu

	noColourReplies    bool
	synchronizedOutput bool

	readDone    chan struct{} // the master reader ended: the slave side is closed
	forwardDone chan struct{} // the reply forwarder ended: the emulator is closed
	exited      chan struct{} // the process was reaped
	waitErr     error
}

// Start runs the binary in a Cols×Rows pseudo-terminal. Close it when done.
func Start(o Options) (*Terminal, error) {
	em := vt.NewSafeEmulator(o.Cols, o.Rows)
	if o.Background != nil {
		em.SetDefaultBackgroundColor(o.Background)
	}
	t := &Terminal{
		em: em, feed: vtfeed.New(em, nil), changed: make(chan struct{}), modes: map[ansi.Mode]bool{},
		noColourReplies: o.NoColourReplies, synchronizedOutput: o.SynchronizedOutput,
		readDone: make(chan struct{}), forwardDone: make(chan struct{}), exited: make(chan struct{}),
	}
	em.SetCallbacks(vt.Callbacks{
		EnableMode:  func(m ansi.Mode) { t.modes[m] = true },
		DisableMode: func(m ansi.Mode) { t.modes[m] = false },
	})
	t.cmd = exec.Command(o.Bin, o.Args...)
	t.cmd.Dir = o.Dir
	t.cmd.Env = o.Env
	t.started = time.Now()
	master, err := creack.StartWithSize(t.cmd, &creack.Winsize{Rows: uint16(o.Rows), Cols: uint16(o.Cols)})
	if err != nil {
		return nil, fmt.Errorf("start %s in a pseudo-terminal: %w", o.Bin, err)
	}
	if t.master, err = pollable(master); err != nil {
		_ = t.cmd.Process.Kill()
		_ = t.cmd.Wait()
		return nil, err
	}
	go t.readScreen()
	go t.forwardInput()
	go func() {
		t.waitErr = t.cmd.Wait()
		close(t.exited)
	}()
	return t, nil
}

// readScreen copies the program's output into the emulator and the raw
// log until the slave side is closed (EIO on Linux).
func (t *Terminal) readScreen() {
	defer close(t.readDone)
	buf := make([]byte, 32<<10)
	for {
		n, err := t.master.Read(buf)
		if n > 0 {
			// The time the program's bytes were read, before the emulator
			// parses them: what the test does with them is not the
			// program's latency.
			read := time.Now()
			t.mu.Lock()
			if t.raw.Len() == 0 {
				t.first = read
			}
			t.raw.Write(buf[:n])
			_, _ = t.feed.Write(buf[:n])
			t.wrote = read
			close(t.changed)
			t.changed = make(chan struct{})
			t.mu.Unlock()
		}
		if err != nil {
			return
		}
	}
}

// forwardInput copies what the emulator sends — keys and replies to the
// program's queries — into the pseudo-terminal until the emulator closes.
// Writes after the program exited fail and are dropped, as a terminal
// drops them.
func (t *Terminal) forwardInput() {
	defer close(t.forwardDone)
	buf := make([]byte, 4096)
	for {
		n, err := t.em.Read(buf)
		reply := buf[:n]
		if t.synchronizedOutput {
			reply = bytes.ReplaceAll(reply, syncUnknown, syncSupported)
		}
		if n > 0 && !(t.noColourReplies && colourReply(reply)) {
			_, _ = t.master.Write(reply)
		}
		if err != nil {
			return
		}
	}
}

// The emulator's answer to a query for mode 2026, and a terminal's that
// supports it (reset: supported and off).
var (
	syncUnknown   = []byte(ansi.ReportMode(ansi.ModeSynchronizedOutput, ansi.ModeNotRecognized))
	syncSupported = []byte(ansi.ReportMode(ansi.ModeSynchronizedOutput, ansi.ModeReset))
)

// colourReply reports whether b is the emulator's answer to a colour
// query (OSC 10, 11 or 12), which it writes in one piece.
func colourReply(b []byte) bool {
	return bytes.HasPrefix(b, []byte("\x1b]10;")) || bytes.HasPrefix(b, []byte("\x1b]11;")) || bytes.HasPrefix(b, []byte("\x1b]12;"))
}

// PID is the process id of the program.
func (t *Terminal) PID() int { return t.cmd.Process.Pid }

// ControlMaster calls f with the descriptor of the master side, for
// reading the modes the program left the terminal in. (The descriptor is
// not handed out: File.Fd would make the master side blocking again.)
func (t *Terminal) ControlMaster(f func(fd uintptr)) error {
	sc, err := t.master.SyscallConn()
	if err != nil {
		return err
	}
	return sc.Control(f)
}

// Started is when the process was started.
func (t *Terminal) Started() time.Time { return t.started }

// FirstOutput is when the program first wrote to the terminal; zero
// before that.
func (t *Terminal) FirstOutput() time.Time {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.first
}

// Screen is the text the emulator shows, rows joined by newlines.
func (t *Terminal) Screen() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.em.String()
}

// Foreground is the colour of the text in the cell at column x, row y (nil
// for the terminal's default).
func (t *Terminal) Foreground(x, y int) color.Color {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.em.CellAt(x, y); c != nil {
		return c.Style.Fg
	}
	return nil
}

// Style is the style of the cell at column x, row y (the zero style off
// the screen).
func (t *Terminal) Style(x, y int) uv.Style {
	t.mu.Lock()
	defer t.mu.Unlock()
	if c := t.em.CellAt(x, y); c != nil {
		return c.Style
	}
	return uv.Style{}
}

// Raw is every byte the program wrote to the terminal so far.
func (t *Terminal) Raw() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.raw.String()
}

// ModeSet reports whether the program left terminal mode m switched on.
func (t *Terminal) ModeSet(m ansi.Mode) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.modes[m]
}

// AltScreen reports whether the emulator shows the alternate screen.
func (t *Terminal) AltScreen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.em.IsAltScreen()
}

// ErrTimeout is returned by WaitScreen when the screen never matched.
var ErrTimeout = errors.New("timed out waiting for the screen")

// WaitScreen waits until match holds for the screen, checking after every
// change, and returns the screen and the time of the write that made it
// hold. It gives up with ErrTimeout after limit, or when the program closed
// the terminal without the screen matching.
func (t *Terminal) WaitScreen(limit time.Duration, match func(screen string) bool) (string, time.Time, error) {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for {
		t.mu.Lock()
		screen, at, changed := t.em.String(), t.wrote, t.changed
		t.mu.Unlock()
		if match(screen) {
			return screen, at, nil
		}
		select {
		case <-changed:
		case <-t.readDone:
			if s := t.Screen(); match(s) {
				return s, at, nil
			}
			return t.Screen(), at, fmt.Errorf("%w: the program closed the terminal", ErrTimeout)
		case <-timer.C:
			return screen, at, ErrTimeout
		}
	}
}

// Type sends text as typed characters.
func (t *Terminal) Type(text string) { t.em.SendText(text) }

// TypeNow writes plain text (printable characters, which a terminal sends
// as they are) straight to the program's input, not through the emulator's
// input pipe, and returns when it was written: where a measured key's echo
// starts.
func (t *Terminal) TypeNow(text string) (time.Time, error) {
	at := time.Now()
	if _, err := t.master.Write([]byte(text)); err != nil {
		return at, fmt.Errorf("type %q: %w", text, err)
	}
	return at, nil
}

// Key sends one key press, encoded as the emulator encodes it for the
// modes the program set.
func (t *Terminal) Key(code rune, mods ...uv.KeyMod) {
	var m uv.KeyMod
	for _, x := range mods {
		m |= x
	}
	t.em.SendKey(vt.KeyPressEvent{Code: code, Mod: m})
}

// Resize changes the terminal's size as a user resizing the window does:
// the emulator first, then the pseudo-terminal, which signals SIGWINCH to
// the program. It returns how many bytes the program had written before,
// the point in Raw where a replay must resize too.
func (t *Terminal) Resize(cols, rows int) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.em.Resize(cols, rows)
	return t.raw.Len(), setSize(t.master, cols, rows)
}

// Signal sends sig to the program.
func (t *Terminal) Signal(sig syscall.Signal) error { return t.cmd.Process.Signal(sig) }

// Wait waits at most limit for the program to exit and for the terminal to
// be drained, and returns the exit code (-1 when killed by a signal it did
// not handle).
func (t *Terminal) Wait(limit time.Duration) (int, error) {
	timer := time.NewTimer(limit)
	defer timer.Stop()
	for _, ch := range []chan struct{}{t.exited, t.readDone} {
		select {
		case <-ch:
		case <-timer.C:
			return 0, fmt.Errorf("the program did not exit within %v", limit)
		}
	}
	var ee *exec.ExitError
	if errors.As(t.waitErr, &ee) {
		return ee.ExitCode(), nil
	}
	if t.waitErr != nil {
		return 0, fmt.Errorf("wait for the program: %w", t.waitErr)
	}
	return 0, nil
}

// Close kills the program if it still runs, closes the terminal and waits
// for the goroutines that serve it.
func (t *Terminal) Close() {
	select {
	case <-t.exited:
	default:
		_ = t.cmd.Process.Kill()
		<-t.exited
	}
	killGroup(t.cmd.Process.Pid)
	_ = t.master.Close()
	<-t.readDone
	// Emulator.Close sets a flag that Read checks without a lock, a data
	// race with the forwarder; closing the input pipe ends Read the same way.
	if c, ok := t.em.InputPipe().(io.Closer); ok {
		_ = c.Close()
	}
	<-t.forwardDone
}

// VmRSS is the resident set size of process pid in bytes, from
// /proc/<pid>/status.
func VmRSS(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, fmt.Errorf("read the status of process %d: %w", pid, err)
	}
	for _, line := range strings.Split(string(b), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			var kb int64
			if _, err := fmt.Sscanf(strings.TrimSpace(rest), "%d kB", &kb); err != nil {
				return 0, fmt.Errorf("parse VmRSS %q of process %d: %w", rest, pid, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("process %d reports no VmRSS", pid)
}
