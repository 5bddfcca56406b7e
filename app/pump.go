package app

import (
	"cmp"
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// defaultFrame is the shortest gap between two event batches: one frame at
// 60 Hz. bubbletea renders after every message, so the pump is what keeps
// a fast stream at one Update and one View per frame; the deltas that
// arrive in between merge in the subscription's queue.
const defaultFrame = time.Second / 60

// subscribedMsg carries the history and the live queue, once.
type subscribedMsg struct {
	sessionID  string
	header     session.Header
	history    agent.Snapshot
	sub        Subscription
	model      modelInfo
	permission string
	commands   []commands.Command
	// spent is what the history cost (see spentSoFar).
	spent float64
}

// eventsMsg is one batch of live events. ended says the subscription is
// over (the agent closed).
type eventsMsg struct {
	events     []agent.Event
	model      modelInfo
	permission string
	ended      bool
}

// requestsMsg is the current queue of questions and approvals.
type requestsMsg struct{ pending []*interact.Request }

// modelInfo is the model the next step uses, with its catalog entry.
type modelInfo struct {
	id     string
	effort llm.Effort
	spec   llm.Model
	known  bool
}

func lookupModel(be Backend) modelInfo {
	id, effort := be.Model()
	spec, ok := be.LookupModel(id)
	return modelInfo{id: id, effort: effort, spec: spec, known: ok}
}

// subscription asks the backend for its history and live events.
func subscription(be Backend) subscribedMsg {
	history, sub := be.Subscribe()
	msg := subscribedMsg{sessionID: be.SessionID(), header: be.Header(), history: history, sub: sub,
		model: lookupModel(be), permission: be.PermissionLabel(), commands: be.SlashCommands()}
	if history.Projection != nil {
		msg.spent = spentSoFar(be, msg.model.id, history.Projection.UsageByModel())
	}
	return msg
}

// spentSoFar is what usage cost: each part at its own model's price in
// force when it was made, subagents' steps and side requests included, as
// /status counts it. Parts without a model are the current model's; a
// model the catalog does not price costs nothing.
func spentSoFar(be Backend, current string, usage []session.ModelUsage) float64 {
	spent := 0.0
	for _, u := range usage {
		if spec, ok := be.LookupModel(cmp.Or(u.Model, current)); ok {
			spent += spec.Cost(u.Usage, u.From)
		}
	}
	return spent
}

// frameOutMsg comes back at once from afterFrame.
type frameOutMsg struct{}

// afterFrame is a command whose message bubbletea hands to Update only
// after it has drawn the view of the message being handled: what Update
// starts then does not compete with that frame for the CPU.
func afterFrame() tea.Msg { return frameOutMsg{} }

// settledMsg comes once the screen's start has settled (Options.Settled).
type settledMsg struct{}

// whenSettled is the command that waits for settled (at once when nil)
// or for the program's end.
func whenSettled(ctx context.Context, settled <-chan struct{}) tea.Cmd {
	if settled == nil {
		return func() tea.Msg { return settledMsg{} }
	}
	return func() tea.Msg {
		select {
		case <-settled:
			return settledMsg{}
		case <-ctx.Done():
			return nil
		}
	}
}

// sandboxProbedMsg is the permission label once the sandbox's probe has
// answered; "" when the program ended first.
type sandboxProbedMsg struct{ label string }

// probeSandbox finds out, once the start has settled, whether the
// sandbox can confine commands: the probe starts a process.
func probeSandbox(ctx context.Context, be Backend) tea.Cmd {
	return func() tea.Msg { return sandboxProbedMsg{label: be.ProbeSandbox(ctx)} }
}

// pump waits for the next batch of live events. It first lets the rest of
// the current frame pass (gap, measured from when the previous batch was
// taken), so batches come at most once per frame.
func pump(ctx context.Context, be Backend, sub Subscription, gap time.Duration) tea.Cmd {
	return func() tea.Msg {
		if gap > 0 {
			t := time.NewTimer(gap)
			select {
			case <-t.C:
			case <-ctx.Done():
				t.Stop()
				return eventsMsg{ended: true}
			}
		}
		events, err := sub.Wait(ctx)
		if err != nil || events == nil {
			return eventsMsg{ended: true}
		}
		return eventsMsg{events: events, model: lookupModel(be), permission: be.PermissionLabel()}
	}
}

// commandsMsg is the slash commands after they changed.
type commandsMsg struct{ commands []commands.Command }

// watchCommands waits for the slash commands to differ from known.
func watchCommands(ctx context.Context, be Backend, known []commands.Command) tea.Cmd {
	return func() tea.Msg {
		cmds, err := be.WaitCommands(ctx, known)
		if err != nil {
			return nil
		}
		return commandsMsg{commands: cmds}
	}
}

// watchRequests waits for the question and approval queue to change.
func watchRequests(ctx context.Context, be Backend, first bool) tea.Cmd {
	return func() tea.Msg {
		pending, err := be.WaitRequests(ctx, first)
		if err != nil {
			return nil
		}
		return requestsMsg{pending: pending}
	}
}
