package statusrow

import (
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestCustomKeepsColoursAndNothingElse(t *testing.T) {
	for _, c := range []struct {
		name, row string
		width     int
		colour    bool
		want      string
	}{
		{"plain", "[Opus] proj", 40, true, "[Opus] proj"},
		{"colours kept, closed at the end", "\x1b[36m[Opus]\x1b[0m \x1b[1;38;5;208mmain", 40, true, "\x1b[36m[Opus]\x1b[0m \x1b[1;38;5;208mmain\x1b[m"},
		{"colours off", "\x1b[36m[Opus]\x1b[0m proj", 40, false, "[Opus] proj"},
		{"cursor moves and clears dropped", "a\x1b[2J\x1b[Hb\x1b[10;10fc", 40, true, "abc"},
		{"a title and a link dropped", "\x1b]0;pwned\x07x\x1b]8;;http://e\x1b\\y\x1b]8;;\x1b\\", 40, true, "xy"},
		{"controls shown", "a\bb\x07c", 40, true, `a\x08b\x07c`},
		{"tabs become spaces", "a\tb", 40, true, "a   b"},
		{"cut at width", "0123456789", 6, true, "01234…"},
		{"cut keeps the colours", "\x1b[31m0123456789", 6, true, "\x1b[31m01234…\x1b[m"},
		{"wide runes count twice", "日本語です", 7, true, "日本語…"},
	} {
		if got := Custom(c.row, c.width, c.colour); got != c.want {
			t.Errorf("%s: Custom(%q) = %q, want %q", c.name, c.row, got, c.want)
		}
	}
}

// sgr matches the only sequences a custom row may hold.
var sgr = regexp.MustCompile(`\x1b\[[0-9;:]*m`)

// Whatever a command prints, the row holds no sequence but SGR and no
// control, and fits its width.
func FuzzCustomDrawsOnlyColouredText(f *testing.F) {
	for _, s := range []string{"\x1b[36mok\x1b[0m", "\x1b]0;t\x07", "\x1bP1$r\x1b\\", "\x9b2J", "\xc2\x9b31m", "a\x1b[", "\x1b[?1049h", "e\u0301\t\r"} {
		f.Add(s, 20)
	}
	f.Fuzz(func(t *testing.T, row string, width int) {
		width = 1 + abs(width)%200
		got := Custom(row, width, true)
		rest := sgr.ReplaceAllString(got, "")
		for _, r := range rest {
			if r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f) {
				t.Fatalf("Custom(%q) = %q holds the control %U", row, got, r)
			}
		}
		if w := ansi.StringWidth(got); w > width {
			t.Fatalf("Custom(%q, %d) = %q is %d columns wide", row, width, got, w)
		}
		if strings.Contains(rest, "\n") {
			t.Fatalf("Custom(%q) spans rows: %q", row, got)
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
