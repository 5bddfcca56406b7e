package app

import (
	"sync"

	tea "charm.land/bubbletea/v2"
)

// outbox hands the backend what the user sends (prompts, steering,
// follow-ups, cancels) in the order they sent it. Each call in a tea.Cmd
// of its own would race the others: Enter then Tab while a turn runs
// could reach the agent as a follow-up before the steering, and Esc then
// a new prompt as the prompt before the cancel.
type outbox struct {
	mu      sync.Mutex
	queue   []func()
	running bool
}

// post queues call, in Update, and returns the command that runs the
// queue in order outside it.
func (o *outbox) post(call func()) tea.Cmd {
	o.mu.Lock()
	o.queue = append(o.queue, call)
	o.mu.Unlock()
	return o.drain
}

// drain runs the queued calls one after another; a drain that finds
// another running leaves the queue to it.
func (o *outbox) drain() tea.Msg {
	o.mu.Lock()
	if o.running {
		o.mu.Unlock()
		return nil
	}
	o.running = true
	for len(o.queue) > 0 {
		call := o.queue[0]
		o.queue = o.queue[1:]
		o.mu.Unlock()
		call()
		o.mu.Lock()
	}
	o.running = false
	o.mu.Unlock()
	return nil
}
