package journeys

import (
	"context"
	"slices"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// watcher follows the agent through a subscription of its own: the
// durable events logged so far, its status and its inbox. It is read only
// by the test goroutine, which waits on it for the conditions a step needs
// instead of sleeping.
type watcher struct {
	sub       *agent.Subscription
	events    []session.Event
	status    agent.Status
	steering  []string
	followUps []string
}

func watch(a *agent.Agent) *watcher {
	snap, sub := a.Subscribe()
	var events []session.Event
	for _, e := range a.Events() {
		if e.Seq < snap.NextSeq {
			events = append(events, e)
		}
	}
	return &watcher{sub: sub, events: events, status: agent.StatusIdle}
}

func (w *watcher) apply(e agent.Event) {
	switch e := e.(type) {
	case agent.Logged:
		w.events = append(w.events, e.Event)
	case agent.StatusChanged:
		w.status = e.Status
	case agent.InboxChanged:
		w.steering, w.followUps = e.Steering, e.FollowUps
	}
}

// until waits for cond, failing with what after testkit.WaitLimit.
func (w *watcher) until(t testing.TB, what string, cond func() bool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), testkit.WaitLimit)
	defer cancel()
	for !cond() {
		evs, err := w.sub.Wait(ctx)
		if err != nil {
			t.Fatalf("want %s within %v, got none (%d events logged, agent %s)", what, testkit.WaitLimit, len(w.events), w.status)
		}
		if evs == nil {
			t.Fatalf("want %s, got the subscription closed", what)
		}
		for _, e := range evs {
			w.apply(e)
		}
	}
}

// drain takes what is queued without waiting.
func (w *watcher) drain() {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for {
		evs, err := w.sub.Wait(ctx)
		if err != nil || evs == nil {
			return
		}
		for _, e := range evs {
			w.apply(e)
		}
	}
}

// settled reports whether the agent is idle with nothing queued and, once
// a turn completed, the model-written session title has arrived (it is
// asked for in the background, and would otherwise land at a random point
// of the log and the screen).
func (w *watcher) settled() bool {
	if w.status != agent.StatusIdle || len(w.steering)+len(w.followUps) > 0 {
		return false
	}
	completed, titled := false, false
	for _, e := range w.events {
		switch d := e.Data.(type) {
		case session.TurnEnd:
			completed = completed || d.Reason == session.StopCompleted
		case session.Title:
			titled = titled || d.Source == "model"
		}
	}
	return !completed || titled
}

// count is how many logged events satisfy pred.
func (w *watcher) count(pred func(session.Event) bool) int {
	n := 0
	for _, e := range w.events {
		if pred(e) {
			n++
		}
	}
	return n
}

// untilLogged runs act, then waits until the log holds more events that
// match pred than it did before act.
func (w *watcher) untilLogged(t testing.TB, what string, pred func(session.Event) bool, act func()) {
	t.Helper()
	n := w.count(pred)
	act()
	w.until(t, what, func() bool { return w.count(pred) > n })
}

func (w *watcher) queued(text string) bool { return slices.Contains(w.steering, text) }

func (w *watcher) close() { w.sub.Close() }
