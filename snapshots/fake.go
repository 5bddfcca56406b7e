package snapshots

import (
	"context"
	"os"
	"sync"
	"time"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/workspace"
)

var _ app.Backend = (*Fake)(nil)

// Fake is a backend driven by the test: it replays Logged on subscribe
// and delivers whatever Push is given as live events. It records the
// verbs the program calls.
type Fake struct {
	Head     session.Header
	Logged   []session.Event
	ModelID  string
	Effort   llm.Effort
	Spec     llm.Model
	Requests []*interact.Request
	// Permission is the permission label; Catalog the models; Commands
	// the slash commands; Listing the sessions of this workspace and All
	// of every workspace.
	Permission   string
	Catalog      []llm.Model
	CommandList  []commands.Command
	Listing, All []session.Summary
	// Broker, when set, is the queue WaitRequests watches instead of
	// Requests.
	Broker *interact.Broker
	// Workspace, when set, is the directory Files lists (without the
	// user's git configuration).
	Workspace string
	// OtherPrompts are the prompts of the workspace's other sessions,
	// newest first.
	OtherPrompts []string
	// StatusCommand, when set, is run as the user's status line command
	// would be (hooks.StatusLine.Run over the test's directory).
	StatusCommand string

	sub    *agent.Subscription
	mu     sync.Mutex
	status agent.Status
	calls  []string
	// asking is set while the program waits for the request queue to
	// change; taken is the queue it got last.
	asking bool
	taken  []*interact.Request
}

// NewFake makes a fake backend for the session with header h.
func NewFake(h session.Header, history ...session.Event) *Fake {
	return &Fake{Head: h, Logged: history, ModelID: llm.DefaultModel, Effort: llm.EffortHigh, Spec: defaultSpec(),
		sub: agent.NewSubscription(), status: agent.StatusIdle}
}

// defaultSpec is the catalog's entry for tack's default model, priced at
// peak at every hour so that no golden depends on the time of day.
func defaultSpec() llm.Model {
	m, _ := llm.NewCatalog().Lookup(llm.DefaultModel)
	m.OffPeak = nil
	return m
}

// Push delivers live events to the program.
func (f *Fake) Push(events ...agent.Event) {
	f.mu.Lock()
	for _, e := range events {
		if s, ok := e.(agent.StatusChanged); ok {
			f.status = s.Status
		}
	}
	f.mu.Unlock()
	for _, e := range events {
		f.sub.Push(e)
	}
}

// Calls lists the verbs called so far, like "send hello".
func (f *Fake) Calls() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.calls...)
}

func (f *Fake) call(s string) {
	f.mu.Lock()
	f.calls = append(f.calls, s)
	f.mu.Unlock()
}

func (f *Fake) SessionID() string           { return f.Head.ID }
func (f *Fake) Header() session.Header      { return f.Head }
func (f *Fake) Send(text string)            { f.call("send " + text) }
func (f *Fake) Steer(text string)           { f.call("steer " + text) }
func (f *Fake) Cancel()                     { f.call("cancel") }
func (f *Fake) AcceptsNextStep() bool       { return f.Status() == agent.StatusRunning }
func (f *Fake) Model() (string, llm.Effort) { return f.ModelID, f.Effort }

func (f *Fake) Status() agent.Status {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

func (f *Fake) LookupModel(id string) (llm.Model, bool) { return f.Spec, id == f.Spec.ID }

func (f *Fake) Execute(_ context.Context, line string) (commands.Execution, bool) {
	f.call("execute " + line)
	return commands.Execution{}, false
}

// ExecuteLocal records the call and settles the line as res.
func (f *Fake) ExecuteLocal(line string, res commands.Result) (commands.Execution, bool) {
	f.call("execute " + line)
	return commands.Execution{Result: res}, true
}

// WaitRequests returns Requests, or watches Broker when set.
func (f *Fake) WaitRequests(ctx context.Context, first bool) ([]*interact.Request, error) {
	f.mu.Lock()
	f.asking = true
	f.mu.Unlock()
	pending, err := f.waitRequests(ctx, first)
	f.mu.Lock()
	f.asking, f.taken = false, pending
	f.mu.Unlock()
	return pending, err
}

func (f *Fake) waitRequests(ctx context.Context, first bool) ([]*interact.Request, error) {
	if f.Broker != nil {
		return app.AgentBackend{Broker: f.Broker}.WaitRequests(ctx, first)
	}
	if first {
		return f.Requests, nil
	}
	<-ctx.Done()
	return nil, ctx.Err()
}

// Showing reports whether the program has opened its panel or dialog for
// a request: it took a queue holding one and waits for the next change.
// The program asks again only after applying the queue it got, so keys
// sent from now on reach the open panel.
func (f *Fake) Showing() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asking && len(f.taken) > 0
}

// Subscribe returns the history, folded as the agent folds its log, and
// the queue Push feeds.
func (f *Fake) Subscribe() (agent.Snapshot, app.Subscription) {
	p := f.projection()
	snap := agent.Snapshot{Projection: p, NextSeq: f.nextSeq()}
	snap.Recent, snap.Earlier, snap.Err = p.History(session.Events(f.Logged), snap.NextSeq, p.TranscriptLen())
	return snap, f.sub
}

// History reads earlier transcript events back from History.
func (f *Fake) History(before int64, n int) ([]session.Event, bool, error) {
	return f.projection().History(session.Events(f.Logged), before, n)
}

func (f *Fake) projection() *session.Projection {
	p := session.NewProjection(f.Head)
	for _, e := range f.Logged {
		p.Apply(e)
	}
	return p
}

func (f *Fake) nextSeq() int64 {
	if n := len(f.Logged); n > 0 {
		return f.Logged[n-1].Seq + 1
	}
	return 0
}

// ProbeSandbox is PermissionLabel: the fake's sandbox is known at once.
func (f *Fake) ProbeSandbox(context.Context) string { return f.PermissionLabel() }

// PermissionLabel is Permission, "ask" when unset.
func (f *Fake) PermissionLabel() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Permission == "" {
		return "auto · sandboxed"
	}
	return f.Permission
}

// CyclePermissions records the call and moves auto → plan → read-only →
// ask → auto, sandboxed, as a session does.
func (f *Fake) CyclePermissions() (string, error) {
	f.call("cycle-permissions")
	f.mu.Lock()
	defer f.mu.Unlock()
	switch f.Permission {
	case "", "auto · sandboxed":
		f.Permission = "plan · sandboxed"
	case "plan · sandboxed":
		f.Permission = "read-only · sandboxed"
	case "read-only · sandboxed":
		f.Permission = "ask · sandboxed"
	default:
		f.Permission = "auto · sandboxed"
	}
	return f.Permission, nil
}

func (f *Fake) Models() []llm.Model { return f.Catalog }

// SetModel records the choice.
func (f *Fake) SetModel(model string, effort llm.Effort) error {
	f.call("set-model " + model + " " + string(effort))
	f.mu.Lock()
	f.ModelID, f.Effort = model, effort
	f.mu.Unlock()
	return nil
}

func (f *Fake) SlashCommands() []commands.Command { return f.CommandList }

// WaitCommands waits for ctx to end: CommandList does not change.
func (f *Fake) WaitCommands(ctx context.Context, _ []commands.Command) ([]commands.Command, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

// Sessions returns Listing, or All when all is set.
func (f *Fake) Sessions(all bool) ([]session.Summary, error) {
	if all {
		return f.All, nil
	}
	return f.Listing, nil
}

// Files lists Workspace, or nothing.
func (f *Fake) Files(ctx context.Context) ([]string, error) {
	if f.Workspace == "" {
		return nil, nil
	}
	return (&workspace.Walker{}).List(ctx, f.Workspace, launch.FilesLimit)
}

// Inject records the context.
func (f *Fake) Inject(origin, text string) { f.call("inject " + origin + " " + text) }

// Shell records the command and reports it ran with no output.
func (f *Fake) Shell(_ context.Context, command string) launch.ShellRun {
	f.call("shell " + command)
	return launch.ShellRun{Output: "(no output)"}
}

// PromptHistory is OtherPrompts.
func (f *Fake) PromptHistory(context.Context) []string { return f.OtherPrompts }

// StatusLine runs StatusCommand, or reports that none is set.
func (f *Fake) StatusLine(ctx context.Context, in hooks.StatusInput) (hooks.StatusRun, error) {
	if f.StatusCommand == "" {
		return hooks.StatusRun{}, launch.ErrNoStatusLine
	}
	f.call("statusline")
	in.SessionID, in.Cwd = f.Head.ID, f.Head.Cwd
	// A script's three jq runs can take over the real 5 s limit on a
	// loaded machine; the limit has tests of its own in backend/hooks.
	return hooks.StatusLine{Command: f.StatusCommand, Source: "~/.claude/settings.json", Timeout: time.Minute}.Run(ctx, os.TempDir(), os.Environ(), in)
}
