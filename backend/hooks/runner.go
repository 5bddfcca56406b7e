package hooks

import (
	"cmp"
	"context"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// Options configure a Runner.
type Options struct {
	Hooks     []Hook
	SessionID string
	// Transcript brings the session's Claude Code transcript up to date
	// and returns its path, sent as transcript_path; it is called only
	// when a hook is about to run.
	Transcript func() string
	// PromptID says the promptId of the user's latest input in the
	// transcript as Transcript left it ("" before the first of this
	// process), TurnPromptID the one the prompt that starts turn will
	// carry: sent as prompt_id, as Claude Code sends its input's.
	PromptID     func() string
	TurnPromptID func(turn int) string
	Cwd          string
	// Environ is the hooks' environment (provider keys removed).
	Environ []string
	// Mode says the permission mode, sent as permission_mode.
	Mode func() string
	// Model says the model and effort of the agent's next step: the model
	// is sent to session_start as model, the effort as effort.level.
	Model func() (string, llm.Effort)
	// AgentType names the agent definition the session runs as (--agent),
	// sent as agent_type for the session's own agent; "" for none.
	AgentType string
	// Record logs each run as a hook/run event.
	Record func(session.Data) error
	// Approve asks the user whether the project's hooks may run, at their
	// first use; an error with ctx done asks again at the next use. Nil
	// never runs project hooks.
	Approve func(ctx context.Context) (bool, error)
	// Source is why the session started, for session_start: "startup",
	// or "resume" for a session that existed before.
	Source string
	// IdleAfter is how long after a turn ends with no new prompt the
	// notification hooks hear that tack waits for the user (idle_prompt);
	// 0 never.
	IdleAfter time.Duration
	// Judge asks a model the prompt hooks' questions; nil fails them.
	Judge Judge
	// Verify has a subagent with read-only tools answer the agent hooks'
	// questions; nil fails them.
	Verify Judge
	// Inject gives the model context at its next request and keeps it in
	// the session (the agent's Inject): what async hooks answer once they
	// end. Nil drops it.
	Inject func(text string)
	// Wake hands the model what an asyncRewake hook said as it exited 2
	// and has it act on it: the running turn takes it at its next step,
	// or a turn starts. Nil drops it.
	Wake func(text string)
}

// What a notification is about (notification_type), by Claude Code's
// names, which notification hooks' matchers pick: tack needs an answer
// to an approval or a question, or has waited IdleAfter for a prompt.
const (
	NotifyPermission  = "permission_prompt"
	NotifyIdle        = "idle_prompt"
	NotifyElicitation = "elicitation_dialog"
)

// Runner runs the hooks of one session; it is the agent's agent.Hooks.
// Its methods are safe for concurrent use.
type Runner struct {
	opts Options
	// ctx ends the notification hooks, which run on their own; bg waits
	// for them.
	ctx    context.Context
	cancel context.CancelFunc
	bg     sync.WaitGroup

	// started runs session_start once; startContext is what it added,
	// until the first prompt takes it.
	started      sync.Once
	startContext string

	mu       sync.Mutex
	decided  bool // the user answered about the project's hooks
	approved bool

	// bgMu orders starting background runs and the idle notice with
	// Close. It is not mu, which is held while the user is asked about
	// the project's hooks, and that question's notification starts one.
	bgMu sync.Mutex
	idle *time.Timer // tells of a wait for the user; nil when none is armed
	// wakers ends the asyncRewake hooks running when the user cancels
	// a turn (see Cancelled); it is replaced then, under bgMu.
	wakers     context.Context
	stopWakers context.CancelFunc
}

var _ agent.Hooks = (*Runner)(nil)

// NewRunner makes a runner of the hooks.
func NewRunner(o Options) *Runner {
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{opts: o, ctx: ctx, cancel: cancel}
	r.wakers, r.stopWakers = context.WithCancel(ctx)
	return r
}

// Close ends the notification hooks still running and waits for them.
func (r *Runner) Close() {
	r.bgMu.Lock()
	r.cancel()
	r.stopIdle()
	r.bgMu.Unlock()
	r.bg.Wait()
}

// background runs f in the background unless the runner is closed, and
// reports whether it does; Close waits for it.
func (r *Runner) background(f func()) bool {
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	if r.ctx.Err() != nil {
		return false
	}
	r.bg.Add(1)
	go func() {
		defer r.bg.Done()
		f()
	}()
	return true
}

// Empty reports whether there are no hooks to run.
func (r *Runner) Empty() bool { return len(r.hooks()) == 0 }

// Add runs hs too from now on: an Agent SDK's hooks, which it names as
// it initializes.
func (r *Runner) Add(hs []Hook) {
	r.mu.Lock()
	r.opts.Hooks = append(slices.Clip(r.opts.Hooks), hs...)
	r.mu.Unlock()
}

// hooks are the hooks the runner runs now.
func (r *Runner) hooks() []Hook {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.opts.Hooks
}

// caller is whom hooks run for: the session's own agent (the zero
// caller), or one of its subagents, whose log records its runs.
type caller struct {
	agentID, agentType string
	// effort says the subagent's reasoning effort.
	effort func() llm.Effort
	// transcript brings the subagent's Claude Code transcript up to date
	// and returns its path.
	transcript func() string
	record     func(session.Data) error
}

// runAll runs the hooks of event that match tool, all at once, and
// records each run in hook order.
func (r *Runner) runAll(ctx context.Context, turn int, event Event, in Input, callID string) []Result {
	return r.runFor(ctx, caller{}, turn, event, in, callID)
}

// runFor is runAll for c.
func (r *Runner) runFor(ctx context.Context, c caller, turn int, event Event, in Input, callID string) []Result {
	in.AgentID, in.AgentType = c.agentID, cmp.Or(c.agentType, r.opts.AgentType)
	subject := in.ToolName // what the matcher selects on
	switch event {
	case SessionStart:
		subject = in.Source
	case SessionEnd:
		subject = in.Reason
	case SubagentStart, SubagentStop:
		subject = in.AgentType
	case Notification:
		subject = in.NotificationType
	case PreCompact, PostCompact:
		subject = in.Trigger
	case StopFailure:
		subject = in.Error
	case Elicitation, ElicitationResult:
		subject = in.MCPServerName
	}
	var hs []Hook
	home := envValue(r.opts.Environ, "HOME")
	for _, h := range r.hooks() {
		if h.Event == event && (subject == "" || h.Matches(subject)) && h.runsFor(in, r.opts.Cwd, home) && r.allowed(ctx, h) {
			hs = append(hs, h)
		}
	}
	if len(hs) == 0 {
		return nil
	}
	in.SessionID, in.Cwd = r.opts.SessionID, r.opts.Cwd
	in.TranscriptPath, in.AgentTranscriptPath = synced(r.opts.Transcript), synced(c.transcript)
	if in.PromptID == "" && r.opts.PromptID != nil {
		in.PromptID = r.opts.PromptID()
	}
	// Hooks written for Claude Code test tool_name against its names
	// ("Bash", "Edit"), as the Agent SDKs' callbacks do.
	tool := in.ToolName
	in.Event, in.ToolName = claudeName[event], tools.ClaudeName(tool)
	if r.opts.Mode != nil {
		in.PermissionMode = r.opts.Mode()
	}
	if event != SessionStart && event != SessionEnd {
		in.Effort, _ = EffortOf(r.effort(c))
	}
	var waited []Hook
	for _, h := range hs {
		if !h.Async {
			waited = append(waited, h)
			continue
		}
		r.runAsync(c, turn, h, in, tool, callID)
	}
	results := make([]Result, len(waited))
	var wg sync.WaitGroup
	for i, h := range waited {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = run(ctx, h, in, r.opts.Cwd, r.opts.Environ, judges{r.opts.Judge, r.opts.Verify})
		}()
	}
	wg.Wait()
	for _, res := range results {
		if res.later != nil {
			r.finishLater(c, turn, tool, cmp.Or(in.Source, in.Reason, in.Trigger), callID, res.later)
			continue
		}
		r.record(c, turn, tool, cmp.Or(in.Source, in.Reason, in.Trigger), callID, res)
	}
	return results
}

// effort is the reasoning effort of c's next step.
func (r *Runner) effort(c caller) llm.Effort {
	switch {
	case c.agentID != "" && c.effort != nil:
		return c.effort()
	case c.agentID == "" && r.opts.Model != nil:
		_, effort := r.opts.Model()
		return effort
	}
	return ""
}

// model is the model of the agent's next step.
func (r *Runner) model() string {
	if r.opts.Model == nil {
		return ""
	}
	model, _ := r.opts.Model()
	return model
}

// allowed reports whether h may run: the user's own hooks always, the
// project's once the user approved them.
func (r *Runner) allowed(ctx context.Context, h Hook) bool {
	if !h.Project {
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if !r.decided && r.opts.Approve != nil {
		ok, err := r.opts.Approve(ctx)
		if err == nil || ctx.Err() == nil {
			r.decided, r.approved = true, ok
		}
	}
	return r.approved
}

func (r *Runner) record(c caller, turn int, tool, source, callID string, res Result) {
	rec := c.record
	if rec == nil {
		rec = r.opts.Record
	}
	if rec == nil {
		return
	}
	_ = rec(session.HookRun{
		Turn: turn, Event: string(res.Hook.Event), Command: res.Hook.Command, Origin: res.Hook.Origin,
		Tool: tool, Source: source, CallID: callID, Outcome: string(res.Outcome), ExitCode: res.ExitCode,
		DurationMs: res.Duration.Milliseconds(), Reason: res.Reason, Output: res.Stdout,
		Message: res.message(), Async: res.Hook.Async,
	})
}

// StartSession runs the session_start hooks in the background, once
// when is closed (after wait when it is nil), unless the first prompt
// runs them sooner: what they add goes with the first prompt, as Claude
// Code adds it to the session's start.
func (r *Runner) StartSession(wait time.Duration, when <-chan struct{}) {
	if !r.has(SessionStart) {
		return
	}
	r.background(func() {
		var timer <-chan time.Time // nil, never ready, when when is set
		if when == nil {
			t := time.NewTimer(wait)
			defer t.Stop()
			timer = t.C
		}
		select {
		case <-timer:
		case <-when:
		case <-r.ctx.Done():
			return
		}
		r.sessionStart()
	})
}

// sessionStart runs the session_start hooks the first time it is called;
// later calls wait for that run to end.
func (r *Runner) sessionStart() {
	r.started.Do(func() {
		var extra []string
		for _, res := range r.runAll(r.ctx, 0, SessionStart, Input{Source: r.opts.Source, Model: r.model()}, "") {
			if c := res.context(); c != "" {
				extra = append(extra, c)
			}
		}
		r.startContext = strings.Join(extra, "\n")
	})
}

// EndSession runs the session_end hooks, reason saying why the session
// ends ("other"); they cannot stop it, and what they print is not read.
func (r *Runner) EndSession(reason string) {
	if r.has(SessionEnd) && r.ctx.Err() == nil {
		r.runAll(r.ctx, 0, SessionEnd, Input{Reason: reason}, "")
	}
}

func (r *Runner) has(event Event) bool {
	return slices.ContainsFunc(r.hooks(), func(h Hook) bool { return h.Event == event })
}

// PromptSubmitted runs user_prompt_submit: any block refuses the prompt;
// the hooks' stdout (or additionalContext) is added after it, after what
// session_start added for the first prompt.
func (r *Runner) PromptSubmitted(ctx context.Context, turn int, prompt string) (string, string) {
	var blocks, extra []string
	r.sessionStart()
	r.bgMu.Lock()
	r.stopIdle()
	r.bgMu.Unlock()
	r.mu.Lock()
	if r.startContext != "" {
		extra, r.startContext = append(extra, r.startContext), ""
	}
	r.mu.Unlock()
	in := Input{Prompt: prompt}
	if r.opts.TurnPromptID != nil {
		in.PromptID = r.opts.TurnPromptID(turn)
	}
	for _, res := range r.runAll(ctx, turn, UserPromptSubmit, in, "") {
		switch {
		case res.Outcome == OutcomeBlocked:
			blocks = append(blocks, res.Reason)
		case res.context() != "":
			extra = append(extra, res.context())
		}
	}
	return strings.Join(blocks, "\n"), strings.Join(extra, "\n")
}

// Stopping runs stop: a hook that blocks keeps the turn going, its reason
// telling the model what to do.
func (r *Runner) Stopping(ctx context.Context, turn int, again bool, last string) string {
	reason := r.stopping(ctx, caller{}, Stop, turn, again, last)
	if reason == "" {
		r.armIdle()
	}
	return reason
}

// armIdle has the notification hooks told, IdleAfter from now, that tack
// waits for the user, unless a prompt comes first.
func (r *Runner) armIdle() {
	if r.opts.IdleAfter <= 0 || !r.has(Notification) {
		return
	}
	r.bgMu.Lock()
	defer r.bgMu.Unlock()
	r.stopIdle()
	r.idle = time.AfterFunc(r.opts.IdleAfter, func() { r.Notify("tack is waiting for your input", NotifyIdle) })
}

// stopIdle disarms the idle notification; r.bgMu is held.
func (r *Runner) stopIdle() {
	if r.idle != nil {
		r.idle.Stop()
		r.idle = nil
	}
}

func (r *Runner) stopping(ctx context.Context, c caller, event Event, turn int, again bool, last string) string {
	var reasons []string
	for _, res := range r.runFor(ctx, c, turn, event, Input{StopHookActive: &again, LastAssistantMessage: last}, "") {
		if res.Outcome == OutcomeBlocked {
			reasons = append(reasons, res.Reason)
		}
	}
	return strings.Join(reasons, "\n")
}

// Compacting runs pre_compact: what the hooks print, or add as context,
// joins the summary's instructions.
func (r *Runner) Compacting(ctx context.Context, turn int, trigger, instructions string) string {
	return r.compacting(ctx, caller{}, turn, trigger, instructions)
}

func (r *Runner) compacting(ctx context.Context, c caller, turn int, trigger, instructions string) string {
	var notes []string
	for _, res := range r.runFor(ctx, c, turn, PreCompact, Input{Trigger: trigger, CustomInstructions: &instructions}, "") {
		if note := res.context(); note != "" {
			notes = append(notes, note)
		}
	}
	return strings.Join(notes, "\n")
}

// Compacted runs post_compact with the summary, in the background.
func (r *Runner) Compacted(_ context.Context, turn int, trigger, summary string) {
	r.compacted(caller{}, turn, trigger, summary)
}

func (r *Runner) compacted(c caller, turn int, trigger, summary string) {
	if !r.has(PostCompact) {
		return
	}
	r.background(func() {
		r.runFor(r.ctx, c, turn, PostCompact, Input{Trigger: trigger, CompactSummary: summary}, "")
	})
}

// failureTypes are Claude Code's names of the errors a turn ends on, by
// the kinds of tack's failures; any other is "unknown".
var failureTypes = map[string]string{
	"rate-limit": "rate_limit", "auth": "authentication_failed", "no-credentials": "authentication_failed",
	"quota": "billing_error", "invalid-request": "invalid_request", "context-overflow": "invalid_request",
	"server": "server_error", "transport": "server_error", "stream-closed": "server_error", "malformed": "server_error",
	"empty-response": "server_error",
}

// TurnFailed runs stop_failure, in the background: the turn has ended.
func (r *Runner) TurnFailed(_ context.Context, turn int, kind, message string) {
	if !r.has(StopFailure) {
		return
	}
	r.background(func() {
		in := Input{Error: cmp.Or(failureTypes[kind], "unknown"), ErrorDetails: message}
		r.runFor(r.ctx, caller{}, turn, StopFailure, in, "")
	})
}

// Notify runs the notification hooks of kind (their matcher picks it)
// with message, tack needing the user, in the background: the request
// waits for the user, not for them.
func (r *Runner) Notify(message, kind string) {
	r.background(func() {
		r.runAll(r.ctx, 0, Notification, Input{Message: message, NotificationType: kind}, "")
	})
}
