//go:build linux

package tmuxdiff

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/procs"
)

// session is the name of the one tmux session each server holds.
const session = "diff"

var servers atomic.Int64

// needTmux skips the test where tmux is missing.
func needTmux(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("comparing x/vt with tmux needs tmux (apt-get install tmux); it is not on PATH")
	}
}

// tmux is a tmux server of the test's own (a private socket name) with two
// windows of one pane each: screen, which is compared, and probe, where
// the width tmux gives a character is measured. Each pane's program copies
// a FIFO to the pane as it is: what the test writes there, tmux draws.
type tmux struct {
	t      *testing.T
	sock   string
	dir    string
	tmpdir string // TMUX_TMPDIR: where the socket goes
	screen *pane
	probe  *pane
	widths map[string]int // measured in probe
}

// pane is one window's pane and the FIFO that feeds it.
type pane struct {
	tm     *tmux
	target string
	fifo   *os.File
	marks  int
}

// startTmux starts a tmux server whose windows are cols×rows. The server
// and the panes' programs are ended when the test ends, and the test
// fails if any of them outlives kill-server.
func startTmux(t *testing.T, cols, rows int) *tmux {
	t.Helper()
	tm := &tmux{t: t, sock: fmt.Sprintf("tack-tmuxdiff-%d-%d", os.Getpid(), servers.Add(1)), dir: t.TempDir(), widths: map[string]int{}}
	// tmux leaves its socket behind when killed; a directory of the test's
	// own takes it. Not t.TempDir: a socket's path must stay short.
	var err error
	if tm.tmpdir, err = os.MkdirTemp("", "tmuxdiff-"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(tm.tmpdir) })
	conf := filepath.Join(tm.dir, "tmux.conf")
	// No status line: the pane is the whole window.
	testkit.WriteFile(t, conf, "set -g status off\n")
	screenFIFO, probeFIFO := tm.fifo("screen"), tm.fifo("probe")
	start := []string{"-L", tm.sock, "-f", conf, "new-session", "-d", "-s", session, "-n", "screen",
		"-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows), copyCommand(screenFIFO)}
	if out, err := tm.command(start[2:]...).CombinedOutput(); err != nil {
		t.Fatalf("start tmux: %v\n%s", err, out)
	}
	server := procs.Find(t, testkit.WaitLimit, append([]string{"tmux"}, start...)...)
	tm.query("new-window", "-d", "-t", session, "-n", "probe", copyCommand(probeFIFO))
	var screenCat, probeCat int
	tm.screen, screenCat = tm.open("screen", screenFIFO)
	tm.probe, probeCat = tm.open("probe", probeFIFO)
	// One cleanup, in this order: a pane's cat may not have opened its
	// FIFO yet, and would then wait for a writer until the server ends it.
	t.Cleanup(func() {
		_ = tm.screen.fifo.Close()
		_ = tm.probe.fifo.Close()
		// kill-server may report "server exited unexpectedly" when the
		// server is gone before it answers: whether anything is left is
		// the processes' to say.
		_ = tm.command("kill-server").Run()
		for _, p := range []struct {
			what  string
			pidfd int
		}{{"the tmux server (-L " + tm.sock + ")", server}, {"the screen pane's cat", screenCat}, {"the probe pane's cat", probeCat}} {
			if !procs.Exited(p.pidfd, testkit.WaitLimit) {
				t.Errorf("%s still runs %v after kill-server", p.what, testkit.WaitLimit)
			}
		}
	})
	return tm
}

// fifo makes the FIFO named name.
func (tm *tmux) fifo(name string) string {
	tm.t.Helper()
	path := filepath.Join(tm.dir, name)
	if err := unix.Mkfifo(path, 0o600); err != nil {
		tm.t.Fatalf("make the FIFO for tmux's pane: %v", err)
	}
	return path
}

// copyCommand is a pane's program: raw, so the bytes reach the pane as
// tack wrote them (no \n → \r\n); -echo, so tmux's answers to tack's
// queries, which arrive as cat's input, are not echoed onto the screen.
func copyCommand(fifo string) string { return "stty raw -echo && exec cat '" + fifo + "'" }

// open opens the FIFO of window name's pane and finds the pane's cat,
// which it returns as a pidfd. Opened for reading too, the FIFO opens
// without waiting for cat, and cat reads to its end only when the test
// closes it.
func (tm *tmux) open(name, path string) (*pane, int) {
	tm.t.Helper()
	fifo, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		tm.t.Fatalf("open the FIFO for tmux's %s pane: %v", name, err)
	}
	tm.t.Cleanup(func() { _ = fifo.Close() })
	cat := procs.Find(tm.t, testkit.WaitLimit, "cat", path)
	return &pane{tm: tm, target: session + ":" + name, fifo: fifo}, cat
}

// command is tmux with args, talking to this server.
func (tm *tmux) command(args ...string) *exec.Cmd {
	cmd := exec.Command("tmux", append([]string{"-L", tm.sock}, args...)...)
	// tmux reads the locale to decide that the pane speaks UTF-8 and how
	// wide a character is; TMUX would point a nested client elsewhere.
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "LANG=C.UTF-8", "HOME=" + tm.dir, "TMUX_TMPDIR=" + tm.tmpdir}
	return cmd
}

// query runs tmux with args and returns its output.
func (tm *tmux) query(args ...string) string {
	tm.t.Helper()
	out, err := tm.command(args...).Output()
	if err != nil {
		tm.t.Fatalf("tmux %s: %v", strings.Join(args, " "), err)
	}
	return string(out)
}

// feed writes b to the pane and waits until tmux has drawn all of it: a
// title set after b (OSC 2, which changes no cell) shows when tmux has
// parsed what came before.
func (p *pane) feed(b []byte) {
	p.tm.t.Helper()
	p.marks++
	mark := fmt.Sprintf("tmuxdiff-mark-%d", p.marks)
	// A copy: b is part of the recording, whose next bytes append would
	// overwrite.
	stream := append(append([]byte{}, b...), "\x1b]2;"+mark+"\x07"...)
	if _, err := p.fifo.Write(stream); err != nil {
		p.tm.t.Fatalf("write to tmux's pane: %v", err)
	}
	title := func() string { return strings.TrimSpace(p.display("#{pane_title}")) }
	testkit.Eventually(p.tm.t, "tmux to draw the stream up to title "+mark, func() bool { return title() == mark },
		func() string { return "title " + title() })
}

// display is the pane's value of a tmux format.
func (p *pane) display(format string) string {
	p.tm.t.Helper()
	return p.tm.query("display-message", "-p", "-t", p.target, format)
}

// resize gives the screen a new size, as a user resizing the terminal
// tmux runs in would (resize-window also fixes the window at that size,
// with no client to take it from), and the probe too.
func (tm *tmux) resize(cols, rows int) {
	tm.t.Helper()
	for _, p := range []*pane{tm.screen, tm.probe} {
		tm.query("resize-window", "-t", p.target, "-x", strconv.Itoa(cols), "-y", strconv.Itoa(rows))
	}
}

// width is how many columns tmux moves the cursor for text written at the
// start of an empty row: its own measure, which capture-pane does not
// give.
func (tm *tmux) width(text string) int {
	tm.t.Helper()
	if w, ok := tm.widths[text]; ok {
		return w
	}
	tm.probe.feed([]byte("\x1b[H\x1b[2K" + text))
	w, err := strconv.Atoi(strings.TrimSpace(tm.probe.display("#{cursor_x}")))
	if err != nil {
		tm.t.Fatalf("read tmux's cursor: %v", err)
	}
	tm.widths[text] = w
	return w
}

// grid is what the screen shows: its cells as capture-pane gives them with
// attributes (-e) and trailing blanks (-N), placed at the columns tmux's
// widths give them, and its cursor.
func (tm *tmux) grid(cols, rows int) grid {
	tm.t.Helper()
	out := tm.query("capture-pane", "-p", "-e", "-N", "-t", tm.screen.target)
	g, err := parseCapture(out, rows)
	if err != nil {
		tm.t.Fatalf("read tmux's capture: %v\n%q", err, out)
	}
	for y, row := range g.rows {
		g.rows[y] = tm.place(row)
	}
	g.trim()
	var cur cursor
	var shown int
	if _, err := fmt.Sscanf(tm.screen.display("#{cursor_x} #{cursor_y} #{cursor_flag}"), "%d %d %d", &cur.x, &cur.y, &shown); err != nil {
		tm.t.Fatalf("read tmux's cursor: %v", err)
	}
	// While a wrap is pending after the last column, tmux puts the cursor
	// past it (cursor_x is the width); x/vt keeps it on the last column
	// and remembers the wrap. Both are the same state.
	g.cursor = cursor{min(cur.x, cols-1), cur.y, shown == 0}
	return g
}

// place gives the characters of a row their columns and widths. A
// character tmux gives no width joined the cell before it (a combining
// mark): capture-pane writes a cell's characters one after the other, so
// where one cell ends is tmux's to say, not the text's.
func (tm *tmux) place(row []glyph) []glyph {
	var placed []glyph
	col := 0
	for _, g := range row {
		g.col, g.width = col, 1
		if !ascii(g.text) {
			g.width = tm.width(g.text)
		}
		if g.width == 0 && len(placed) > 0 {
			placed[len(placed)-1].text += g.text
			continue
		}
		placed = append(placed, g)
		col += g.width
	}
	return placed
}

// ascii reports whether text is one printable ASCII character, which every
// terminal draws one column wide.
func ascii(text string) bool { return len(text) == 1 && text[0] >= ' ' && text[0] < 0x7f }
