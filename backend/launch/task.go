package launch

import (
	"cmp"
	"context"
	crand "crypto/rand"
	"errors"
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/images"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/prompt"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/structured"
	"github.com/tack-agent/tack/backend/tools/task"
)

// taskRunner runs the task tool's subagents: each in a child session of
// its own, on the parent's provider and catalog, behind the parent's
// permission gate, with the tools its definition allows.
type taskRunner struct {
	s            *Session
	o            Options
	provider     llm.Provider
	instructions []prompt.Instruction
	compactAt    float64
	// told holds the names of the agents the user was told of what tack
	// does not do of their files (agentNote): once each.
	told sync.Map
}

// subagentBrief opens a subagent's system prompt, before its definition's
// own instructions.
const subagentBrief = "\n\n# Your role\n\nYou are a subagent: another agent handed you the job in the user message " +
	"with its task tool. Work on it alone; you cannot ask the user anything. When you are done, answer with one final " +
	"report holding everything the other agent needs, file paths and facts included: it sees only that report."

// Run starts the child, follows its events into progress and the parent's
// usage, and returns its answer when its turn ends.
func (r *taskRunner) Run(ctx context.Context, job task.Job, progress func(task.Progress)) task.Outcome {
	return r.run(ctx, job, childRun{hooked: true}, progress)
}

// childRun is how a child runs beyond its job: the task tool's meet the
// session's hooks; an agent hook's meet none (its calls would start
// hooks of their own), think not and take few steps.
type childRun struct {
	hooked bool
	// effort is the child's reasoning effort; "" is the parent's.
	effort llm.Effort
	turn   agent.TurnOptions
}

// run runs a child for job as Run does, the way how says.
func (r *taskRunner) run(ctx context.Context, job task.Job, how childRun, progress func(task.Progress)) task.Outcome {
	parent := r.s.Agent
	model, effort := parent.Model()
	if job.Agent.Model != "" {
		model = job.Agent.Model
	}
	r.tellOnce(job.Agent, model)
	effort = cmp.Or(how.effort, job.Effort, effort)
	log, err := r.createChild(parent.SessionID(), job.Agent.Name, model)
	if err != nil {
		return task.Outcome{Err: err}
	}
	defer log.Close()
	id := log.Header().ID
	record(job.Env, session.TaskStart{Turn: job.Turn, CallID: job.CallID, Child: id, Agent: job.Agent.Name, Description: job.Description})
	registry, closeTools := r.childTools(job.Agent)
	defer closeTools()
	var child *agent.Agent
	var childHooks agent.Hooks
	if how.hooked {
		childEffort := func() llm.Effort {
			_, effort := child.Model()
			return effort
		}
		childHooks = subagentHooks(r.s.hooks, log, r.s.transcriptOf(log, r.o.Version).path, hookAgentType(job.Agent.Name), childEffort, func(d session.Data) error {
			_, err := child.Record(d)
			return err
		})
	}
	child = agent.New(agent.Config{
		Log: log, Provider: r.provider, Catalog: r.s.Catalog, Model: model, Effort: effort,
		System: prompt.Build("", r.s.Cwd, registry.Tools(), r.instructions) + subagentBrief + instructionsOf(job.Agent) + preloaded(r.s.Skills, job.Agent),
		Tools:  registry, Gate: r.s.Policy, Broker: r.s.Broker, Hooks: childHooks,
		Retry: llm.DefaultRetryPolicy(rand.Float64),
		Cwd:   r.s.Cwd, SpillDir: filepath.Join(r.o.Home, "spill", id), Now: r.o.Now,
		Images: images.NewStore(session.ImageDir(log.Path())), CompactAt: r.compactAt,
	})
	defer child.Close()
	_, _ = child.Record(session.Title{Title: job.Description, Source: session.TitleTask})
	_, sub := child.Subscribe()
	defer sub.Close()
	w := &childWatch{job: job, catalog: r.s.Catalog, out: task.Outcome{Progress: task.Progress{Child: id, Model: model}}}
	child.SendWith(job.Prompt, limited(how.turn, job.Agent))
	return w.follow(ctx, child, sub, progress)
}

func record(env *tools.Env, d session.Data) {
	if env != nil && env.Record != nil {
		_ = env.Record(d)
	}
}

func instructionsOf(d subagent.Definition) string {
	if d.Prompt == "" {
		return ""
	}
	return "\n\n# Instructions for the " + d.Name + " agent\n\n" + d.Prompt
}

// createChild makes the child's session log beside the parent's, its
// header naming the parent.
func (r *taskRunner) createChild(parent, agentName, model string) (*session.Log, error) {
	var err error
	for range 3 {
		// Crypto randomness, not Options.Rand: children of one second must
		// not share an id even where tests fix the parent's.
		id := session.NewID(r.o.Now(), crand.Reader)
		h := session.Header{Version: 1, ID: id, Created: r.o.Now().UTC(), Cwd: r.s.Cwd, Model: model, Parent: parent, Agent: agentName}
		var log *session.Log
		if log, err = session.Create(session.PathFor(r.o.Home, r.s.Cwd, id), h); err == nil {
			return log, nil
		}
	}
	return nil, fmt.Errorf("could not create the subagent's session: %w", err)
}

// childTools is the child's tool set: fresh local tools (its own file
// tracker and shell), the parent's web and MCP tools, kept to what the
// definition allows.
func (r *taskRunner) childTools(def subagent.Definition) (*tools.Registry, func()) {
	local, shell := Tools(r.s.Policy, r.s.Workspace, r.o.Environ, r.s.Sandbox, r.o.Home, !r.o.Unattended)
	local = r.o.builtins(local)
	out := tools.NewRegistry()
	for _, t := range local.Tools() {
		if def.Allowed(t.Spec().Name) {
			out.Add(t)
		}
	}
	for _, t := range r.s.Agent.Tools().Tools() {
		name := t.Spec().Name
		// The structured answer is the parent's to give.
		if _, have := local.Get(name); !have && def.Allowed(name) && name != structured.Name {
			out.Add(t)
		}
	}
	return out, shell.Close
}

// childWatch folds a child's events into its progress and outcome.
type childWatch struct {
	job     task.Job
	catalog *llm.Catalog
	out     task.Outcome
	answer  string
}

// follow reads the child's events until its turn ends. When ctx ends the
// child is cancelled and followed to the end of its turn.
func (w *childWatch) follow(ctx context.Context, child *agent.Agent, sub *agent.Subscription, progress func(task.Progress)) task.Outcome {
	wait, cancelled := ctx, false
	for {
		evs, err := sub.Wait(wait)
		if err != nil {
			// The parent's turn was cancelled: cancel the child and see
			// its turn end.
			wait, cancelled = context.Background(), true
			child.Cancel()
			continue
		}
		if cancelled {
			// Again at every wake: a turn not yet started when the
			// parent's ended is cancelled once it runs.
			child.Cancel()
		}
		if evs == nil {
			w.out.Err = errors.New("the subagent stopped")
			return w.out
		}
		for _, e := range evs {
			if end, ok := w.apply(e); ok {
				return w.finish(end, cancelled)
			}
		}
		progress(w.out.Progress)
	}
}

// apply folds one event; it reports the turn's end.
func (w *childWatch) apply(e agent.Event) (session.TurnEnd, bool) {
	switch e := e.(type) {
	case agent.PhaseChanged:
		switch e.Phase {
		case agent.PhaseThinking, agent.PhaseModelWait:
			w.out.Activity = "thinking"
		case agent.PhaseResponding:
			w.out.Activity = "writing"
		}
	case agent.Logged:
		switch d := e.Data.(type) {
		case session.StepStart:
			w.out.Steps++
			w.out.Model = d.Model
		case session.AssistantMessage:
			w.assistant(d, e.Time)
		case session.ToolCall:
			w.out.ToolCalls++
			w.out.Activity = oneLine(d.Card.Title, d.Name)
			w.out.Transcript = append(w.out.Transcript, "● "+w.out.Activity)
		case session.ToolResult:
			if d.IsError {
				w.out.Transcript = append(w.out.Transcript, "  "+oneLine(d.Text, "error"))
			}
		case session.TurnEnd:
			return d, true
		}
	}
	return session.TurnEnd{}, false
}

func (w *childWatch) assistant(d session.AssistantMessage, at time.Time) {
	w.out.Usage = w.out.Usage.Add(d.Usage)
	m, _ := w.catalog.Lookup(w.out.Model)
	cost := m.Cost(d.Usage, at)
	w.out.Cost += cost
	record(w.job.Env, session.TaskUsage{CallID: w.job.CallID, Child: w.out.Child, Model: w.out.Model, Usage: d.Usage, Cost: cost})
	if text := strings.TrimSpace(d.Text); text != "" {
		w.answer = text
		if len(d.ToolCalls) > 0 {
			w.out.Transcript = append(w.out.Transcript, strings.Split(text, "\n")...)
		}
	}
}

func (w *childWatch) finish(end session.TurnEnd, cancelled bool) task.Outcome {
	w.out.Activity = ""
	switch {
	case cancelled || end.Reason == session.StopAborted:
		w.out.Err = task.ErrCancelled
	case end.Reason == session.StopError && end.Error != nil:
		w.out.Err = errors.New(end.Error.Message)
	case end.Reason == session.StopMaxSteps && w.job.Agent.MaxTurns > 0:
		w.out.Answer = strings.TrimSpace(w.answer + "\n\n(The agent stopped at its maxTurns limit of " + strconv.Itoa(w.job.Agent.MaxTurns) +
			" before it finished: this report may be partial.)")
	case end.Reason != session.StopCompleted && end.Reason != session.StopMaxTokens:
		w.out.Err = fmt.Errorf("its turn ended: %s", end.Reason)
	default:
		w.out.Answer = w.answer
	}
	return w.out
}

// oneLine is the first line of s, or fallback when s is empty.
func oneLine(s, fallback string) string {
	s = strings.TrimSpace(s)
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i] + " …"
	}
	if s == "" {
		return fallback
	}
	return s
}

// hookAgentType is the agent type hooks read for the definition name:
// Claude Code's general-purpose for tack's general agent, which its
// SubagentStop matchers name.
func hookAgentType(name string) string {
	if name == "" || name == subagent.GeneralName {
		return "general-purpose"
	}
	return name
}
