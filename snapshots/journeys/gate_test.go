package journeys

import (
	"net/http"
	"sync"
)

// gate is the HTTP transport between the session and the fake model. It
// numbers the conversation's model requests the way the fake server
// consumes its script (session-title requests are answered outside the
// script and not counted) and keeps chosen requests back until released,
// so that steering is typed while a turn is certainly running.
type gate struct {
	base http.RoundTripper

	mu    sync.Mutex
	sent  int
	holds map[int]*hold
}

// hold is one request kept back: arrived closes when it reaches the gate,
// closing release lets it through.
type hold struct {
	arrived, release chan struct{}
	once             sync.Once
}

func newGate(base http.RoundTripper, requests []int) *gate {
	g := &gate{base: base, holds: map[int]*hold{}}
	for _, n := range requests {
		if g.holds[n] == nil {
			g.holds[n] = &hold{arrived: make(chan struct{}), release: make(chan struct{})}
		}
	}
	return g
}

// RoundTrip counts the request and waits on its hold, if any.
func (g *gate) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Header.Get("X-Tack-Purpose") != "title" {
		g.mu.Lock()
		g.sent++
		h := g.holds[g.sent]
		g.mu.Unlock()
		if h != nil {
			close(h.arrived)
			select {
			case <-h.release:
			case <-r.Context().Done():
				return nil, r.Context().Err()
			}
		}
	}
	return g.base.RoundTrip(r)
}

// held is the hold of request n.
func (g *gate) held(n int) *hold {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.holds[n]
}

// releaseAll lets every held request through; runs call it when they end
// so that no request waits forever.
func (g *gate) releaseAll() {
	g.mu.Lock()
	defer g.mu.Unlock()
	for _, h := range g.holds {
		h.let()
	}
}

func (h *hold) let() { h.once.Do(func() { close(h.release) }) }
