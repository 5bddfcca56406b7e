package theme

import (
	"regexp"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit/palette"
)

func TestEveryRoleUsesOnlyThePalette(t *testing.T) {
	for _, r := range New(true).Roles() {
		out := r.Style.Render("x")
		if v := palette.Violation(out); v != "" {
			t.Errorf("role %s: want only 16-colour foregrounds and attributes, got %s", r.Name, v)
		}
	}
}

func TestColourOffDrawsPlainText(t *testing.T) {
	th := New(false)
	for _, r := range th.Roles() {
		if out := r.Style.Render("x"); out != "x" {
			t.Errorf("role %s: want plain text without colour, got %q", r.Name, out)
		}
	}
	if got := th.Mark(" Allow "); got != "[Allow]" {
		t.Errorf("want a chosen cell between brackets without colour, got %q", got)
	}
	if got := New(true).Mark(" Allow "); !strings.Contains(palette.StyleDump(got), "7") {
		t.Errorf("want a chosen cell in reverse video, got %q", got)
	}
}

func TestRolesPaintTheirColours(t *testing.T) {
	th := New(true)
	tests := []struct {
		name, out, want string
	}{
		{"accent", th.Accent.Render("x"), "95"},
		{"success", th.Success.Render("x"), "32"},
		{"warning", th.Warning.Render("x"), "33"},
		{"error", th.Error.Render("x"), "31"},
		{"code", th.Code.Render("x"), "36"},
		{"dim", th.Dim.Render("x"), "2"},
		{"selection", th.Selection.Render("x"), "7"},
	}
	for _, tt := range tests {
		if got := palette.StyleDump(tt.out); !strings.Contains(got, tt.want) {
			t.Errorf("%s: want SGR %s, got %q", tt.name, tt.want, got)
		}
	}
}

func TestLightPaletteAvoidsYellowAndCyan(t *testing.T) {
	th := NewOn(Light, true)
	for _, r := range th.Roles() {
		out := r.Style.Render("x")
		for _, m := range regexp.MustCompile("\x1b\\[([0-9;]*)m").FindAllStringSubmatch(out, -1) {
			for _, p := range strings.Split(m[1], ";") {
				if p == "33" || p == "93" || p == "36" || p == "96" || p == "37" || p == "97" {
					t.Errorf("role %s: want no yellow, cyan or white on a light background, got %q", r.Name, out)
				}
			}
		}
	}
	if NewOn(Light, true).Code.Render("x") == New(true).Code.Render("x") {
		t.Error("want code in another colour on a light background")
	}
}

// Work under way reads as neither a failure nor a warning: on a light
// background the warning's red would make a running command look failed.
func TestActiveWorkIsNotPaintedRed(t *testing.T) {
	for _, bg := range []Background{Dark, Light} {
		got := palette.StyleDump(NewOn(bg, true).Active.Render("○"))
		if strings.Contains(got, "31") || strings.Contains(got, "91") || got == "" {
			t.Errorf("background %v: want work under way in a colour other than red, got %q", bg, got)
		}
	}
}

func TestParseBackground(t *testing.T) {
	for _, c := range []struct {
		setting, colorfgbg string
		want               Background
		known              bool
	}{
		{"dark", "0;15", Dark, true},
		{"light", "", Light, true},
		{"auto", "0;15", Light, true},
		{"auto", "15;0", Dark, true},
		{"auto", "0;default;15", Light, true},
		{"auto", "7;8", Dark, true},
		{"auto", "", Dark, false},
		{"", "junk", Dark, false},
	} {
		bg, known, err := Detect(c.setting, c.colorfgbg)
		if err != nil || bg != c.want || known != c.known {
			t.Errorf("Detect(%q, %q) = %v, %v, %v; want %v, %v", c.setting, c.colorfgbg, bg, known, err, c.want, c.known)
		}
	}
	if _, _, err := Detect("solarized", ""); err == nil || !strings.Contains(err.Error(), "auto, dark or light") {
		t.Errorf("want an error naming the choices, got %v", err)
	}
}
