package agent_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
)

func TestRepeatedIdenticalToolCallsGetRemindersAtThreeFiveAndEight(t *testing.T) {
	var script []llmtest.Response
	for i := range 9 {
		args := `{"path":"a.go"}`
		if i%2 == 1 {
			args = `{ "path" : "a.go" }` // layout alone does not make a call different
		}
		script = append(script, llmtest.Reply(llmtest.ToolCall(fmt.Sprintf("c%d", i), "echo", args, 1), llmtest.Finish("tool_calls")))
	}
	script = append(script, llmtest.ReplyText("done"))
	f := newFixture(t, script, echoTool())
	f.runTurn("go")

	var reminders []string
	results := 0
	for _, e := range f.log.Events() {
		switch d := e.Data.(type) {
		case session.ToolResult:
			results++
		case session.UserMessage:
			if d.Kind == session.KindContext && d.Origin == agent.RepeatGuardOrigin {
				reminders = append(reminders, fmt.Sprintf("after %d: %s", results, d.Text))
			}
		}
	}
	if len(reminders) != 3 {
		t.Fatalf("want 3 reminders, got %d: %q", len(reminders), reminders)
	}
	for i, want := range []string{
		`after 3: You are repeating the exact same tool call with identical arguments.`,
		`after 5: Repeated tool call detected: echo has been called 5 times in a row`,
		`after 8: Repeated tool call detected: echo has been called 8 times in a row`,
	} {
		if !strings.HasPrefix(reminders[i], want) {
			t.Errorf("reminder %d: want prefix %q, got %q", i+1, want, reminders[i])
		}
	}
	if v := f.srv.Violations(); len(v) > 0 {
		t.Fatalf("want well-formed requests with the reminders in them, got violations: %v", v)
	}
	last := f.srv.Requests()[3].Messages
	if m := last[len(last)-1]; m.Role != "user" || !strings.Contains(m.Content, "repeating the exact same tool call") {
		t.Fatalf("want the 4th request to end with the reminder, got %+v", m)
	}
}

func TestDifferentToolCallsInBetweenResetTheRepeatCount(t *testing.T) {
	var script []llmtest.Response
	for i, args := range []string{`{"n":1}`, `{"n":1}`, `{"n":2}`, `{"n":1}`, `{"n":1}`} {
		script = append(script, llmtest.Reply(llmtest.ToolCall(fmt.Sprintf("c%d", i), "echo", args, 1), llmtest.Finish("tool_calls")))
	}
	script = append(script, llmtest.ReplyText("done"))
	f := newFixture(t, script, echoTool())
	f.runTurn("go")
	for _, e := range f.log.Events() {
		if d, ok := e.Data.(session.UserMessage); ok && d.Origin == agent.RepeatGuardOrigin {
			t.Fatalf("want no reminder when no call repeats three times in a row, got %q", d.Text)
		}
	}
}
