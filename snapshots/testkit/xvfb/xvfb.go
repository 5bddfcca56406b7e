// Package xvfb runs programs in real terminal emulators on a virtual X
// display, for tests whose oracle is the emulator: what it answers, how
// wide it draws text, which bytes a key sends. Every emulator is optional:
// a test asks Need or Emulator.Need and skips, saying what to install,
// where one is missing.
package xvfb

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Start starts a virtual X display for the test and returns its name;
// Xvfb picks a free display number and writes it to the pipe it is given.
// The display ends with the test.
func Start(t *testing.T) string {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("Xvfb", "-displayfd", "3", "-screen", "0", "1024x768x24", "-nolisten", "tcp")
	cmd.ExtraFiles = []*os.File{w}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatalf("start Xvfb: %v", err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	n, err := bufio.NewReader(r).ReadString('\n')
	r.Close()
	if err != nil {
		t.Fatalf("want Xvfb's display number: %v; its stderr: %s", err, stderr.String())
	}
	return ":" + strings.TrimSpace(n)
}

// Need skips the test unless every tool is on PATH; install says how to
// get them.
func Need(t *testing.T, install string, tools ...string) {
	t.Helper()
	var missing []string
	for _, tool := range tools {
		if _, err := exec.LookPath(tool); err != nil {
			missing = append(missing, tool)
		}
	}
	if len(missing) > 0 {
		t.Skipf("needs %s (%s); missing: %s", strings.Join(tools, ", "), install, strings.Join(missing, ", "))
	}
}

// An Emulator is a terminal emulator Debian packages, or a terminal
// multiplexer run inside xterm.
type Emulator struct {
	Name string
	// Package is the Debian package that has it.
	Package string
	// tools are the programs it needs on PATH.
	tools []string
	// argv is the command line that runs a cols×rows window titled title
	// running cmd; dir is for files it needs.
	argv func(dir string, cols, rows int, title string, cmd []string) []string
	// env is added to the emulator's environment.
	env []string
	// TitleStack says whether it keeps a stack of window titles
	// (XTWINOPS 22 and 23).
	TitleStack bool
}

// Emulators are the emulators tests try: those users run tack in that run
// under Xvfb, and GNU screen and tmux nested in xterm. kitty and alacritty
// draw with OpenGL, which Xvfb gives them through Mesa's software
// renderer.
var Emulators = []Emulator{
	{Name: "xterm", Package: "xterm", tools: []string{"xterm"}, TitleStack: true, argv: func(_ string, cols, rows int, title string, cmd []string) []string {
		return xtermArgv(cols, rows, title, cmd)
	}},
	{Name: "urxvt", Package: "rxvt-unicode", tools: []string{"urxvt"}, argv: func(_ string, cols, rows int, title string, cmd []string) []string {
		return append([]string{"urxvt", "-geometry", fmt.Sprintf("%dx%d+0+0", cols, rows), "-fn", "xft:DejaVu Sans Mono:size=11", "-title", title, "-e"}, cmd...)
	}},
	{Name: "st", Package: "stterm", tools: []string{"st"}, argv: func(_ string, cols, rows int, title string, cmd []string) []string {
		return append([]string{"st", "-g", fmt.Sprintf("%dx%d+0+0", cols, rows), "-f", "DejaVu Sans Mono:size=11", "-t", title, "-e"}, cmd...)
	}},
	{Name: "mlterm", Package: "mlterm", tools: []string{"mlterm"}, TitleStack: true, argv: func(_ string, cols, rows int, title string, cmd []string) []string {
		return append([]string{"mlterm", "-g", fmt.Sprintf("%dx%d+0+0", cols, rows), "--title", title, "-e"}, cmd...)
	}},
	{Name: "alacritty", Package: "alacritty", tools: []string{"alacritty"}, env: []string{"LIBGL_ALWAYS_SOFTWARE=1"},
		argv: func(dir string, cols, rows int, title string, cmd []string) []string {
			return append([]string{"alacritty", "--socket", filepath.Join(dir, "alacritty.socket"), "-o", fmt.Sprintf("window.dimensions.columns=%d", cols),
				"-o", fmt.Sprintf("window.dimensions.lines=%d", rows), "-t", title, "-e"}, cmd...)
		}},
	{Name: "kitty", Package: "kitty", tools: []string{"kitty"}, env: []string{"LIBGL_ALWAYS_SOFTWARE=1"},
		argv: func(_ string, cols, rows int, title string, cmd []string) []string {
			return append([]string{"kitty", "-o", fmt.Sprintf("initial_window_width=%dc", cols),
				"-o", fmt.Sprintf("initial_window_height=%dc", rows), "-T", title}, cmd...)
		}},
	{Name: "tmux in xterm", Package: "xterm tmux", tools: []string{"xterm", "tmux"}, argv: func(dir string, cols, rows int, title string, cmd []string) []string {
		return multiplexerArgv(cols, rows, title, TmuxArgv(dir, "tmux-256color", cmd))
	}},
	{Name: "screen in xterm", Package: "xterm screen", tools: []string{"xterm", "screen"}, argv: func(dir string, cols, rows int, title string, cmd []string) []string {
		return multiplexerArgv(cols, rows, title, ScreenArgv(dir, cmd))
	}},
}

// TmuxArgv is tmux, with a server of its own in dir and TERM inside it
// term, running cmd in a session that ends when its terminal does.
func TmuxArgv(dir, term string, cmd []string) []string {
	conf := filepath.Join(dir, "tmux.conf")
	_ = os.WriteFile(conf, []byte("set -g default-terminal "+term+"\nset -g destroy-unattached on\n"), 0o600)
	return append([]string{"tmux", "-S", filepath.Join(dir, "tmux.socket"), "-f", conf, "new-session"}, cmd...)
}

// ScreenArgv is GNU screen running cmd in a session that ends when its
// terminal does (by default screen detaches and runs on). Its sockets go
// in SCREENDIR, which the caller sets to a private directory.
func ScreenArgv(dir string, cmd []string) []string {
	conf := filepath.Join(dir, "screenrc")
	_ = os.WriteFile(conf, []byte("autodetach off\n"), 0o600)
	return append([]string{"screen", "-c", conf}, cmd...)
}

func xtermArgv(cols, rows int, title string, cmd []string) []string {
	return append([]string{"xterm", "-geometry", fmt.Sprintf("%dx%d+0+0", cols, rows), "-fa", "DejaVu Sans Mono", "-fs", "11",
		"-title", title, "-e"}, cmd...)
}

// multiplexerArgv is xterm running a multiplexer. Its Alt sends Esc
// first, as people who use one set it: by default xterm sets the eighth
// bit of the key instead, which tmux and screen pass on as a Latin-1
// letter (Alt+b as â) to every program alike, while a program xterm runs
// directly gets modifyOtherKeys' sequences.
func multiplexerArgv(cols, rows int, title string, cmd []string) []string {
	return append([]string{"xterm", "-xrm", "XTerm*metaSendsEscape: true"}, xtermArgv(cols, rows, title, cmd)[1:]...)
}

// Need skips the test unless the emulator is installed.
func (e Emulator) Need(t *testing.T) {
	t.Helper()
	Need(t, "apt-get install "+e.Package, e.tools...)
}

// Command is the emulator on display, a cols×rows window titled title
// running cmd with env added to this process's environment. The caller
// starts it and ends it.
func (e Emulator) Command(t *testing.T, display string, cols, rows int, title string, env []string, cmd ...string) *exec.Cmd {
	dir := PrivateDir(t)
	argv := e.argv(dir, cols, rows, title, cmd)
	c := exec.Command(argv[0], argv[1:]...)
	c.Env = append(append(append(os.Environ(), "DISPLAY="+display, "SCREENDIR="+dir), e.env...), env...)
	return c
}

// PrivateDir is a directory for the test only its user may enter, as GNU
// screen and tmux want their sockets'.
func PrivateDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.Chmod(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return dir
}
