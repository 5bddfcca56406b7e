package task_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/task"
)

// barrierRunner answers each job with its prompt reversed, but only once
// want jobs are running at the same time: run one after another, the
// first would wait forever (and the test time out).
type barrierRunner struct {
	want    int
	mu      sync.Mutex
	running int
	all     chan struct{}
}

func (r *barrierRunner) Run(ctx context.Context, job task.Job, progress func(task.Progress)) task.Outcome {
	r.mu.Lock()
	r.running++
	if r.running == r.want {
		close(r.all)
	}
	r.mu.Unlock()
	progress(task.Progress{Child: "child-" + job.CallID, Steps: 1, Activity: "thinking"})
	select {
	case <-r.all:
	case <-ctx.Done():
		return task.Outcome{Err: task.ErrCancelled}
	case <-time.After(20 * time.Second):
		return task.Outcome{Err: context.DeadlineExceeded}
	}
	return task.Outcome{Answer: "answer to " + job.Prompt, Progress: task.Progress{Child: "child-" + job.CallID, Steps: 2, ToolCalls: 3}}
}

func TestTaskCallsOfOneStepRunInParallel(t *testing.T) {
	srv := llmtest.New(t,
		llmtest.Reply(
			llmtest.ToolCall("t1", "task", `{"description":"One","prompt":"p1"}`, 1),
			llmtest.ToolCall("t2", "task", `{"description":"Two","prompt":"p2"}`, 1),
			llmtest.ToolCall("t3", "task", `{"description":"Three","prompt":"p3"}`, 1)),
		llmtest.ReplyText("done"))
	log, err := session.Create(filepath.Join(t.TempDir(), "s.jsonl"), session.Header{Version: 1, ID: "p", Created: time.Unix(0, 0), Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close()
	runner := &barrierRunner{want: 3, all: make(chan struct{})}
	a := agent.New(agent.Config{
		Log: log, Provider: llm.NewClient(llm.ClientConfig{BaseURL: srv.URL(), APIKey: "k"}),
		Tools: tools.NewRegistry(task.New(runner, []subagent.Definition{subagent.General()})),
	})
	defer a.Close()
	_, sub := a.Subscribe()
	defer sub.Close()
	a.Send("three jobs")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := a.WhenIdle(ctx); err != nil {
		t.Fatal(err)
	}
	srv.AssertConsumed(t)
	msgs := srv.Requests()[1].Messages
	got := map[string]string{}
	for _, m := range msgs {
		if m.Role == "tool" {
			got[m.ToolCallID] = m.Content
		}
	}
	for id, p := range map[string]string{"t1": "p1", "t2": "p2", "t3": "p3"} {
		if got[id] != "answer to "+p {
			t.Errorf("%s: want the child's answer, got %q", id, got[id])
		}
	}
	var progress []card.Card
	evs, _ := sub.Wait(ctx)
	for _, e := range evs {
		if p, ok := e.(agent.ToolProgress); ok {
			progress = append(progress, p.Card)
		}
	}
	if len(progress) == 0 || !strings.Contains(progress[0].Description, "1 step") || !strings.Contains(progress[0].Description, "thinking") {
		t.Errorf("want live progress cards naming the step and activity, got %+v", progress)
	}
}

func TestUnknownAgentIsRefusedWithTheNames(t *testing.T) {
	tool := task.New(&barrierRunner{}, []subagent.Definition{subagent.General(), {Name: "reviewer"}})
	r := tool.Run(context.Background(), tools.Call{ID: "c", Args: json.RawMessage(`{"description":"x","prompt":"y","agent":"nope"}`)})
	if !r.IsError || !strings.Contains(r.Text, `no agent named "nope"; use one of general, reviewer`) {
		t.Fatalf("want the agent names, got %q", r.Text)
	}
}

// TestClaudeCodesTaskArgumentsAreTaken: models trained on Claude Code name
// the agent subagent_type and pick its built-ins (general-purpose,
// Explore, Plan), which run as the general agent unless defined.
func TestClaudeCodesTaskArgumentsAreTaken(t *testing.T) {
	for _, tt := range []struct{ agent, want string }{
		{"Explore", "general"}, {"general-purpose", "general"}, {"Plan", "Plan"}, {"reviewer", "reviewer"},
	} {
		runner := &recordingRunner{}
		tool := task.New(runner, []subagent.Definition{subagent.General(), {Name: "reviewer"}, {Name: "Plan"}})
		args := `{"description":"Explore codebase structure","prompt":"List the entry points.","subagent_type":"` + tt.agent + `"}`
		r := tool.Run(context.Background(), tools.Call{ID: "c", Args: json.RawMessage(args)})
		if r.IsError || runner.job.Agent.Name != tt.want {
			t.Errorf("subagent_type %s: want it run by %s, got agent %q and %q", tt.agent, tt.want, runner.job.Agent.Name, r.Text)
		}
	}
}

// Claude Code's Agent tool also takes effort, which sets the child's, and
// isolation, which tack has no way to give.
func TestClaudeCodesAgentEffortAndIsolation(t *testing.T) {
	for _, tt := range []struct {
		more, wantErr string
		want          llm.Effort
	}{
		{`"effort":"xhigh","model":"haiku","run_in_background":true,"name":"finder","team_name":"t","mode":"plan"`, "", llm.EffortMax},
		{`"effort":"low"`, "", llm.EffortLow},
		{``, "", ""},
		{`"effort":"huge"`, `Error: invalid effort "huge": use low, medium, high, xhigh or max, or leave it out`, ""},
		{`"isolation":"worktree"`, `Error: isolation "worktree" is not available: tack's subagents work in the session's workspace; call again without isolation`, ""},
	} {
		runner := &recordingRunner{}
		tool := task.New(runner, []subagent.Definition{subagent.General()})
		args := `{"description":"Find the loader","prompt":"Find it."` + strings.TrimSuffix(","+tt.more, ",") + `}`
		r := tool.Run(context.Background(), tools.Call{ID: "c", Args: json.RawMessage(args)})
		switch {
		case tt.wantErr != "" && (r.Text != tt.wantErr || r.Code != session.CodeInvalidArgs):
			t.Errorf("%s: want %q, got %q", args, tt.wantErr, r.Text)
		case tt.wantErr == "" && (r.IsError || runner.job.Effort != tt.want):
			t.Errorf("%s: want the child run at effort %q, got %q (%s)", args, tt.want, runner.job.Effort, r.Text)
		}
	}
}

type recordingRunner struct{ job task.Job }

func (r *recordingRunner) Run(_ context.Context, job task.Job, _ func(task.Progress)) task.Outcome {
	r.job = job
	return task.Outcome{Answer: "done"}
}
