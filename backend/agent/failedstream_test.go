package agent_test

import (
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

const serverFixtures = "../../testdata/servers/"

// TestFailedStreamsAreRetriedAndNeverKept replays streams that end in a
// failure after some content: vLLM's top-level error object
// (vllm#40986), DeepSeek's insufficient_system_resource finish (its
// error-code guide calls it a capacity failure), and a body closed before
// any content. Each is retried, and what arrived of it is neither kept as
// the answer nor sent to the model again.
func TestFailedStreamsAreRetriedAndNeverKept(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.MustReplay(t, serverFixtures+"vllm-error-after-content.chunks.jsonl"),
		llmtest.MustReplay(t, serverFixtures+"deepseek-insufficient-system-resource.chunks.jsonl"),
		llmtest.Reply(llmtest.EndWithoutFinish()),
		llmtest.ReplyText("The real answer."),
		llmtest.ReplyText("ok"),
	})
	f.runTurn("go")
	f.runTurn("next")
	f.srv.AssertConsumed(t)
	var kinds []string
	var answers []string
	for _, e := range f.log.Events() {
		switch d := e.Data.(type) {
		case session.Retry:
			kinds = append(kinds, d.Failure.Kind)
		case session.AssistantMessage:
			answers = append(answers, d.Text)
		}
	}
	want := []string{string(llm.ErrServer), string(llm.ErrServer), string(llm.ErrStreamClosed)}
	if strings.Join(kinds, " ") != strings.Join(want, " ") {
		t.Errorf("want retries after %v, got %v", want, kinds)
	}
	if strings.Join(answers, "|") != "The real answer.|ok" {
		t.Errorf("want only the retried answers kept, got %q", answers)
	}
	last := f.srv.Requests()[4]
	for _, m := range last.Messages {
		if m.Role == "assistant" && m.Content != "The real answer." {
			t.Errorf("want only the real answer sent back, got assistant %q", m.Content)
		}
	}
}

// TestUnknownFinishReasonKeepsTheAnswerWithANote: gateways end answers
// with finish reasons tack does not know ("eos"); the answer is complete
// and kept, and the session log says why it was taken as such.
func TestUnknownFinishReasonKeepsTheAnswerWithANote(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.MustReplay(t, serverFixtures+"gateway-unknown-finish-eos.chunks.jsonl")})
	f.runTurn("go")
	f.srv.AssertConsumed(t)
	if end := f.lastTurnEnd(); end.Reason != session.StopCompleted {
		t.Fatalf("want the turn completed, got %+v", end)
	}
	evs := f.log.Events()
	for _, e := range evs {
		if m, ok := e.Data.(session.AssistantMessage); ok {
			if m.Text != "The build passes now." || len(m.Notes) != 1 || !strings.Contains(m.Notes[0], `"eos"`) {
				t.Errorf("want the answer kept with a note naming eos, got %q %q", m.Text, m.Notes)
			}
			return
		}
	}
	t.Fatal("want the answer logged")
}
