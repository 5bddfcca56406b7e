// Package keyguard keeps the overlays that decide on a keystroke (the
// approval dialog, the question panel) from taking one meant for the
// editor: for Delay after one opens, and for as long after that as the
// user keeps typing with pauses shorter than Delay, it ignores what is
// typed.
package keyguard

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Delay is how long after opening, or after the last key it ignored, a
// guarded overlay ignores keys.
const Delay = 300 * time.Millisecond

// Guard is the guard of one overlay. Make it with Open.
type Guard struct {
	// quiet is when the guard last saw the overlay open or ignored a key.
	quiet time.Time
}

// Open guards an overlay that opens at now.
func Open(now time.Time) Guard { return Guard{quiet: now} }

// Input reports whether the overlay takes msg, received at now: a key press
// or a paste Delay or more after the overlay opened and after the last key
// it ignored. A key that comes sooner is ignored and starts the wait
// again, so typing that runs on from the editor into a dialog that just
// opened ("yes, and…" would allow) decides nothing until the typist
// pauses.
func (g *Guard) Input(msg tea.Msg, now time.Time) bool {
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
		if now.Sub(g.quiet) >= Delay {
			return true
		}
		g.quiet = now
	}
	return false
}
