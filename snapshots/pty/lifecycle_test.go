package pty

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// Sequences that switch terminal modes on and off.
const (
	altScreenOn       = "\x1b[?1049h"
	altScreenOff      = "\x1b[?1049l"
	bracketedPasteOn  = "\x1b[?2004h"
	bracketedPasteOff = "\x1b[?2004l"
	cursorHidden      = "\x1b[?25l"
	cursorShown       = "\x1b[?25h"
)

// resumeLine is what tack prints after restoring the terminal.
var resumeLine = regexp.MustCompile(`To resume this session: tack --resume (\d{8}-\d{6}-[0-9a-f]+)`)

// assertRestored checks that the program left the terminal as it found
// it: every mode it switched on is switched off again later in the raw
// output, and the emulator is back on the main screen with bracketed paste
// off. It returns the offset after the last restoring sequence. The cursor
// is checked in the raw output only: vt keeps its visibility per screen,
// where real terminals keep one, so a cursor hidden on the main screen and
// shown again on the alternate one stays hidden in vt alone.
func assertRestored(t *testing.T, r *run) int {
	t.Helper()
	raw := r.Raw()
	end := 0
	for _, m := range []struct{ name, on, off string }{
		{"the alternate screen", altScreenOn, altScreenOff},
		{"bracketed paste", bracketedPasteOn, bracketedPasteOff},
		{"the hidden cursor", cursorHidden, cursorShown},
	} {
		on, off := strings.LastIndex(raw, m.on), strings.LastIndex(raw, m.off)
		if on >= 0 && off < on {
			t.Errorf("want %s switched off (%q) after it was last switched on at byte %d, got no %q after it; output tail %q",
				m.name, m.off, on, m.off, tail(raw))
		}
		if off >= 0 {
			end = max(end, off+len(m.off))
		}
	}
	if r.AltScreen() {
		t.Errorf("want the emulator back on the main screen, got the alternate screen; output tail %q", tail(raw))
	}
	if r.ModeSet(ansi.ModeBracketedPaste) {
		t.Errorf("want bracketed paste off after exit, got it on; output tail %q", tail(raw))
	}
	return end
}

// assertResumeLineLast checks that the resume line follows the restoring
// sequences and names a session whose log is in TACK_HOME.
func assertResumeLineLast(t *testing.T, r *run, restoredAt int) {
	t.Helper()
	raw := r.Raw()
	loc := resumeLine.FindStringIndex(raw)
	if loc == nil {
		t.Fatalf("want %q in the output, got tail %q", "To resume this session: tack --resume <id>", tail(raw))
	}
	if loc[0] < restoredAt {
		t.Errorf("want the resume line after the terminal was restored (byte %d), got it at byte %d; tail %q", restoredAt, loc[0], tail(raw))
	}
	id := resumeLine.FindStringSubmatch(raw)[1]
	logs, _ := filepath.Glob(filepath.Join(r.home, "sessions", "*", id+".jsonl"))
	if len(logs) != 1 {
		t.Errorf("want the resume line to name a session logged under %s, got %s (logs %v)", r.home, id, logs)
	}
}

func tail(s string) string { return s[max(len(s)-300, 0):] }

// assertSIGTERMEndsRestored sends tack SIGTERM and checks that it exits
// with 128+15, the terminal restored and the resume line last.
func assertSIGTERMEndsRestored(t *testing.T, r *run) {
	t.Helper()
	if err := r.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if code := r.exitCode(); code != 128+int(syscall.SIGTERM) {
		t.Errorf("want exit code %d after SIGTERM, got %d; the screen is:\n%s", 128+int(syscall.SIGTERM), code, frame(r.Screen()))
	}
	assertResumeLineLast(t, r, assertRestored(t, r))
}

func TestCtrlCTwiceExitsAndRestoresTheTerminal(t *testing.T) {
	r := start(t, setup{srv: llmtest.New(t, llmtest.ReplyText("Hi there."))})
	r.waitIdle()
	r.script(
		step{do: both(typed("hi"), key('\r'))},
		step{want: []string{"Hi there."}, until: idleScreen, do: ctrl('c')},
		step{want: []string{"Press Ctrl+C again to exit."}, do: ctrl('c')},
	)
	if code := r.exitCode(); code != 0 {
		t.Errorf("want exit code 0 after Ctrl+C twice, got %d; output tail %q", code, tail(r.Raw()))
	}
	if !strings.Contains(r.Raw(), altScreenOn) {
		t.Fatalf("want the program to have used the alternate screen, got no %q", altScreenOn)
	}
	assertResumeLineLast(t, r, assertRestored(t, r))
}

func TestSIGTERMWhileRunningExitsAndRestoresTheTerminal(t *testing.T) {
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text("Still going", 0), llmtest.Stall()))
	r := start(t, setup{srv: srv})
	r.waitIdle()
	r.script(step{do: both(typed("long task"), key('\r'))})
	r.waitStalled(srv)
	r.waitText("running", "esc to cancel")
	assertSIGTERMEndsRestored(t, r)
}

func TestStartupFailuresFailLoudWithTheTerminalRestored(t *testing.T) {
	cases := []struct {
		name    string
		home    func(t *testing.T) string // TACK_HOME
		message []string                  // what the screen must show
	}{{
		name: "invalid config file",
		home: func(t *testing.T) string {
			home := t.TempDir()
			if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("model = [unclosed\n"), 0o600); err != nil {
				t.Fatal(err)
			}
			return home
		},
		message: []string{"tack:", "config.toml"},
	}, {
		// A regular file where the directory should be: unwritable even for
		// root, where permission bits do not bind.
		name: "TACK_HOME is a file",
		home: func(t *testing.T) string {
			home := filepath.Join(t.TempDir(), "home")
			if err := os.WriteFile(home, []byte("not a directory"), 0o600); err != nil {
				t.Fatal(err)
			}
			return home
		},
		message: []string{"tack:", "not a directory"},
	}}
	fronts := []struct {
		name string
		args []string
	}{{"full screen", nil}, {"line mode", lineMode}}
	for _, c := range cases {
		for _, f := range fronts {
			t.Run(c.name+"/"+f.name, func(t *testing.T) {
				startupFailure(t, c.home(t), f.args, c.message)
			})
		}
	}
}

// startupFailure runs tack with TACK_HOME home and checks that it fails
// loud: exit 1, message on the screen, terminal restored, no request.
func startupFailure(t *testing.T, home string, args, message []string) {
	srv := llmtest.New(t)
	r := start(t, setup{srv: srv, home: home, args: args})
	if code := r.exitCode(); code != 1 {
		t.Errorf("want exit code 1, got %d; the screen is:\n%s", code, frame(r.Screen()))
	}
	// The message may wrap; the rows are joined to look for it.
	screen := r.Screen()
	if !containsAll(strings.ReplaceAll(screen, "\n", ""), message) {
		t.Errorf("want the screen to show %q, got:\n%s", message, frame(screen))
	}
	for _, row := range strings.Split(screen, "\n") {
		if strings.HasPrefix(row, ">") {
			t.Errorf("want no prompt from a session that failed to start, got row %q in:\n%s", row, frame(screen))
		}
	}
	assertRestored(t, r)
	if n := len(srv.Requests()); n != 0 {
		t.Errorf("want no model request from a session that failed to start, got %d", n)
	}
}
