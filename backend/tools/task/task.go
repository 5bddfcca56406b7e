// Package task is the task tool: the model hands a self-contained job to a
// subagent, which runs in a session of its own on the same backend and
// answers with its final message. Several tasks of one step run at once.
package task

import (
	"cmp"
	"context"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools"
)

// specFiles hold what the model is told about the tool, as
// tools.ProseFile reads it.
//
//go:embed task.md
var specFiles embed.FS

// MaxRunning bounds the subagents that run at once; further tasks of the
// step wait for a free slot.
const MaxRunning = 4

// Job is one task for a Runner.
type Job struct {
	CallID      string
	Turn        int
	Description string
	Prompt      string
	Agent       subagent.Definition
	// Effort is the child's reasoning effort when the call asked for
	// one; "" is the parent's.
	Effort llm.Effort
	Env    *tools.Env
}

// Progress is what a running subagent has done so far.
type Progress struct {
	Child     string // the child session's id
	Model     string
	Steps     int
	ToolCalls int
	Usage     llm.Usage
	Cost      float64
	// Activity is what it is doing now: "thinking", "read main.go".
	Activity string
	// Transcript is the child's work so far, one line per answer or tool
	// call, for the expanded card.
	Transcript []string
}

// Outcome is how a subagent finished. Err is set when it did not finish
// its turn; Answer is its final message.
type Outcome struct {
	Progress
	Answer string
	Err    error
}

// ErrCancelled is the Outcome error of a task cancelled with its turn.
var ErrCancelled = errors.New("the task was cancelled with the turn (the user pressed Esc)")

// Runner runs subagents. It reports progress as the child works and
// returns when the child's turn ends or ctx is done.
type Runner interface {
	Run(ctx context.Context, job Job, progress func(Progress)) Outcome
}

// Tool is the task tool.
type Tool struct {
	runner Runner
	slots  chan struct{}
	mu     sync.Mutex
	agents []subagent.Definition
}

// New makes the task tool over runner, offering agents.
func New(runner Runner, agents []subagent.Definition) *Tool {
	return &Tool{runner: runner, agents: agents, slots: make(chan struct{}, MaxRunning)}
}

type args struct {
	Description string `json:"description"`
	Prompt      string `json:"prompt"`
	Agent       string `json:"agent"`
	// SubagentType is Claude Code's name for agent (its Task tool's).
	SubagentType string `json:"subagent_type"`
	// The rest are the other arguments of Claude Code's Agent tool. Its
	// effort sets the child's. Its model names a Claude model, which
	// means nothing to tack's provider; its run_in_background, name,
	// team_name and mode do not change how a tack subagent runs (in the
	// foreground, answering this call, in the session's mode); all are
	// let pass. Its isolation is refused: tack has no worktree or remote
	// subagents, and quietly working in the shared tree would surprise.
	Effort          string `json:"effort"`
	Model           string `json:"model"`
	RunInBackground bool   `json:"run_in_background"`
	Name            string `json:"name"`
	TeamName        string `json:"team_name"`
	Mode            string `json:"mode"`
	Isolation       string `json:"isolation"`
}

// agent is the agent the call names, under either name.
func (a args) agent() string { return cmp.Or(a.Agent, a.SubagentType) }

// Add offers more agents, each replacing one of its name: those an Agent
// SDK defines as it initializes.
func (t *Tool) Add(defs []subagent.Definition) {
	t.mu.Lock()
	t.agents = subagent.With(t.agents, defs)
	t.mu.Unlock()
}

// AgentNames are the names of the agents the tool offers now.
func (t *Tool) AgentNames() []string {
	var names []string
	for _, d := range t.offered() {
		names = append(names, d.Name)
	}
	return names
}

// offered are the agents the tool offers now.
func (t *Tool) offered() []subagent.Definition {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.agents
}

// find is the definition an agent name stands for.
func (t *Tool) find(name string) (subagent.Definition, bool) {
	agents := t.offered()
	if def, ok := subagent.Find(agents, name); ok {
		return def, true
	}
	if subagent.ClaudeCodeAgent(name) {
		return subagent.Find(agents, subagent.GeneralName)
	}
	return subagent.Definition{}, false
}

// taskProse is what the model is told about the tool, from task.md; the
// description goes on with the list of agents.
var taskProse = tools.ProseFile(specFiles, "task.md")

// Spec describes task to the model, listing the agents it may name.
func (t *Tool) Spec() tools.Spec {
	var b strings.Builder
	b.WriteString(taskProse().Description)
	agents := t.offered()
	names := make([]string, len(agents))
	for i, a := range agents {
		names[i] = a.Name
		fmt.Fprintf(&b, "\n- %s: %s", a.Name, a.Description)
	}
	nameList, _ := json.Marshal(names)
	schema := `{"type":"object","properties":{` +
		`"description":{"type":"string","description":"A short (3-5 word) label for the job, shown to the user."},` +
		`"prompt":{"type":"string","description":"The full job: what to find or do, what to report back, and everything the subagent needs to know. It sees nothing of this conversation."},` +
		`"agent":{"type":"string","enum":` + string(nameList) + `,"description":"Which agent runs it. Default general."}},` +
		`"required":["description","prompt"],"additionalProperties":false}`
	return tools.Spec{
		Name:         "task",
		Description:  b.String(),
		Schema:       json.RawMessage(schema),
		Guidance:     taskProse().Guidance,
		ParallelSafe: true,
		Access:       tools.AccessRead,
	}
}

// Present is the card before the result: the job and its agent.
func (t *Tool) Present(raw json.RawMessage) card.Card {
	var a args
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Generic, Title: title(a.Description, a.agent()), Label: "Task",
		Subject: strings.TrimSpace(a.Description), Description: agentName(a.agent()), Body: a.Prompt}
}

func title(description, agent string) string {
	return fmt.Sprintf("Task %s (%s)", strings.TrimSpace(description), agentName(agent))
}

// agentName is the agent a task runs, the general one when none is named.
func agentName(agent string) string {
	if agent == "" {
		return subagent.GeneralName
	}
	return agent
}

// Run starts the subagent, shows its progress on the call's card, and
// returns its final answer.
func (t *Tool) Run(ctx context.Context, call tools.Call) tools.Result {
	var a args
	if err := tools.DecodeArgs(call.Args, &a); err != nil {
		return tools.InvalidArgs("%v", err)
	}
	if strings.TrimSpace(a.Prompt) == "" || strings.TrimSpace(a.Description) == "" {
		return tools.InvalidArgs("description and prompt must not be empty")
	}
	if a.Isolation != "" {
		return tools.InvalidArgs("isolation %q is not available: tack's subagents work in the session's workspace; call again without isolation", a.Isolation)
	}
	effort, ok := llm.ParseEffort(a.Effort)
	if !ok && a.Effort != "" {
		return tools.InvalidArgs("invalid effort %q: use low, medium, high, xhigh or max, or leave it out", a.Effort)
	}
	name := a.agent()
	if name == "" {
		name = subagent.GeneralName
	}
	def, ok := t.find(name)
	if !ok {
		return tools.InvalidArgs("no agent named %q; use one of %s", name, strings.Join(t.AgentNames(), ", "))
	}
	select {
	case t.slots <- struct{}{}:
		defer func() { <-t.slots }()
	case <-ctx.Done():
		return tools.Errorf("%v", ErrCancelled)
	}
	head := title(a.Description, name)
	show := func(p Progress) {
		if call.Env != nil && call.Env.Progress != nil {
			c := progressCard(head, p, true)
			c.Label, c.Subject = "Task", strings.TrimSpace(a.Description)
			call.Env.Progress(call.ID, c)
		}
	}
	out := t.runner.Run(ctx, Job{CallID: call.ID, Turn: call.Turn, Description: a.Description, Prompt: a.Prompt, Agent: def, Effort: effort, Env: call.Env}, show)
	c := progressCard(head, out.Progress, false)
	c.Label, c.Subject = "Task", strings.TrimSpace(a.Description)
	if out.Err != nil {
		r := tools.Errorf("the %s subagent did not finish: %v (its session is %s)", name, out.Err, out.Child)
		c.Body = strings.Join(append(out.Transcript, "Error: "+out.Err.Error()), "\n")
		r.Card = &c
		return r
	}
	c.Body = strings.Join(append(out.Transcript, "", out.Answer), "\n")
	u := out.Usage
	c.Agent = &card.AgentRun{Session: out.Child, Model: out.Model, ToolCalls: out.ToolCalls,
		InputTokens: u.Input, CachedTokens: u.CacheRead, OutputTokens: u.Output, ReasoningTokens: u.Reasoning}
	answer := strings.TrimSpace(out.Answer)
	if answer == "" {
		answer = "(the subagent finished without a report)"
	}
	return tools.Result{Text: answer, Card: &c}
}

// progressCard is the task's card: the job, then a line of what the child
// did (steps, tool calls, tokens, cost, and while running its current
// activity), then its transcript.
func progressCard(head string, p Progress, running bool) card.Card {
	var parts []string
	parts = append(parts, plural(p.Steps, "step"), plural(p.ToolCalls, "tool call"),
		tokens(p.Usage.Prompt()+p.Usage.Output)+" tokens")
	if p.Cost > 0 {
		parts = append(parts, fmt.Sprintf("$%.4f", p.Cost))
	}
	if running && p.Activity != "" {
		parts = append(parts, p.Activity)
	}
	return card.Card{Kind: card.Generic, Title: head, Description: strings.Join(parts, " · "), Body: strings.Join(p.Transcript, "\n")}
}

func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func tokens(n int) string {
	switch {
	case n >= 1_000_000:
		return fmt.Sprintf("%.1fM", float64(n)/1e6)
	case n >= 1000:
		return fmt.Sprintf("%.1fk", float64(n)/1e3)
	}
	return fmt.Sprint(n)
}
