package agent

import (
	"maps"
	"slices"

	"github.com/tack-agent/tack/backend/session"
)

// note is a change of state the model is to read at its next request:
// before is what it knew, after what holds now.
type note struct{ before, after string }

// Note tells the model of a change of state (a mode switched) at its next
// request, once: before is the notice of the state it knew, after the
// notice of the state now. A later note of the same origin the model has
// not read yet replaces it, and one that returns to before cancels it, so
// a user stepping through modes costs the model's context one notice per
// actual change, none for a round trip.
func (a *Agent) Note(origin, before, after string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.notes == nil {
		a.notes = map[string]note{}
	}
	n, pending := a.notes[origin]
	switch {
	case !pending:
		a.notes[origin] = note{before, after}
	case after == n.before:
		delete(a.notes, origin)
	default:
		n.after = after
		a.notes[origin] = n
	}
}

// flushNotes records the pending notes as context for the request about
// to be made.
func (a *Agent) flushNotes(turn int) {
	a.mu.Lock()
	notes := a.notes
	a.notes = nil
	a.mu.Unlock()
	for _, origin := range slices.Sorted(maps.Keys(notes)) {
		a.record(session.UserMessage{Turn: turn, Kind: session.KindContext, Origin: origin, Text: notes[origin].after})
	}
}
