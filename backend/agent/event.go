package agent

import (
	"context"
	"sync"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// Status is whether the agent is working.
type Status string

const (
	StatusIdle    Status = "idle"
	StatusRunning Status = "running"
)

// Event is what a subscriber receives: a durable session event (Logged) or
// a live-only one.
type Event interface{ isEvent() }

// Logged is a durable event, already appended to the session log. After a
// write of the log failed (see LogError) it is kept in memory only.
type Logged struct{ session.Event }

// StatusChanged reports a change of Status.
type StatusChanged struct{ Status Status }

// Delta is a streamed piece of the current step's response. Adjacent deltas
// of one kind may arrive coalesced into one.
type Delta struct {
	Turn, Step int
	Chunk      llm.Chunk
}

// StepDiscarded says the live deltas of a step were thrown away (the request
// failed and is retried, or the turn was cancelled mid-stream).
type StepDiscarded struct{ Turn, Step int }

// InboxChanged reports the input waiting for the loop: steering messages
// that join the running turn at its next step, and follow-ups that become
// later turns.
type InboxChanged struct {
	Steering  []string
	FollowUps []string
}

// Phase is what a running turn is waiting for, for running indicators.
type Phase string

const (
	PhaseIdle       Phase = ""
	PhaseModelWait  Phase = "model-wait"
	PhaseThinking   Phase = "thinking"
	PhaseResponding Phase = "responding"
	PhaseTools      Phase = "tools"
	PhaseCompacting Phase = "compacting"
)

// PhaseChanged reports a change of Phase.
type PhaseChanged struct{ Phase Phase }

// ToolProgress is a running tool call's card as it changes (a subagent
// working). It is live only: the call's result brings the card the log
// keeps.
type ToolProgress struct {
	CallID string
	Card   card.Card
}

func (Logged) isEvent()        {}
func (StatusChanged) isEvent() {}
func (Delta) isEvent()         {}
func (StepDiscarded) isEvent() {}
func (InboxChanged) isEvent()  {}
func (PhaseChanged) isEvent()  {}
func (ToolProgress) isEvent()  {}

// Subscription is one subscriber's queue. The agent never blocks on it: the
// queue grows instead, and adjacent deltas of the same kind are merged so a
// slow reader catches up in few events.
type Subscription struct {
	mu     sync.Mutex
	queue  []Event
	ready  chan struct{}
	closed bool
	cancel func()
}

// NewSubscription makes a queue that no agent feeds: a fake backend in a
// test pushes its events into it and hands it out as the agent's.
func NewSubscription() *Subscription {
	return &Subscription{ready: make(chan struct{}, 1)}
}

// Push queues e for the subscriber without blocking, merging it into the
// last queued delta when they continue each other. It does nothing once
// the subscription is closed.
func (s *Subscription) Push(e Event) {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	if d, ok := e.(Delta); ok && len(s.queue) > 0 {
		if last, ok := s.queue[len(s.queue)-1].(Delta); ok && mergeable(last, d) {
			last.Chunk.Text += d.Chunk.Text
			if d.Chunk.ToolCall != nil {
				tc := *last.Chunk.ToolCall
				tc.Arguments += d.Chunk.ToolCall.Arguments
				last.Chunk.ToolCall = &tc
			}
			s.queue[len(s.queue)-1] = last
			s.mu.Unlock()
			return
		}
	}
	if p, ok := e.(ToolProgress); ok && len(s.queue) > 0 {
		// Only a call's latest card matters.
		if last, ok := s.queue[len(s.queue)-1].(ToolProgress); ok && last.CallID == p.CallID {
			s.queue[len(s.queue)-1] = p
			s.mu.Unlock()
			return
		}
	}
	s.queue = append(s.queue, e)
	s.mu.Unlock()
	select {
	case s.ready <- struct{}{}:
	default:
	}
}

func mergeable(a, b Delta) bool {
	if a.Turn != b.Turn || a.Step != b.Step || a.Chunk.Kind != b.Chunk.Kind {
		return false
	}
	switch a.Chunk.Kind {
	case llm.ChunkText, llm.ChunkReasoning:
		return true
	case llm.ChunkToolCall:
		return a.Chunk.ToolCall.Index == b.Chunk.ToolCall.Index && b.Chunk.ToolCall.ID == "" && b.Chunk.ToolCall.Name == ""
	}
	return false
}

// Wait blocks until events are queued, then returns all of them in order.
// It returns ctx.Err() when ctx ends, and nil events once Close was called.
func (s *Subscription) Wait(ctx context.Context) ([]Event, error) {
	for {
		q, closed := s.take()
		if len(q) > 0 {
			return q, nil
		}
		if closed {
			return nil, nil
		}
		select {
		case <-s.ready:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
}

// Ready is signalled when events may have been queued since the last
// Wait or Take: for a reader that waits on other channels too (print
// mode waiting for its next message), which then calls Take.
func (s *Subscription) Ready() <-chan struct{} { return s.ready }

// Take returns the events queued, in order, without waiting: none when
// there are none.
func (s *Subscription) Take() []Event {
	q, _ := s.take()
	return q
}

func (s *Subscription) take() (q []Event, closed bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	q, s.queue = s.queue, nil
	return q, s.closed
}

// Close ends the subscription; a pending Wait returns.
func (s *Subscription) Close() {
	s.mu.Lock()
	already, cancel := s.closed, s.cancel
	s.closed = true
	s.mu.Unlock()
	if !already {
		if cancel != nil {
			cancel()
		}
		select {
		case s.ready <- struct{}{}:
		default:
		}
	}
}
