package agent_test

import (
	"os"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// TestSessionLogNeverHoldsTheKey: a server that quotes the key back, in a
// retried failure and in the one that ends the turn, leaves no trace of it
// in the session log; the failures are still logged, redacted.
func TestSessionLogNeverHoldsTheKey(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.HTTPError(503, "upstream refused Authorization: "+llmtest.EchoAuthorization),
		llmtest.HTTPError(401, "Incorrect API key provided: "+llmtest.EchoKey),
	})
	f.runTurn("go")
	raw, err := os.ReadFile(f.path)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(raw), fixtureKey) {
		t.Fatalf("the session log holds the API key:\n%s", raw)
	}
	evs := f.log.Events()
	var retried bool
	for _, e := range evs {
		if r, ok := e.Data.(session.Retry); ok {
			retried = strings.Contains(r.Failure.Message, "Authorization: Bearer "+llm.Redacted)
		}
	}
	end := f.lastTurnEnd()
	if !retried || end.Error == nil || !strings.Contains(end.Error.Message, "Incorrect API key provided: "+llm.Redacted) {
		t.Fatalf("want both failures logged with the key redacted, got retry %v and end %+v", retried, end.Error)
	}
}
