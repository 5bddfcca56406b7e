package app

import (
	"context"
	"errors"
	"slices"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
)

// AgentBackend adapts a running agent, its command registry and its
// interaction broker to Backend. Session, when set, brings the permission
// policy, the session store and the mode cycle; without it the permission
// mode reads as the default and sessions cannot be listed.
type AgentBackend struct {
	Agent    *agent.Agent
	Commands *commands.Registry
	Broker   *interact.Broker
	Session  *launch.Session
}

var _ Backend = AgentBackend{}

// SessionID is the session's id.
func (b AgentBackend) SessionID() string { return b.Agent.SessionID() }

// Header is the session log's header.
func (b AgentBackend) Header() session.Header { return b.Agent.Header() }

// Subscribe subscribes to the agent.
func (b AgentBackend) Subscribe() (agent.Snapshot, Subscription) {
	snap, sub := b.Agent.Subscribe()
	return snap, sub
}

// History reads earlier transcript events back from the session log.
func (b AgentBackend) History(before int64, n int) ([]session.Event, bool, error) {
	return b.Agent.History(before, n)
}

// Send submits a prompt or queues a follow-up.
func (b AgentBackend) Send(text string) { b.Agent.Send(text) }

// Steer joins the running turn at its next step.
func (b AgentBackend) Steer(text string) { b.Agent.Steer(text) }

// Cancel aborts the running turn.
func (b AgentBackend) Cancel() { b.Agent.Cancel() }

// Status is idle or running.
func (b AgentBackend) Status() agent.Status { return b.Agent.Status() }

// AcceptsNextStep reports whether steering joins the running turn.
func (b AgentBackend) AcceptsNextStep() bool { return b.Agent.AcceptsNextStep() }

// Model is the model and effort of the next step.
func (b AgentBackend) Model() (string, llm.Effort) { return b.Agent.Model() }

// LookupModel finds a model in the agent's catalog.
func (b AgentBackend) LookupModel(id string) (llm.Model, bool) {
	if c := b.Agent.Catalog(); c != nil {
		return c.Lookup(id)
	}
	return llm.Model{}, false
}

// Models lists the agent's catalog.
func (b AgentBackend) Models() []llm.Model {
	if c := b.Agent.Catalog(); c != nil {
		return c.Models()
	}
	return nil
}

// SetModel switches the agent's model and effort.
func (b AgentBackend) SetModel(model string, effort llm.Effort) error {
	return b.Agent.SetModel(model, effort)
}

// Execute runs a slash command through the registry.
func (b AgentBackend) Execute(ctx context.Context, line string) (commands.Execution, bool) {
	if b.Commands == nil {
		return commands.Execution{}, false
	}
	return b.Commands.Execute(ctx, b.Agent, line, nil)
}

// ExecuteLocal logs a command line the app performs itself.
func (b AgentBackend) ExecuteLocal(line string, res commands.Result) (commands.Execution, bool) {
	if b.Commands == nil {
		return commands.Execution{}, false
	}
	return b.Commands.ExecuteLocal(b.Agent, line, res)
}

// SlashCommands lists the registry's commands for this session.
func (b AgentBackend) SlashCommands() []commands.Command {
	if b.Commands == nil {
		return nil
	}
	return b.Commands.List(b.Agent.SessionID())
}

// WaitCommands waits for the registry to hold other commands than known
// for this session: other names, descriptions or hints.
func (b AgentBackend) WaitCommands(ctx context.Context, known []commands.Command) ([]commands.Command, error) {
	if b.Commands == nil {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	changed := make(chan struct{}, 1)
	stop := b.Commands.Subscribe(func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	defer stop()
	for {
		if now := b.SlashCommands(); !slices.EqualFunc(now, known, sameListing) {
			return now, nil
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// sameListing reports whether two commands show alike in completion and
// help.
func sameListing(a, b commands.Command) bool {
	return a.Name == b.Name && a.Summary() == b.Summary() && a.Input.Hint == b.Input.Hint
}

// WaitRequests waits for the broker's queue to change.
func (b AgentBackend) WaitRequests(ctx context.Context, first bool) ([]*interact.Request, error) {
	if b.Broker == nil {
		<-ctx.Done()
		return nil, ctx.Err()
	}
	if !first {
		select {
		case <-b.Broker.Changes():
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	return b.Broker.Pending(), nil
}

// PermissionLabel is the policy's mode and sandbox state (the state "…"
// until the sandbox's probe answers), or the default mode without a
// launched session.
func (b AgentBackend) PermissionLabel() string {
	if b.Session == nil || b.Session.Policy == nil {
		return string(permission.DefaultMode)
	}
	return b.Session.PermissionLabel()
}

// ProbeSandbox waits for the launched session's sandbox probe, starting it
// if nobody has, and returns the label then.
func (b AgentBackend) ProbeSandbox(ctx context.Context) string {
	if b.Session == nil || b.Session.Sandbox == nil {
		return b.PermissionLabel()
	}
	return b.Session.ProbeSandbox(ctx)
}

// CyclePermissions moves the launched session to its next mode.
func (b AgentBackend) CyclePermissions() (string, error) {
	if b.Session == nil || b.Session.Policy == nil {
		return b.PermissionLabel(), errors.New("this session has no permission policy to change")
	}
	return b.Session.CyclePermissions()
}

// Sessions lists the sessions of the launched session's workspace.
func (b AgentBackend) Sessions(all bool) ([]session.Summary, error) {
	if b.Session == nil {
		return nil, errors.New("sessions cannot be listed here; run tack --resume <id>")
	}
	return session.List(b.Session.Home, b.Session.Cwd, all)
}

// Files lists the launched session's workspace.
func (b AgentBackend) Files(ctx context.Context) ([]string, error) {
	if b.Session == nil {
		return nil, errors.New("no workspace to list without a launched session")
	}
	return b.Session.Files(ctx)
}

// Inject adds model-visible context.
func (b AgentBackend) Inject(origin, text string) { b.Agent.Inject(origin, text) }

// Shell runs a `!command` in the launched session.
func (b AgentBackend) Shell(ctx context.Context, command string) launch.ShellRun {
	if b.Session == nil {
		return launch.ShellRun{Card: card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: command}},
			Output: "Not run: this screen has no launched session to run shell commands in.", Failed: true}
	}
	return b.Session.Shell(ctx, command)
}

// PromptHistory is the prompts of the launched session's other sessions.
func (b AgentBackend) PromptHistory(ctx context.Context) []string {
	if b.Session == nil {
		return nil
	}
	return b.Session.PromptHistory(ctx)
}

// StatusLine runs the launched session's status line command.
func (b AgentBackend) StatusLine(ctx context.Context, in hooks.StatusInput) (hooks.StatusRun, error) {
	if b.Session == nil {
		return hooks.StatusRun{}, launch.ErrNoStatusLine
	}
	return b.Session.StatusLine(ctx, in)
}
