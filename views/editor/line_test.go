package editor

import (
	"math/rand/v2"
	"reflect"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/views/theme"
)

// TestOneLineViewIsTheTextareas checks the editor's own drawing of a
// one-line prompt (line.go) against the textarea's, which it stands in
// for: after every step of random typing, moving, selecting and deleting,
// with marks, widths and palettes changing on the way, View and Cursor
// are what the textarea draws for the same state.
func TestOneLineViewIsTheTextareas(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2026))
	palettes := []theme.Theme{theme.NewOn(theme.Dark, true), theme.NewOn(theme.Light, true), theme.NewOn(theme.Dark, false)}
	// Narrow characters the editor draws itself, and others it leaves to
	// the textarea: wide, combining, emoji, a soft hyphen.
	alphabet := []rune("abc xyz,.-_{}~!ÀßéÿŽǿ  界e\u0301👍\u00adë\u0308")
	moves := []tea.KeyPressMsg{
		{Code: tea.KeyLeft}, {Code: tea.KeyRight}, {Code: tea.KeyBackspace}, {Code: tea.KeyDelete},
		{Code: tea.KeyHome}, {Code: tea.KeyEnd}, {Code: tea.KeyLeft, Mod: tea.ModShift}, {Code: tea.KeyRight, Mod: tea.ModShift},
	}
	marks := []string{"", "●", "◐"}
	own := 0
	for round := range 200 {
		e := New(palettes[round%len(palettes)], 4+rng.IntN(50))
		for step := range 60 {
			switch n := rng.IntN(20); {
			case n < 12:
				r := alphabet[rng.IntN(len(alphabet))]
				e, _ = e.Update(tea.KeyPressMsg{Code: r, Text: string(r)})
			case n < 18:
				e, _ = e.Update(moves[rng.IntN(len(moves))])
			case n == 18:
				e.SetMark(marks[rng.IntN(len(marks))])
			default:
				e.SetWidth(4 + rng.IntN(50))
				e.SetTheme(palettes[rng.IntN(len(palettes))])
			}
			if _, _, ok := e.line(); ok {
				own++
			}
			view, cursor := e.View(), e.Cursor()
			if want, wantCursor := e.ta.View(), e.ta.Cursor(); view != want || !reflect.DeepEqual(cursor, wantCursor) {
				t.Fatalf("round %d, step %d, %q (column %d, width %d): the editor drew\n%q, cursor %+v\nthe textarea draws\n%q, cursor %+v",
					round, step, e.ta.Value(), e.ta.Column(), e.ta.Width(), view, cursor, want, wantCursor)
			}
		}
	}
	if own < 1000 {
		t.Fatalf("want most one-line states drawn by the editor itself, it drew %d of 12,000", own)
	}
}
