package app

import (
	"image/color"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/theme"
)

// The banner's "tack" is bold bright magenta on a dark background and
// bold magenta on a light one.
const (
	darkLabel  = "\x1b[1;95mtack"
	lightLabel = "\x1b[1;35mtack"
)

func bannerStyle(t *testing.T, m *Model) string {
	t.Helper()
	v := m.View().Content
	switch {
	case strings.Contains(v, lightLabel):
		return "light"
	case strings.Contains(v, darkLabel):
		return "dark"
	}
	t.Fatalf("want the banner's label in either palette, got %q", v)
	return ""
}

func TestTheTerminalsBackgroundAnswerRepaintsTheScreen(t *testing.T) {
	m := New(Options{Backend: &countingBackend{}, Width: 80, Height: 24, Colour: true, AskBackground: true})
	if m.Init() == nil || !m.bgAsked {
		t.Fatal("want the background asked for as the program starts")
	}
	if got := bannerStyle(t, m); got != "dark" {
		t.Fatalf("want the first frame drawn for the guess before any answer, got %s", got)
	}
	m.Update(tea.BackgroundColorMsg{Color: color.RGBA{R: 0xfa, G: 0xfa, B: 0xf0, A: 0xff}})
	if got := bannerStyle(t, m); got != "light" || m.theme.Background != theme.Light {
		t.Fatalf("want the light palette once the terminal says its background is light, got %s", got)
	}
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	if got := bannerStyle(t, m); got != "light" {
		t.Fatalf("want a second answer ignored (nothing asked for it), got %s", got)
	}
}

func TestNoAnswerKeepsTheGuessAndALateOneChangesNothing(t *testing.T) {
	m := New(Options{Backend: &countingBackend{}, Width: 80, Height: 24, Colour: true, AskBackground: true, Background: theme.Light})
	m.Init()
	m.Update(backgroundWaitMsg{})
	m.Update(tea.BackgroundColorMsg{Color: color.Black})
	if got := bannerStyle(t, m); got != "light" {
		t.Fatalf("want the COLORFGBG guess kept when the answer comes after the wait, got %s", got)
	}
}

func TestAThemeSetInConfigIsNotAskedAbout(t *testing.T) {
	m := New(Options{Backend: &countingBackend{}, Width: 80, Height: 24, Colour: true, Background: theme.Dark})
	m.Init()
	if m.bgAsked {
		t.Fatal("want no query when theme = dark or light")
	}
	m.Update(tea.BackgroundColorMsg{Color: color.White})
	if got := bannerStyle(t, m); got != "dark" {
		t.Fatalf("want theme = dark kept whatever the terminal says, got %s", got)
	}
}
