// Package screen owns the terminal while tack's full screen runs: raw
// mode, its size, and drawing the program's views on it. It replaces
// bubbletea's renderer (the program runs with tea.WithoutRenderer), which
// writes only on a frame ticker, so a typed key waited up to a frame
// before it showed: here a view that follows input (a key, a paste, the
// mouse, a resize) is drawn at once, and other views (a streamed answer, a
// timer) at most once per frame interval, the newest always. On Linux it
// also reads the keys in place of bubbletea's reader (see input).
//
// The drawing is adapted from bubbletea v2.1.1's cursed renderer
// (cursed_renderer.go, MIT licence, Copyright (c) 2020-2025 Charmbracelet,
// Inc) over ultraviolet's terminal renderer, reduced to what tack's views
// use: the alternate screen (every view is drawn there, whatever its
// AltScreen says), the cursor's position, shape, blink, colour and
// visibility, mouse mode, bracketed paste, focus reporting, the keyboard
// protocol (modifyOtherKeys and kitty flags), the window title, and
// synchronized output and grapheme widths when the terminal answers that it
// has them. Views' ForegroundColor, BackgroundColor, ProgressBar,
// ProgramStatus and OnMouse are not drawn.
package screen

import (
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"
)

// Options say which terminal the screen takes.
type Options struct {
	// In is the terminal keys are read from; it is put in raw mode. Nil
	// or not a terminal: the modes are left alone.
	In *os.File
	// Out is where frames go.
	Out io.Writer
	// Err is where a program lent the terminal (Lend) writes its errors;
	// Out when nil.
	Err io.Writer
	// Env is the program's environment.
	Env     []string
	Profile colorprofile.Profile
	// Interval is the shortest gap between frames that follow no input.
	Interval time.Duration
	// Width and Height are the size when the terminal cannot tell it
	// (80×24 when zero).
	Width, Height int
	// Clock paces frames; real time when nil.
	Clock Clock
	// Settled is called once, in a goroutine of its own, when the start
	// has settled: once no key has been typed for settleWait since the
	// first frame, or settleLimit after it. Work started then (what the
	// start held back: the collection, the sandbox's probe and helper,
	// the checkpoint store's priming) meets no key being echoed; someone
	// typing ahead as the screen appears, keys tens of milliseconds
	// apart, holds it off until they pause.
	Settled func()
}

// settleWait is how long the keys must pause for the start to settle:
// longer than the gaps between the keys of a word, and than the 40–60 ms
// the start's background work takes on an idle machine. settleLimit is
// how long after the first frame keys may hold it off: the first turn
// takes the checkpoint the priming would have readied.
const (
	settleWait  = 250 * time.Millisecond
	settleLimit = 3 * time.Second
)

// Screen is the terminal the full screen draws on.
type Screen struct {
	r    *Renderer
	in   *os.File
	out  *os.File // the output, when it is a terminal
	size *os.File // the file the size is read from; nil if none
	env  []string
	// keys reads the terminal's input when tack does (see input); nil
	// when bubbletea reads stdin.
	keys   *input
	stdin  *os.File  // Options.In
	errOut io.Writer // Options.Err, else Options.Out

	lending sync.Mutex // held while a program has the terminal (Lend)

	settle *settler // nil without Options.Settled

	mu    sync.Mutex
	state *term.State // the input's modes before raw mode; nil when not raw
	vtOff func()      // gives the output its console mode back (Windows)
	lent  int         // Releases not yet restored
	send  func(tea.Msg)
	// inputErr is why the reader could no longer read the terminal.
	inputErr error
	width    int
	height   int
}

// Open takes the terminal: raw mode on In, and the size to start at.
func Open(o Options) (*Screen, error) {
	s := &Screen{env: o.Env, width: o.Width, height: o.Height, stdin: o.In, errOut: o.Err}
	if s.errOut == nil {
		s.errOut = o.Out
	}
	var afterFirstFrame func()
	if o.Settled != nil {
		clock := o.Clock
		if clock == nil {
			clock = realClock{}
		}
		s.settle = &settler{clock: clock, settled: o.Settled}
		afterFirstFrame = s.settle.start
	}
	if o.In != nil && term.IsTerminal(int(o.In.Fd())) {
		s.in = o.In
	}
	if f, ok := o.Out.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		s.out, s.size = f, f
	} else {
		s.size = s.in
	}
	s.readSize()
	if s.width <= 0 || s.height <= 0 {
		s.width, s.height = 80, 24
	}
	if err := s.raw(); err != nil {
		return nil, err
	}
	if s.in != nil {
		s.keys = openInput(s.in)
	}
	s.r = NewRenderer(RendererOptions{
		Out: o.Out, Env: o.Env, Profile: o.Profile, Width: s.width, Height: s.height,
		Interval: o.Interval, MapNewline: s.in == nil, Clock: o.Clock, AfterFirstFrame: afterFirstFrame,
	})
	return s, nil
}

// readSize updates the size from the terminal, if it tells one, and
// reports whether it changed.
func (s *Screen) readSize() bool {
	if s.size == nil {
		return false
	}
	w, h, err := term.GetSize(int(s.size.Fd()))
	if err != nil || w <= 0 || h <= 0 || (w == s.width && h == s.height) {
		return false
	}
	s.width, s.height = w, h
	return true
}

// raw puts the input in raw mode (and a Windows console's output in
// escape-sequence mode).
func (s *Screen) raw() error {
	if s.out != nil {
		off, err := vtOutput(s.out)
		if err != nil {
			return &Error{Op: "make the console interpret escape sequences", Err: err}
		}
		s.vtOff = off
	}
	if s.in == nil {
		return nil
	}
	st, err := term.MakeRaw(int(s.in.Fd()))
	if err != nil {
		return &Error{Op: "put the terminal in raw mode", Err: err}
	}
	s.state = st
	return nil
}

// cooked gives the input its modes back (and the output its console
// mode).
func (s *Screen) cooked() error {
	if s.vtOff != nil {
		s.vtOff()
		s.vtOff = nil
	}
	if s.state == nil {
		return nil
	}
	st := s.state
	s.state = nil
	if err := term.Restore(int(s.in.Fd()), st); err != nil {
		return &Error{Op: "restore the terminal's modes", Err: err}
	}
	return nil
}

// Error is a terminal operation that failed.
type Error struct {
	Op  string
	Err error
}

func (e *Error) Error() string {
	return "cannot " + e.Op + ": " + e.Err.Error() + " (run tack in a terminal, or pipe its input for line mode)"
}

func (e *Error) Unwrap() error { return e.Err }

// ProgramOptions are the program options the screen needs: no renderer of
// bubbletea's own, the starting size, the colour profile the views were
// styled for, and no input when the screen reads the keys itself (else
// Options.In).
func (s *Screen) ProgramOptions() []tea.ProgramOption {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := tea.WithInput(nil)
	if s.keys == nil && s.stdin != nil {
		in = tea.WithInput(s.stdin)
	}
	return []tea.ProgramOption{
		tea.WithoutRenderer(), tea.WithWindowSize(s.width, s.height), tea.WithColorProfile(s.r.opts.Profile),
		tea.WithEnvironment(s.env), in,
	}
}

// Model wraps the program's root model: its views are drawn on the
// screen, at once when they follow input.
func (s *Screen) Model(m tea.Model) tea.Model { return &model{s: s, inner: m} }

// Watch sends the program the keys typed, when the screen reads them, and
// a WindowSizeMsg when the terminal is resized, and asks the terminal
// whether it takes synchronized output and grapheme widths (bubbletea's
// renderer asks that of terminals that answer). It returns the function
// that stops watching.
func (s *Screen) Watch(send func(tea.Msg)) (stop func()) {
	s.mu.Lock()
	s.send = send
	if s.keys != nil && s.lent == 0 {
		s.keys.start(send)
	}
	s.mu.Unlock()
	if s.in != nil && asksModes(uv.Environ(s.env)) {
		_, _ = io.WriteString(s.r.opts.Out, ansi.RequestModeSynchronizedOutput+ansi.RequestModeUnicodeCore)
	}
	winch := make(chan os.Signal, 1)
	uv.NotifyWinch(winch)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case <-winch:
				s.resized()
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(winch)
		close(done)
	}
}

// resized sends the size if it changed. Send may block while the program
// runs an editor, so it is called in its own goroutine.
func (s *Screen) resized() {
	s.mu.Lock()
	changed, send, w, h := s.readSize(), s.send, s.width, s.height
	s.mu.Unlock()
	if changed && send != nil {
		go send(tea.WindowSizeMsg{Width: w, Height: h})
	}
}

// Release gives the terminal back as it was (for an editor, or while tack
// is stopped by Ctrl+Z): the alternate screen left, the modes restored.
// Releases nest: a suspend while the editor has the terminal (its own
// Ctrl+Z stops tack's whole process group) leaves it with the editor
// when fg resumes both, until the editor's Restore.
func (s *Screen) Release() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lent++
	if s.lent > 1 {
		return nil
	}
	if s.keys != nil {
		s.keys.stop()
	}
	// The modes first: what the borrower is sure to see is the main
	// screen coming back, and a key typed from then on must reach it as
	// the terminal's line discipline reads it in cooked mode (a CR typed
	// while raw stays a CR, which ends no line for a shell's read).
	err := s.cooked()
	if rerr := s.r.Release(); err == nil {
		err = rerr
	}
	return err
}

// Restore takes the terminal again, once every Release has been
// restored, and redraws it; a size that changed meanwhile (no resize
// signal reaches a stopped process) is sent to the program.
func (s *Screen) Restore() error {
	s.mu.Lock()
	if s.lent == 0 {
		s.mu.Unlock()
		return nil
	}
	s.lent--
	if s.lent > 0 {
		s.mu.Unlock()
		return nil
	}
	err := s.raw()
	s.r.Restore()
	if s.keys != nil && s.send != nil {
		s.keys.start(s.send)
	}
	s.mu.Unlock()
	s.resized()
	return err
}

// InputErr is why the program ended when the screen could no longer read
// the terminal's keys (nil when the terminal only hung up, or the program
// ended otherwise).
func (s *Screen) InputErr() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.inputErr
}

// ReadsKeys reports whether the screen reads the program's keys itself
// (bubbletea reads none): a program is then lent the terminal with Lend,
// not bubbletea's Exec, which would wait for a reader of its own.
func (s *Screen) ReadsKeys() bool { return s.keys != nil }

// Lend runs c on the terminal given back as it was (Release), with the
// terminal as its standard streams where c sets none, and takes the
// terminal again when c ends (Restore). Programs lent the terminal run one
// at a time.
func (s *Screen) Lend(c *exec.Cmd) error {
	s.lending.Lock()
	defer s.lending.Unlock()
	if err := s.Release(); err != nil {
		_ = s.Restore()
		return err
	}
	if c.Stdin == nil && s.stdin != nil {
		c.Stdin = s.stdin
	}
	if c.Stdout == nil {
		c.Stdout = s.r.opts.Out
	}
	if c.Stderr == nil {
		c.Stderr = s.errOut
	}
	err := c.Run()
	if rerr := s.Restore(); err == nil {
		err = rerr
	}
	return err
}

// Close gives the terminal back for good: nothing reads it after.
func (s *Screen) Close() error {
	err := s.r.Close()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.keys != nil {
		if cerr := s.keys.close(); err == nil {
			err = cerr
		}
	}
	if cerr := s.cooked(); err == nil {
		err = cerr
	}
	return err
}

// asksModes reports whether to ask the terminal for synchronized output
// and grapheme widths: bubbletea's rule (shouldQuerySynchronizedOutput),
// which leaves out terminals known to show the query, and SSH sessions.
func asksModes(env uv.Environ) bool {
	termType := env.Getenv("TERM")
	termProg, okTermProg := env.LookupEnv("TERM_PROGRAM")
	_, okSSH := env.LookupEnv("SSH_TTY")
	_, okWT := env.LookupEnv("WT_SESSION")
	return (!okTermProg && !okSSH) || okWT || (okTermProg && !strings.Contains(termProg, "Apple") && !okSSH) ||
		strings.Contains(termType, "ghostty") || strings.Contains(termType, "wezterm") ||
		strings.Contains(termType, "alacritty") || strings.Contains(termType, "kitty") || strings.Contains(termType, "rio")
}

// SequenceMsg is a sequence for the terminal that draws nothing (a query,
// the clipboard, a notification): the screen writes it at once, between
// frames. bubbletea's own commands for these (tea.SetClipboard, tea.Raw,
// tea.RequestBackgroundColor) queue them until its frame ticker fires,
// which tack slows to once a second (see cmd/tack), so views send them
// with Send.
type SequenceMsg string

// Send is the command that writes seq to the terminal (see SequenceMsg).
func Send(seq string) tea.Cmd { return func() tea.Msg { return SequenceMsg(seq) } }

// model is the root model with its views drawn on the screen.
type model struct {
	s      *Screen
	inner  tea.Model
	urgent bool // the message just handled is input
	typed  bool // and it was typed (not a resize)
}

func (m *model) Init() tea.Cmd { return m.inner.Init() }

func (m *model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg, tea.PasteMsg, tea.MouseMsg:
		m.urgent, m.typed = true, true
	case tea.WindowSizeMsg:
		m.s.r.Resize(msg.Width, msg.Height)
		m.urgent = true
	case tea.ModeReportMsg:
		m.s.r.Reported(msg)
	case SequenceMsg:
		m.s.r.Send(string(msg))
		return m, nil
	case inputEndedMsg:
		m.s.mu.Lock()
		m.s.inputErr = msg.err
		m.s.mu.Unlock()
		return m, tea.Quit
	}
	if msg == tea.ClearScreen() {
		m.s.r.Erase()
		m.urgent = true
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	return m, cmd
}

// View hands the inner model's view to the renderer. A panic leaves the
// screen first, so that bubbletea's report of it is printed on the
// terminal the user reads.
func (m *model) View() tea.View {
	defer func() {
		if r := recover(); r != nil {
			_ = m.s.Close()
			panic(r)
		}
	}()
	v := m.inner.View()
	m.s.r.Show(v, m.urgent)
	if m.typed && m.s.settle != nil {
		m.s.settle.typed()
	}
	m.urgent, m.typed = false, false
	return v
}
