package agent_test

import (
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestOutputBoundOnlyForModelsTheCatalogKnows: a guessed max_tokens can
// exceed what a small window holds beside the prompt (vllm#20409).
func TestOutputBoundOnlyForModelsTheCatalogKnows(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.ReplyText("known"), llmtest.ReplyText("unknown")})
	f.agent.Send("first")
	f.waitIdle()
	if err := f.agent.SetModel("llama3.1:8b", llm.EffortOff); err != nil {
		t.Fatal(err)
	}
	f.agent.Send("second")
	f.waitIdle()
	reqs := f.srv.Requests()
	if len(reqs) != 2 || reqs[0].MaxTokens != 384_000 || reqs[1].MaxTokens != 0 {
		t.Fatalf("want max_tokens 384000 for the catalog's DeepSeek model and none for an unknown one, got %+v", reqs)
	}
}
