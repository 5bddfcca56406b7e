package screen

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// fakeClock is time that moves only when the test says.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	at      time.Time
	f       func()
	stopped bool
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Date(2026, 12, 1, 9, 0, 0, 0, time.UTC)} }

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) func() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return func() bool {
		c.mu.Lock()
		defer c.mu.Unlock()
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// advance moves time on by d and runs the timers that fell due, in the
// test's goroutine.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []*fakeTimer
	kept := c.timers[:0]
	for _, t := range c.timers {
		switch {
		case t.stopped:
		case !t.at.After(c.now):
			t.stopped = true
			due = append(due, t)
		default:
			kept = append(kept, t)
		}
	}
	c.timers = kept
	c.mu.Unlock()
	for _, t := range due {
		t.f()
	}
}

// pending is the number of timers that have neither fired nor been
// stopped.
func (c *fakeClock) pending() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.stopped {
			n++
		}
	}
	return n
}

// terminal counts the renderer's writes and shows them in the x/vt
// emulator, the oracle for what a terminal makes of them.
type terminal struct {
	mu     sync.Mutex
	em     *vt.Emulator
	writes int
	modes  map[ansi.Mode]bool // as the emulator's callbacks report them, under mu
}

func newTerminal(w, h int) *terminal {
	t := &terminal{em: vt.NewEmulator(w, h), modes: map[ansi.Mode]bool{}}
	t.em.SetCallbacks(vt.Callbacks{
		EnableMode:  func(m ansi.Mode) { t.modes[m] = true },
		DisableMode: func(m ansi.Mode) { t.modes[m] = false },
	})
	go func() { _, _ = io.Copy(io.Discard, t.em) }() // the emulator's answers to queries
	return t
}

func (t *terminal) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.writes++
	return t.em.Write(p)
}

func (t *terminal) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.writes
}

// row is the text of screen row y, without trailing blanks.
func (t *terminal) row(y int) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return strings.TrimRight(strings.Split(t.em.String(), "\n")[y], " ")
}

func (t *terminal) altScreen() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.em.IsAltScreen()
}

const interval = 8 * time.Millisecond

func newTestRenderer(t *testing.T) (*Renderer, *terminal, *fakeClock) {
	t.Helper()
	term, clock := newTerminal(40, 5), newFakeClock()
	r := NewRenderer(RendererOptions{
		Out: term, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Width: 40, Height: 5, Interval: interval, Clock: clock,
	})
	return r, term, clock
}

func view(text string) tea.View {
	v := tea.NewView(text)
	v.AltScreen = true
	return v
}

func TestTheFirstViewIsDrawnAtOnceOnTheAlternateScreen(t *testing.T) {
	r, term, _ := newTestRenderer(t)
	r.Show(view("hello"), false)
	if term.count() != 1 || term.row(0) != "hello" || !term.altScreen() {
		t.Fatalf("want one write showing hello on the alternate screen, got %d writes, row %q, alternate screen %v",
			term.count(), term.row(0), term.altScreen())
	}
}

func TestAfterFirstFrameIsCalledOnceTheFirstFrameIsWritten(t *testing.T) {
	term := newTerminal(40, 5)
	called := make(chan int, 2)
	r := NewRenderer(RendererOptions{
		Out: term, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Width: 40, Height: 5, Interval: interval, Clock: newFakeClock(),
		AfterFirstFrame: func() { called <- term.count() },
	})
	r.Show(view("hello"), false)
	if writes := <-called; writes != 1 {
		t.Fatalf("want AfterFirstFrame called after the first frame's write, got it after %d writes", writes)
	}
	r.Show(view("hello, world"), true)
	r.Erase()
	r.Show(view("hello again"), true)
	_ = r.Release()
	r.Restore()
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	select {
	case writes := <-called:
		t.Fatalf("want AfterFirstFrame called once, got a second call after %d writes", writes)
	default:
	}
}

func TestInputIsDrawnAtOnceWithinAFrameInterval(t *testing.T) {
	r, term, clock := newTestRenderer(t)
	r.Show(view(">"), false)
	r.Show(view("> s"), false)
	if term.row(0) != "> s" {
		t.Fatalf("want the first %d paced views drawn at once, got %q on screen", burst, term.row(0))
	}
	clock.advance(time.Millisecond)
	r.Show(view("> streamed"), false)
	if term.row(0) != "> s" {
		t.Fatalf("want a view that follows no input to wait for the frame interval, got %q on screen", term.row(0))
	}
	r.Show(view("> streamed q"), true)
	if got := term.row(0); got != "> streamed q" {
		t.Fatalf("want a view that follows input drawn at once, got %q", got)
	}
	if n := clock.pending(); n != 0 {
		t.Fatalf("want the paced frame dropped once input drew the newest view, got %d timers pending", n)
	}
	writes := term.count()
	clock.advance(interval)
	if term.count() != writes {
		t.Fatalf("want no frame left to draw, got %d more writes", term.count()-writes)
	}
}

func TestAStreamIsDrawnAtMostOncePerIntervalAndEndsOnItsLastView(t *testing.T) {
	r, term, clock := newTestRenderer(t)
	r.Show(view("start"), false)
	// The last update falls between two frames.
	const updates, step = 397, 100 * time.Microsecond
	last := ""
	for i := range updates {
		clock.advance(step)
		last = "token " + strings.Repeat("x", i%30)
		r.Show(view(last), false)
	}
	elapsed := updates * step
	if max := burst + int(elapsed/interval); term.count() > max {
		t.Errorf("want at most %d writes for %v of updates at a %v interval (%d at once), got %d", max, elapsed, interval, burst, term.count())
	}
	clock.advance(interval)
	if got := term.row(0); got != last {
		t.Fatalf("want the stream's last view on screen after the interval, got %q, want %q", got, last)
	}
}

func TestAnUnchangedViewWritesNothing(t *testing.T) {
	r, term, clock := newTestRenderer(t)
	r.Show(view("same"), true)
	clock.advance(interval)
	r.Show(view("same"), true)
	r.Show(view("same"), false)
	clock.advance(interval)
	if term.count() != 1 {
		t.Fatalf("want one write for the same view shown three times, got %d", term.count())
	}
}

// At the start bubbletea asks for a view after each of its own messages
// (colour profile, size, environment), none of which changes the screen:
// the session's first real change after the first frame must not wait for
// a frame interval behind them.
func TestViewsThatChangeNothingSpendNoPacedFrame(t *testing.T) {
	r, term, clock := newTestRenderer(t)
	r.Show(view("tack"), false)
	for range 3 {
		clock.advance(100 * time.Microsecond)
		r.Show(view("tack"), false)
	}
	r.Show(view("tack · model"), false)
	if got := term.row(0); got != "tack · model" {
		t.Fatalf("want the first change after unchanged views drawn at once, got %q on screen", got)
	}
	r.Show(view("tack · model ·"), false)
	r.Show(view("tack · model"), false)
	if n := clock.pending(); n != 0 {
		t.Fatalf("want no paced frame left once the view is back to what the screen shows, got %d timers", n)
	}
	if term.count() != 2 {
		t.Fatalf("want two writes, got %d", term.count())
	}
}

func TestReleaseLeavesTheScreenAndRestoreRedrawsTheNewestView(t *testing.T) {
	r, term, clock := newTestRenderer(t)
	v := view("draft")
	v.Cursor = tea.NewCursor(2, 0)
	v.MouseMode = tea.MouseModeCellMotion
	v.ReportFocus = true
	r.Show(v, true)
	if !term.modeSet(ansi.ModeNumericKeypad) {
		t.Error("want the keypad in application mode while the screen is held (st's Delete needs it)")
	}
	if err := r.Release(); err != nil {
		t.Fatal(err)
	}
	if term.altScreen() {
		t.Fatal("want the main screen after Release")
	}
	for _, m := range []ansi.Mode{ansi.ModeMouseButtonEvent, ansi.ModeFocusEvent, ansi.ModeBracketedPaste, ansi.ModeNumericKeypad} {
		if term.modeSet(m) {
			t.Errorf("want mode %v reset after Release", m)
		}
	}
	writes := term.count()
	r.Show(view("typed while away"), true)
	clock.advance(interval)
	if term.count() != writes {
		t.Fatalf("want nothing written while released, got %d writes", term.count()-writes)
	}
	r.Restore()
	if !term.altScreen() || term.row(0) != "typed while away" {
		t.Fatalf("want the newest view redrawn on the alternate screen, got %q (alternate screen %v)", term.row(0), term.altScreen())
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	r.Restore()
	if term.altScreen() {
		t.Fatal("want a closed renderer to stay off the screen")
	}
}

func TestAResizeRedrawsAtTheNewSize(t *testing.T) {
	r, term, _ := newTestRenderer(t)
	r.Show(view("wide line of text"), true)
	term.mu.Lock()
	term.em.Resize(10, 5)
	term.mu.Unlock()
	r.Resize(10, 5)
	r.Show(view("short\nsecond"), true)
	if term.row(0) != "short" || term.row(1) != "second" {
		t.Fatalf("want the view redrawn at 10 columns, got %q / %q", term.row(0), term.row(1))
	}
}

func (t *terminal) modeSet(m ansi.Mode) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.modes[m]
}

// BenchmarkKeyFrame is the cost of drawing one typed key on a full
// 120×40 screen of styled text: what the renderer adds to each key of a
// burst it draws key by key. Each frame must draw the key typed.
func BenchmarkKeyFrame(b *testing.B) {
	var out bytes.Buffer
	r := NewRenderer(RendererOptions{
		Out: &out, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Width: 120, Height: 40, Interval: interval, Clock: newFakeClock(),
	})
	line := "\x1b[1mword\x1b[0m " + strings.Repeat("text \x1b[2mdim\x1b[0m ", 9)
	body := strings.Repeat(line+"\n", 38)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		v := view(body + "> " + strings.Repeat("q", 1+i%100))
		v.Cursor = tea.NewCursor(3+i%100, 39)
		out.Reset()
		r.Show(v, true)
		// A frame that adds a key draws it; the one that wraps to one key
		// only clears the rest of the row.
		if (i%100 != 0 || i == 0) && !strings.Contains(out.String(), "q") || out.Len() == 0 {
			b.Fatalf("want frame %d to draw the key typed, wrote %q", i, out.String())
		}
	}
}

// BenchmarkFullFrame is a frame drawn whole (the first one, or after a
// resize or Ctrl+L) of the idle screen of an empty session at 120×40.
func BenchmarkFullFrame(b *testing.B) {
	r := NewRenderer(RendererOptions{
		Out: io.Discard, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Width: 120, Height: 40, Interval: interval, Clock: newFakeClock(),
	})
	idle := "\x1b[1;95mtack\x1b[m\x1b[2m  session 20261201-204505-5565c7\x1b[m\n" +
		"\x1b[2m~/src/tack · deepseek-flash · auto mode (…) · ? shortcuts · / commands · @ files · ! shell\x1b[m\n" +
		strings.Repeat("\n", 36) + "\x1b[2m  deepseek-flash high\x1b[m" + strings.Repeat(" ", 80) + "\x1b[2mauto · …\x1b[m\n" +
		"\x1b[95m> \x1b[m\x1b[2mD\x1b[m\x1b[2mescribe a task and press Enter · Shift+Enter for a new line\x1b[m"
	v := view(idle)
	v.Cursor = tea.NewCursor(2, 39)
	b.ReportAllocs()
	for b.Loop() {
		r.Erase()
		r.Show(v, true)
	}
}

// TestRowByRowDrawsWhatAWholeFrameDraws: a sequence of frames drawn one
// after another (changed rows only, where rows can be drawn on their own)
// leaves the emulator showing what a fresh renderer drawing only the last
// frame whole shows, cell by cell and style by style; among them rows
// whose style or link runs on into the next row, wide characters, and
// frames that grow and shrink.
func TestRowByRowDrawsWhatAWholeFrameDraws(t *testing.T) {
	frames := []string{
		"plain\n\x1b[1mbold\x1b[m row\n> ",
		"plain\n\x1b[1mbold\x1b[m row\n> q",
		"plain\n\x1b[31mred runs on\nstill red\x1b[m\n> q",
		"plain\n\x1b[31mred runs on\nstill red\x1b[m\n> qq",
		"plain\n\x1b[2mfaint\x1b[m\n> qq",
		"\x1b]8;;https://example.com\x1b\\link\nlinked too\x1b]8;;\x1b\\\n> qq",
		"wide 世界 row\n\x1b[7mreverse\x1b[27m\n\n\n> qqq",
		"wide 世界 row\n\x1b[7mreverse\x1b[27m\n> qqq",
		"short",
		"one\ntwo\nthree\nfour\nfive\nsix beyond the bottom",
	}
	r, term, _ := newTestRenderer(t)
	for i, f := range frames {
		r.Show(view(f), true)
		fresh, want, _ := newTestRenderer(t)
		fresh.Show(view(f), true)
		if got, w := term.screen(), want.screen(); got != w {
			t.Errorf("frame %d (%q): drawn after the frames before it the screen reads\n%q\nwant, as drawn whole,\n%q", i, f, got, w)
		}
	}
}

// screen is the emulator's screen with its styles.
func (t *terminal) screen() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.em.Render()
}

// endsPlain's shortcut for rows that end in a reset agrees with drawing
// the row and a probe after it (ultraviolet's parser is the oracle), for
// rows that end plain and rows that leave a style or a link open.
func TestEndsPlainAgreesWithDrawingTheRow(t *testing.T) {
	for _, c := range []struct {
		row   string
		plain bool
	}{
		{"plain text", true},
		{"\x1b[1mbold\x1b[m", true},
		{"\x1b[1mbold\x1b[m and a tail", true},
		{"\x1b[2;33mdim yellow\x1b[0m", true},
		{"\x1b[1mbold", false},
		{"\x1b[m\x1b[1mbold after a reset", false},
		{"\x1b[0;1mbold from a reset", false},
		{"\x1b[1mbold\x1b[m\x1b[4m", false},
		{"\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\", true},
		{"\x1b]8;;https://example.com\x07open link\x1b[m", false},
		{"\x1b[1m\x1b]8;;https://example.com\x07link\x1b]8;;\x07\x1b[m", true},
	} {
		got, oracle := endsPlain(c.row, ansi.GraphemeWidth), parsedEndsPlain(c.row, ansi.GraphemeWidth)
		if got != oracle || got != c.plain {
			t.Errorf("%q: endsPlain %v, drawn %v, want %v", c.row, got, oracle, c.plain)
		}
	}
}

func TestSendWritesAtOnceAndHoldsWhatIsSentWhileReleased(t *testing.T) {
	out := &testkit.Buffer{}
	r := NewRenderer(RendererOptions{
		Out: out, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Width: 40, Height: 5, Interval: interval, Clock: newFakeClock(),
	})
	r.Show(view("tack"), false)
	r.Send(ansi.RequestBackgroundColor)
	if !strings.HasSuffix(out.String(), ansi.RequestBackgroundColor) {
		t.Fatalf("want the query written at once after the frame, got %q", out.String())
	}
	if err := r.Release(); err != nil {
		t.Fatal(err)
	}
	released := out.String()
	copied := ansi.SetSystemClipboard("copied")
	r.Send(copied)
	if out.String() != released {
		t.Fatalf("want nothing written while the terminal is released, got %q", strings.TrimPrefix(out.String(), released))
	}
	r.Restore()
	if got := strings.TrimPrefix(out.String(), released); !strings.HasSuffix(got, copied) || !strings.Contains(got, "tack") {
		t.Fatalf("want the redraw, then the sequence sent while released, on Restore; got %q", got)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	closed := out.String()
	r.Send("\a")
	if out.String() != closed {
		t.Fatalf("want nothing written after Close, got %q", strings.TrimPrefix(out.String(), closed))
	}
}
