package main

import (
	"image/color"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/views/iostreams"
)

func TestRenderProfileKeepsThePaletteOrDropsColour(t *testing.T) {
	for i := range 16 {
		c := ansi.BasicColor(i)
		if got := renderProfile(true).Convert(c); got != color.Color(c) {
			t.Errorf("want palette colour %d unchanged with colour on, got %v", i, got)
		}
		if got := renderProfile(false).Convert(c); got != nil {
			t.Errorf("want palette colour %d dropped with colour off, got %v", i, got)
		}
	}
}

func TestFrameIntervalFollowsTACK_FPS(t *testing.T) {
	for _, c := range []struct {
		env  string
		want time.Duration
	}{{"", time.Second / maxFPS}, {"30", time.Second / 30}, {"0.5", 2 * time.Second}, {"120", time.Second / 120}} {
		got, err := frameInterval(func(string) string { return c.env })
		if err != nil || got != c.want {
			t.Errorf("TACK_FPS=%q: want %v, got %v (%v)", c.env, c.want, got, err)
		}
	}
	for _, bad := range []string{"0", "-1", "121", "fast", "NaN", "Inf"} {
		_, err := frameInterval(func(string) string { return bad })
		if err == nil || !strings.Contains(err.Error(), "TACK_FPS=") || !strings.Contains(err.Error(), "or unset it") {
			t.Errorf("TACK_FPS=%q: want an error naming the variable and the fix, got %v", bad, err)
		}
	}
}

// The chat screen learns from the terminal seam whether Shift+Enter can
// start a new line there.
func TestChatOptionsSayWhereShiftEnterIsEnter(t *testing.T) {
	ios, _, _, _ := iostreams.Test()
	lo := launch.Options{Cwd: t.TempDir(), Getenv: func(string) string { return "" }}
	for term, plain := range map[string]bool{"screen-256color": true, "xterm-256color": false} {
		ios.SetTerm(term)
		if got := chatOptions(lo, options{}, nil, ios).PlainShiftEnter; got != plain {
			t.Errorf("TERM=%s: want PlainShiftEnter %v, got %v", term, plain, got)
		}
	}
}
