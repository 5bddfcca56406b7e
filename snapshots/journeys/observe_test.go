package journeys

import (
	"context"
	"slices"
	"sync"

	"github.com/tack-agent/tack/app"
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/interact"
)

// observed is the program's backend, unchanged except that its live event
// queue is watched: how many logged events the program has taken, the
// last status it took, and whether it is waiting for more. The program
// asks for its next batch only after applying the previous one, so a
// program waiting with every event taken has caught up with the agent,
// and a key sent now is read in the state those events left.
type observed struct {
	app.Backend

	mu      sync.Mutex
	waiting bool
	taken   int
	status  agent.Status
	// asking is set while the program waits for the request queue to
	// change, having applied pending, the queue it got last.
	asking  bool
	pending []*interact.Request
}

// Subscribe counts the history as taken and watches the live queue.
func (o *observed) Subscribe() (agent.Snapshot, app.Subscription) {
	history, sub := o.Backend.Subscribe()
	o.mu.Lock()
	o.taken += history.Projection.Len()
	o.mu.Unlock()
	return history, observedQueue{sub, o}
}

// caughtUp reports whether the program waits for events with logged
// events taken and status as the last status.
func (o *observed) caughtUp(logged int, status agent.Status) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.waiting && o.taken == logged && o.status == status
}

// WaitRequests notes the request queue the program gets. It asks again
// only after opening the dialog for the queue it got.
func (o *observed) WaitRequests(ctx context.Context, first bool) ([]*interact.Request, error) {
	o.mu.Lock()
	o.asking = true
	o.mu.Unlock()
	pending, err := o.Backend.WaitRequests(ctx, first)
	o.mu.Lock()
	o.asking, o.pending = false, pending
	o.mu.Unlock()
	return pending, err
}

// showing reports whether the program has opened its dialog or panel for
// q (it shows the oldest request it has not settled, and q is the oldest
// pending one).
func (o *observed) showing(q *interact.Request) bool {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.asking && slices.Contains(o.pending, q)
}

type observedQueue struct {
	app.Subscription
	o *observed
}

func (q observedQueue) Wait(ctx context.Context) ([]agent.Event, error) {
	q.o.mu.Lock()
	q.o.waiting = true
	q.o.mu.Unlock()
	events, err := q.Subscription.Wait(ctx)
	q.o.mu.Lock()
	defer q.o.mu.Unlock()
	q.o.waiting = false
	for _, e := range events {
		switch e := e.(type) {
		case agent.Logged:
			q.o.taken++
		case agent.StatusChanged:
			q.o.status = e.Status
		}
	}
	return events, err
}
