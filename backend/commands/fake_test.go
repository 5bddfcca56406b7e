package commands

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

// fakeAgent records events in memory.
type fakeAgent struct {
	id     string
	status agent.Status

	mu      sync.Mutex
	events  []session.Event
	failLog bool
}

func newFakeAgent(id string) *fakeAgent { return &fakeAgent{id: id, status: agent.StatusIdle} }

func (f *fakeAgent) SessionID() string    { return f.id }
func (f *fakeAgent) Status() agent.Status { return f.status }

func (f *fakeAgent) Record(d session.Data) (session.Event, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.failLog {
		return session.Event{}, errors.New("disk full")
	}
	seq := int64(len(f.events) + 1)
	e := session.Event{Type: d.EventType(), Seq: seq, Time: created.Add(time.Duration(seq) * time.Minute), Data: d}
	f.events = append(f.events, e)
	return e, nil
}

func (f *fakeAgent) logged() []session.Event {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]session.Event(nil), f.events...)
}

// sequentialIDs mints cmd-1, cmd-2, ...
func sequentialIDs() func() string {
	n := 0
	return func() string { n++; return fmt.Sprintf("cmd-%d", n) }
}

// requirePair checks that the log is exactly one command/run followed by its
// command/done, and returns both.
func requirePair(t *testing.T, f *fakeAgent) (session.CommandRun, session.CommandDone) {
	t.Helper()
	events := f.logged()
	if len(events) != 2 {
		t.Fatalf("want command/run and command/done logged, got %d events: %+v", len(events), events)
	}
	run, ok := events[0].Data.(session.CommandRun)
	if !ok {
		t.Fatalf("want command/run first, got %s", events[0].Type)
	}
	done, ok := events[1].Data.(session.CommandDone)
	if !ok {
		t.Fatalf("want command/done second, got %s", events[1].Type)
	}
	if run.ID == "" || run.ID != done.ID {
		t.Fatalf("want run and done paired by one id, got %q and %q", run.ID, done.ID)
	}
	return run, done
}
