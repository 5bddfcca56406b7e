package agent_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// tinyModel has a window small enough for a test to fill.
func tinyCatalog() *llm.Catalog {
	c := llm.NewCatalog()
	c.Add(llm.Model{ID: "tiny", Provider: "deepseek", ContextWindow: 1000, MaxOutput: 100})
	return c
}

func (f *fixture) startTiny(ts ...tools.Tool) *agent.Agent {
	client := llm.NewClient(llm.ClientConfig{BaseURL: f.srv.URL(), APIKey: "test"})
	return agent.New(agent.Config{
		Log: f.log, Provider: client, Catalog: tinyCatalog(), Model: "tiny", Effort: llm.EffortOff,
		System: "You are a test.", Tools: tools.NewRegistry(ts...), Retry: llm.DefaultRetryPolicy(nil),
		Cwd: f.t.TempDir(), SpillDir: f.t.TempDir(),
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
}

func TestContextPastThresholdCompactsAtTheStepBoundary(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "echo", `{"x":1}`, 1), llmtest.Usage(0, 850, 20, 0), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("## Request and Intent\nThe user asked for a long task."),
		llmtest.ReplyText("Finished."),
	})
	f.agent.Close()
	f.agent = f.startTiny(echoTool())
	long := "please do this: " + strings.Repeat("lorem ipsum ", 200)
	f.agent.Send(long)
	f.waitIdle()

	reqs := f.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("want step, summary and step requests, got %d", len(reqs))
	}
	summaryReq, next := reqs[1], reqs[2]
	if got := summaryReq.Header.Get("X-Tack-Purpose"); got != "compaction" {
		t.Fatalf("want the summary request tagged compaction, got %q", got)
	}
	if reqs[0].Messages[0].Content != next.Messages[0].Content || string(toolsJSON(reqs[0])) != string(toolsJSON(next)) {
		t.Fatal("the request after compaction must start with the identical system prompt and tools")
	}
	if !strings.Contains(next.Messages[1].Content, "<compacted-summary>") {
		t.Fatalf("want the summary in place of the old prompt, got %+v", next.Messages[1])
	}
	if last := next.Messages[len(next.Messages)-1]; last.Role != "tool" {
		t.Fatalf("want the retained tool call and result after the summary, got %+v", next.Messages)
	}
	if v := f.srv.Violations(); len(v) > 0 {
		t.Fatalf("violations: %v", v)
	}
	proj := session.NewProjection(f.log.Header())
	for _, e := range f.log.Events() {
		proj.Apply(e)
	}
	var sawPrompt, sawMarker bool
	for _, e := range proj.Transcript() {
		if m, ok := e.Data.(session.UserMessage); ok && m.Text == long {
			sawPrompt = true
		}
		if _, ok := e.Data.(session.CompactionMarker); ok {
			sawMarker = true
		}
	}
	if !sawPrompt || !sawMarker {
		t.Fatalf("the transcript must keep the first prompt (%v) and show a marker (%v)", sawPrompt, sawMarker)
	}
}

func TestContextOverflowCompactsAndRetriesOnce(t *testing.T) {
	overflow := llmtest.HTTPError(400, "This model's maximum context length is 1000 tokens")
	f := newFixture(t, []llmtest.Response{
		llmtest.ReplyText("First answer " + strings.Repeat("x", 900)),
		overflow,
		llmtest.ReplyText("## Request and Intent\nsummary"),
		overflow,
	})
	f.agent.Close()
	f.agent = f.startTiny()
	f.agent.Send("first " + strings.Repeat("word ", 300))
	f.waitIdle()
	f.agent.Send("second")
	f.waitIdle()
	evs := f.log.Events()
	end := evs[len(evs)-1].Data.(session.TurnEnd)
	if end.Reason != session.StopError || end.Error == nil || end.Error.Kind != string(llm.ErrContextOverflow) {
		t.Fatalf("a second overflow must end the turn with the overflow error, got %+v", end)
	}
	if n := countType(evs, "compact/end"); n != 1 {
		t.Fatalf("want exactly one compaction, got %d", n)
	}
	f.srv.AssertConsumed(t)
}

func toolsJSON(r llmtest.Request) []byte {
	var b strings.Builder
	for _, t := range r.Tools {
		b.WriteString(t.Function.Name)
		b.Write(t.Function.Parameters)
	}
	return []byte(b.String())
}
