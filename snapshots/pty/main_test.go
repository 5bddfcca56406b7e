package pty

import (
	"fmt"
	"image/color"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/ptyterm"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

func TestMain(m *testing.M) { os.Exit(tackbin.Main(m)) }

const (
	cols = 100
	rows = 30
	// stepLimit bounds every wait for the screen or for an exit. It tells
	// a hang from a slow step on a machine shared by several builds, not
	// how fast tack is: that is measured (measure_test.go), never timed.
	stepLimit = 30 * time.Second
)

// run is one tack process in a 100×30 pseudo-terminal with its own
// TACK_HOME, HOME and working directory.
type run struct {
	*ptyterm.Terminal
	t    *testing.T
	home string // TACK_HOME
	dir  string // working directory
}

// setup is what a run starts from; the zero value is a fresh home and
// directory talking to no model server.
type setup struct {
	srv  *llmtest.Server
	home string // TACK_HOME; a fresh directory when empty
	dir  string // working directory; a fresh directory when empty
	args []string
	// background is the terminal's, reported to a colour query; black
	// when nil.
	background color.Color
	// silentTerminal ignores colour queries; extraEnv adds to the
	// environment.
	silentTerminal bool
	extraEnv       []string
}

// env is the whole environment of a run: no COLORTERM, a fake key and
// the fake server.
func (s setup) env(home, userHome string) []string {
	env := []string{
		"PATH=" + os.Getenv("PATH"), "HOME=" + userHome, "TACK_HOME=" + home,
		"TERM=xterm-256color", "LANG=C.UTF-8",
	}
	if s.srv != nil {
		env = append(env, "DEEPSEEK_API_KEY=test", "DEEPSEEK_BASE_URL="+s.srv.URL())
	}
	return append(env, s.extraEnv...)
}

// start runs tack as s describes; the process is killed and the terminal
// closed when the test ends.
func start(t *testing.T, s setup) *run {
	t.Helper()
	home := s.home
	if home == "" {
		home = t.TempDir()
	}
	dir := s.dir
	if dir == "" {
		dir = t.TempDir()
	}
	term, err := ptyterm.Start(ptyterm.Options{Bin: tackbin.Path(t), Args: s.args, Dir: dir, Env: s.env(home, t.TempDir()), Cols: cols, Rows: rows, Background: s.background, NoColourReplies: s.silentTerminal})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(term.Close)
	return &run{Terminal: term, t: t, home: home, dir: dir}
}

// step is one line of a script: wait until the screen shows want (every
// one of them), then, after pause, do the input.
type step struct {
	want []string
	// until, when set, must hold for the screen as well.
	until func(screen string) bool
	// pause is how long a person takes to read what appeared; dialogs that
	// ignore keys for a moment after opening need it.
	pause time.Duration
	do    func(*run)
}

// script runs steps in order, each with its own deadline.
func (r *run) script(steps ...step) {
	r.t.Helper()
	for i, s := range steps {
		r.waitScreen(fmt.Sprintf("step %d", i+1), s.want, s.until)
		if s.pause > 0 {
			<-time.After(s.pause)
		}
		if s.do != nil {
			s.do(r)
		}
	}
}

// waitText waits until the screen shows every one of texts and returns the
// screen.
func (r *run) waitText(label string, texts ...string) string {
	r.t.Helper()
	return r.waitScreen(label, texts, nil)
}

// waitScreen waits until the screen shows every one of texts and, when
// until is set, until holds for it.
func (r *run) waitScreen(label string, texts []string, until func(string) bool) string {
	r.t.Helper()
	screen, _, err := r.WaitScreen(stepLimit, func(s string) bool {
		return containsAll(s, texts) && (until == nil || until(s))
	})
	if err != nil {
		what := fmt.Sprintf("%q", texts)
		if until != nil {
			what += " and the step's condition"
		}
		r.t.Fatalf("%s: want the screen to show %s within %v, got (%v):\n%s", label, what, stepLimit, err, frame(screen))
	}
	return screen
}

// exitCode waits for the process to end and the terminal to drain.
func (r *run) exitCode() int {
	r.t.Helper()
	code, err := r.Wait(stepLimit)
	if err != nil {
		r.t.Fatalf("%v; the screen is:\n%s", err, frame(r.Screen()))
	}
	return code
}

func containsAll(s string, texts []string) bool {
	for _, x := range texts {
		if !strings.Contains(s, x) {
			return false
		}
	}
	return true
}

// frame draws the screen inside a box so trailing blanks and empty rows
// show in a failure message.
func frame(screen string) string {
	var b strings.Builder
	b.WriteString("┌" + strings.Repeat("─", cols) + "┐\n")
	for _, row := range strings.Split(screen, "\n") {
		b.WriteString("│" + row + strings.Repeat(" ", max(cols-ansi.StringWidth(row), 0)) + "│\n")
	}
	b.WriteString("└" + strings.Repeat("─", cols) + "┘")
	return b.String()
}

// Inputs for script steps.

func typed(text string) func(*run) { return func(r *run) { r.Type(text) } }

func key(code rune) func(*run) { return func(r *run) { r.Key(code) } }

func both(a, b func(*run)) func(*run) { return func(r *run) { a(r); b(r) } }

func ctrl(code rune) func(*run) { return func(r *run) { r.Key(code, vt.ModCtrl) } }
