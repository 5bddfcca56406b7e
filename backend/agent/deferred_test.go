package agent_test

import (
	"context"
	"encoding/json"
	"errors"
	"sync/atomic"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// A message deferred behind a running turn is made when its own turn
// starts, so it sees what the running turn did (a custom command's
// `git diff` after the edits); one whose making fails is told and left
// out, and the others queued with it still run.
func TestDeferredMessageIsMadeWhenItsTurnStarts(t *testing.T) {
	var edited atomic.Bool
	release := make(chan struct{})
	edit := testTool{name: "edit", fn: func(context.Context, json.RawMessage) tools.Result {
		<-release
		edited.Store(true)
		return tools.Result{Text: "edited"}
	}}
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "edit", `{}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Edited."),
		llmtest.ReplyText("Committed."),
	}, edit)
	f.agent.Send("edit it")
	testkit.Eventually(t, "the edit running", func() bool { return f.agent.Status() == agent.StatusRunning })
	f.agent.SendDeferred("/commit", func(context.Context) (string, error) {
		if edited.Load() {
			return "diff: after the edit", nil
		}
		return "diff: before the edit", nil
	}, agent.TurnOptions{})
	f.agent.SendDeferred("/broken", func(context.Context) (string, error) {
		return "", errors.New("/broken did not run: its prompt runs `false`")
	}, agent.TurnOptions{})
	close(release)
	f.waitIdle()

	var texts, typed []string
	for _, e := range f.log.Events() {
		if m, ok := e.Data.(session.UserMessage); ok && m.Kind == session.KindPrompt {
			texts, typed = append(texts, m.Text), append(typed, m.Typed)
		}
	}
	if len(texts) != 2 || texts[1] != "diff: after the edit" || typed[1] != "/commit" {
		t.Errorf("want the deferred message made after the edit and shown as typed, got %q (typed %q)", texts, typed)
	}
	_, sub := f.agent.Subscribe()
	defer sub.Close()
	queued, _ := sub.Wait(context.Background())
	told := false
	for _, e := range queued {
		if n, ok := e.(agent.Notice); ok && n.Text == "/broken did not run: its prompt runs `false`" {
			told = true
		}
	}
	if !told {
		t.Error("the failed message was not told")
	}
}
