// Package palette checks rendered output against tack's colour rules in
// tests: the 16 ANSI foreground colours and SGR attributes only, never a
// background, never 256-colour or truecolour. It checks both strings of
// SGR sequences (what views and overlays render) and the cells of a
// terminal emulator (what a whole program drew).
package palette

import (
	"fmt"
	"image/color"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

var sgr = regexp.MustCompile("\x1b\\[([0-9;:]*)m")

// allowed are the SGR parameters of the palette: reset, attributes and
// their resets, default foreground, and the 16 foreground colours.
func allowed(p int) bool {
	switch {
	case p >= 0 && p <= 9, p >= 21 && p <= 29, p == 39:
		return true
	case p >= 30 && p <= 37, p >= 90 && p <= 97:
		return true
	}
	return false
}

// Violation returns a description of the first SGR sequence in s that
// leaves the palette, or "" when every sequence is allowed.
func Violation(s string) string {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		if m[1] == "" {
			continue
		}
		for _, f := range strings.Split(m[1], ";") {
			if f == "" {
				continue
			}
			head, _, _ := strings.Cut(f, ":")
			p, err := strconv.Atoi(head)
			if err != nil || !allowed(p) {
				return fmt.Sprintf("SGR %q uses parameter %q", m[0], f)
			}
		}
	}
	return ""
}

// Check fails the test when s leaves the palette.
func Check(t testing.TB, s string) {
	t.Helper()
	if v := Violation(s); v != "" {
		t.Errorf("want only palette SGR parameters, got %s in %q", v, ansi.Strip(s))
	}
}

// StyleDump describes the styling of rendered text for golden files: the
// text with each SGR sequence shown as ‹params›.
func StyleDump(s string) string {
	return sgr.ReplaceAllStringFunc(s, func(m string) string {
		return "‹" + m[2:len(m)-1] + "›"
	})
}

// HasColour reports whether any SGR sequence in s sets a colour.
func HasColour(s string) bool {
	for _, m := range sgr.FindAllStringSubmatch(s, -1) {
		for _, f := range strings.Split(m[1], ";") {
			p, _ := strconv.Atoi(f)
			if (p >= 30 && p <= 38) || (p >= 40 && p <= 48) || (p >= 90 && p <= 97) || (p >= 100 && p <= 107) {
				return true
			}
		}
	}
	return false
}

var names = [16]string{
	"black", "red", "green", "yellow", "blue", "magenta", "cyan", "white",
	"bright-black", "bright-red", "bright-green", "bright-yellow", "bright-blue", "bright-magenta", "bright-cyan", "bright-white",
}

// ColourName names an emulator cell's foreground colour: "" for the
// terminal's default, a palette name, or (with ok false) the hex value of
// a colour outside the palette.
func ColourName(c color.Color) (name string, ok bool) {
	switch c := c.(type) {
	case nil:
		return "", true
	case ansi.BasicColor:
		return names[c&15], true
	case ansi.IndexedColor:
		if c < 16 {
			return names[c], true
		}
	}
	r, g, b, _ := c.RGBA()
	return fmt.Sprintf("#%02x%02x%02x", r>>8, g>>8, b>>8), false
}

// CellViolation describes what breaks the palette in the cell at x, y with
// foreground fg and background bg, or returns "".
func CellViolation(x, y int, fg, bg color.Color) string {
	if _, ok := ColourName(fg); !ok {
		return fmt.Sprintf("cell %d,%d: foreground %v outside the 16-colour palette", x, y, fg)
	}
	if bg != nil {
		return fmt.Sprintf("cell %d,%d: explicit background %v", x, y, bg)
	}
	return ""
}
