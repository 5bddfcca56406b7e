package agent_test

import (
	"context"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// A model that stays overloaded through the retries hands the rest of the
// turn to the fallback model, and the user is told; a failure that is not
// about load (here a refused key) ends the turn as before.
func TestOverloadedModelHandsTheTurnToTheFallback(t *testing.T) {
	overloaded := make([]llmtest.Response, llm.DefaultRetryPolicy(nil).Max+1)
	for i := range overloaded {
		overloaded[i] = llmtest.HTTPError(503, "Server busy, please try again later")
	}
	f := newFixture(t, append(overloaded, llmtest.ReplyText("Answered by the fallback.")))
	f.agent.SendWith("go", agent.TurnOptions{FallbackModel: "deepseek-v4-pro"})
	f.waitIdle()
	reqs := f.srv.Requests()
	if first, last := reqs[0].Model, reqs[len(reqs)-1].Model; first != "deepseek-v4-flash" || last != "deepseek-v4-pro" {
		t.Errorf("want the retries on the session's model and the last request on the fallback, got %s then %s", first, last)
	}
	if end := f.lastTurnEnd(); end.Reason != session.StopCompleted {
		t.Errorf("want the turn completed on the fallback, got %+v", end)
	}
	evs := f.log.Events()
	var starts []string
	for _, e := range evs {
		if s, ok := e.Data.(session.StepStart); ok {
			starts = append(starts, s.Model)
		}
	}
	if len(starts) != 2 || starts[1] != "deepseek-v4-pro" {
		t.Errorf("want a failed step on the session's model, then one on the fallback, got %v", starts)
	}
	// Notices made before a subscription reach it first.
	_, sub := f.agent.Subscribe()
	defer sub.Close()
	queued, err := sub.Wait(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	said := false
	for _, e := range queued {
		if n, ok := e.(agent.Notice); ok && n.Tone == agent.NoticeWarning {
			said = true
		}
	}
	if !said {
		t.Error("the switch to the fallback was not announced")
	}

	refused := newFixture(t, []llmtest.Response{llmtest.HTTPError(401, "Authentication Fails"), llmtest.ReplyText("never")})
	refused.agent.SendWith("go", agent.TurnOptions{FallbackModel: "deepseek-v4-pro"})
	refused.waitIdle()
	if n := len(refused.srv.Requests()); n != 1 {
		t.Errorf("a refused key fell back to another model: %d requests", n)
	}
}
