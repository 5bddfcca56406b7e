package app

import (
	"context"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// Backend is everything the app asks of the embedded backend. Update never
// calls it: every call is made inside a tea.Cmd, so a slow or blocked
// backend can never freeze the screen.
type Backend interface {
	SessionID() string
	// Header is the session log's header (id, cwd, model, creation).
	Header() session.Header
	// Subscribe returns the events logged so far and the live events after
	// them, with no gap or overlap.
	Subscribe() ([]session.Event, Subscription)
	Send(text string)
	Steer(text string)
	Cancel()
	Status() agent.Status
	AcceptsNextStep() bool
	Model() (string, llm.Effort)
	// LookupModel prices and sizes a model for the status row.
	LookupModel(id string) (llm.Model, bool)
	// Execute runs a slash command line; false means no such command.
	Execute(ctx context.Context, line string) (commands.Execution, bool)
	// WaitRequests blocks until the pending questions and approvals may have
	// changed (it returns at once the first time) and returns them.
	WaitRequests(ctx context.Context, first bool) ([]*interact.Request, error)
}

// Subscription is a live event queue (*agent.Subscription).
type Subscription interface {
	// Wait returns every queued event, blocking until there is one; nil
	// events and a nil error mean the subscription ended.
	Wait(ctx context.Context) ([]agent.Event, error)
	Close()
}

// AgentBackend adapts a running agent, its command registry and its
// interaction broker to Backend.
type AgentBackend struct {
	Agent    *agent.Agent
	Commands *commands.Registry
	Broker   *interact.Broker
}

var _ Backend = AgentBackend{}

// SessionID is the session's id.
func (b AgentBackend) SessionID() string { return b.Agent.SessionID() }

// Header is the session log's header.
func (b AgentBackend) Header() session.Header { return b.Agent.Header() }

// Subscribe subscribes to the agent.
func (b AgentBackend) Subscribe() ([]session.Event, Subscription) {
	events, sub := b.Agent.Subscribe()
	return events, sub
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

// Execute runs a slash command through the registry.
func (b AgentBackend) Execute(ctx context.Context, line string) (commands.Execution, bool) {
	if b.Commands == nil {
		return commands.Execution{}, false
	}
	return b.Commands.Execute(ctx, b.Agent, line, nil)
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
