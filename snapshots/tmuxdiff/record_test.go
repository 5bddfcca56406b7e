//go:build linux

package tmuxdiff

import (
	"io"
	"os"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/parser"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/ptyterm"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
	"github.com/tack-agent/tack/snapshots/testkit/vtfeed"
)

// A mark is a point in what tack wrote: where the terminal was resized,
// or where the screens are compared.
type mark struct {
	at         int
	cols, rows int    // a resize, when cols > 0
	check      string // a comparison, named for the screen
}

// recording is what tack wrote in one run, the size it started at and
// the marks in it, in order.
type recording struct {
	raw        []byte
	cols, rows int
	marks      []mark
}

// run is tack in a pseudo-terminal, rendered in x/vt, as the PTY tests run
// it; what it writes is recorded for the replays.
type run struct {
	t    *testing.T
	term *ptyterm.Terminal
	rec  recording
}

// start runs tack against srv in the terminal o describes (its size,
// arguments and how it answers queries); start fills in the binary, a
// fresh directory and the environment.
func start(t *testing.T, srv *llmtest.Server, o ptyterm.Options) *run {
	t.Helper()
	o.Bin, o.Dir = tackbin.Path(t), t.TempDir()
	o.Env = []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TACK_HOME=" + t.TempDir(),
		"TERM=xterm-256color", "LANG=C.UTF-8", "DEEPSEEK_API_KEY=test", "DEEPSEEK_BASE_URL=" + srv.URL(),
	}
	term, err := ptyterm.Start(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(term.Close)
	return &run{t: t, term: term, rec: recording{cols: o.Cols, rows: o.Rows}}
}

// waitFor waits until the screen shows every one of texts, and for the
// idle editor when idle is set.
func (r *run) waitFor(idle bool, texts ...string) {
	r.t.Helper()
	screen, _, err := r.term.WaitScreen(testkit.WaitLimit, func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return !idle || idleScreen(s)
	})
	if err != nil {
		r.t.Fatalf("want the screen to show %q within %v, got (%v):\n%s", texts, testkit.WaitLimit, err, screen)
	}
}

// idleScreen holds when the last row is the editor's prompt without the
// steering placeholder: the turn is over.
func idleScreen(screen string) bool {
	rs := strings.Split(screen, "\n")
	last := rs[len(rs)-1]
	return strings.HasPrefix(last, ">") && !strings.Contains(last, "esc to cancel")
}

// prompt waits for the idle editor and submits text.
func (r *run) prompt(text string) {
	r.t.Helper()
	r.waitFor(true)
	r.term.Type(text)
	r.term.Key(vt.KeyEnter)
}

// waitRows waits, after a resize, for the idle editor on the last of rows:
// tack has drawn the screen at its new size.
func (r *run) waitRows(rows int) {
	r.t.Helper()
	screen, _, err := r.term.WaitScreen(testkit.WaitLimit, func(s string) bool {
		return strings.Count(s, "\n") == rows-1 && idleScreen(s)
	})
	if err != nil {
		r.t.Fatalf("want the idle editor on row %d after the resize within %v, got (%v):\n%s", rows, testkit.WaitLimit, err, screen)
	}
}

// checkAll marks the end of what tack wrote for comparison, once it has
// exited.
func (r *run) checkAll(name string) {
	r.rec.marks = append(r.rec.marks, mark{at: len(r.term.Raw()), check: name})
}

// check marks the screen shown now for comparison.
func (r *run) check(name string) {
	r.rec.marks = append(r.rec.marks, mark{at: r.settled(), check: name})
}

// resize resizes the terminal, as a user would, and marks where.
func (r *run) resize(cols, rows int) {
	r.t.Helper()
	at, err := r.term.Resize(cols, rows)
	if err != nil {
		r.t.Fatal(err)
	}
	if raw := r.term.Raw()[:at]; wholeEnd(raw) != at {
		r.t.Fatalf("resized inside an escape sequence or a character, after %q: resize on a drawn screen", raw[max(at-40, 0):])
	}
	r.rec.marks = append(r.rec.marks, mark{at: at, cols: cols, rows: rows})
}

// settled is how much of what tack wrote so far ends outside an escape
// sequence and a character's bytes: a replay cut there leaves neither
// emulator inside a sequence when the next part, or tmux's title mark,
// follows.
func (r *run) settled() int { return wholeEnd(r.term.Raw()) }

// wholeEnd is the length of the longest prefix of raw that ends outside an
// escape sequence and a character's bytes.
func wholeEnd(raw string) int {
	p := ansi.NewParser()
	end := 0
	for i := 0; i < len(raw); i++ {
		p.Advance(raw[i])
		if p.State() == parser.GroundState && utf8.FullRuneInString(raw[lastRuneStart(raw, i+1):i+1]) {
			end = i + 1
		}
	}
	return end
}

// lastRuneStart is where the last rune of s[:end] starts.
func lastRuneStart(s string, end int) int {
	i := end - 1
	for i > 0 && end-i < utf8.UTFMax && !utf8.RuneStart(s[i]) {
		i--
	}
	return i
}

// finish takes what tack wrote.
func (r *run) finish() recording {
	r.rec.raw = []byte(r.term.Raw())
	return r.rec
}

// A vtInput is the way bytes take into x/vt.
type vtInput func(em io.Writer) io.Writer

var (
	// asTheTestsDo is the way the screen tests and ptyterm feed x/vt.
	asTheTestsDo vtInput = func(em io.Writer) io.Writer { return vtfeed.New(em, nil) }
	// unfiltered is x/vt on its own.
	unfiltered vtInput = func(em io.Writer) io.Writer { return em }
)

// replay feeds the recording to x/vt, the way in says, and to tmux,
// resizing both at its resizes, and returns both screens at each check.
func replay(t *testing.T, rec recording, in vtInput) (vts, tmuxes map[string]grid) {
	t.Helper()
	em := vt.NewEmulator(rec.cols, rec.rows)
	feed := in(em)
	// The emulator answers tack's queries into a pipe that must be read
	// until it is closed.
	drained := make(chan struct{})
	go func() { _, _ = io.Copy(io.Discard, em); close(drained) }()
	defer func() { _ = em.InputPipe().(io.Closer).Close(); <-drained }()
	tm := startTmux(t, rec.cols, rec.rows)
	vts, tmuxes = map[string]grid{}, map[string]grid{}
	from, cols, rows := 0, rec.cols, rec.rows
	for _, m := range rec.marks {
		chunk := rec.raw[from:m.at]
		from = m.at
		_, _ = feed.Write(chunk)
		tm.screen.feed(chunk)
		if m.cols > 0 {
			cols, rows = m.cols, m.rows
			em.Resize(cols, rows)
			tm.resize(cols, rows)
			continue
		}
		vts[m.check] = vtGrid(em)
		tmuxes[m.check] = tm.grid(cols, rows)
	}
	return vts, tmuxes
}
