package details

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/internal/overlaytest"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/theme"
)

var th = theme.New(true)

func TestGoldenScreens(t *testing.T) {
	for _, size := range [][2]int{{100, 30}, {50, 14}} {
		d := New(cards.Collapsed, true, th)
		d.Update(keys.Key("down"))
		golden.View(t, fmt.Sprintf("details_%dx%d", size[0], size[1]), d.View(size[0], size[1]), size[0], size[1])
	}
}

func TestTabCyclesAndAppliesLive(t *testing.T) {
	d := New(cards.Collapsed, true, th)
	steps := []struct {
		key  string
		want Outcome
	}{
		{"tab", Outcome{Kind: Changed, Cards: cards.Expanded, Reasoning: true}},
		{"tab", Outcome{Kind: Changed, Cards: cards.Hidden, Reasoning: true}},
		{"tab", Outcome{Kind: Changed, Cards: cards.Collapsed, Reasoning: true}},
		{"down", Outcome{Kind: None, Cards: cards.Collapsed, Reasoning: true}},
		{"tab", Outcome{Kind: Changed, Cards: cards.Collapsed, Reasoning: false}},
		{"esc", Outcome{Kind: Closed, Cards: cards.Collapsed, Reasoning: false}},
	}
	for i, s := range steps {
		if got := d.Update(keys.Key(s.key)); got != s.want {
			t.Errorf("step %d (%s): want %+v, got %+v", i, s.key, s.want, got)
		}
	}
	if got := New(cards.Hidden, false, th).Update(keys.Key("enter")); got.Kind != Closed {
		t.Errorf("want Enter to close, got %+v", got)
	}
}

func TestViewFitsEverySizeWhileShrinking(t *testing.T) {
	d := New(cards.Expanded, false, th)
	for _, size := range overlaytest.Sizes() {
		golden.Fits(t, d.View(size[0], size[1]), size[0], size[1])
	}
}

func TestReasoningNotShownReadsFoldedUnlessHidden(t *testing.T) {
	d := New(cards.Collapsed, false, th)
	if v := ansi.Strip(d.View(60, 10)); !strings.Contains(v, "Reasoning    folded") {
		t.Fatalf("want reasoning folded by default, got\n%s", v)
	}
	d.HideFolded = true
	if v := ansi.Strip(d.View(60, 10)); !strings.Contains(v, "Reasoning    hidden") {
		t.Fatalf("want reasoning hidden with --no-reasoning, got\n%s", v)
	}
}
