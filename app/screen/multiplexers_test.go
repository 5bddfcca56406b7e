//go:build linux

package screen

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	"golang.org/x/term"

	"github.com/tack-agent/tack/snapshots/testkit/ptyterm"
	"github.com/tack-agent/tack/snapshots/testkit/xvfb"
)

// drawReasoning is the reasoning helper: it draws faint italic text, as
// tack draws a model's reasoning, and waits for a key.
func drawReasoning(string) error {
	st, err := term.MakeRaw(int(os.Stdin.Fd()))
	if err != nil {
		return err
	}
	defer func() { _ = term.Restore(int(os.Stdin.Fd()), st) }()
	r := NewRenderer(RendererOptions{Out: os.Stdout, Env: os.Environ(), Profile: colorprofile.ANSI, Width: 80, Height: 24, Interval: time.Millisecond})
	r.Show(view("\x1b[2;3mthought\x1b[m"), true)
	_, err = os.Stdin.Read(make([]byte, 1))
	_ = r.Close()
	return err
}

// A multiplexer runs the reasoning helper in a pseudo-terminal of type
// xterm-256color.
type multiplexer struct {
	name string
	argv func(dir string) []string
	// italic says whether it shows italics, which GNU screen 4, and tmux
	// under TERM=screen…, show in reverse video.
	italic bool
}

var multiplexers = []multiplexer{
	{"screen", func(dir string) []string { return xvfb.ScreenArgv(dir, nil) }, false},
	{"tmux as screen-256color", func(dir string) []string { return xvfb.TmuxArgv(dir, "screen-256color", nil) }, false},
	{"tmux as tmux-256color", func(dir string) []string { return xvfb.TmuxArgv(dir, "tmux-256color", nil) }, true},
}

// TestMultiplexersShowReasoningWithoutReverseVideo runs the renderer in
// GNU screen and in tmux (as TERM=screen-256color, as many set it, and as
// tmux-256color), drawing text as tack draws a model's reasoning, and
// checks what each sends on to its own terminal: the text, faint, never
// in reverse video, and italic where the multiplexer shows italics.
func TestMultiplexersShowReasoningWithoutReverseVideo(t *testing.T) {
	for _, m := range multiplexers {
		t.Run(m.name, func(t *testing.T) {
			tool := strings.Fields(m.name)[0]
			xvfb.Need(t, "apt-get install "+tool, tool)
			dir := xvfb.PrivateDir(t)
			argv := append(m.argv(dir), os.Args[0], "-test.run=^$")
			pty, err := ptyterm.Start(ptyterm.Options{
				Bin: argv[0], Args: argv[1:],
				Env: []string{
					"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "TERM=xterm-256color", "SCREENDIR=" + dir,
					helperVar + "=reasoning", helperOut + "=" + filepath.Join(dir, "report"),
				},
				Cols: 80, Rows: 24,
			})
			if err != nil {
				t.Fatal(err)
			}
			defer pty.Close()
			screen, _, err := pty.WaitScreen(time.Minute, func(s string) bool { return strings.Contains(s, "thought") })
			if err != nil {
				t.Fatalf("want %s to show the text: %v; it shows\n%s", m.name, err, screen)
			}
			for y, row := range strings.Split(screen, "\n") {
				if x := strings.Index(row, "thought"); x >= 0 {
					a := pty.Style(x, y).Attrs
					if a&uv.AttrReverse != 0 || a&uv.AttrFaint == 0 || (a&uv.AttrItalic != 0) != m.italic {
						t.Errorf("want the text faint, not in reverse video, italic %v; got attributes %08b (faint %08b, italic %08b, reverse %08b)",
							m.italic, a, uv.AttrFaint, uv.AttrItalic, uv.AttrReverse)
					}
				}
			}
		})
	}
}
