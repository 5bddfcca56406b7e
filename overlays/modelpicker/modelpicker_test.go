package modelpicker

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func catalog() []llm.Model {
	c := llm.NewCatalog()
	c.Add(llm.Model{ID: "qwen3-coder", Provider: "ollama", Name: "Qwen3 Coder", ContextWindow: 262_144,
		Efforts: []llm.Effort{llm.EffortOff}, DefaultEffort: llm.EffortOff})
	return c.Models()
}

func TestGoldenScreens(t *testing.T) {
	tests := []struct{ name, typed string }{
		{"all", ""},
		{"filtered", "PRO"},
		{"no_match", "claude"},
	}
	for _, tt := range tests {
		for _, size := range [][2]int{{100, 30}, {50, 14}} {
			p := New(catalog(), "deepseek-v4-flash", llm.EffortMax, th)
			keys.TypeText(p.Update, tt.typed)
			golden.View(t, fmt.Sprintf("%s_%dx%d", tt.name, size[0], size[1]), p.View(size[0], size[1]), size[0], size[1])
		}
	}
}

func TestFilterMatchesProviderModelAndName(t *testing.T) {
	tests := []struct {
		typed string
		want  []string
	}{
		{"", []string{"deepseek-flash", "deepseek-v4-pro", "gpt-5.4-mini", "gpt-5.4", "qwen3-coder"}},
		{"ollama/", []string{"qwen3-coder"}},
		{"v4.1", []string{"deepseek-flash"}},
		{"PRO", []string{"deepseek-v4-pro"}},
		{"nothing", nil},
	}
	for _, tt := range tests {
		p := New(catalog(), "", "", th)
		keys.TypeText(p.Update, tt.typed)
		var got []string
		for _, i := range p.matches {
			got = append(got, p.models[i].ID)
		}
		if strings.Join(got, ",") != strings.Join(tt.want, ",") {
			t.Errorf("filter %q: want %v, got %v", tt.typed, tt.want, got)
		}
	}
}

func TestEnterSelectsWithCycledEffort(t *testing.T) {
	p := New(catalog(), "deepseek-v4-flash", llm.EffortHigh, th)
	got := keys.Press(p.Update, "down", "shift+tab", "shift+tab", "enter")
	want := Outcome{Kind: Selected, Model: "deepseek-v4-pro", Effort: llm.EffortOff}
	if got != want {
		t.Errorf("want %+v (high → max → off), got %+v", want, got)
	}
	p = New(catalog(), "deepseek-v4-flash", llm.EffortLow, th)
	if got := keys.Press(p.Update, "enter"); got != (Outcome{Kind: Selected, Model: "deepseek-flash", Effort: llm.EffortLow}) {
		t.Errorf("want the current model, named by its legacy alias, and effort on Enter, got %+v", got)
	}
}

func TestEscClearsFilterThenCloses(t *testing.T) {
	p := New(catalog(), "", "", th)
	keys.TypeText(p.Update, "pro")
	if got := keys.Press(p.Update, "esc"); got.Kind != None || !p.filter.Empty() || len(p.matches) != 5 {
		t.Fatalf("want the first Esc to clear the filter, got %+v filter %q", got, p.filter.Value())
	}
	if got := keys.Press(p.Update, "esc"); got.Kind != Closed {
		t.Errorf("want the second Esc to close, got %+v", got)
	}
}

func TestUnlistedCurrentModelIsShown(t *testing.T) {
	p := New(catalog(), "my-local-model", llm.EffortOff, th)
	v := ansi.Strip(p.View(100, 30))
	if !strings.Contains(v, "› my-local-model") || !strings.Contains(v, "current") {
		t.Errorf("want the unlisted current model highlighted and marked, got\n%s", v)
	}
}

func TestContextSizes(t *testing.T) {
	for n, want := range map[int]string{1_000_000: "1M", 128_000: "128K", 1_500_000: "1.5M", 262_144: "262K", 512: "512"} {
		if got := contextSize(n); got != want {
			t.Errorf("contextSize(%d): want %s, got %s", n, want, got)
		}
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	p := New(catalog(), "deepseek-v4-flash", llm.EffortHigh, th)
	keys.Press(p.Update, "down", "down", "down")
	for _, size := range overlaytest.Sizes() {
		golden.Fits(t, p.View(size[0], size[1]), size[0], size[1])
	}
}

func TestNarrowRowsKeepEffortAndCurrentMarker(t *testing.T) {
	p := New(catalog(), "deepseek-v4-pro", llm.EffortMax, th)
	keys.Press(p.Update, "shift+tab")
	for _, width := range []int{76, 50, 40} {
		v := ansi.Strip(p.View(width, 14))
		if !strings.Contains(v, "effort off — current") {
			t.Errorf("at width %d: want the cycled effort and the current marker on the current model, got\n%s", width, v)
		}
	}
	if v := ansi.Strip(p.View(76, 14)); !strings.Contains(v, "1M context — $1.32/$3.96 — effort off — current") {
		t.Errorf("at width 76: want the context and price, got\n%s", v)
	}
}

func TestAScrollingListShowsTheCursorPosition(t *testing.T) {
	p := New(catalog(), "deepseek-v4-flash", llm.EffortMax, th)
	keys.Press(p.Update, "down")
	if v := ansi.Strip(p.View(60, 10)); !strings.Contains(v, "2/5 │") {
		t.Errorf("want the position 2/5 when three of five models show, got\n%s", v)
	}
	if v := ansi.Strip(p.View(60, 30)); strings.Contains(v, "/5") {
		t.Errorf("want no position when every model shows, got\n%s", v)
	}
}

func TestEscClearingTheFilterReturnsToTheCurrentModel(t *testing.T) {
	p := New(catalog(), "deepseek-v4-pro", llm.EffortMax, th)
	keys.TypeText(p.Update, "qwen")
	if got := keys.Press(p.Update, "esc"); got.Kind != None {
		t.Fatalf("want the first Esc to clear the filter, got %v", got.Kind)
	}
	if got := keys.Press(p.Update, "enter"); got.Model != "deepseek-v4-pro" {
		t.Errorf("want Enter after clearing to select the current deepseek-v4-pro, got %q", got.Model)
	}
}
