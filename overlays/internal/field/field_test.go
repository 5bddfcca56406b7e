package field

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

func TestEditingKeys(t *testing.T) {
	tests := []struct {
		name string
		msgs []tea.Msg
		want string
	}{
		{"typing", typed("abc"), "abc"},
		{"backspace", append(typed("abc"), keys.Key("backspace")), "ab"},
		{"insert after left", append(typed("ac"), keys.Key("left"), keys.Key("b")), "abc"},
		{"ctrl+u clears before the cursor", append(typed("abc"), keys.Key("ctrl+u")), ""},
		{"ctrl+w deletes a word", append(typed("git status"), tea.KeyPressMsg{Code: 'w', Mod: tea.ModCtrl}), "git "},
		{"paste joins lines", []tea.Msg{tea.PasteMsg{Content: "a\nb\tc"}}, "a b c"},
		{"space types a space", append(typed("a"), keys.Key("space"), keys.Key("b")), "a b"},
		{"ctrl keys are not text", append(typed("a"), keys.Key("ctrl+r")), "a"},
	}
	for _, tt := range tests {
		var f Field
		for _, m := range tt.msgs {
			f.Update(m)
		}
		if f.Value() != tt.want {
			t.Errorf("%s: want %q, got %q", tt.name, tt.want, f.Value())
		}
	}
}

func typed(s string) []tea.Msg {
	var out []tea.Msg
	for _, k := range keys.Type(s) {
		out = append(out, k)
	}
	return out
}

func TestViewKeepsTheCursorVisible(t *testing.T) {
	var f Field
	f.SetValue(strings.Repeat("x", 30) + "END")
	v := f.View(theme.New(true), 10, "")
	if w := ansi.StringWidth(v); w > 10 {
		t.Errorf("want at most 10 cells, got %d", w)
	}
	if plain := ansi.Strip(v); !strings.HasPrefix(plain, "…") || !strings.Contains(plain, "END") {
		t.Errorf("want the end of the text with the cursor, got %q", plain)
	}
}

func TestViewEscapesControls(t *testing.T) {
	var f Field
	f.Update(tea.PasteMsg{Content: "a\x1b[2Jb"})
	if v := f.View(theme.New(true), 40, ""); strings.Contains(v, "\x1b[2J") {
		t.Errorf("want the escape sequence shown as text, got %q", v)
	}
}
