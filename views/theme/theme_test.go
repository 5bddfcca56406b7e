package theme

import (
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
