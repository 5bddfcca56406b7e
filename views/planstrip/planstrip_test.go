package planstrip

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/views/theme"
)

func threeStates() []card.TodoItem {
	return []card.TodoItem{
		{Content: "Read the code", Status: card.TodoCompleted},
		{Content: "Change the retry loop", Status: card.TodoInProgress},
		{Content: "Run the tests \x1b[2J", Status: card.TodoPending},
	}
}

func TestOpenPlanStripShowsThreeStates(t *testing.T) {
	golden.Lines(t, "three_states", Render(threeStates(), 60, true, theme.New(true)))
}

func TestFoldedPlanStripIsOneLine(t *testing.T) {
	golden.Lines(t, "folded", Render(threeStates(), 60, false, theme.New(true)))
}

func TestAnItemInProgressShowsItsActiveForm(t *testing.T) {
	todos := []card.TodoItem{
		{Content: "Run the tests", Status: card.TodoInProgress, ActiveForm: "Running the tests"},
		{Content: "Fix the bug", Status: card.TodoPending, ActiveForm: "Fixing the bug"},
	}
	rows := Render(todos, 40, true, theme.New(false))
	if got := ansi.Strip(rows[1]) + "|" + ansi.Strip(rows[2]); got != "  ● Running the tests|  ○ Fix the bug" {
		t.Errorf("want the active form only while in progress, got %q", got)
	}
	if got := ansi.Strip(Render(todos, 80, false, theme.New(false))[0]); !strings.HasPrefix(got, "Plan 0/2 · Running the tests") {
		t.Errorf("want the folded strip at the item in progress, got %q", got)
	}
}

func TestEmptyOrFinishedPlanRendersNothing(t *testing.T) {
	done := []card.TodoItem{{Content: "a", Status: card.TodoCompleted}, {Content: "b", Status: card.TodoCompleted}}
	for _, todos := range [][]card.TodoItem{nil, done} {
		for _, open := range []bool{false, true} {
			if rows := Render(todos, 60, open, theme.New(true)); rows != nil {
				t.Fatalf("want no rows for %v, got %q", todos, rows)
			}
		}
	}
}

func TestLongItemsAreTruncatedToWidth(t *testing.T) {
	todos := []card.TodoItem{{Content: "a very long plan item that will not fit", Status: card.TodoPending}}
	for _, open := range []bool{false, true} {
		for _, r := range Render(todos, 20, open, theme.New(true)) {
			if w := ansi.StringWidth(r); w > 20 {
				t.Fatalf("want at most 20 columns, got %d: %q", w, r)
			}
		}
	}
}
