// Package snapshots runs tack's real bubbletea program inside the x/vt
// terminal emulator and compares what the screen shows with golden files:
// rows of text, runs of style (colour, bold, faint, italic, underline,
// reverse) and the cursor. Every golden screen is also checked against the
// palette: a colour outside the 16 ANSI colours, or any explicit
// background, fails the test.
package snapshots

import (
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/app/screen"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/palette"
	"github.com/tack-agent/tack/snapshots/testkit/vtfeed"
)

// Term is a running program in an emulated terminal.
type Term struct {
	E *vt.SafeEmulator
	// feed is the way the program's output takes into E.
	feed *vtfeed.Writer
	// In is what the program reads: the emulator's input, buffered.
	In   io.Reader
	P    *tea.Program
	done chan error

	mu    sync.Mutex
	modes map[ansi.Mode]bool
	title string

	// screen is held while the program writes a frame and while a test
	// reads the screen: vt hands out pointers to live cells, so reading them
	// cell by cell under vt's own per-call lock could see a frame half drawn.
	screen sync.Mutex
}

// inputQueue drains the emulator's input pipe into an unbounded buffer the
// program reads from. vt writes keys and query replies into an unbuffered
// pipe while holding its lock; were the program slow to read (its input
// loop waiting on a frame being written), the writer and the renderer would
// wait on each other forever.
type inputQueue struct {
	mu   sync.Mutex
	cond *sync.Cond
	buf  []byte
	err  error
}

func newInputQueue(src io.Reader) *inputQueue {
	q := &inputQueue{}
	q.cond = sync.NewCond(&q.mu)
	go func() {
		b := make([]byte, 4096)
		for {
			n, err := src.Read(b)
			q.mu.Lock()
			q.buf = append(q.buf, b[:n]...)
			if err != nil {
				q.err = err
			}
			q.cond.Broadcast()
			q.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return q
}

func (q *inputQueue) Read(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.buf) == 0 && q.err == nil {
		q.cond.Wait()
	}
	if len(q.buf) == 0 {
		return 0, q.err
	}
	n := copy(p, q.buf)
	q.buf = q.buf[n:]
	return n, nil
}

// frameWriter passes the program's output to the emulator under the
// screen lock.
type frameWriter struct{ tt *Term }

func (w frameWriter) Write(p []byte) (int, error) {
	w.tt.screen.Lock()
	defer w.tt.screen.Unlock()
	return w.tt.feed.Write(p)
}

// Start runs m in a w×h emulator. The emulator is both the program's
// input (so terminal query replies are read) and its output; LNM is set
// first because bubbletea writes bare line feeds when its input is not a
// TTY. The colour profile is TrueColor on purpose: anything the program
// draws outside the 16-colour palette then reaches the screen as it is and
// the palette check catches it, where a 16-colour profile would quietly
// map it into the palette.
func Start(t testing.TB, m tea.Model, w, h int, opts ...tea.ProgramOption) *Term {
	t.Helper()
	tt := newTerm(w, h)
	opts = append([]tea.ProgramOption{
		tea.WithInput(tt.In), tea.WithOutput(frameWriter{tt}),
		tea.WithWindowSize(w, h),
		tea.WithColorProfile(colorprofile.TrueColor),
		tea.WithEnvironment(environment),
		tea.WithoutSignals(),
	}, opts...)
	tt.P = tea.NewProgram(m, opts...)
	go func() { _, err := tt.P.Run(); tt.done <- err }()
	t.Cleanup(tt.Stop)
	return tt
}

// StartScreen runs m in a w×h emulator as Start does, but drawn as tack's
// binary draws it: by app/screen, with bubbletea's renderer off.
func StartScreen(t testing.TB, m tea.Model, w, h int) *Term {
	t.Helper()
	tt := newTerm(w, h)
	scr, err := screen.Open(screen.Options{
		Out: frameWriter{tt}, Env: environment, Profile: colorprofile.TrueColor, Interval: time.Second / 120, Width: w, Height: h,
	})
	if err != nil {
		t.Fatal(err)
	}
	tt.P = tea.NewProgram(scr.Model(m), append(scr.ProgramOptions(),
		tea.WithInput(tt.In), tea.WithOutput(frameWriter{tt}), tea.WithoutSignals())...)
	go func() { _, err := tt.P.Run(); _ = scr.Close(); tt.done <- err }()
	t.Cleanup(tt.Stop)
	return tt
}

// environment is the program's environment in the emulator.
var environment = []string{"TERM=xterm-256color", "LANG=C.UTF-8"}

// newTerm is a w×h emulator in line-feed-newline mode, with the modes and
// the title the program sets recorded.
func newTerm(w, h int) *Term {
	e := vt.NewSafeEmulator(w, h)
	tt := &Term{E: e, In: newInputQueue(e), done: make(chan error, 1), modes: map[ansi.Mode]bool{}}
	tt.feed = vtfeed.New(e, tt.setTitle)
	e.SetCallbacks(vt.Callbacks{
		EnableMode:  func(m ansi.Mode) { tt.setMode(m, true) },
		DisableMode: func(m ansi.Mode) { tt.setMode(m, false) },
		Title:       tt.setTitle,
	})
	_, _ = e.WriteString(ansi.SetModeLineFeedNewLine)
	return tt
}

// setTitle records the title the program set, from the emulator or, for
// one x/vt would misread, from the feed (see vtfeed).
func (tt *Term) setTitle(s string) {
	tt.mu.Lock()
	tt.title = s
	tt.mu.Unlock()
}

func (tt *Term) setMode(m ansi.Mode, on bool) {
	tt.mu.Lock()
	tt.modes[m] = on
	tt.mu.Unlock()
}

// ModeSet reports whether the program left mode m switched on.
func (tt *Term) ModeSet(m ansi.Mode) bool {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return tt.modes[m]
}

// CursorHidden reports whether the program's last word on the cursor
// (DECTCEM, mode ?25) hid it. A real terminal has one cursor visibility;
// vt keeps one per screen, so its own CursorHidden still reports a cursor
// hidden on the main screen before the program entered the alternate one
// after the program showed it there and left.
func (tt *Term) CursorHidden() bool {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	on, seen := tt.modes[ansi.ModeTextCursorEnable]
	return seen && !on
}

// Title is the window title the program set last.
func (tt *Term) Title() string {
	tt.mu.Lock()
	defer tt.mu.Unlock()
	return tt.title
}

// Text is the screen's text, one line per row without trailing spaces.
// It reads through the emulator's lock (vt's own String does not take it,
// and the program writes concurrently).
func (tt *Term) Text() string {
	tt.screen.Lock()
	defer tt.screen.Unlock()
	return tt.text()
}

func (tt *Term) text() string {
	lines := strings.Split(ansi.Strip(tt.E.Render()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// WaitFor polls the screen until pred holds, failing with the screen after
// testkit.WaitLimit.
func (tt *Term) WaitFor(t testing.TB, what string, pred func(screen string) bool) string {
	t.Helper()
	var s string
	testkit.Eventually(t, "the screen to show "+what, func() bool { s = tt.Text(); return pred(s) },
		func() string { return s })
	return s
}

// WaitText waits until the screen contains every one of texts.
func (tt *Term) WaitText(t testing.TB, texts ...string) string {
	t.Helper()
	return tt.WaitFor(t, fmt.Sprintf("%q", texts), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// WaitGone waits until the screen no longer contains text.
func (tt *Term) WaitGone(t testing.TB, text string) string {
	t.Helper()
	return tt.WaitFor(t, "no "+fmt.Sprintf("%q", text), func(s string) bool { return !strings.Contains(s, text) })
}

// WaitTitle waits until the window title is want.
func (tt *Term) WaitTitle(t testing.TB, want string) {
	t.Helper()
	testkit.Eventually(t, fmt.Sprintf("window title %q", want), func() bool { return tt.Title() == want }, tt.Title)
}

// Stop ends the program, if it still runs, and waits until it ended. It
// asks the program to quit first: Kill races with bubbletea's event loop
// (the race detector sees it), so it is only the fallback.
func (tt *Term) Stop() {
	tt.P.Quit()
	var err error
	select {
	case err = <-tt.done:
	case <-time.After(testkit.WaitLimit):
		tt.P.Kill()
		err = <-tt.done
	}
	tt.done <- err
}

// Wait blocks until the program ended and returns its error.
func (tt *Term) Wait(t testing.TB) error {
	t.Helper()
	select {
	case err := <-tt.done:
		tt.done <- err
		return err
	case <-time.After(testkit.WaitLimit):
		t.Fatalf("want the program to end within %v; the screen is:\n%s", testkit.WaitLimit, tt.Text())
		return nil
	}
}

// Type sends text as typed keys.
func (tt *Term) Type(s string) { tt.E.SendText(s) }

// Key sends one key, with optional modifiers.
func (tt *Term) Key(code rune, mod ...uv.KeyMod) {
	var m uv.KeyMod
	for _, x := range mod {
		m |= x
	}
	tt.E.SendKey(vt.KeyPressEvent{Code: code, Mod: m})
}

// Ctrl sends Ctrl+letter.
func (tt *Term) Ctrl(r rune) { tt.Key(r, vt.ModCtrl) }

// paletteName names the 16 ANSI colours.
// styleOf describes a cell's style, "" for the default.
func styleOf(c *uv.Cell) string {
	if c == nil {
		return ""
	}
	var parts []string
	if n, _ := palette.ColourName(c.Style.Fg); n != "" {
		parts = append(parts, n)
	}
	for _, a := range []struct {
		bit  uint8
		name string
	}{{uv.AttrBold, "bold"}, {uv.AttrFaint, "faint"}, {uv.AttrItalic, "italic"}, {uv.AttrReverse, "reverse"}} {
		if c.Style.Attrs&a.bit != 0 {
			parts = append(parts, a.name)
		}
	}
	if c.Style.Underline != uv.UnderlineNone {
		parts = append(parts, "underline")
	}
	return strings.Join(parts, " ")
}

// Snapshot serialises the screen: a header with the size and cursor, the
// rows of text, then the style runs of each row that has any. It also
// returns every palette violation found.
func (tt *Term) Snapshot() (string, []string) {
	tt.screen.Lock()
	defer tt.screen.Unlock()
	e := tt.E
	w, h := e.Width(), e.Height()
	var b strings.Builder
	// A hidden cursor's position is wherever the renderer last wrote, which
	// depends on how frames were batched: only a shown cursor's is pinned.
	if cur := e.CursorPosition(); e.CursorHidden() {
		fmt.Fprintf(&b, "size %dx%d  cursor hidden\n", w, h)
	} else {
		fmt.Fprintf(&b, "size %dx%d  cursor %d,%d shown\n", w, h, cur.X, cur.Y)
	}
	text := strings.Split(tt.text(), "\n")
	b.WriteString("┌" + strings.Repeat("─", w) + "┐\n")
	for y := 0; y < h; y++ {
		row := ""
		if y < len(text) {
			row = text[y]
		}
		b.WriteString("│" + row + strings.Repeat(" ", max(w-ansi.StringWidth(row), 0)) + "│\n")
	}
	b.WriteString("└" + strings.Repeat("─", w) + "┘\n")
	var bad []string
	for y := 0; y < h; y++ {
		runs := rowRuns(e, y, w, &bad)
		if runs != "" {
			fmt.Fprintf(&b, "%2d: %s\n", y, runs)
		}
	}
	return b.String(), bad
}

// rowRuns lists the styled runs of row y as `from-to style`, and records
// palette violations in bad.
func rowRuns(e *vt.SafeEmulator, y, w int, bad *[]string) string {
	var runs []string
	start, cur := 0, ""
	flush := func(end int) {
		if cur != "" {
			runs = append(runs, fmt.Sprintf("%d-%d %s", start, end-1, cur))
		}
	}
	for x := 0; x < w; x++ {
		c := e.CellAt(x, y)
		if c != nil {
			if v := palette.CellViolation(x, y, c.Style.Fg, c.Style.Bg); v != "" {
				*bad = append(*bad, v)
			}
		}
		s := styleOf(c)
		if s != cur {
			flush(x)
			start, cur = x, s
		}
	}
	flush(w)
	return strings.Join(runs, "; ")
}

// Golden compares the screen with testdata/<name>.golden (rewritten with
// -update) and fails on any palette violation.
func (tt *Term) Golden(t testing.TB, name string) {
	t.Helper()
	got, bad := tt.Snapshot()
	if len(bad) > 0 {
		t.Errorf("screen %s leaves the 16-colour palette (%d cells), first: %s", name, len(bad), bad[0])
	}
	golden.File(t, name, got)
}
