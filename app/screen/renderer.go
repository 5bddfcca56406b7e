package screen

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
)

// Clock is the time the renderer paces frames by.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine after d and returns a
	// function that cancels the call.
	AfterFunc(d time.Duration, f func()) (stop func() bool)
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) func() bool { return time.AfterFunc(d, f).Stop }

// RendererOptions configure a Renderer.
type RendererOptions struct {
	Out io.Writer
	// Env is the program's environment ($TERM picks the escape sequences).
	Env     []string
	Profile colorprofile.Profile
	Width   int
	Height  int
	// Interval is the shortest gap between two frames that follow no
	// input.
	Interval time.Duration
	// MapNewline says the terminal turns a line feed into CR LF (its
	// output is not in raw mode).
	MapNewline bool
	// Clock is real time when nil.
	Clock Clock
	// AfterFirstFrame, when set, is called once, in a goroutine of its
	// own, after the first frame was written: the moment the start is
	// over and no key has been typed yet.
	AfterFirstFrame func()
}

// Renderer draws views on the alternate screen: a view that follows input
// at once, any other no sooner than Interval after the frame before, and
// the newest view of a burst always.
type Renderer struct {
	opts  RendererOptions
	clock Clock

	mu      sync.Mutex
	scr     *uv.TerminalRenderer
	scrBuf  bytes.Buffer // what scr writes
	frame   bytes.Buffer // one frame, written in one Write
	cells   uv.ScreenBuffer
	width   int
	height  int
	view    tea.View
	rows    []string  // the rows of the screen's text, when each was drawn on its own
	plain   []bool    // whether each of rows leaves the pen as it found it
	same    []bool    // whether each of rows measures the same by graphemes and wcwidth
	agreed  bool      // so did the whole frame on the screen (see widths)
	pending bool      // view is newer than the screen
	drawn   *tea.View // what the screen shows; nil before the first frame
	erase   bool      // the next frame redraws every cell
	syncd   bool      // the terminal takes synchronized output (mode 2026)
	unicode bool      // the terminal measures graphemes (mode 2027)
	unshown uint8     // the text attributes the terminal shows as others (see unshownAttrs)
	off     bool      // released or closed: nothing is written
	closed  bool      // off for good
	shown   bool      // a view was given
	credit  float64   // paced frames that may be drawn now (see burst)
	since   time.Time // when credit was counted
	stop    func() bool
	paced   uint64 // counts paced frames asked for; only the newest may draw
	err     error
	started func() // AfterFirstFrame until it was called
	held    []byte // sequences sent while off, written on Restore
}

// NewRenderer returns a renderer that writes nothing until its first
// view.
func NewRenderer(o RendererOptions) *Renderer {
	r := &Renderer{opts: o, clock: o.Clock, width: o.Width, height: o.Height, started: o.AfterFirstFrame, unshown: unshownAttrs(uv.Environ(o.Env))}
	if r.clock == nil {
		r.clock = realClock{}
	}
	r.cells = uv.NewScreenBuffer(r.width, r.height)
	r.reset()
	return r
}

// reset starts from a terminal in its normal state: a new screen writer,
// and nothing known to be on the screen.
func (r *Renderer) reset() {
	r.scrBuf.Reset()
	scr := uv.NewTerminalRenderer(&r.scrBuf, r.opts.Env)
	scr.SetColorProfile(r.opts.Profile)
	scr.SetTabStops(-1)
	scr.SetMapNewline(r.opts.MapNewline)
	scr.SetScrollOptim(scrollOptim)
	scr.Resize(r.width, r.height)
	scr.SetFullscreen(true)
	scr.SetRelativeCursor(false)
	scr.Erase()
	r.scr = scr
	r.drawn = nil
	r.agreed = true
}

// burst is how many paced frames may follow each other without a pause:
// the frames of a quiet spell's first changes (the start, an answer's first
// tokens) are drawn at once, and a steady stream at one per Interval.
const burst = 2

// Show takes the program's newest view. A view that follows input
// (urgent) is drawn now; another is drawn now if the pace allows (burst
// frames at once, one more per Interval), else as soon as it does.
func (r *Renderer) Show(v tea.View, urgent bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.view, r.pending, r.shown = v, true, true
	if r.off {
		return
	}
	if r.showing(&v) {
		// Nothing to draw (bubbletea asks for a view after every message,
		// and most at the start change nothing): spend no paced frame on
		// it, so that the next change is drawn at once.
		r.cancel()
		r.pending = false
		return
	}
	if urgent {
		r.draw()
		return
	}
	if wait := r.paceWait(); wait <= 0 {
		r.credit--
		r.draw()
	} else if r.stop == nil {
		r.paced++
		n := r.paced
		r.stop = r.clock.AfterFunc(wait, func() { r.due(n) })
	}
}

// paceWait counts the credit earned since it was last counted and returns
// how long until a paced frame may be drawn (0 or less: now).
func (r *Renderer) paceWait() time.Duration {
	now := r.clock.Now()
	if r.since.IsZero() {
		r.credit = burst
	} else {
		r.credit = min(burst, r.credit+float64(now.Sub(r.since))/float64(r.opts.Interval))
	}
	r.since = now
	return time.Duration((1 - r.credit) * float64(r.opts.Interval))
}

// due draws the view paced frame n was waiting for, unless a frame was
// drawn or asked for since.
func (r *Renderer) due(n uint64) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if n != r.paced || r.stop == nil {
		return
	}
	r.stop = nil
	if r.pending && !r.off {
		r.paceWait()
		r.credit = max(r.credit-1, 0)
		r.draw()
	}
}

// Resize takes the terminal's new size; the next frame redraws it all.
// The size it has already (the program's first WindowSizeMsg) changes
// nothing.
func (r *Renderer) Resize(w, h int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if w == r.width && h == r.height {
		return
	}
	r.width, r.height = w, h
	r.scr.Resize(w, h)
	r.scr.Erase()
	r.erase = true
}

// Erase makes the next frame redraw every cell (Ctrl+L).
func (r *Renderer) Erase() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scr.Erase()
	r.erase = true
}

// Reported takes the terminal's answer to a mode query.
func (r *Renderer) Reported(m tea.ModeReportMsg) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch m.Mode {
	case ansi.ModeSynchronizedOutput:
		// Reset means supported and off: the renderer switches it on
		// around each frame.
		r.syncd = m.Value == ansi.ModeReset
	case ansi.ModeUnicodeCore:
		if m.Value == ansi.ModeReset || m.Value == ansi.ModeSet || m.Value == ansi.ModePermanentlySet {
			r.unicode = true
			r.cells.Method = ansi.GraphemeWidth
			_, _ = r.scr.WriteString(ansi.SetModeUnicodeCore)
			r.erase = true
		}
	}
}

// Release gives the terminal back in the state it had before the first
// frame (an editor or the shell takes it); nothing is drawn until Restore.
func (r *Renderer) Release() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.release()
}

func (r *Renderer) release() error {
	r.cancel()
	if !r.off {
		r.off = true
		r.leave()
	}
	return r.err
}

// Restore takes the terminal again and redraws the newest view in full.
func (r *Renderer) Restore() {
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.off || r.closed {
		return
	}
	r.off = false
	r.reset()
	if r.unicode {
		_, _ = r.scr.WriteString(ansi.SetModeUnicodeCore)
	}
	if r.shown {
		r.draw()
	}
	if len(r.held) > 0 {
		r.frame.Write(r.held)
		r.held = nil
		r.write()
	}
}

// Send writes seq, a sequence that draws nothing (a query, the clipboard,
// a notification), to the terminal now, between frames; while the
// terminal is released it is written on Restore, and after Close never.
func (r *Renderer) Send(seq string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.closed:
	case r.off:
		r.held = append(r.held, seq...)
	default:
		r.frame.WriteString(seq)
		r.write()
	}
}

// cancel drops a paced frame that has not been drawn.
func (r *Renderer) cancel() {
	if r.stop != nil {
		r.stop()
		r.stop = nil
	}
}

// draw writes the newest view: the cells that changed and the terminal
// modes the view asks for that differ from the screen's.
func (r *Renderer) draw() {
	r.cancel()
	v, was := r.view, r.drawn
	r.pending = false
	if r.showing(&v) {
		return
	}
	full := r.erase || was == nil
	r.erase = false
	if r.cells.Width() != r.width || r.cells.Height() != r.height {
		r.scr.Erase()
		r.cells.Touched = nil
		r.cells.Resize(r.width, r.height)
		full = true
	}
	changed := r.paint(v.Content, full)
	// Finding scrolled rows hashes every row; a frame that changed few
	// cannot be a scroll. (Switching it per frame is safe: ultraviolet
	// rehashes every row whenever it is on.)
	r.scr.SetScrollOptim(scrollOptim && changed*2 > r.height)

	r.modes(was, &v)
	r.scr.Render(r.cells.RenderBuffer)
	if v.Cursor != nil {
		// After Render, which moves the cursor.
		r.scr.MoveTo(v.Cursor.X, v.Cursor.Y)
	}
	_ = r.scr.Flush()
	r.compose(was, &v)
	r.drawn = &v
	r.write()
}

// showing reports whether the screen shows v as it is: drawing it would
// write nothing.
func (r *Renderer) showing(v *tea.View) bool {
	return r.drawn != nil && !r.erase && viewEquals(r.drawn, v) && r.cells.Width() == r.width && r.cells.Height() == r.height
}

// scrollOptim says whether rows that scrolled are moved by scrolling the
// terminal (not on Windows, where Windows Terminal misplaces the cursor
// after DECSTBM: microsoft/terminal#19016).
const scrollOptim = runtime.GOOS != "windows"

// paint puts content into the cells and returns how many rows it drew
// again. Where every row leaves the pen as it found it (no style or link
// runs on into the next row), so that each row draws the same on its own,
// only the rows that changed are parsed and drawn again, and only they are
// compared with what the terminal shows; else, or when full, the whole
// content is.
func (r *Renderer) paint(content string, full bool) (changed int) {
	if strings.Contains(content, "\r\n") {
		content = strings.ReplaceAll(content, "\r\n", "\n")
	}
	rows := strings.SplitN(content, "\n", r.height+1)
	rows = rows[:min(len(rows), r.height)]
	plain, same := make([]bool, len(rows)), make([]bool, len(rows))
	byRow, agree := true, true
	for y, row := range rows {
		if y < len(r.rows) && r.rows[y] == row {
			plain[y], same[y] = r.plain[y], r.same[y]
		} else {
			same[y] = measuresTheSame(row)
			plain[y] = endsPlain(row, r.measure(same[y]))
		}
		byRow = byRow && (plain[y] || y == len(rows)-1)
		agree = agree && same[y]
	}
	r.widths(agree)
	if !byRow || full || r.rows == nil {
		if byRow {
			// Drawing a string clears its area first: after one clear of
			// the whole screen, only the rows with text are drawn.
			r.cells.Clear()
			for y, row := range rows {
				if row != "" {
					r.drawRow(row, y, same[y])
				}
			}
		} else {
			uv.NewStyledString(drawable(content, agree)).Draw(r.cells, r.cells.Bounds())
			r.unstyle(0, r.height)
		}
		if !byRow {
			rows, plain, same = nil, nil, nil
		}
		r.rows, r.plain, r.same = rows, plain, same
		return r.height
	}
	for y := range r.height {
		if row := rowAt(rows, y); row != rowAt(r.rows, y) {
			r.drawRow(row, y, y < len(same) && same[y])
			changed++
		}
	}
	r.rows, r.plain, r.same = rows, plain, same
	return changed
}

// drawRow puts row into the cells of screen row y; same says whether it
// measures the same by graphemes and wcwidth.
func (r *Renderer) drawRow(row string, y int, same bool) {
	uv.NewStyledString(drawable(row, same)).Draw(r.cells, uv.Rect(0, y, r.width, 1))
	r.unstyle(y, y+1)
}

func rowAt(rows []string, y int) string {
	if y < len(rows) {
		return rows[y]
	}
	return ""
}

// probe is printed after a row to see the pen the row leaves.
const probe = "X"

// endsPlain reports whether text printed after row has no style and no
// link: whether row, drawn on its own, draws as it does in the frame. Most
// styled rows end their last style with a reset and hold no link, which
// needs no parsing; the others are parsed (75 µs and 64 KB a row).
func endsPlain(row string, m ansi.Method) bool {
	last := strings.LastIndexByte(row, ansi.ESC)
	if last < 0 {
		return true
	}
	if tail := row[last:]; (strings.HasPrefix(tail, ansi.ResetStyle) || strings.HasPrefix(tail, "\x1b[0m")) &&
		!strings.Contains(row, "\x1b]8;") {
		return true
	}
	return parsedEndsPlain(row, m)
}

// parsedEndsPlain is endsPlain by drawing row and a probe after it.
func parsedEndsPlain(row string, m ansi.Method) bool {
	lines := uv.NewStyledString(row + probe).Lines(m)
	if len(lines) != 1 || len(lines[0]) == 0 {
		return false
	}
	c := lines[0][len(lines[0])-1]
	return c.Content == probe && c.Style.IsZero() && c.Link.IsZero()
}

// compose wraps the screen writer's output into r.frame: the switch to
// the alternate screen on the first frame, synchronized output or a hidden
// cursor around the changes, and the cursor's visibility.
func (r *Renderer) compose(was, v *tea.View) {
	r.frame.Reset()
	if was == nil {
		// Modes that belong to the alternate screen (the keyboard
		// protocol) are set after the switch, in the screen writer's
		// output.
		r.frame.WriteString(ansi.ResetModifyOtherKeys + ansi.SetModeAltScreenSaveCursor)
	}
	changes := r.scrBuf.Len() > 0
	shown, show := was != nil && was.Cursor != nil, v.Cursor != nil
	visibility := was == nil || shown != show
	if r.syncd {
		if changes {
			r.frame.WriteString(ansi.SetModeSynchronizedOutput)
		}
		if visibility && !show {
			r.frame.WriteString(ansi.ResetModeTextCursorEnable)
		}
	} else if (visibility && !show) || (changes && show && shown) {
		r.frame.WriteString(ansi.ResetModeTextCursorEnable)
	}
	r.frame.Write(r.scrBuf.Bytes())
	r.scrBuf.Reset()
	if r.syncd {
		if visibility && show {
			r.frame.WriteString(ansi.SetModeTextCursorEnable)
		}
		if changes {
			r.frame.WriteString(ansi.ResetModeSynchronizedOutput)
		}
	} else if (visibility && show) || (changes && show && shown) {
		r.frame.WriteString(ansi.SetModeTextCursorEnable)
	}
}

// write sends r.frame to the terminal; the first error is kept for
// Release and Close.
func (r *Renderer) write() {
	if r.frame.Len() == 0 {
		return
	}
	if _, err := r.opts.Out.Write(r.frame.Bytes()); err != nil && r.err == nil {
		r.err = err
	}
	r.frame.Reset()
	if f := r.started; f != nil {
		r.started = nil
		go f()
	}
}

// Close leaves the screen as Release does, for good.
func (r *Renderer) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	return r.release()
}
