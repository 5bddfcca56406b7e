package agent_test

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// contextNotes counts how often text occurs in the body of a request.
func contextNotes(r llmtest.Request, text string) int {
	return strings.Count(string(r.Body), text)
}

func TestNoteUndoneBeforeARequestNeverReachesTheModel(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.ReplyText("one"), llmtest.ReplyText("two")})
	f.agent.Note("plan", "PLAN-OFF", "PLAN-ON")
	f.agent.Note("plan", "PLAN-ON", "PLAN-OFF")
	f.runTurn("first")
	if got := f.srv.Requests(); len(got) != 1 || contextNotes(got[0], "PLAN-") != 0 {
		t.Fatalf("want one request without a plan note after a round trip, got %d requests:\n%s", len(got), got[0].Body)
	}
	f.agent.Note("plan", "PLAN-OFF", "PLAN-ON")
	f.agent.Note("plan", "PLAN-ON", "PLAN-OFF")
	f.agent.Note("plan", "PLAN-OFF", "PLAN-ON")
	f.runTurn("second")
	got := f.srv.Requests()
	if len(got) != 2 {
		t.Fatalf("want two requests, got %d", len(got))
	}
	if n := contextNotes(got[1], "PLAN-ON"); n != 1 || contextNotes(got[1], "PLAN-OFF") != 0 {
		t.Fatalf("want the second request to carry PLAN-ON once and no PLAN-OFF, got %d:\n%s", n, got[1].Body)
	}
}
