package agent_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestToolArgumentsThatAreNotAnObjectAreRejectedBeforeTheToolRuns(t *testing.T) {
	for _, c := range []struct {
		name, args, want string
	}{
		{"truncated", `{"path": "READ`, "Error: invalid arguments for probe: not valid JSON"},
		{"array", `[1,2]`, "Error: invalid arguments for probe: expected a JSON object, got an array"},
		{"string", ` "x"`, "Error: invalid arguments for probe: expected a JSON object, got a string"},
		{"null", `null`, "Error: invalid arguments for probe: expected a JSON object, got null"},
		{"number", `42`, "Error: invalid arguments for probe: expected a JSON object, got a number"},
		{"boolean", `true`, "Error: invalid arguments for probe: expected a JSON object, got a boolean"},
	} {
		t.Run(c.name, func(t *testing.T) {
			ran := false
			probe := testTool{name: "probe", fn: func(context.Context, json.RawMessage) tools.Result {
				ran = true
				return tools.Result{Text: "ran"}
			}}
			f := newFixture(t, []llmtest.Response{
				llmtest.Reply(llmtest.ToolCall("a", "probe", c.args, 1), llmtest.Finish("tool_calls")),
				llmtest.ReplyText("ok"),
			}, probe)
			f.runTurn("go")
			r, ok := firstToolResult(f.log.Events())
			if !ok {
				t.Fatal("no tool result logged")
			}
			if !r.IsError || r.Code != session.CodeInvalidArgs || !strings.HasPrefix(r.Text, c.want) {
				t.Fatalf("want an %s error starting %q, got %+v", session.CodeInvalidArgs, c.want, r)
			}
			if ran {
				t.Fatal("want the tool not to run on invalid arguments, but it ran")
			}
		})
	}
}

func firstToolResult(evs []session.Event) (session.ToolResult, bool) {
	for _, e := range evs {
		if r, ok := e.Data.(session.ToolResult); ok {
			return r, true
		}
	}
	return session.ToolResult{}, false
}

// Models trained on Claude Code's sessions call its tools by its names
// even when the request lists tack's; those whose arguments tack's tools
// take run as tack's, and are logged by tack's name so that hooks,
// permissions and cards see the tool they are.
func TestACallByClaudeCodesNameRunsTacksTool(t *testing.T) {
	bash := testTool{name: "bash", fn: func(_ context.Context, args json.RawMessage) tools.Result {
		return tools.Result{Text: "ran " + string(args)}
	}}
	edit := testTool{name: "edit", fn: func(context.Context, json.RawMessage) tools.Result {
		return tools.Result{Text: "edited"}
	}}
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("a", "Bash", `{"command":"ls"}`, 1), llmtest.ToolCall("b", "MultiEdit", `{"edits":[]}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("ok"),
	}, bash, edit)
	f.runTurn("go")
	names := map[string]string{}
	results := map[string]session.ToolResult{}
	for _, e := range f.log.Events() {
		switch d := e.Data.(type) {
		case session.ToolCall:
			names[d.CallID] = d.Name
		case session.ToolResult:
			results[d.CallID] = d
		}
	}
	if names["a"] != "bash" || results["a"].Text != `ran {"command":"ls"}` {
		t.Errorf("Bash: want tack's bash to run and be logged as bash, got name %q, result %+v", names["a"], results["a"])
	}
	if r := results["b"]; names["b"] != "MultiEdit" || !strings.HasPrefix(r.Text, `Error: unknown tool "MultiEdit"`) {
		t.Errorf("MultiEdit: its edits are not edit's arguments, so want it unknown, got name %q, result %+v", names["b"], r)
	}
}

// A call's result records how long its tool ran, which Claude Code's
// answers of searches, fetches and subagents report (durationMs); a call
// that never ran records none.
func TestToolResultsRecordHowLongTheToolRan(t *testing.T) {
	slow := testTool{name: "slow", fn: func(context.Context, json.RawMessage) tools.Result {
		time.Sleep(30 * time.Millisecond)
		return tools.Result{Text: "done"}
	}}
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("a", "slow", `{}`, 1), llmtest.ToolCall("b", "slow", `[]`, 1)),
		llmtest.ReplyText("ok"),
	}, slow)
	f.runTurn("go")
	took := map[string]int64{}
	for _, e := range f.log.Events() {
		if r, ok := e.Data.(session.ToolResult); ok {
			took[r.CallID] = r.DurationMs
		}
	}
	if took["a"] < 30 || took["b"] != 0 {
		t.Errorf("want the call that ran timed at 30 ms or more and the refused one not at all, got %v", took)
	}
}

// A file tool's call is logged with a card that names its file as the
// result's card does, relative to the working directory, though the model
// wrote the path absolute: front doors show the first while the call
// runs and the second after, and the card's title must not change.
func TestACallsCardNamesItsFileAsItsResultsCardDoes(t *testing.T) {
	s := newImageSession(t, "deepseek-flash")
	args, _ := json.Marshal(map[string]string{"file_path": filepath.Join(s.cwd, "shot.png")})
	s.srv.Push(llmtest.Reply(llmtest.ToolCall("r1", "read", string(args), 1)), llmtest.ReplyText("a blank picture"))
	s.agent.Send("what is in shot.png?")
	testkit.Settle(t, s.agent)
	var call, result string
	for _, e := range s.log.Events() {
		switch d := e.Data.(type) {
		case session.ToolCall:
			call = d.Card.Subject
		case session.ToolResult:
			if d.Card != nil {
				result = d.Card.Subject
			}
		}
	}
	if result != "shot.png" || call != result {
		t.Fatalf("want the call's card and the result's to name shot.png, got %q and %q", call, result)
	}
}
