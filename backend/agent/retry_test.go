package agent_test

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

func TestServerErrorsUntilRetriesRunOutEndTheTurnSayingTackGaveUp(t *testing.T) {
	var script []llmtest.Response
	for range 6 {
		script = append(script, llmtest.HTTPError(500, "Server Error"))
	}
	f := newFixture(t, script)
	f.runTurn("go")
	evs := f.log.Events()
	if got := countType(evs, "llm/retry"); got != 5 {
		t.Fatalf("want 5 retries logged, got %d", got)
	}
	end := f.lastTurnEnd()
	if end.Reason != session.StopError || end.Error == nil {
		t.Fatalf("want the turn to end with an error, got %+v", end)
	}
	want := "gave up after 5 retries: the provider failed with a server error; try again later (Server Error)"
	if end.Error.Message != want || end.Error.Kind != string(llm.ErrServer) || end.Error.Status != 500 {
		t.Fatalf("want a server failure (HTTP 500) reading %q, got %+v", want, end.Error)
	}
	if strings.Contains(end.Error.Message, "retries automatically") {
		t.Fatalf("want no promise of another retry once they ran out, got %q", end.Error.Message)
	}
}
