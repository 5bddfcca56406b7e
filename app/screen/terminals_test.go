//go:build linux

package screen

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"

	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/xvfb"
)

// The tests here run the screen in real terminal emulators (see
// snapshots/testkit/xvfb): the test binary runs again inside each
// emulator as a helper, named by helperVar, and writes what it saw to
// the file named by helperOut.
const (
	helperVar = "TACK_SCREEN_HELPER"
	helperOut = "TACK_SCREEN_HELPER_OUT"
)

func TestMain(m *testing.M) {
	if helper := os.Getenv(helperVar); helper != "" {
		os.Exit(runHelper(helper, os.Getenv(helperOut)))
	}
	os.Exit(m.Run())
}

// runHelper runs the named helper, which writes its report to out, and
// marks the report complete; a helper that fails reports its error.
func runHelper(name, out string) int {
	helpers := map[string]func(out string) error{"widths": measureWidths, "keys": echoKeys, "reasoning": drawReasoning, "title": showTitle}
	err := fmt.Errorf("no helper %q", name)
	if h, ok := helpers[name]; ok {
		err = h(out)
	}
	if err != nil {
		_ = os.WriteFile(out, []byte("the helper failed: "+err.Error()), 0o600)
	}
	if os.WriteFile(out+".done", nil, 0o600) != nil {
		return 1
	}
	return 0
}

// emulatorLimit bounds each wait for an emulator: a loaded machine takes
// seconds to start one, and kitty and alacritty draw in software here.
const emulatorLimit = time.Minute

// An emulatorRun is the helper running in one emulator.
type emulatorRun struct {
	xvfb.Emulator
	display string
	window  string // the window's title
	out     string // the helper's report
}

// report is the helper's report so far, one line an element.
func (r emulatorRun) report() []string {
	b, _ := os.ReadFile(r.out)
	return strings.Split(strings.TrimSpace(string(b)), "\n")
}

// xdotool runs xdotool on the run's display.
func (r emulatorRun) xdotool(args ...string) error {
	cmd := exec.Command("xdotool", args...)
	cmd.Env = append(os.Environ(), "DISPLAY="+r.display)
	return cmd.Run()
}

// focus gives the window titled title the keyboard: there is no window
// manager to do it.
func (r emulatorRun) focus(t *testing.T, title string) {
	t.Helper()
	if err := r.xdotool("search", "--sync", "--name", "^"+title+"$", "windowfocus"); err != nil {
		t.Fatalf("focus the emulator's window: %v", err)
	}
}

// runInEmulators runs the helper in each emulator installed, on one
// virtual display, and calls check with the helper's report; while the
// helper runs, act (if not nil) is called once it has written its first
// line, the sign that it is ready.
func runInEmulators(t *testing.T, helper string, act func(t *testing.T, run emulatorRun), check func(t *testing.T, report []string)) {
	xvfb.Need(t, "apt-get install xvfb fonts-dejavu", "Xvfb")
	display := xvfb.Start(t)
	for _, e := range xvfb.Emulators {
		t.Run(e.Name, func(t *testing.T) {
			e.Need(t)
			run := emulatorRun{Emulator: e, display: display, window: "tack-screen-" + helper, out: filepath.Join(testkit.OrphanDir(t), "report")}
			cmd := e.Command(t, display, 80, 24, run.window, []string{helperVar + "=" + helper, helperOut + "=" + run.out}, os.Args[0], "-test.run=^$")
			if err := cmd.Start(); err != nil {
				t.Fatalf("start %s: %v", e.Name, err)
			}
			defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
			if act != nil {
				testkit.EventuallyWithin(t, emulatorLimit, "the helper to start in "+e.Name, func() bool {
					return run.report()[0] != ""
				})
				act(t, run)
			}
			testkit.EventuallyWithin(t, emulatorLimit, "the helper's report from "+e.Name, func() bool {
				_, err := os.Stat(run.out + ".done")
				return err == nil
			})
			check(t, run.report())
		})
	}
}

// A widthSample is text whose width terminals may measure differently
// from one another, or from the renderer: the kinds of text a model's
// answer or a pasted web page brings.
type widthSample struct{ name, text string }

var widthSamples = []widthSample{
	{"ASCII", "plain text"},
	{"CJK", "日本語のテキスト"},
	{"Hangul", "한국어"},
	{"combining mark", "e\u0301te\u0301"},
	{"emoji", "👍 ✅ 🐈"},
	{"emoji with a skin tone", "👍🏽 ok"},
	{"emoji presentation selector", "⚠️ ❤️ ⚙️ note"},
	{"ZWJ sequence", "🧑\u200d💻 and 👨\u200d👩\u200d👧"},
	{"flag", "🇯🇵"},
	{"soft hyphen", "co\u00adop\u00aderation"},
	{"zero-width space", "a\u200bb"},
	{"bidi marks", "a\u200eb\u200fc\u2066d\u2069"},
	{"byte order mark", "\ufeffstart"},
	{"word joiner", "a\u2060b"},
	{"Arabic number sign", "\u0600123"},
	{"line separator", "a\u2028b"},
	{"tack's own marks", "· … ─ │ ✓ ✗ ⏺ ◐ ❯ ▸ ⋯ ↳"},
}

// measureWidths is the widths helper: for each sample it has a renderer
// draw the sample and a Z after it in row 2 and asks the terminal where
// its cursor is, just after the Z it drew, and reports one line a sample:
// its name, the column the renderer counted and the terminal's.
func measureWidths(out string) error {
	st, err := term.MakeRaw(int(os.Stdin.Fd()))
	if err != nil {
		return err
	}
	defer func() { _ = term.Restore(int(os.Stdin.Fd()), st) }()
	w, h, _ := term.GetSize(int(os.Stdout.Fd()))
	r := NewRenderer(RendererOptions{Out: os.Stdout, Env: os.Environ(), Profile: colorprofile.ANSI, Width: w, Height: h, Interval: time.Millisecond})
	in := bufio.NewReader(os.Stdin)
	var report strings.Builder
	for _, s := range widthSamples {
		// An empty row first: the sample is written from column 0, not
		// after a prefix the frame before left there.
		r.Show(view("\n"), true)
		r.Show(view("\n"+s.text+"Z"), true)
		counted := -1
		for x := range w {
			if c := r.cells.CellAt(x, 1); c != nil && c.Content == "Z" {
				counted = x + 1
			}
		}
		_, _ = os.Stdout.WriteString(ansi.RequestCursorPositionReport)
		reply, err := in.ReadString('R')
		if err != nil {
			return fmt.Errorf("read the cursor's position: %w", err)
		}
		var row, col int
		if _, err := fmt.Sscanf(reply[strings.LastIndexByte(reply, ansi.ESC):], "\x1b[%d;%dR", &row, &col); err != nil {
			return fmt.Errorf("read the cursor's position from %q: %w", reply, err)
		}
		fmt.Fprintf(&report, "%s\t%d\t%d\n", s.name, counted, col-1)
	}
	_ = r.Close()
	return os.WriteFile(out, []byte(report.String()), 0o600)
}

// TestTextEndsWhereTheRendererCountsInRealTerminals draws text that
// terminals measure differently (wide, combining, emoji, invisible
// format characters) in each emulator installed and checks that the
// cell after it lands where the renderer counted: where it did not, every
// row with such text drew its right part shifted and the frames after it
// left debris.
func TestTextEndsWhereTheRendererCountsInRealTerminals(t *testing.T) {
	runInEmulators(t, "widths", nil, func(t *testing.T, report []string) {
		for _, line := range report {
			f := strings.Split(line, "\t")
			if len(f) != 3 {
				t.Fatalf("want name, counted and drawn columns, got %q", line)
			}
			if f[1] != f[2] {
				t.Errorf("%s: the renderer counts the cell after it at column %s, the terminal drew it at column %s", f[0], f[1], f[2])
			}
		}
	})
}

// A keySample is a key as xdotool names it and as tack reads it.
type keySample struct{ xdotool, read string }

var keySamples = []keySample{
	{"Delete", "delete"}, {"Insert", "insert"}, {"Home", "home"}, {"End", "end"},
	{"Prior", "pgup"}, {"Next", "pgdown"}, {"ctrl+Left", "ctrl+left"}, {"ctrl+Right", "ctrl+right"},
	{"ctrl+Delete", "ctrl+delete"}, {"alt+b", "alt+b"}, {"alt+f", "alt+f"}, {"alt+BackSpace", "alt+backspace"},
	{"shift+Tab", "shift+tab"}, {"Up", "up"}, {"KP_1", "1"},
}

// echoKeys is the keys helper: it takes the terminal as tack does (raw
// mode, the first frame's modes, tack's reader) and reports each key it
// reads, one line a key, until Ctrl+D.
func echoKeys(out string) error {
	f, err := os.Create(out)
	if err != nil {
		return err
	}
	defer f.Close()
	s, err := Open(Options{In: os.Stdin, Out: os.Stdout, Env: os.Environ()})
	if err != nil {
		return err
	}
	keys := make(chan string, 64)
	stop := s.Watch(func(msg tea.Msg) {
		if k, ok := msg.(uv.KeyPressEvent); ok {
			keys <- k.String()
		}
	})
	s.r.Show(view("keys"), true)
	fmt.Fprintln(f, "ready")
	timeout := time.After(emulatorLimit)
	for k := ""; k != "ctrl+d"; {
		select {
		case k = <-keys:
			fmt.Fprintln(f, k)
		case <-timeout:
			k = "ctrl+d"
		}
	}
	stop()
	return s.Close()
}

// TestKeysReadAsTheirNamesInRealTerminals presses editing keys in each
// emulator installed (with xdotool) while tack's screen holds the
// terminal and checks that tack reads each as the key pressed.
func TestKeysReadAsTheirNamesInRealTerminals(t *testing.T) {
	xvfb.Need(t, "apt-get install xdotool", "xdotool")
	press := func(t *testing.T, run emulatorRun) {
		run.focus(t, run.window)
		for _, k := range keySamples {
			if err := run.xdotool("key", k.xdotool); err != nil {
				t.Fatalf("xdotool key %s: %v", k.xdotool, err)
			}
		}
		_ = run.xdotool("key", "ctrl+d")
	}
	runInEmulators(t, "keys", press, func(t *testing.T, report []string) {
		if report[0] != "ready" {
			t.Fatalf("want the helper ready, got %q", report)
		}
		read := report[1:]
		for i, k := range keySamples {
			if i >= len(read) || read[i] != k.read {
				t.Errorf("want the keys pressed read as %v, got %v (first difference at %s)", keySamples, read, k.xdotool)
				return
			}
		}
	})
}

// showTitle is the title helper: it draws a view titled "tack", leaves
// the screen at the first key and ends at the next line.
func showTitle(out string) error {
	s, err := Open(Options{In: os.Stdin, Out: os.Stdout, Env: os.Environ()})
	if err != nil {
		return err
	}
	v := view("titled")
	v.WindowTitle = "tack"
	s.r.Show(v, true)
	if err := os.WriteFile(out, []byte("ready\n"), 0o600); err != nil {
		return err
	}
	key := make([]byte, 1)
	if _, err := os.Stdin.Read(key); err != nil {
		return err
	}
	if err := s.Close(); err != nil {
		return err
	}
	if err := os.WriteFile(out, []byte("ready\nleft\n"), 0o600); err != nil {
		return err
	}
	_, err = os.Stdin.Read(key)
	return err
}

// TestLeavingGivesTheWindowItsTitleBack shows a view titled "tack" in
// each emulator that keeps a stack of window titles and checks, with
// xdotool, that the window is named so while the screen is held and has
// its own title again once the screen is left (it was left empty).
func TestLeavingGivesTheWindowItsTitleBack(t *testing.T) {
	xvfb.Need(t, "apt-get install xdotool", "xdotool")
	titled := func(t *testing.T, run emulatorRun) {
		if !run.TitleStack {
			t.Skip("keeps no stack of window titles: an empty title is the best tack can leave")
		}
		named := func(title string) func() bool {
			return func() bool { return run.xdotool("search", "--name", "^"+title+"$") == nil }
		}
		testkit.EventuallyWithin(t, emulatorLimit, "the window named tack", named("tack"))
		run.focus(t, "tack")
		if err := run.xdotool("key", "q"); err != nil {
			t.Fatal(err)
		}
		testkit.EventuallyWithin(t, emulatorLimit, "the helper to leave the screen", func() bool { return len(run.report()) == 2 })
		testkit.EventuallyWithin(t, emulatorLimit, "the window named "+run.window+" again", named(run.window))
		// The terminal is cooked again: a line ends the helper.
		_ = run.xdotool("key", "Return")
	}
	runInEmulators(t, "title", titled, func(*testing.T, []string) {})
}
