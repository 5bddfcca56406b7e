package overlaytest

import "testing"

func TestKeyProducesTheNamedKeyPress(t *testing.T) {
	for _, k := range []string{"enter", "esc", "tab", "shift+tab", "up", "down", "pgup", "pgdown", "backspace", "space", "ctrl+c", "ctrl+r", "ctrl+u", "a", "left"} {
		if got := Key(k).String(); got != k {
			t.Errorf("want key %q, got %q", k, got)
		}
	}
}
