package agent_test

import (
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

// TestOutputBoundOnlyForModelsTheCatalogKnows: a guessed max_tokens can
// exceed what a small window holds beside the prompt (vllm#20409).
func TestOutputBoundOnlyForModelsTheCatalogKnows(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.ReplyText("known"), llmtest.ReplyText("unknown")})
	f.runTurn("first")
	if err := f.agent.SetModel("llama3.1:8b", llm.EffortOff); err != nil {
		t.Fatal(err)
	}
	f.runTurn("second")
	reqs := f.srv.Requests()
	if len(reqs) != 2 || reqs[0].MaxTokens != 384_000 || reqs[1].MaxTokens != 0 {
		t.Fatalf("want max_tokens 384000 for the catalog's DeepSeek model and none for an unknown one, got %+v", reqs)
	}
}

// TestOutputBoundTooLargeForTheWindowIsLoweredNotCompacted: vLLM refuses
// prompt + max_tokens beyond the window (vllm#20409); that is no context
// overflow, and the request goes again with the bound that fits.
func TestOutputBoundTooLargeForTheWindowIsLoweredNotCompacted(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		{Status: 400, Body: `{"object":"error","message":"This model's maximum context length is 16384 tokens. However, you requested 384100 tokens (100 in the messages, 384000 in the completion). Please reduce the length of the messages or completion.","type":"BadRequestError","param":null,"code":400}`},
		llmtest.ReplyText("fits now"),
	})
	f.runTurn("hi")
	reqs := f.srv.Requests()
	if len(reqs) != 2 || reqs[0].MaxTokens != 384_000 || reqs[1].MaxTokens != 16_284 {
		t.Fatalf("want the request sent again with max_tokens 16284, got %d requests %+v", len(reqs), reqs)
	}
	for _, e := range f.log.Events() {
		if e.Type == "compact/start" {
			t.Fatal("want no compaction for an output bound too large")
		}
	}
	f.srv.AssertConsumed(t)
}

// TestOutputBoundIsLoweredToWhatAVLLMWindowLeaves runs against the vLLM
// fake, which counts the prompt itself and refuses prompt + max_tokens
// beyond its window as vLLM does: the retried request must be one it
// accepts, the turn must not compact, and the next turn sends no bound,
// leaving it to the server's window, instead of meeting the refusal again.
func TestOutputBoundIsLoweredToWhatAVLLMWindowLeaves(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.ReplyText("fits now"), llmtest.ReplyText("still fits")})
	f.srv.Enforce(llmtest.VLLM(16_384))
	f.runTurn("hi")
	f.runTurn("more")
	reqs := f.srv.Requests()
	if len(reqs) != 3 || reqs[0].MaxTokens != 384_000 || reqs[1].MaxTokens+reqs[1].PromptTokens() > 16_384 || reqs[2].MaxTokens != 0 {
		t.Fatalf("want the second request within the window and the next turn to send no bound, got %d requests %+v", len(reqs), reqs)
	}
	if v := f.srv.Violations(); len(v) != 1 || f.srv.Remaining() != 0 {
		t.Fatalf("want only the first request refused and both answers served, got %q", v)
	}
	if end := f.lastTurnEnd(); end.Reason != session.StopCompleted || countType(f.log.Events(), "compact/start") != 0 {
		t.Fatalf("want the turn completed without compaction, got %+v", end)
	}
}
