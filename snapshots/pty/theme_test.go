package pty

import (
	"image/color"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// The banner's "tack" (row 0, column 0) is bright magenta on a dark
// background and magenta on a light one.
func TestTheTerminalsAnswerToTheBackgroundQueryPicksThePalette(t *testing.T) {
	srv := llmtest.New(t)
	for _, c := range []struct {
		name string
		bg   color.Color
		want ansi.BasicColor
	}{
		{"light", color.RGBA{R: 0xff, G: 0xff, B: 0xf4, A: 0xff}, ansi.Magenta},
		{"dark", color.RGBA{R: 0x1e, G: 0x1e, B: 0x2e, A: 0xff}, ansi.BrightMagenta},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := start(t, setup{srv: srv, background: c.bg})
			_, _, err := r.WaitScreen(stepLimit, func(s string) bool {
				return idleScreen(s) && r.Foreground(0, 0) == c.want && strings.Contains(r.Raw(), "\x1b]11;?")
			})
			if err != nil {
				t.Fatalf("want an OSC 11 query and the banner in %v on a %s background, got %v (%v):\n%s\nraw tail %q",
					c.want, c.name, r.Foreground(0, 0), err, frame(r.Screen()), tail(r.Raw()))
			}
			// The reply came in on the input; none of it reaches the editor.
			r.Type("hi")
			r.waitScreen("the typed text", nil, func(s string) bool { return rowsOf(s)[rows-1] == "> hi" })
		})
	}
}

// A terminal that ignores the query leaves COLORFGBG's word (15: a light
// background) or, without it, the dark palette; either way the screen is
// up without waiting for an answer, and typing works.
func TestWithoutAnAnswerCOLORFGBGOrDarkDecides(t *testing.T) {
	srv := llmtest.New(t)
	for _, c := range []struct {
		name string
		env  []string
		want ansi.BasicColor
	}{
		{"COLORFGBG light", []string{"COLORFGBG=0;15"}, ansi.Magenta},
		{"nothing to go by", nil, ansi.BrightMagenta},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := start(t, setup{srv: srv, silentTerminal: true, extraEnv: c.env, background: color.White})
			r.waitScreen("the idle screen", nil, idleScreen)
			if fg := r.Foreground(0, 0); fg != c.want {
				t.Fatalf("want the banner in %v, got %v", c.want, fg)
			}
			r.Type("hi")
			r.waitScreen("the typed text", nil, func(s string) bool { return rowsOf(s)[rows-1] == "> hi" })
			if fg := r.Foreground(0, 0); fg != c.want {
				t.Fatalf("want the palette unchanged after the wait, got %v", fg)
			}
		})
	}
}

// theme = dark in config.toml is not asked about.
func TestAThemeSetInConfigIsKeptWhateverTheTerminalSays(t *testing.T) {
	srv := llmtest.New(t)
	home := t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("theme = \"dark\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := start(t, setup{srv: srv, home: home, background: color.White})
	r.waitScreen("the idle screen", nil, idleScreen)
	if fg := r.Foreground(0, 0); fg != ansi.BrightMagenta {
		t.Fatalf("want the dark palette's bright magenta banner, got %v", fg)
	}
	if strings.Contains(r.Raw(), "\x1b]11;?") {
		t.Fatal("want no OSC 11 query when the config sets the theme")
	}
}
