package agent_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// testTool is a tool defined by the test: it runs fn.
type testTool struct {
	name     string
	parallel bool
	fn       func(ctx context.Context, args json.RawMessage) tools.Result
}

func (t testTool) Spec() tools.Spec {
	return tools.Spec{Name: t.name, Description: "test tool", Schema: json.RawMessage(`{"type":"object"}`), ParallelSafe: t.parallel}
}
func (t testTool) Present(json.RawMessage) card.Card {
	return card.Card{Kind: card.Generic, Title: t.name}
}
func (t testTool) Run(ctx context.Context, c tools.Call) tools.Result {
	return t.fn(ctx, c.Args)
}

func echoTool() testTool {
	return testTool{name: "echo", parallel: true, fn: func(_ context.Context, args json.RawMessage) tools.Result {
		return tools.Result{Text: "echo " + string(args)}
	}}
}

// fixtureKey is the API key the fixture's client sends.
const fixtureKey = "sk-fixture-5e6f7a8b9c"

type fixture struct {
	t     *testing.T
	srv   *llmtest.Server
	log   *session.Log
	agent *agent.Agent
	path  string
}

func newFixture(t *testing.T, script []llmtest.Response, ts ...tools.Tool) *fixture {
	t.Helper()
	srv := llmtest.New(t, script...)
	dir := t.TempDir()
	path := filepath.Join(dir, "s.jsonl")
	log, err := session.Create(path, session.Header{Version: 1, ID: "test-session", Created: time.Unix(0, 0).UTC(), Cwd: dir, Model: "deepseek-v4-flash"})
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, srv: srv, log: log, path: path}
	f.agent = f.start(ts...)
	t.Cleanup(func() { f.agent.Close(); f.log.Close() })
	return f
}

func (f *fixture) start(ts ...tools.Tool) *agent.Agent {
	client := llm.NewClient(llm.ClientConfig{BaseURL: f.srv.URL(), APIKey: fixtureKey})
	retry := llm.DefaultRetryPolicy(nil)
	return agent.New(agent.Config{
		Log: f.log, Provider: client, System: "You are a test.", Tools: tools.NewRegistry(ts...),
		Retry: retry, Cwd: f.t.TempDir(), SpillDir: f.t.TempDir(),
		Sleep: func(context.Context, time.Duration) error { return nil },
	})
}

// waitIdle waits until the agent has settled with nothing queued.
func (f *fixture) waitIdle() {
	f.t.Helper()
	testkit.Settle(f.t, f.agent)
}

// runTurn sends prompt and waits for the turn it starts to end.
func (f *fixture) runTurn(prompt string) {
	f.t.Helper()
	f.agent.Send(prompt)
	f.waitIdle()
}

// lastTurnEnd is how the last turn ended: the last event of the log.
func (f *fixture) lastTurnEnd() session.TurnEnd {
	f.t.Helper()
	evs := f.log.Events()
	end, ok := evs[len(evs)-1].Data.(session.TurnEnd)
	if !ok {
		f.t.Fatalf("want the log to end with the turn's end, got %+v", evs[len(evs)-1].Data)
	}
	return end
}

// types lists the event types of the log, skipping chunk-free noise.
func types(evs []session.Event) []string {
	var out []string
	for _, e := range evs {
		out = append(out, e.Type)
	}
	return out
}

func TestThreeStepTurnIsLoggedInLifecycleOrder(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.Reasoning("I should look.", 4), llmtest.ToolCall("call_1", "echo", `{"x":1}`, 3), llmtest.Usage(0, 100, 20, 5), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.Reasoning("Now again.", 4), llmtest.ToolCall("call_2", "echo", `{"x":2}`, 2), llmtest.Usage(100, 30, 10, 3), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.Text("All done.", 3), llmtest.Usage(130, 10, 5, 0), llmtest.Finish("stop")),
	}, echoTool())
	f.runTurn("run the test")
	want := []string{
		"turn/start", "user/message", "session/title",
		"step/start", "assistant/message", "tool/call", "tool/result", "step/end",
		"step/start", "assistant/message", "tool/call", "tool/result", "step/end",
		"step/start", "assistant/message", "step/end",
		"turn/end",
	}
	got := types(f.log.Events())
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("event order\nwant %v\ngot  %v", want, got)
	}
	last := f.log.Events()[len(got)-1].Data.(session.TurnEnd)
	if last.Reason != session.StopCompleted {
		t.Fatalf("want turn end completed, got %+v", last)
	}
	if v := f.srv.Violations(); len(v) > 0 {
		t.Fatalf("fake server found violations: %v", v)
	}
	reqs := f.srv.Requests()
	if len(reqs) != 3 {
		t.Fatalf("want 3 requests, got %d", len(reqs))
	}
	third := reqs[2].Messages
	var sawReasoning bool
	for _, m := range third {
		if m.Role == "assistant" && m.ReasoningContent == "I should look." {
			sawReasoning = true
		}
	}
	if !sawReasoning {
		t.Fatalf("the third request must pass back the first step's reasoning_content; messages: %+v", third)
	}
}

func TestSteerWhileToolRunsJoinsNextStep(t *testing.T) {
	f, started, release := blockingFixture(t, "Understood.")
	f.agent.Send("start")
	<-started
	if !f.agent.AcceptsNextStep() {
		t.Fatal("want AcceptsNextStep while a tool runs")
	}
	f.agent.Steer("also check the docs")
	close(release)
	f.waitIdle()
	reqs := f.srv.Requests()
	if len(reqs) != 2 {
		t.Fatalf("want 2 requests in one turn, got %d", len(reqs))
	}
	msgs := reqs[1].Messages
	lastMsg := msgs[len(msgs)-1]
	if lastMsg.Role != "user" || lastMsg.Content != "also check the docs" {
		t.Fatalf("want the steering message last in the second request, got %+v", lastMsg)
	}
	if got := countType(f.log.Events(), "turn/start"); got != 1 {
		t.Fatalf("steering must not start a new turn; turns: %d", got)
	}
	if got := countType(f.log.Events(), "steering/message"); got != 1 {
		t.Fatalf("want one steering/message event, got %d", got)
	}
}

// Follow-ups sent while a turn runs wait for it, then make one turn
// together, as one user message.
func TestFollowUpsSentWhileBusyBecomeTheNextTurn(t *testing.T) {
	for _, tc := range []struct {
		name      string
		followUps []string
		want      string
	}{
		{"one", []string{"second"}, "second"},
		{"two batched", []string{"second", "third"}, "second\n\nthird"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, started, release := blockingFixture(t, "First done.", "Follow-ups done.")
			f.agent.Send("first")
			<-started
			for _, text := range tc.followUps {
				f.agent.Send(text)
			}
			close(release)
			f.waitIdle()
			if got := countType(f.log.Events(), "turn/start"); got != 2 {
				t.Fatalf("want 2 turns, got %d", got)
			}
			reqs := f.srv.Requests()
			last := reqs[len(reqs)-1].Messages
			if m := last[len(last)-1]; m.Content != tc.want {
				t.Fatalf("want %q as the last message of the last request, got %+v", tc.want, m)
			}
		})
	}
}

func TestMaxStepsEndsTheTurnBeforeTheRequestBeyondIt(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("call_1", "echo", `{"n":1}`, 1), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("call_2", "echo", `{"n":2}`, 1), llmtest.Finish("tool_calls")),
	}, echoTool())
	f.agent.SendWith("loop", agent.TurnOptions{MaxSteps: 2})
	f.waitIdle()
	end := f.lastTurnEnd()
	if end.Reason != session.StopMaxSteps {
		t.Fatalf("want the turn ended at its step limit, got %+v", end)
	}
	if n := len(f.srv.Requests()); n != 2 {
		t.Fatalf("want 2 model requests, got %d", n)
	}
	if got := countType(f.log.Events(), "tool/result"); got != 2 {
		t.Errorf("want both steps' tool results recorded, got %d", got)
	}
}

func TestQuietOnlyOnceTheSentWorkHasEnded(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.Reply(llmtest.Text("Thinking", 1), llmtest.Stall())})
	if quiet, _ := f.agent.Quiet(); !quiet {
		t.Fatal("want a new agent quiet")
	}
	f.agent.Send("hang")
	if quiet, _ := f.agent.Quiet(); quiet {
		t.Fatal("want the agent not quiet once a message is sent, before its turn starts")
	}
	<-f.srv.Stalled()
	if quiet, _ := f.agent.Quiet(); quiet {
		t.Fatal("want the agent not quiet while its turn runs")
	}
	f.agent.Cancel()
	f.waitIdle()
	quiet, last := f.agent.Quiet()
	evs := f.log.Events()
	if !quiet || last != evs[len(evs)-1].Seq {
		t.Fatalf("want quiet at the last event (seq %d), got quiet=%v at %d", evs[len(evs)-1].Seq, quiet, last)
	}
}

func TestCancelDuringStalledStreamAbortsPromptlyAndDiscardsQueue(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.Text("Thinking about", 4), llmtest.Stall()),
	})
	f.agent.Send("hang")
	<-f.srv.Stalled()
	f.agent.Send("queued follow-up")
	f.agent.Cancel()
	f.waitIdle() // the fake never ends a stall: only the cancel settles the turn
	end := f.lastTurnEnd()
	if end.Reason != session.StopAborted {
		t.Fatalf("want aborted, got %+v", end)
	}
	evs := f.log.Events()
	var discarded []string
	for _, e := range evs {
		if d, ok := e.Data.(session.InboxDiscard); ok {
			discarded = d.Texts
		}
	}
	if len(discarded) != 1 || discarded[0] != "queued follow-up" {
		t.Fatalf("want the queued follow-up discarded with an event, got %v", discarded)
	}
	if got := countType(evs, "turn/start"); got != 1 {
		t.Fatalf("the discarded follow-up must not run; turns: %d", got)
	}
}

func TestRateLimitIsRetriedWithAnEvent(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.RateLimited("1"),
		llmtest.ReplyText("Recovered."),
	})
	f.runTurn("go")
	var retries []session.Retry
	for _, e := range f.log.Events() {
		if r, ok := e.Data.(session.Retry); ok {
			retries = append(retries, r)
		}
	}
	if len(retries) != 1 || retries[0].Attempt != 1 || retries[0].DelayMs != 1000 || retries[0].Failure.Kind != string(llm.ErrRateLimit) {
		t.Fatalf("want one rate-limit retry honouring Retry-After 1s, got %+v", retries)
	}
	if end := f.lastTurnEnd(); end.Reason != session.StopCompleted {
		t.Fatalf("want completed after the retry, got %+v", end)
	}
}

func TestAuthFailureEndsTurnWithErrorAndNoRetry(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.HTTPError(401, "Authentication Fails")})
	f.runTurn("go")
	end := f.lastTurnEnd()
	if end.Reason != session.StopError || end.Error == nil || end.Error.Kind != string(llm.ErrAuth) {
		t.Fatalf("want an auth error end, got %+v", end)
	}
	if n := countType(f.log.Events(), "llm/retry"); n != 0 {
		t.Fatalf("auth failures must not be retried; retries: %d", n)
	}
}

func TestParallelToolResultsKeepModelOrder(t *testing.T) {
	slow := testTool{name: "slow", parallel: true, fn: func(ctx context.Context, args json.RawMessage) tools.Result {
		time.Sleep(30 * time.Millisecond)
		return tools.Result{Text: "slow"}
	}}
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("a", "slow", `{}`, 1), llmtest.ToolCall("b", "echo", `{}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("ok"),
	}, slow, echoTool())
	f.runTurn("go")
	var ids []string
	for _, e := range f.log.Events() {
		if r, ok := e.Data.(session.ToolResult); ok {
			ids = append(ids, r.CallID)
		}
	}
	if strings.Join(ids, ",") != "a,b" {
		t.Fatalf("want results in model order a,b; got %v", ids)
	}
}

func TestUnknownToolGetsAnErrorResult(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("a", "nope", `{}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("ok"),
	}, echoTool())
	f.runTurn("go")
	for _, e := range f.log.Events() {
		if r, ok := e.Data.(session.ToolResult); ok {
			if !r.IsError || !strings.HasPrefix(r.Text, "Error: unknown tool") {
				t.Fatalf("want an unknown-tool error, got %+v", r)
			}
			return
		}
	}
	t.Fatal("no tool result logged")
}

func TestInjectWhileIdleIsRecordedWithoutAWakeUp(t *testing.T) {
	f := newFixture(t, nil)
	f.agent.Inject("tool-bash", "background task 1 finished")
	f.waitIdle()
	evs := f.log.Events()
	if len(evs) != 1 {
		t.Fatalf("want exactly one event, got %v", types(evs))
	}
	if m, ok := evs[0].Data.(session.UserMessage); !ok || m.Kind != session.KindContext {
		t.Fatalf("want a context user/message, got %+v", evs[0])
	}
	if n := len(f.srv.Requests()); n != 0 {
		t.Fatalf("inject must not wake the agent; requests: %d", n)
	}
}

func countType(evs []session.Event, typ string) int {
	n := 0
	for _, e := range evs {
		if e.Type == typ {
			n++
		}
	}
	return n
}

func TestFirstCompletedTurnRefinesTheTitleOnce(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.ReplyText("one"), llmtest.ReplyText("two")})
	f.agent.Close()
	client := llm.NewClient(llm.ClientConfig{BaseURL: f.srv.URL(), APIKey: fixtureKey})
	f.agent = agent.New(agent.Config{Log: f.log, Provider: client, Tools: tools.NewRegistry(), RefineTitle: true,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	f.runTurn("please fix the flaky test in parser_test.go")
	// The title is asked for after the turn, off the loop; Close would
	// cancel it.
	waitModelTitle(t, f.log)
	f.runTurn("and again")
	f.agent.Close()
	var titles []session.Title
	for _, e := range f.log.Events() {
		if tt, ok := e.Data.(session.Title); ok {
			titles = append(titles, tt)
		}
	}
	if len(titles) != 2 || titles[0].Source != "prompt" || titles[1] != (session.Title{Title: llmtest.TitleText, Source: "model"}) {
		t.Fatalf("want the prompt title then one model title, got %+v", titles)
	}
	if n := len(f.srv.TitleRequests()); n != 1 {
		t.Fatalf("want one title request, got %d", n)
	}
	if r := f.srv.TitleRequests()[0]; r.Thinking == nil || r.Thinking.Type != "disabled" {
		t.Fatalf("title requests run without thinking, got %+v", r.Thinking)
	}
	// What the title cost counts in the session's usage.
	titleUsage := llm.Usage{Input: llmtest.TitleInput, Output: llmtest.TitleOutput}
	var side []session.SideUsage
	for _, e := range f.log.Events() {
		if d, ok := e.Data.(session.SideUsage); ok {
			side = append(side, d)
		}
	}
	if len(side) != 1 || side[0].Purpose != llm.PurposeTitle || side[0].Usage != titleUsage {
		t.Fatalf("want the title request's usage logged once, got %+v", side)
	}
	proj := session.NewProjection(f.log.Header())
	for _, e := range f.log.Events() {
		proj.Apply(e)
	}
	if sum, steps := proj.Usage().Sum, stepUsage(f.log); sum != steps.Add(titleUsage) {
		t.Fatalf("want the session's usage to be its steps' %+v and the title's %+v, got %+v", steps, titleUsage, sum)
	}
}

// gatedTitles holds every session-title request until gate is closed.
type gatedTitles struct {
	llm.Provider
	asked chan struct{}
	gate  chan struct{}
}

func (g gatedTitles) Stream(ctx context.Context, req llm.Request) (llm.Stream, error) {
	if req.Purpose == llm.PurposeTitle {
		close(g.asked)
		<-g.gate
	}
	return g.Provider.Stream(ctx, req)
}

// A name the user gives (/rename) stays the session's: the title the
// model was asked for before it, answered after it, is not logged, and
// the projection keeps the user's name.
func TestTheUsersNameOutlivesATitleAskedBeforeIt(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.ReplyText("one"), llmtest.ReplyText("two")})
	f.agent.Close()
	gated := gatedTitles{Provider: llm.NewClient(llm.ClientConfig{BaseURL: f.srv.URL(), APIKey: fixtureKey}),
		asked: make(chan struct{}), gate: make(chan struct{})}
	f.agent = agent.New(agent.Config{Log: f.log, Provider: gated, Tools: tools.NewRegistry(), RefineTitle: true,
		Sleep: func(context.Context, time.Duration) error { return nil }})
	f.runTurn("please fix the flaky test in parser_test.go")
	<-gated.asked
	if err := f.agent.Rename("Flaky parser"); err != nil {
		t.Fatal(err)
	}
	close(gated.gate)
	f.runTurn("and again")
	f.agent.Close() // waits for the title request
	var titles []session.Title
	for _, e := range f.log.Events() {
		if tt, ok := e.Data.(session.Title); ok {
			titles = append(titles, tt)
		}
	}
	want := []session.Title{{Title: "please fix the flaky test in parser_test.go", Source: session.TitlePrompt},
		{Title: "Flaky parser", Source: session.TitleUser}}
	if !reflect.DeepEqual(titles, want) {
		t.Fatalf("want the prompt's title then the user's name, got %+v", titles)
	}
	if name := f.agent.Projection().Name(); name != "Flaky parser" {
		t.Errorf("want the session named by the user, got %q", name)
	}
}

// stepUsage is the sum of the usage of log's assistant messages.
func stepUsage(log *session.Log) llm.Usage {
	var sum llm.Usage
	for _, e := range log.Events() {
		if d, ok := e.Data.(session.AssistantMessage); ok {
			sum = sum.Add(d.Usage)
		}
	}
	return sum
}

// waitModelTitle waits until log holds a title named by the model.
func waitModelTitle(t *testing.T, log *session.Log) {
	t.Helper()
	testkit.Eventually(t, "a title from the model", func() bool {
		for _, e := range log.Events() {
			if tt, ok := e.Data.(session.Title); ok && tt.Source == "model" {
				return true
			}
		}
		return false
	})
}

func TestOversizedToolResultIsSpilledToAFile(t *testing.T) {
	big := testTool{name: "big", parallel: true, fn: func(context.Context, json.RawMessage) tools.Result {
		return tools.Result{Text: strings.Repeat("line of output\n", 5000)}
	}}
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall("c1", "big", `{}`, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("ok"),
	}, big)
	f.runTurn("go")
	for _, e := range f.log.Events() {
		if r, ok := e.Data.(session.ToolResult); ok {
			if len(r.Text) > 50_000 || !strings.Contains(r.Text, "Full formatted result stored at") {
				t.Fatalf("want a preview under 50,000 bytes naming the spill file, got %d bytes", len(r.Text))
			}
			return
		}
	}
	t.Fatal("no tool result")
}

func TestCancelledAnswerKeepsWhatArrived(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.Reply(llmtest.Reasoning("Let me think.", 3), llmtest.Text("The first half of", 4), llmtest.Stall()),
		llmtest.ReplyText("Second answer."),
	})
	_, sub := f.agent.Subscribe()
	defer sub.Close()
	f.agent.Send("explain")
	waitStreamed(t, sub, "The first half of")
	f.agent.Cancel()
	f.waitIdle()
	var kept []session.AssistantMessage
	for _, e := range f.log.Events() {
		if m, ok := e.Data.(session.AssistantMessage); ok {
			kept = append(kept, m)
		}
	}
	if len(kept) != 1 || kept[0].Text != "The first half of" || kept[0].Finish != llm.FinishCancelled || len(kept[0].ToolCalls) != 0 {
		t.Fatalf("want the partial answer logged as cancelled, got %+v", kept)
	}
	f.runTurn("go on")
	reqs := f.srv.Requests()
	msgs := reqs[len(reqs)-1].Messages
	if n := len(msgs); n < 3 || msgs[n-2].Role != "assistant" || msgs[n-2].Content != "The first half of" || msgs[n-1].Content != "go on" {
		t.Fatalf("want the partial answer then the next prompt in the next request, got %+v", msgs)
	}
}

func TestCancelBeforeAnyTextDiscardsTheStep(t *testing.T) {
	f := newFixture(t, []llmtest.Response{llmtest.Reply(llmtest.Reasoning("Hmm", 2), llmtest.Stall())})
	f.agent.Send("explain")
	<-f.srv.Stalled()
	f.agent.Cancel()
	f.waitIdle()
	if n := countType(f.log.Events(), "assistant/message"); n != 0 {
		t.Fatalf("want no assistant message from a step cancelled before any text, got %d", n)
	}
}

// waitStreamed waits until the live deltas have shown text.
func waitStreamed(t *testing.T, sub *agent.Subscription, text string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	var got strings.Builder
	for got.String() != text {
		evs, err := sub.Wait(ctx)
		if err != nil {
			t.Fatalf("want %q streamed, got %q (%v)", text, got.String(), err)
		}
		for _, e := range evs {
			if d, ok := e.(agent.Delta); ok && d.Chunk.Kind == llm.ChunkText {
				got.WriteString(d.Chunk.Text)
			}
		}
	}
}

// blockingTool is a tool named block that closes started when it runs
// and returns when release is closed or its call is cancelled.
func blockingTool() (tool testTool, started, release chan struct{}) {
	started, release = make(chan struct{}), make(chan struct{})
	tool = testTool{name: "block", fn: func(ctx context.Context, _ json.RawMessage) tools.Result {
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
		}
		return tools.Result{Text: "unblocked"}
	}}
	return tool, started, release
}

// blockingFixture is a fixture whose model first calls the block tool of
// blockingTool, then answers with answers in turn.
func blockingFixture(t *testing.T, answers ...string) (f *fixture, started, release chan struct{}) {
	t.Helper()
	block, started, release := blockingTool()
	script := []llmtest.Response{llmtest.Reply(llmtest.ToolCall("call_1", "block", `{}`, 1), llmtest.Finish("tool_calls"))}
	for _, answer := range answers {
		script = append(script, llmtest.ReplyText(answer))
	}
	return newFixture(t, script, block), started, release
}

// A message a slash command made of what the user typed goes to the model
// as made; the log keeps what was typed beside it, and the queue, the
// title and a cancelled turn's returned input show what was typed.
func TestAnExpandedMessageKeepsWhatTheUserTyped(t *testing.T) {
	f := newFixture(t, []llmtest.Response{
		llmtest.ReplyText("Reviewed."),
		llmtest.Reply(llmtest.Text("Thinking about", 4), llmtest.Stall()),
	})
	f.agent.SendExpanded("/review 42", "Review PR #42 with care.", agent.TurnOptions{})
	f.waitIdle()
	if last := f.srv.Requests()[0].Messages; last[len(last)-1].Content != "Review PR #42 with care." {
		t.Errorf("the model read %q", last[len(last)-1].Content)
	}
	var typed []string
	var title string
	for _, e := range f.log.Events() {
		switch d := e.Data.(type) {
		case session.UserMessage:
			typed = append(typed, d.Typed)
		case session.Title:
			title = d.Title
		}
	}
	if !slices.Equal(typed, []string{"/review 42"}) || title != "/review 42" {
		t.Errorf("want the typed command logged and as the title, got %q and %q", typed, title)
	}

	_, sub := f.agent.Subscribe()
	defer sub.Close()
	f.agent.Send("hang")
	<-f.srv.Stalled()
	f.agent.SendExpanded("/review 43", "Review PR #43 with care.", agent.TurnOptions{})
	var queued []string
	for queued == nil {
		evs, err := sub.Wait(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range evs {
			if in, ok := e.(agent.InboxChanged); ok && len(in.FollowUps) > 0 {
				queued = in.FollowUps
			}
		}
	}
	if !slices.Equal(queued, []string{"/review 43"}) {
		t.Errorf("want the queue to show what was typed, got %q", queued)
	}
	f.agent.Cancel()
	f.waitIdle()
	var discarded []string
	for _, e := range f.log.Events() {
		if d, ok := e.Data.(session.InboxDiscard); ok {
			discarded = d.Texts
		}
	}
	if !slices.Equal(discarded, []string{"/review 43"}) {
		t.Errorf("want what was typed returned on cancel, got %q", discarded)
	}
}
