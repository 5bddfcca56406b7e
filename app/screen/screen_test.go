package screen

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// echo is a root model that shows the keys typed and the ticks seen.
type echo struct{ typed, ticks string }

type tick struct{}

func (e *echo) Init() tea.Cmd { return nil }

func (e *echo) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyPressMsg:
		e.typed += msg.Text
	case tick:
		e.ticks += "."
	}
	return e, nil
}

func (e *echo) View() tea.View { return view("> " + e.typed + "\n" + e.ticks) }

func newTestScreen(t *testing.T) (tea.Model, *terminal, *fakeClock) {
	t.Helper()
	s, term, clock := openTestScreen(t)
	return s.Model(&echo{}), term, clock
}

// openTestScreen opens a Screen over a 40×5 emulated terminal and a fake
// clock, closed when the test ends.
func openTestScreen(t *testing.T) (*Screen, *terminal, *fakeClock) {
	t.Helper()
	term, clock := newTerminal(40, 5), newFakeClock()
	// Without a terminal to read from, the output is taken to map line
	// feeds to CR LF, as a terminal not in raw mode does.
	_, _ = term.em.WriteString(ansi.SetModeLineFeedNewLine)
	s, err := Open(Options{Out: term, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Interval: interval, Width: 40, Height: 5, Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s, term, clock
}

// handle is what bubbletea does with a message: Update, then View.
func handle(m tea.Model, msg tea.Msg) tea.Model {
	m, _ = m.Update(msg)
	m.View()
	return m
}

func TestAKeyIsDrawnAtOnceAndATickAtTheFrameRate(t *testing.T) {
	m, term, clock := newTestScreen(t)
	m.View() // the first frame
	m = handle(m, tick{})
	if term.row(1) != "." {
		t.Fatalf("want a tick after the first frame drawn at once (a burst of %d), got %q", burst, term.row(1))
	}
	m = handle(m, tick{})
	if term.row(1) != "." {
		t.Fatalf("want the tick after a burst to wait for the interval, got %q", term.row(1))
	}
	m = handle(m, tea.KeyPressMsg{Code: 'q', Text: "q"})
	if term.row(0) != "> q" || term.row(1) != ".." {
		t.Fatalf("want the key drawn at once with the tick before it, got %q / %q", term.row(0), term.row(1))
	}
	m = handle(m, tea.PasteMsg{Content: "pasted"})
	m = handle(m, tick{})
	clock.advance(interval)
	if term.row(1) != "..." {
		t.Fatalf("want the tick drawn one interval later, got %q", term.row(1))
	}
	m = handle(m, tea.WindowSizeMsg{Width: 40, Height: 5})
	_ = handle(m, tea.WindowSizeMsg{Width: 30, Height: 5})
	if term.count() != 5 {
		t.Errorf("want 5 frames (first, tick, key, tick, resize; the paste and the size it had changed nothing), got %d", term.count())
	}
}

func TestTheTerminalStaysLentUntilEveryReleaseIsRestored(t *testing.T) {
	s, term, _ := openTestScreen(t)
	m := s.Model(&echo{})
	m.View()
	// The editor has the terminal; its Ctrl+Z stops tack too, and fg
	// resumes both.
	for _, step := range []func() error{s.Release, s.Release, s.Restore} {
		if err := step(); err != nil {
			t.Fatal(err)
		}
	}
	handle(m, tea.KeyPressMsg{Code: 'q', Text: "q"})
	if term.altScreen() {
		t.Fatal("want the terminal left to the editor after the suspend inside it ends")
	}
	if err := s.Restore(); err != nil {
		t.Fatal(err)
	}
	if !term.altScreen() || term.row(0) != "> q" {
		t.Fatalf("want the screen back with the newest view once the editor ends, got %q (alternate screen %v)", term.row(0), term.altScreen())
	}
}

// broken is a root model whose View panics once it has drawn.
type broken struct{ echo }

func (b *broken) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	b.echo.Update(msg)
	return b, nil
}

func (b *broken) View() tea.View {
	if b.typed != "" {
		panic("a view that breaks")
	}
	return b.echo.View()
}

func TestAViewThatPanicsLeavesTheScreenFirst(t *testing.T) {
	s, term, _ := openTestScreen(t)
	m := s.Model(&broken{})
	m.View()
	m, _ = m.Update(tea.KeyPressMsg{Code: 'q', Text: "q"})
	func() {
		defer func() {
			if r := recover(); r != "a view that breaks" {
				t.Fatalf("want the view's panic passed on to bubbletea, which prints it, got %v", r)
			}
		}()
		m.View()
	}()
	if term.altScreen() {
		t.Fatal("want the main screen back before the panic is printed")
	}
}

// openSettling opens a test screen whose Settled sends what the screen
// shows on its first row when it is called.
func openSettling(t *testing.T) (tea.Model, *terminal, *fakeClock, chan string) {
	t.Helper()
	term, clock := newTerminal(40, 5), newFakeClock()
	_, _ = term.em.WriteString(ansi.SetModeLineFeedNewLine)
	settled := make(chan string, 2)
	s, err := Open(Options{Out: term, Env: []string{"TERM=xterm-256color"}, Profile: colorprofile.ANSI,
		Interval: interval, Width: 40, Height: 5, Clock: clock, Settled: func() { settled <- term.row(0) }})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	return s.Model(&echo{}), term, clock, settled
}

// firstFrame hands m msg, which draws the first frame, and waits for the
// settle wait that frame starts.
func firstFrame(t *testing.T, m tea.Model, clock *fakeClock, msg tea.Msg) tea.Model {
	t.Helper()
	m = handle(m, msg)
	testkit.Eventually(t, "the settle wait started after the first frame", func() bool { return clock.pending() > 0 })
	return m
}

// wantNoSettle fails the test if the start settles, saying what was
// wanted instead. Settled runs on a goroutine of its own, so a settle
// the fake clock just fired is given a moment to arrive.
func wantNoSettle(t *testing.T, settled <-chan string, want string) {
	t.Helper()
	select {
	case row := <-settled:
		t.Fatalf("want %s, got it settled showing %q", want, row)
	case <-time.After(50 * time.Millisecond):
	}
}

// Someone typing as the screen appears holds the start's settle off until
// they pause: each key echoed starts the wait again.
func TestTheStartSettlesOnceTheKeysPause(t *testing.T) {
	m, _, clock, settled := openSettling(t)
	m = firstFrame(t, m, clock, tea.WindowSizeMsg{Width: 40, Height: 5}) // no key yet
	clock.advance(settleWait - time.Millisecond)
	m = handle(m, tea.KeyPressMsg{Code: 'q', Text: "q"})
	clock.advance(settleWait - time.Millisecond)
	wantNoSettle(t, settled, "the start unsettled while keys come")
	clock.advance(time.Millisecond)
	if row := <-settled; row != "> q" {
		t.Fatalf("want the start settled once the keys paused, got it settled showing %q", row)
	}
	handle(m, tea.KeyPressMsg{Code: 'w', Text: "w"})
	clock.advance(settleWait)
	wantNoSettle(t, settled, "the start settled once")
}

// Keys that keep coming hold the settle off no longer than settleLimit.
func TestTheStartSettlesAtTheLimitWhileKeysKeepComing(t *testing.T) {
	m, _, clock, settled := openSettling(t)
	m = firstFrame(t, m, clock, tea.WindowSizeMsg{Width: 40, Height: 5})
	gap := settleWait / 2
	for range int(settleLimit/gap) - 1 {
		m = handle(m, tea.KeyPressMsg{Code: 'q', Text: "q"})
		clock.advance(gap)
	}
	wantNoSettle(t, settled, "the start unsettled while keys keep coming within the limit")
	handle(m, tea.KeyPressMsg{Code: 'q', Text: "q"})
	clock.advance(gap)
	if row := <-settled; !strings.HasPrefix(row, "> qq") {
		t.Fatalf("want the start settled at the limit, got it settled showing %q", row)
	}
}

func TestWithoutAKeyTheStartSettlesAWhileAfterTheFirstFrame(t *testing.T) {
	m, _, clock, settled := openSettling(t)
	firstFrame(t, m, clock, tick{})
	clock.advance(settleWait - time.Millisecond)
	wantNoSettle(t, settled, "the start unsettled before the wait is over")
	clock.advance(time.Millisecond)
	if row := <-settled; row != ">" {
		t.Fatalf("want the start settled on the first frame, got it showing %q", row)
	}
}
