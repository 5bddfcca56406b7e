package plan_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/backend/tools/plan"
	"github.com/tack-agent/tack/snapshots/testkit"
)

const refusal = "Error: plan mode: edit is not allowed while planning. " +
	"Finish the plan and call exit_plan_mode to present it for review."

// TestPlanJourneyRefusesThenApprovesThenEdits drives the real agent with a
// scripted model: in plan mode it reads, tries an edit and is refused,
// presents the plan, the user approves, and the same edit then runs under
// full-access.
func TestPlanJourneyRefusesThenApprovesThenEdits(t *testing.T) {
	edit := `{"file_path":"a.txt","old_string":"Foo","new_string":"Bar"}`
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "read", `{"file_path":"a.txt"}`, 1), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_2", "edit", edit, 2), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_3", "exit_plan_mode", `{"plan":"# Rename\n\nRename Foo to Bar in a.txt."}`, 2),
			llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_4", "edit", edit, 2), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Renamed Foo to Bar."),
	)
	cwd := t.TempDir()
	file := filepath.Join(cwd, "a.txt")
	if err := os.WriteFile(file, []byte("Foo\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	log, err := session.Create(filepath.Join(t.TempDir(), "s.jsonl"),
		session.Header{Version: 1, ID: "plan-journey", Created: time.Unix(0, 0).UTC(), Cwd: cwd, Model: "deepseek-v4-flash"})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	broker := interact.NewBroker()
	asked := answerWith(t, broker, interact.Answer{ID: "plan_review", Selected: []string{"Approve"}})
	policy := permission.NewPolicy(permission.FullAccess, broker)
	policy.SetPlan(true)
	registry := tools.NewRegistry(fs.New(fs.NewTracker())...)
	registry.Add(plan.New(policy))
	a := agent.New(agent.Config{
		Log: log, Provider: llm.NewClient(llm.ClientConfig{BaseURL: srv.URL(), APIKey: "test"}),
		System: "You are a test.", Tools: registry, Gate: policy, Broker: broker,
		Retry: llm.DefaultRetryPolicy(nil), Cwd: cwd, SpillDir: t.TempDir(),
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	defer a.Close()

	a.Send("Rename Foo to Bar in a.txt")
	testkit.Settle(t, a)

	results := map[string]session.ToolResult{}
	var planEvents []session.PlanMode
	for _, e := range log.Events() {
		switch d := e.Data.(type) {
		case session.ToolResult:
			results[d.CallID] = d
		case session.PlanMode:
			planEvents = append(planEvents, d)
		}
	}
	if r := results["call_1"]; r.IsError {
		t.Fatalf("want read to run in plan mode, got %q", r.Text)
	}
	if r := results["call_2"]; !r.IsError || r.Text != refusal || r.Code != session.CodeDenied {
		t.Fatalf("want the plan-mode refusal for the first edit, got %+v", r)
	}
	if r := results["call_3"]; r.IsError || r.Text != plan.Approved {
		t.Fatalf("want the plan approved, got %+v", r)
	}
	if r := results["call_4"]; r.IsError {
		t.Fatalf("want the edit after approval to run, got %q", r.Text)
	}
	if got, _ := os.ReadFile(file); string(got) != "Bar\n" {
		t.Fatalf("want a.txt edited to %q, got %q", "Bar\n", got)
	}
	if len(planEvents) != 1 || planEvents[0].Active || policy.Plan() || policy.Mode() != permission.FullAccess {
		t.Fatalf("want one plan/mode inactive event and full-access restored, got %+v plan=%v mode=%s",
			planEvents, policy.Plan(), policy.Mode())
	}
	if qs := <-asked; len(qs) != 1 || !strings.Contains(qs[0].Detail, "Rename Foo to Bar") {
		t.Fatalf("want the plan shown for review, got %+v", qs)
	}
	requests := srv.Requests()
	if len(requests) != 5 {
		t.Fatalf("want 5 model requests, got %d", len(requests))
	}
	if !readsToolResult(requests[2].Messages, "call_2", refusal) {
		t.Fatalf("want the third request to carry the refusal for call_2, got %+v", requests[2].Messages)
	}
	if v := srv.Violations(); len(v) > 0 {
		t.Fatalf("fake server found violations: %v", v)
	}
}

func readsToolResult(msgs []llmtest.Message, callID, text string) bool {
	for _, m := range msgs {
		if m.Role == "tool" && m.ToolCallID == callID && m.Content == text {
			return true
		}
	}
	return false
}
