// Package keyguard keeps the overlays that decide on a keystroke (the
// approval dialog, the question panel) from taking one meant for the
// editor: for Delay after one opens, it ignores what is typed.
package keyguard

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Delay is how long after opening a guarded overlay ignores keys.
const Delay = 300 * time.Millisecond

// Guard is the guard of one overlay. Make it with Open.
type Guard struct{ opened time.Time }

// Open guards an overlay that opens at now.
func Open(now time.Time) Guard { return Guard{opened: now} }

// Input reports whether the overlay takes msg, received at now: a key press
// or a paste, once Delay has passed since it opened.
func (g Guard) Input(msg tea.Msg, now time.Time) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		return now.Sub(g.opened) >= Delay
	}
	return false
}
