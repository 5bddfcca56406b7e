package xterm

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
	"github.com/tack-agent/tack/snapshots/testkit/xvfb"
)

func TestMain(m *testing.M) { os.Exit(tackbin.Main(m)) }

// The xterm window's size in cells.
const cols, rows = 100, 30

// shotLimit bounds each wait for tack's screen in xterm: a loaded machine
// takes seconds to start Xvfb, xterm and tack.
const shotLimit = 2 * time.Minute

// xterm's default palette: the colours it gives SGR 35 and 95.
var (
	magenta       = color.RGBA{R: 0xcd, G: 0x00, B: 0xcd, A: 0xff}
	brightMagenta = color.RGBA{R: 0xff, G: 0x00, B: 0xff, A: 0xff}
)

// A scheme is one look of xterm: its default background and text colours.
type scheme struct {
	name   string
	bg, fg color.RGBA
	// accent is the magenta tack's palette picks for this background
	// (bold bright magenta reads on dark, plain magenta on light); other
	// is the one it must not use.
	accent, other color.RGBA
}

var schemes = []scheme{
	{"dark", color.RGBA{R: 0x1e, G: 0x1e, B: 0x1e, A: 0xff}, color.RGBA{R: 0xd4, G: 0xd4, B: 0xd4, A: 0xff}, brightMagenta, magenta},
	{"light", color.RGBA{R: 0xff, G: 0xff, B: 0xff, A: 0xff}, color.RGBA{R: 0x20, G: 0x20, B: 0x20, A: 0xff}, magenta, brightMagenta},
}

// The model's answer: Markdown with a heading, bold text and Go code.
const script = `{"responses": [{"text": "## Fixed\n\n` + "`CountWords`" + ` now splits on **any** whitespace:\n\n` +
	"```go\\nfunc CountWords(s string) int {\\n\\treturn len(strings.Fields(s))\\n}\\n```" +
	`\n\nAll tests pass."}]}`

// TestScreensInXterm runs, for a dark and a light xterm, a finished turn
// and the session picker, compares the screenshots with reviewed
// references (testdata/*.png; -update rewrites them) and checks in them
// what the emulator decided: tack's palette follows xterm's answer to the background query
// (COLORFGBG is not set), the background and the body text keep xterm's
// defaults, and the picker's selected row is reverse video, a bar of
// xterm's text colour. The screenshots are kept in a temporary directory
// named in the log.
func TestScreensInXterm(t *testing.T) {
	xvfb.Need(t, "apt-get install xvfb xterm imagemagick fonts-dejavu", "Xvfb", "xterm", "import")
	tack, fakellm := tackbin.Path(t), tackbin.Command(t, "fakellm")
	display := xvfb.Start(t)
	shots, err := os.MkdirTemp("", "tack-xterm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("screenshots in %s", shots)
	for _, sc := range schemes {
		t.Run(sc.name, func(t *testing.T) {
			// tack runs under xterm, which the test kills: it may still
			// write its session as it ends.
			home, dir, url := testkit.OrphanDir(t), testkit.OrphanDir(t), startFakeLLM(t, fakellm)
			env := []string{
				"PATH=" + os.Getenv("PATH"), "HOME=" + testkit.OrphanDir(t), "TACK_HOME=" + home, "LANG=C.UTF-8",
				"DISPLAY=" + display, "DEEPSEEK_API_KEY=fake", "DEEPSEEK_BASE_URL=" + url,
			}
			turn := runXterm(t, sc, env, dir, tack, "Fix the word count")
			// The session id and the status row's temporary path vary.
			ref := loadReference(t, sc.name+"-turn", 0, rows-2)
			img := awaitShot(t, display, shots, ref, func() bool { return turnEnded(home, dir) })
			turn.stop()
			checkPalette(t, sc, img)
			runXterm(t, sc, env, dir, tack, "--resume")
			// The workspace path, the sessions' ages ("just now" turns into
			// "1 min ago" on a slow machine) and ids, the status row.
			ref = loadReference(t, sc.name+"-picker", 1, 4, 5, 6, rows-2)
			img = awaitShot(t, display, shots, ref, func() bool { return true })
			if y, ok := reverseBar(img, sc.fg); !ok {
				t.Errorf("want the session picker's selected row drawn in reverse video (a bar of %v), found none", sc.fg)
			} else {
				t.Logf("selected row: reverse video in row %d", y)
			}
			checkBackground(t, sc, img)
		})
	}
}

// checkPalette checks the finished turn: xterm's background and text
// colours as tack left them, and the editor's prompt mark (the accent,
// not bold: xterm shows bold text in colours 0–7 in their bright
// variants) in this background's magenta and not in the other one.
func checkPalette(t *testing.T, sc scheme, img image.Image) {
	t.Helper()
	checkBackground(t, sc, img)
	if n := countColours(img)[sc.fg]; n < 200 {
		t.Errorf("want the body text in xterm's own text colour %v, found %d pixels of it", sc.fg, n)
	}
	prompt := countColours(cell(img, 0, rows-1))
	if prompt[sc.accent] == 0 || prompt[sc.other] > 0 {
		t.Errorf("want the editor's prompt mark in %v on a %s background, got %d pixels of it and %d of %v",
			sc.accent, sc.name, prompt[sc.accent], prompt[sc.other], sc.other)
	}
}

// checkBackground checks that the most common colour, the background, is
// xterm's own: tack paints no background of its own.
func checkBackground(t *testing.T, sc scheme, img image.Image) {
	t.Helper()
	counts := countColours(img)
	var top color.RGBA
	for c, n := range counts {
		if n > counts[top] {
			top = c
		}
	}
	if top != sc.bg {
		t.Errorf("want xterm's background %v to fill the screen, got %v", sc.bg, top)
	}
}

func countColours(img image.Image) map[color.RGBA]int {
	counts := map[color.RGBA]int{}
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			counts[color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(bl >> 8), A: 0xff}]++
		}
	}
	return counts
}

// cell is the picture of the cell at column x, row y: the window has no
// border or scroll bar, so it is cols×rows cells.
func cell(img image.Image, x, y int) image.Image {
	b := img.Bounds()
	w, h := b.Dx()/cols, b.Dy()/rows
	r := image.Rect(b.Min.X+x*w, b.Min.Y+y*h, b.Min.X+(x+1)*w, b.Min.Y+(y+1)*h)
	return img.(interface {
		SubImage(image.Rectangle) image.Image
	}).SubImage(r)
}

// reverseBar finds the first row holding at least ten cells in a row in
// reverse video: cells more than half of whose pixels are the terminal's
// text colour (their background), where a normal cell has only its
// glyph's strokes in it.
func reverseBar(img image.Image, fg color.RGBA) (int, bool) {
	for y := range rows {
		run := 0
		for x := range cols {
			c := cell(img, x, y)
			if 2*countColours(c)[fg] > c.Bounds().Dx()*c.Bounds().Dy() {
				if run++; run == 10 {
					return y, true
				}
			} else {
				run = 0
			}
		}
	}
	return 0, false
}

// xtermRun is one xterm window; stop closes it.
type xtermRun struct{ stop func() }

// runXterm opens a cols×rows xterm in sc's colours running tack with args in
// dir. The window and tack end when the test does, or at stop.
func runXterm(t *testing.T, sc scheme, env []string, dir, tack string, args ...string) xtermRun {
	t.Helper()
	xargs := []string{
		"-geometry", fmt.Sprintf("%dx%d+0+0", cols, rows), "-fa", "DejaVu Sans Mono", "-fs", "11", "+sb", "-b", "0", "-bw", "0",
		"-bg", hex(sc.bg), "-fg", hex(sc.fg), "-xrm", "XTerm*cursorBlink: false",
		// The title stays the one given, so import finds the window by it.
		"-title", windowName, "-xrm", "XTerm*allowTitleOps: false", "-e", tack,
	}
	cmd := exec.Command("xterm", append(xargs, args...)...)
	cmd.Env, cmd.Dir = env, dir
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatalf("start xterm: %v", err)
	}
	done := make(chan struct{})
	go func() { _ = cmd.Wait(); close(done) }()
	stop := func() {
		select {
		case <-done:
			return
		default:
		}
		_ = cmd.Process.Kill()
		<-done
	}
	t.Cleanup(stop)
	return xtermRun{stop: stop}
}

// windowName is the title of the xterm window under test.
const windowName = "tack-under-test"

func hex(c color.RGBA) string { return fmt.Sprintf("#%02x%02x%02x", c.R, c.G, c.B) }

// awaitShot waits until ready holds and xterm shows the reference's
// screen: two screenshots in a row the same picture (tack drew its last
// frame and xterm painted it) that matches the reference (while updating,
// any settled picture, which becomes the reference). The last screenshot
// is saved in shots and returned.
func awaitShot(t *testing.T, display, shots string, ref *reference, ready func() bool) image.Image {
	t.Helper()
	var last []byte
	var img image.Image
	save := func() {
		if err := os.WriteFile(filepath.Join(shots, ref.name+".png"), last, 0o644); err != nil {
			t.Error(err)
		}
	}
	testkit.EventuallyWithin(t, shotLimit, "xterm to show the screen of "+ref.path(), func() bool {
		if !ready() {
			return false
		}
		// import waits for a click when it finds no such window (before
		// xterm maps it): bound each try.
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		shot, err := exec.CommandContext(ctx, "import", "-display", display, "-window", windowName, "png:-").Output()
		if err != nil || len(shot) == 0 {
			return false
		}
		same := bytes.Equal(shot, last)
		last = shot
		if !same {
			return false
		}
		if img, err = png.Decode(bytes.NewReader(shot)); err != nil || len(countColours(img)) <= 2 {
			return false
		}
		return ref.matches(img)
	}, func() string { save(); return ref.explain(img, shots) })
	save()
	ref.record(t, img)
	return img
}

// turnEnded reports whether the session log in home for dir records the
// end of a turn.
func turnEnded(home, dir string) bool {
	logs, _ := filepath.Glob(filepath.Join(session.Dir(home, dir), "*.jsonl"))
	for _, l := range logs {
		if b, err := os.ReadFile(l); err == nil && bytes.Contains(b, []byte(`"turn/end"`)) {
			return true
		}
	}
	return false
}

// startFakeLLM serves the script with cmd/fakellm and returns its base URL.
func startFakeLLM(t *testing.T, bin string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "script.json")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(bin, "-script", path)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start fakellm: %v", err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	url, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("want fakellm's URL on its stdout: %v", err)
	}
	return strings.TrimSpace(url)
}
