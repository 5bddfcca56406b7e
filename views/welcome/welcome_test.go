package welcome

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/theme"
)

var facts = Facts{Cwd: "/home/ada/proj", Home: "/home/ada", Model: "deepseek-v4-flash", Mode: "auto", Sandbox: "sandboxed"}

func TestLineSaysWhereWhichModelWhichModeAndTheKeys(t *testing.T) {
	got := ansi.Strip(Line(facts, 120, theme.New(true)))
	want := "~/proj · deepseek-v4-flash · auto mode (sandboxed) · ? shortcuts · / commands · @ files · ! shell"
	if got != want {
		t.Fatalf("want %q, got %q", want, got)
	}
}

func TestLineDropsTheDirectoryThenTheModelThenKeysWhereRoomIsShort(t *testing.T) {
	th := theme.New(false)
	for _, c := range []struct {
		width int
		want  string
	}{
		{90, "deepseek-v4-flash · auto mode (sandboxed) · " + Keys},
		{80, "auto mode (sandboxed) · " + Keys},
		{50, Keys},
		{40, "? shortcuts · / commands · @ files"},
		{20, "? shortcuts"},
		{8, "? short…"},
	} {
		if got := Line(facts, c.width, th); got != c.want {
			t.Errorf("width %d: want %q, got %q", c.width, c.want, got)
		}
		if w := ansi.StringWidth(Line(facts, c.width, th)); w > c.width {
			t.Errorf("width %d: the line is %d columns", c.width, w)
		}
	}
}

func TestLineSanitisesWhatItQuotes(t *testing.T) {
	got := Line(Facts{Cwd: "/tmp/evil\x1b[31m", Model: "m\x07"}, 200, theme.New(false))
	if strings.ContainsAny(got, "\x1b\x07") {
		t.Fatalf("want control characters escaped, got %q", got)
	}
}

func TestLineNamesTheModeWithoutASandboxOrWithoutEither(t *testing.T) {
	th := theme.New(false)
	for _, c := range []struct {
		f    Facts
		want string
	}{
		{Facts{Mode: "full-access", Sandbox: "no sandbox"}, "full-access mode (no sandbox) · " + Keys},
		{Facts{Mode: "plan"}, "plan mode · " + Keys},
		{Facts{Model: "m"}, "m · " + Keys},
	} {
		if got := Line(c.f, 200, th); got != c.want {
			t.Errorf("%+v: want %q, got %q", c.f, c.want, got)
		}
	}
}
