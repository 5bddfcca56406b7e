package planstrip

import (
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/snapshots/testkit/golden"
	"github.com/tack-agent/tack/views/theme"
)

func TestPlanStripShowsThreeStates(t *testing.T) {
	todos := []card.TodoItem{
		{Content: "Read the code", Status: card.TodoCompleted},
		{Content: "Change the retry loop", Status: card.TodoInProgress},
		{Content: "Run the tests \x1b[2J", Status: card.TodoPending},
	}
	golden.Lines(t, "three_states", Render(todos, 60, theme.New(true)))
}

func TestAnItemInProgressShowsItsActiveForm(t *testing.T) {
	rows := Render([]card.TodoItem{
		{Content: "Run the tests", Status: card.TodoInProgress, ActiveForm: "Running the tests"},
		{Content: "Fix the bug", Status: card.TodoPending, ActiveForm: "Fixing the bug"},
	}, 40, theme.New(false))
	if got := ansi.Strip(rows[2]) + "|" + ansi.Strip(rows[3]); got != "  ● Running the tests|  ○ Fix the bug" {
		t.Errorf("want the active form only while in progress, got %q", got)
	}
}

func TestEmptyPlanRendersNothing(t *testing.T) {
	if rows := Render(nil, 60, theme.New(true)); rows != nil {
		t.Fatalf("want no rows, got %q", rows)
	}
}

func TestLongItemsAreTruncatedToWidth(t *testing.T) {
	rows := Render([]card.TodoItem{{Content: "a very long plan item that will not fit", Status: card.TodoPending}}, 20, theme.New(true))
	if w := ansi.StringWidth(rows[2]); w > 20 {
		t.Fatalf("want at most 20 columns, got %d: %q", w, rows[2])
	}
}
