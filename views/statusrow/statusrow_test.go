package statusrow

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/views/theme"
)

func full() Status {
	return Status{Cwd: "/home/u/proj", Home: "/home/u", Branch: "main", Model: "deepseek-v4-flash", Effort: "high",
		Uncached: 1250, CacheRead: 2700, Output: 340, ContextPct: 33, Cost: 0.0123, Queued: 2}
}

func TestStatusRowMatchesGoldenAt100And60(t *testing.T) {
	th := theme.New(true)
	s := full()
	plan := s
	plan.Mode, plan.PlanMode = "plan · sandboxed", true
	auto := s
	auto.Mode = "auto · sandboxed"
	open := s
	open.Mode, open.Unconfined = "full-access · no sandbox", true
	golden.Lines(t, "status", []string{
		Render(s, 100, th), Render(s, 60, th), Render(plan, 100, th), Render(plan, 60, th),
		Render(auto, 100, th), Render(open, 100, th), Render(open, 60, th), Render(Status{ContextPct: -1}, 60, th),
	})
}

func TestLeftSideReadsLikeTheReference(t *testing.T) {
	s := full()
	s.Queued = 0
	want := "~/proj (main)  deepseek-v4-flash high  ↑1.3k ↓340  cache 68%  33% context  $0.0123"
	if got := ansi.Strip(Render(s, 100, theme.New(false))); got != want {
		t.Fatalf("want %q, got %q", want, got)
	}
}

func TestTheOffPeakRateFollowsTheCost(t *testing.T) {
	s := full()
	s.Queued, s.OffPeak = 0, true
	if got := ansi.Strip(Render(s, 100, theme.New(false))); !strings.HasSuffix(got, "$0.0123 off-peak") {
		t.Fatalf("want the off-peak rate named after the cost, got %q", got)
	}
}

func TestUnknownPiecesVanish(t *testing.T) {
	got := ansi.Strip(Render(Status{Cwd: "/tmp", ContextPct: -1}, 60, theme.New(false)))
	if got != "/tmp" {
		t.Fatalf("want only the cwd, got %q", got)
	}
}

func TestRightSideWinsOnOverlap(t *testing.T) {
	for _, w := range []int{100, 60, 30, 8} {
		got := Render(full(), w, theme.New(true))
		if sw := ansi.StringWidth(got); sw > w {
			t.Fatalf("width %d: want at most %d columns, got %d", w, w, sw)
		}
		if w >= 8 && !strings.HasSuffix(ansi.Strip(got), "2 queued") {
			t.Fatalf("width %d: want the queued badge kept at the right, got %q", w, ansi.Strip(got))
		}
	}
}

// The sides stay two columns apart, as the parts of the left side are;
// before, a left side that just fitted ran into the badge with one space
// ("deepseek-flash high auto · sandboxed"), both dim, read as one part.
func TestSidesStayTwoColumnsApart(t *testing.T) {
	s := full()
	s.Queued, s.Mode = 0, "auto · sandboxed"
	for w := 20; w <= 100; w++ {
		got := ansi.Strip(Render(s, w, theme.New(false)))
		i := strings.Index(got, s.Mode)
		if i > 0 && (i < 2 || got[i-2:i] != "  ") {
			t.Fatalf("width %d: want two columns before %q, got %q", w, s.Mode, got)
		}
	}
}
