package palette

import (
	"image/color"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

func TestViolationAcceptsThePaletteAndNamesWhatLeavesIt(t *testing.T) {
	for _, ok := range []string{"plain", "\x1b[m", "\x1b[0;1;31m", "\x1b[2;94m", "\x1b[22;39m", "\x1b[4:3m"} {
		if v := Violation(ok); v != "" {
			t.Errorf("%q: want no violation, got %s", ok, v)
		}
	}
	for _, bad := range []string{"\x1b[41m", "\x1b[38;5;200m", "\x1b[38;2;1;2;3m", "\x1b[100m"} {
		if v := Violation(bad); v == "" {
			t.Errorf("%q: want a violation, got none", bad)
		}
	}
}

func TestStyleDumpShowsParameters(t *testing.T) {
	if got := StyleDump("\x1b[1;31mhi\x1b[m"); got != "‹1;31›hi‹›" {
		t.Errorf("want ‹1;31›hi‹›, got %q", got)
	}
}

func TestCellViolation(t *testing.T) {
	if v := CellViolation(0, 0, ansi.BasicColor(9), nil); v != "" {
		t.Errorf("want bright red accepted, got %s", v)
	}
	if v := CellViolation(1, 2, color.RGBA{1, 2, 3, 255}, nil); v == "" {
		t.Error("want a truecolour foreground refused")
	}
	if v := CellViolation(1, 2, nil, ansi.BasicColor(1)); v == "" {
		t.Error("want a background refused")
	}
}
