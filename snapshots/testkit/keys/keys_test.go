package keys

import (
	"testing"

	tea "charm.land/bubbletea/v2"
)

func TestKeyProducesTheNamedKeyPress(t *testing.T) {
	for _, k := range []string{"enter", "esc", "tab", "shift+tab", "up", "down", "pgup", "pgdown", "backspace",
		"space", "ctrl+c", "ctrl+r", "ctrl+u", "a", "?", "left", "home", "end", "ctrl+home", "ctrl+end", "alt+enter",
		"shift+enter", "f2", "ctrl+shift+up"} {
		if got := Key(k).String(); got != k {
			t.Errorf("want key %q, got %q", k, got)
		}
	}
}

func TestPressAndTypeTextReturnTheLastOutcome(t *testing.T) {
	var seen []string
	update := func(m tea.Msg) int {
		seen = append(seen, m.(tea.KeyPressMsg).String())
		return len(seen)
	}
	if n := Press(update, "down", "enter"); n != 2 {
		t.Errorf("want the second outcome, got %d", n)
	}
	if n := TypeText(update, "hé"); n != 4 {
		t.Errorf("want the fourth outcome, got %d", n)
	}
	want := []string{"down", "enter", "h", "é"}
	for i := range want {
		if seen[i] != want[i] {
			t.Fatalf("want keys %v, got %v", want, seen)
		}
	}
}
