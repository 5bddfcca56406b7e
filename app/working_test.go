package app

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
)

// While a question or an approval waits for the user, the working line
// would say "Running tools…" and count the user's time as the turn's; the
// dialog says what is needed, so the line gives way to it.
func TestWorkingLineGivesWayToAQuestionOrApproval(t *testing.T) {
	pending := interacttest.Pending(t,
		interact.Approval{Tool: "bash", Summary: "ls", Details: "ls"},
		[]interact.Question{{ID: "q", Question: "Which?", Options: []interact.Option{{Label: "Apples"}}}},
	).Pending()

	m, _ := newTestModel(nil)
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning}, agent.PhaseChanged{Phase: agent.PhaseTools}}})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Running tools…") {
		t.Fatalf("want the working line while tools run, got:\n%s", s)
	}
	for i, what := range []string{"approval", "question"} {
		m.Update(requestsMsg{pending: pending[i:]})
		if s := ansi.Strip(screen(m)); strings.Contains(s, "Running tools…") {
			t.Errorf("want no working line while the %s waits for the user, got:\n%s", what, s)
		}
	}
	m.Update(requestsMsg{})
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "Running tools…") {
		t.Fatalf("want the working line back once the user answered, got:\n%s", s)
	}
}
