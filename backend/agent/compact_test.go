package agent_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// tinyModel has a window small enough for a test to fill.
func tinyCatalog() *llm.Catalog {
	c := llm.NewCatalog()
	c.Add(llm.Model{ID: "tiny", Provider: "deepseek", ContextWindow: 1000, MaxOutput: 100,
		Price: llm.Price{CacheHit: 0.1, CacheMiss: 1, Output: 2}})
	return c
}

func (f *fixture) startTiny(ts ...tools.Tool) *agent.Agent {
	return f.startTinyWith(nil, ts...)
}

// startTinyWith is startTiny with hooks (none when nil).
func (f *fixture) startTinyWith(h *hooks.Runner, ts ...tools.Tool) *agent.Agent {
	client := llm.NewClient(llm.ClientConfig{BaseURL: f.srv.URL(), APIKey: "test"})
	cfg := agent.Config{
		Log: f.log, Provider: client, Catalog: tinyCatalog(), Model: "tiny", Effort: llm.EffortOff,
		System: "You are a test.", Tools: tools.NewRegistry(ts...), Retry: llm.DefaultRetryPolicy(nil),
		Cwd: f.t.TempDir(), SpillDir: f.t.TempDir(),
		Sleep: func(context.Context, time.Duration) error { return nil },
	}
	if h != nil {
		cfg.Hooks = h
	}
	return agent.New(cfg)
}

// stepThatFillsTheWindow is a step whose usage passes the tiny model's
// threshold, the summary, and the step after it.
func stepThatFillsTheWindow() []llmtest.Response {
	return []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "echo", `{"x":1}`, 1), llmtest.Usage(0, 850, 20, 0), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.Text("## Request and Intent\nThe user asked for a long task.", 0), llmtest.Usage(0, 870, 40, 0)),
		llmtest.ReplyText("Finished."),
	}
}

func TestContextPastThresholdCompactsAtTheStepBoundary(t *testing.T) {
	f := newFixture(t, stepThatFillsTheWindow())
	f.agent.Close()
	f.agent = f.startTiny(echoTool())
	long := "please do this: " + strings.Repeat("lorem ipsum ", 200)
	f.runTurn(long)

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
	events := f.log.Events()
	for _, e := range events {
		proj.Apply(e)
	}
	transcript, err := proj.Transcript(session.Events(events))
	if err != nil {
		t.Fatal(err)
	}
	var sawPrompt, sawMarker bool
	for _, e := range transcript {
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
	// The summary's cost counts in the session's, at the model's price.
	want := session.SideUsage{Purpose: llm.PurposeCompaction, Model: "tiny", Usage: llm.Usage{Input: 870, Output: 40},
		Cost: (870*1.0 + 40*2.0) / 1e6}
	var side []session.SideUsage
	for _, e := range events {
		if d, ok := e.Data.(session.SideUsage); ok {
			side = append(side, d)
		}
	}
	if len(side) != 1 || side[0] != want {
		t.Fatalf("want the summary request's usage logged as %+v, got %+v", want, side)
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
	f.runTurn("first " + strings.Repeat("word ", 300))
	f.runTurn("second")
	end := f.lastTurnEnd()
	if end.Reason != session.StopError || end.Error == nil || end.Error.Kind != string(llm.ErrContextOverflow) {
		t.Fatalf("a second overflow must end the turn with the overflow error, got %+v", end)
	}
	if msg := end.Error.Message; !strings.Contains(msg, "even after compaction") || !strings.Contains(msg, "/new") {
		t.Fatalf("want the error to say compaction did not help and point to /new, got %q", msg)
	}
	evs := f.log.Events()
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

// gatedProvider holds every compaction request until release is closed or
// the request's context ends, announcing it on started first.
type gatedProvider struct {
	llm.Provider
	started chan struct{}
	release chan struct{}
}

func (p *gatedProvider) Stream(ctx context.Context, req llm.Request) (llm.Stream, error) {
	if req.Purpose == llm.PurposeCompaction {
		close(p.started)
		select {
		case <-p.release:
		case <-ctx.Done():
			return nil, &llm.Error{Kind: llm.ErrAborted, Message: "the model request was cancelled"}
		}
	}
	return p.Provider.Stream(ctx, req)
}

// startGated starts an agent on the tiny window whose compaction requests
// wait for the returned provider's release.
func (f *fixture) startGated() *gatedProvider {
	f.agent.Close()
	g := &gatedProvider{
		Provider: llm.NewClient(llm.ClientConfig{BaseURL: f.srv.URL(), APIKey: "test"}),
		started:  make(chan struct{}), release: make(chan struct{}),
	}
	f.agent = agent.New(agent.Config{
		Log: f.log, Provider: g, Catalog: tinyCatalog(), Model: "tiny", Effort: llm.EffortOff,
		System: "You are a test.", Tools: tools.NewRegistry(), Retry: llm.DefaultRetryPolicy(nil),
		Cwd: f.t.TempDir(), SpillDir: f.t.TempDir(),
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
	return g
}

// surfaceOf folds the log into the model's view.
func surfaceOf(t *testing.T, log *session.Log) []llm.Message {
	t.Helper()
	proj := session.NewProjection(log.Header())
	for _, e := range log.Events() {
		proj.Apply(e)
	}
	surface, err := proj.Surface(nil)
	if err != nil {
		t.Fatal(err)
	}
	return surface
}

func TestPromptSentDuringCompactRunsAfterIt(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.ReplyText("First answer " + strings.Repeat("x", 900)),
		llmtest.ReplyText("## Request and Intent\nsummary"),
		llmtest.ReplyText("Second answer."),
	})
	g := f.startGated()
	f.runTurn("first " + strings.Repeat("word ", 300))

	type outcome struct {
		res agent.CompactResult
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := f.agent.Compact(context.Background(), "")
		done <- outcome{res, err}
	}()
	<-g.started
	f.agent.Send("second")
	close(g.release)
	got := <-done
	if got.err != nil || got.res.Items != 1 {
		t.Fatalf("want one history item compacted, got %+v, %v", got.res, got.err)
	}
	f.waitIdle()

	evs := types(f.log.Events())
	compactEnd, secondTurn := -1, -1
	for i, typ := range evs {
		switch {
		case typ == "compact/end":
			compactEnd = i
		case typ == "turn/start" && compactEnd >= 0:
			secondTurn = i
		}
	}
	if compactEnd < 0 || secondTurn < 0 {
		t.Fatalf("want the second turn after compact/end, got %v", evs)
	}
	reqs := f.srv.Requests()
	last := reqs[len(reqs)-1].Messages
	if !strings.Contains(last[1].Content, "<compacted-summary>") || last[len(last)-1].Content != "second" {
		t.Fatalf("want the summary then the prompt sent during compaction, got %+v", last)
	}
}

func TestStoppedCompactLeavesHistoryUntouched(t *testing.T) {
	tests := []struct {
		name string
		stop func(a *agent.Agent, cancel context.CancelFunc)
	}{
		{"agent cancel", func(a *agent.Agent, _ context.CancelFunc) { a.Cancel() }},
		{"caller context", func(_ *agent.Agent, cancel context.CancelFunc) { cancel() }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := newFixture(t, []llmtest.Response{llmtest.ReplyText("First answer " + strings.Repeat("x", 900))})
			g := f.startGated()
			f.runTurn("first " + strings.Repeat("word ", 300))
			before := surfaceOf(t, f.log)

			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := f.agent.Compact(ctx, "")
				done <- err
			}()
			<-g.started
			tt.stop(f.agent, cancel)
			if err := <-done; err == nil {
				t.Fatal("want an error from a stopped compaction, got nil")
			}
			f.waitIdle()

			evs := f.log.Events()
			end, ok := evs[len(evs)-1].Data.(session.CompactEnd)
			if !ok || end.Error == "" {
				t.Fatalf("want a compact/end recording the failure last, got %+v", evs[len(evs)-1])
			}
			if after := surfaceOf(t, f.log); len(after) != len(before) || after[0].Content != before[0].Content {
				t.Fatalf("want the history untouched: %d messages before, %d after", len(before), len(after))
			}
			if n := f.srv.Remaining(); n != 0 {
				t.Fatalf("want no summary request sent, %d scripted responses unused", n)
			}
		})
	}
}

func TestOverflowThatCannotBeCompactedSaysWhy(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.HTTPError(400, "This model's maximum context length is 1000 tokens"),
	})
	f.agent.Close()
	f.agent = f.startTiny()
	f.runTurn("only prompt")
	end := f.lastTurnEnd()
	if end.Error == nil || end.Error.Kind != string(llm.ErrContextOverflow) {
		t.Fatalf("want the turn ended by the overflow, got %+v", end)
	}
	if msg := end.Error.Message; !strings.Contains(msg, "there is no earlier history to compact") || !strings.Contains(msg, "send less at once") || !strings.Contains(msg, "/model") {
		t.Fatalf("want the message to say nothing could be compacted and what to do instead, got %q", msg)
	}
}

func TestCompactWithNothingToSummariseRecordsNothing(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.ReplyText("Short answer.")})
	f.runTurn("hi")
	before := len(f.log.Events())
	if _, err := f.agent.Compact(context.Background(), ""); !errors.Is(err, agent.ErrNothingToCompact) {
		t.Fatalf("want ErrNothingToCompact, got %v", err)
	}
	if evs := f.log.Events()[before:]; len(evs) != 0 {
		t.Fatalf("want no events for a compaction that had nothing to do, got %v", types(evs))
	}
}

// A PreCompact hook (Claude Code's settings shape) runs before the
// automatic compaction with trigger auto, and what it prints joins the
// summary's instructions; a PostCompact hook reads the summary after.
func TestPreCompactHookShapesTheSummary(t *testing.T) {
	f := newFixture(t, stepThatFillsTheWindow())
	f.agent.Close()
	seen, after := filepath.Join(t.TempDir(), "stdin.json"), filepath.Join(t.TempDir(), "after.json")
	hs, problems := hooks.FromConfig(config.Hooks{
		"PreCompact":  {{Matcher: "auto", Hooks: []config.HookHandler{{Type: "command", Command: "cat > " + seen + "; echo 'Keep the list of open TODOs.'"}}}},
		"PostCompact": {{Hooks: []config.HookHandler{{Type: "command", Command: "cat > " + after + ".part; mv " + after + ".part " + after}}}},
	}, "settings.json", false)
	if len(problems) > 0 {
		t.Fatal(problems)
	}
	f.agent = f.startTinyWith(hooks.NewRunner(hooks.Options{Hooks: hs, Cwd: t.TempDir(), Environ: os.Environ()}), echoTool())
	f.runTurn("please do this: " + strings.Repeat("lorem ipsum ", 200))
	summary := f.srv.Requests()[1].Messages
	if got := summary[len(summary)-1].Content; !strings.HasSuffix(got, "Also follow these instructions for the summary:\nKeep the list of open TODOs.") {
		t.Errorf("the summary's instructions end %q", got[max(len(got)-120, 0):])
	}
	raw, _ := os.ReadFile(seen)
	for _, want := range []string{`"hook_event_name":"PreCompact"`, `"trigger":"auto"`, `"custom_instructions":""`} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("the hook read %s, without %s", raw, want)
		}
	}
	testkit.Eventually(t, "the PostCompact hook's run", func() bool { _, err := os.Stat(after); return err == nil })
	raw, _ = os.ReadFile(after)
	if !strings.Contains(string(raw), `"hook_event_name":"PostCompact"`) || !strings.Contains(string(raw), `"compact_summary":"## Request and Intent\nThe user asked for a long task."`) {
		t.Errorf("PostCompact read %s", raw)
	}
}

// A job asked for once a turn's end is logged (an Agent SDK's request
// right after the result line it read) queues behind what the turn still
// does after (syncing the log, its stop_failure hooks) rather than being
// refused as if the turn were running. The request comes as soon as the
// end is seen, inside that window on all but the fastest disks.
func TestAJobAskedOnceTheTurnEndedWaitsInsteadOfBeingRefused(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.HTTPError(401, "Authentication Fails, Your api key is invalid")})
	_, sub := f.agent.Subscribe()
	defer sub.Close()
	f.agent.Send("hello")
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	for ended := false; !ended; {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatalf("the turn did not end: %v", err)
		}
		for _, e := range evs {
			if l, ok := e.(agent.Logged); ok {
				_, ended = l.Event.Data.(session.TurnEnd)
			}
		}
	}
	if _, err := f.agent.Compact(ctx, ""); err != nil && strings.Contains(err.Error(), "needs an idle agent") {
		t.Errorf("the job was refused: %v", err)
	}
}

// /compact frees the context of a model with a million-token window too:
// asked for, a compaction keeps only the last few thousand tokens
// verbatim, not a share of the window, and what the user asks of the
// summary reaches its request, as with Claude Code's "/compact <text>".
func TestManualCompactSummarisesAWideWindowsHistory(t *testing.T) {
	long := strings.Repeat("detail ", 4000)
	f := newFixture(t, []llmtest.Response{
		llmtest.ReplyText("First answer " + long),
		llmtest.ReplyText("Second answer."),
		llmtest.ReplyText("## Request and Intent\nsummary"),
	})
	if window := f.agent.CompactThreshold(llm.DefaultModel); window < 500_000 {
		t.Fatalf("want the default model's window wide, its threshold is %d tokens", window)
	}
	f.runTurn("first " + long)
	f.runTurn("second")
	res, err := f.agent.Compact(context.Background(), "keep the API notes")
	if err != nil || res.Items != 2 {
		t.Fatalf("want the first exchange summarised and the second kept, got %+v, %v", res, err)
	}
	reqs := f.srv.Requests()
	summary := reqs[len(reqs)-1].Messages
	if got := summary[len(summary)-1].Content; !strings.Contains(got, "keep the API notes") {
		t.Fatalf("want the user's instructions in the summary request, got %q", got)
	}
}
