package keyguard

import (
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
)

func TestTypingThatRunsOnIntoTheOverlayIsIgnoredUntilAPause(t *testing.T) {
	at := time.Date(2026, 12, 2, 0, 0, 0, 0, time.UTC)
	g := Open(at)
	key := tea.KeyPressMsg{Code: 'y', Text: "y"}
	// A typist at five keys a second keeps the guard up long past Delay.
	for ms := 0; ms <= 1000; ms += 200 {
		if g.Input(key, at.Add(time.Duration(ms)*time.Millisecond)) {
			t.Fatalf("want a key %dms after opening, within Delay of the one before, ignored", ms)
		}
	}
	if !g.Input(key, at.Add(1000*time.Millisecond+Delay)) {
		t.Fatal("want the first key after a pause of Delay taken")
	}
	if g.Input(tea.FocusMsg{}, at.Add(2*time.Second)) {
		t.Fatal("want messages other than keys and pastes not taken as input")
	}
}
