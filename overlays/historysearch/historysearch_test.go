package historysearch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func prompts() []string {
	return []string{
		"run the tests again",
		"Fix the failing TestLock in backend/session",
		"explain\nthe retry policy",
		"add a test for the resume picker",
		"what does \x1b[2J do",
	}
}

func TestGoldenScreens(t *testing.T) {
	tests := []struct {
		name, typed string
		keys        []string
	}{
		{"all", "", []string{"down"}},
		{"filtered", "TEST", []string{"ctrl+r"}},
		{"no_match", "zebra", nil},
	}
	for _, tt := range tests {
		for _, size := range [][2]int{{100, 30}, {50, 14}} {
			s := New(prompts(), th)
			keys.TypeText(s.Update, tt.typed)
			keys.Press(s.Update, tt.keys...)
			golden.View(t, fmt.Sprintf("%s_%dx%d", tt.name, size[0], size[1]), s.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestSearchChoosesTheMatch(t *testing.T) {
	tests := []struct {
		typed string
		keys  []string
		want  Outcome
	}{
		{"test", []string{"enter"}, Outcome{Kind: Chosen, Prompt: "run the tests again"}},
		{"test", []string{"ctrl+r", "enter"}, Outcome{Kind: Chosen, Prompt: "Fix the failing TestLock in backend/session"}},
		{"test", []string{"ctrl+r", "ctrl+r", "ctrl+r", "enter"}, Outcome{Kind: Chosen, Prompt: "add a test for the resume picker"}},
		{"test", []string{"down", "up", "enter"}, Outcome{Kind: Chosen, Prompt: "run the tests again"}},
		{"retry", []string{"enter"}, Outcome{Kind: Chosen, Prompt: "explain\nthe retry policy"}},
		{"test", []string{"esc"}, Outcome{Kind: Cancelled}},
		{"nothing like it", []string{"enter"}, Outcome{Kind: Cancelled}},
	}
	for _, tt := range tests {
		s := New(prompts(), th)
		keys.TypeText(s.Update, tt.typed)
		if got := keys.Press(s.Update, tt.keys...); got != tt.want {
			t.Errorf("%q then %v: want %+v, got %+v", tt.typed, tt.keys, tt.want, got)
		}
	}
}

func TestControlsInPromptsAreEscaped(t *testing.T) {
	s := New(prompts(), th)
	v := s.View(100, 30)
	if strings.Contains(v, "\x1b[2J") || !strings.Contains(ansi.Strip(v), `\x1b[2J`) {
		t.Errorf("want the escape shown as text, got %q", v)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	s := New(prompts(), th)
	keys.TypeText(s.Update, "e")
	for _, size := range overlaytest.Sizes() {
		golden.Fits(t, s.View(size[0], size[1]), size[0], size[1])
	}
}
