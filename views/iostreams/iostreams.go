// Package iostreams is the one terminal seam of tack's front doors, in the
// manner of gh's pkg/iostreams: one value that holds the three standard
// streams and knows which of them are terminals, whether colour is on, the
// terminal's size and whether it is dumb (TERM=dumb). cmd/tack builds it
// once from the process (System) and makes the colour decision on it once
// (DecideColor); the full-screen app, line mode and print mode take what
// they need from it; tests build it over buffers (Test).
//
// It lives under views because the import rules let both app and linemode
// use the pure helpers of views, and it is one: it imports no bubbletea and
// no lipgloss, only golang.org/x/term for what only the OS can answer.
package iostreams

import (
	"bytes"
	"io"
	"os"
	"strings"

	"golang.org/x/term"
)

// Colour choices of --color.
const (
	ColorAuto   = "auto"
	ColorAlways = "always"
	ColorNever  = "never"
)

// IOStreams is the process's standard streams and what is known of them.
// It is not safe for concurrent mutation; set it up, then share it.
type IOStreams struct {
	In     io.Reader
	Out    io.Writer
	ErrOut io.Writer

	inFile  *os.File // nil over buffers
	outFile *os.File

	stdinTTY, stdoutTTY, stderrTTY bool
	termName                       string
	inTmux                         bool // TMUX is set
	noColor                        bool // NO_COLOR is set
	color                          bool
	width, height                  int // a fixed size; zero asks the terminal
}

// System is the seam over the process's streams; getenv supplies TERM and
// NO_COLOR. Colour starts as the TTY default (DecideColor with "auto" and
// no config).
func System(stdin *os.File, stdout, stderr io.Writer, getenv func(string) string) *IOStreams {
	s := &IOStreams{
		In: stdin, Out: stdout, ErrOut: stderr, inFile: stdin,
		stdinTTY: isTerminal(stdin), stdoutTTY: isTerminal(stdout), stderrTTY: isTerminal(stderr),
		termName: getenv("TERM"), noColor: getenv("NO_COLOR") != "", inTmux: getenv("TMUX") != "",
	}
	s.outFile, _ = stdout.(*os.File)
	s.DecideColor(ColorAuto, nil)
	return s
}

// Test is a seam over buffers: no stream is a terminal, colour is off, and
// the size is 80×24 until set.
func Test() (s *IOStreams, in *bytes.Buffer, out, errOut *bytes.Buffer) {
	in, out, errOut = &bytes.Buffer{}, &bytes.Buffer{}, &bytes.Buffer{}
	return &IOStreams{In: in, Out: out, ErrOut: errOut, termName: "xterm", width: 80, height: 24}, in, out, errOut
}

func isTerminal(v any) bool {
	f, ok := v.(*os.File)
	return ok && f != nil && term.IsTerminal(int(f.Fd()))
}

// IsStdinTTY reports whether stdin is a terminal.
func (s *IOStreams) IsStdinTTY() bool { return s.stdinTTY }

// IsStdoutTTY reports whether stdout is a terminal.
func (s *IOStreams) IsStdoutTTY() bool { return s.stdoutTTY }

// IsStderrTTY reports whether stderr is a terminal.
func (s *IOStreams) IsStderrTTY() bool { return s.stderrTTY }

// Interactive reports whether a person is at a terminal on both stdin and
// stdout.
func (s *IOStreams) Interactive() bool { return s.stdinTTY && s.stdoutTTY }

// ShiftEnterIsEnter reports whether the terminal sends Shift+Enter as a
// plain Enter, so that it cannot start a new line: tmux (unless set up for
// extended keys), GNU screen, rxvt-unicode, st and the Linux console do,
// as measured in each (app/screen's emulator tests).
func (s *IOStreams) ShiftEnterIsEnter() bool {
	if s.inTmux {
		return true
	}
	for _, plain := range []string{"screen", "tmux", "rxvt", "st", "linux"} {
		if s.termName == plain || strings.HasPrefix(s.termName, plain+"-") || strings.HasPrefix(s.termName, plain+".") {
			return true
		}
	}
	return false
}

// IsDumb reports whether TERM says the terminal cannot move the cursor or
// draw colour (TERM=dumb, as in Emacs shell buffers and some CI logs).
func (s *IOStreams) IsDumb() bool { return s.termName == "dumb" }

// CanFullScreen reports whether the full-screen interface can run: a
// terminal on stdin and stdout that is not dumb.
func (s *IOStreams) CanFullScreen() bool { return s.Interactive() && !s.IsDumb() }

// FullScreenRefusal says why the full-screen interface cannot run here and
// what to use instead; "" when it can.
func (s *IOStreams) FullScreenRefusal() string {
	switch {
	case !s.Interactive():
		return "the full-screen interface needs a terminal on stdin and stdout; use --ui line for line mode, or tack -p \"task\" for pipes and scripts"
	case s.IsDumb():
		return "the full-screen interface cannot draw on a dumb terminal (TERM=dumb); use --ui line, or set TERM to your terminal's type (e.g. xterm-256color)"
	}
	return ""
}

// DecideColor makes the colour decision, in this order: the --color flag
// (always or never) wins; otherwise NO_COLOR turns colour off; otherwise
// `color = false` in the config file (configured) turns it off; otherwise
// colour is on when stdout is a terminal that is not dumb.
func (s *IOStreams) DecideColor(flag string, configured *bool) {
	switch {
	case flag == ColorAlways:
		s.color = true
	case flag == ColorNever, s.noColor, configured != nil && !*configured:
		s.color = false
	default:
		s.color = s.stdoutTTY && !s.IsDumb()
	}
}

// ColorEnabled reports the colour decision.
func (s *IOStreams) ColorEnabled() bool { return s.color }

// Size is the terminal's width and height in cells: the size set on the
// seam, else stdout's terminal size, else 80×24 with ok false.
func (s *IOStreams) Size() (width, height int, ok bool) {
	if s.width > 0 && s.height > 0 {
		return s.width, s.height, true
	}
	if s.outFile != nil {
		if w, h, err := term.GetSize(int(s.outFile.Fd())); err == nil && w > 0 && h > 0 {
			return w, h, true
		}
	}
	return 80, 24, false
}

// StdinFile is stdin as a file, for what needs its descriptor (the
// full-screen program, line editing); nil over buffers.
func (s *IOStreams) StdinFile() *os.File { return s.inFile }

// SetStdinTTY, SetStdoutTTY and SetStderrTTY make the seam claim a terminal
// (for tests).
func (s *IOStreams) SetStdinTTY(v bool)  { s.stdinTTY = v }
func (s *IOStreams) SetStdoutTTY(v bool) { s.stdoutTTY = v }
func (s *IOStreams) SetStderrTTY(v bool) { s.stderrTTY = v }

// SetTerm sets TERM's value (for tests).
func (s *IOStreams) SetTerm(name string) { s.termName = name }

// SetTmux says whether TMUX is set (for tests).
func (s *IOStreams) SetTmux(v bool) { s.inTmux = v }

// SetNoColor says whether NO_COLOR is set (for tests).
func (s *IOStreams) SetNoColor(v bool) { s.noColor = v }

// SetSize fixes the terminal size.
func (s *IOStreams) SetSize(width, height int) { s.width, s.height = width, height }
