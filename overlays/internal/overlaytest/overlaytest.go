// Package overlaytest holds what the overlay tests share: golden files of
// rendered screens (plain text plus a style dump), the palette check and
// the row-count check.
package overlaytest

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/snapshots/golden"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
)

var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

// Golden compares a rendered view with testdata/<name>.golden, which holds
// the plain rows (with a frame showing the size) and then a dump of their
// styling (SGR sequences shown as ‹params›). `go test -update` rewrites it.
// It also fails when the view leaves the palette or its size.
func Golden(t *testing.T, name, view string, width, height int) {
	t.Helper()
	CheckFits(t, view, width, height)
	CheckPalette(t, view)
	rows := strings.Split(view, "\n")
	var b strings.Builder
	fmt.Fprintf(&b, "-- plain %dx%d --\n", width, height)
	for _, r := range rows {
		b.WriteString("|" + ansi.Strip(r) + "\n")
	}
	b.WriteString("-- styled --\n")
	for _, r := range rows {
		b.WriteString(sgr.ReplaceAllStringFunc(r, func(m string) string { return "‹" + m[2:len(m)-1] + "›" }) + "\n")
	}
	got := b.String()
	golden.Assert(t, filepath.Join("testdata", name+".golden"), []byte(got))
}

// CheckFits fails unless view has at most height rows, none wider than
// width.
func CheckFits(t *testing.T, view string, width, height int) {
	t.Helper()
	if view == "" {
		return
	}
	rows := strings.Split(view, "\n")
	if len(rows) > height {
		t.Errorf("at %dx%d: want at most %d rows, got %d", width, height, height, len(rows))
	}
	for i, r := range rows {
		if w := ansi.StringWidth(r); w > width {
			t.Errorf("at %dx%d: row %d: want at most %d cells, got %d: %q", width, height, i, width, w, ansi.Strip(r))
		}
	}
}

// CheckPalette fails when an SGR sequence in view uses anything but the
// 16 foreground colours and attributes.
func CheckPalette(t *testing.T, view string) {
	t.Helper()
	for _, m := range sgr.FindAllStringSubmatch(view, -1) {
		for _, f := range strings.Split(m[1], ";") {
			if f == "" {
				continue
			}
			head, _, _ := strings.Cut(f, ":")
			p, err := strconv.Atoi(head)
			ok := err == nil && (p <= 9 || (p >= 21 && p <= 29) || p == 39 || (p >= 30 && p <= 37) || (p >= 90 && p <= 97))
			if !ok {
				t.Errorf("want only palette SGR parameters, got %q in %q", f, m[0])
			}
		}
	}
}

// Sizes are the sizes the fit tests render at, from roomy to absurdly
// small, in shrinking order.
func Sizes() [][2]int {
	return [][2]int{{100, 30}, {80, 24}, {50, 14}, {40, 10}, {30, 6}, {20, 4}, {12, 3}, {8, 2}, {5, 1}, {1, 1}}
}

// Key makes the key press that k names: "enter", "esc", "up", "tab",
// "shift+tab", "ctrl+r", "pgdown", "space", or a printable string typed as
// one key.
func Key(k string) tea.KeyPressMsg {
	named := map[string]tea.Key{
		"enter": {Code: tea.KeyEnter}, "esc": {Code: tea.KeyEscape}, "tab": {Code: tea.KeyTab},
		"shift+tab": {Code: tea.KeyTab, Mod: tea.ModShift}, "up": {Code: tea.KeyUp}, "down": {Code: tea.KeyDown},
		"left": {Code: tea.KeyLeft}, "right": {Code: tea.KeyRight},
		"pgup": {Code: tea.KeyPgUp}, "pgdown": {Code: tea.KeyPgDown}, "backspace": {Code: tea.KeyBackspace},
		"space": {Code: tea.KeySpace, Text: " "}, "ctrl+c": {Code: 'c', Mod: tea.ModCtrl},
		"ctrl+r": {Code: 'r', Mod: tea.ModCtrl}, "ctrl+u": {Code: 'u', Mod: tea.ModCtrl},
	}
	if key, ok := named[k]; ok {
		return tea.KeyPressMsg(key)
	}
	r := []rune(k)
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

// Type returns one key press per rune of s.
func Type(s string) []tea.KeyPressMsg {
	var out []tea.KeyPressMsg
	for _, r := range s {
		out = append(out, Key(string(r)))
	}
	return out
}

// Epoch is the fixed clock the guarded overlays open at in tests.
func Epoch() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

// Later is Epoch plus a second: past every keystroke guard.
func Later() time.Time { return Epoch().Add(time.Second) }
