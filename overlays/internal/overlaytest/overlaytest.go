// Package overlaytest holds what only the overlay tests share: the sizes
// the fit tests render at and the clock the guarded overlays open at. The
// rest of the kit (golden files, the palette check, key presses) is in
// snapshots/testkit.
package overlaytest

import (
	"time"

	tea "charm.land/bubbletea/v2"
)

// Sizes are the sizes the fit tests render at, from roomy to absurdly
// small, in shrinking order.
func Sizes() [][2]int {
	return [][2]int{{100, 30}, {80, 24}, {50, 14}, {40, 10}, {30, 6}, {20, 4}, {12, 3}, {8, 2}, {5, 1}, {1, 1}}
}

// Epoch is the fixed clock the guarded overlays open at in tests.
func Epoch() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) }

// Later is Epoch plus a second: past every keystroke guard.
func Later() time.Time { return Epoch().Add(time.Second) }

// AfterGuard adapts the Update of a guarded overlay (a question panel, an
// approval dialog) to keys.Press: every key arrives at Later, past the
// guard.
func AfterGuard[O any](update func(tea.Msg, time.Time) O) func(tea.Msg) O {
	return func(m tea.Msg) O { return update(m, Later()) }
}
