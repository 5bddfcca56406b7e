// Package interacttest stands in for a front door in tests: it settles a
// broker's questions and approvals as the person at the screen would.
package interacttest

import (
	"context"
	"sync"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
)

// Serve mounts b, as a front door does, and until the test ends calls
// settle once for each request that becomes pending, in the order they
// were made. settle answers or decides the request, or leaves it pending.
func Serve(t testing.TB, b *interact.Broker, settle func(*interact.Request)) {
	t.Helper()
	unmount := b.Mount()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		var last int64 // a settled request stays pending until its asker takes the answer
		for {
			for _, r := range b.Pending() {
				if r.ID > last {
					last = r.ID
					settle(r)
				}
			}
			select {
			case <-b.Changes():
			case <-ctx.Done():
				return
			}
		}
	}()
	t.Cleanup(func() { cancel(); <-done; unmount() })
}

// AnswerFirst serves b, settling only the first request with answer, and
// hands back the questions that request asked.
func AnswerFirst(t testing.TB, b *interact.Broker, answer func(*interact.Request)) <-chan []interact.Question {
	t.Helper()
	asked := make(chan []interact.Question, 1)
	var first sync.Once
	Serve(t, b, func(r *interact.Request) {
		first.Do(func() {
			asked <- r.Questions
			answer(r)
		})
	})
	return asked
}

// Pending mounts a new broker, makes each request through it in order from
// a goroutine of its own, as tools waiting on the front door do, and
// returns the broker with all of them pending. A request is an
// interact.Approval or a []interact.Question; the requests are cancelled
// and the broker unmounted when the test ends.
func Pending(t testing.TB, requests ...any) *interact.Broker {
	t.Helper()
	b := interact.NewBroker()
	unmount := b.Mount()
	ctx, cancel := context.WithCancel(context.Background())
	var asking sync.WaitGroup
	t.Cleanup(func() { cancel(); asking.Wait(); unmount() })
	for _, req := range requests {
		var ask func()
		switch req := req.(type) {
		case interact.Approval:
			ask = func() { _, _ = b.Approve(ctx, req) }
		case []interact.Question:
			ask = func() { _, _ = b.Ask(ctx, req) }
		default:
			t.Fatalf("interacttest.Pending: want an interact.Approval or []interact.Question, got %T", req)
		}
		asking.Go(ask)
		<-b.Changes()
	}
	return b
}
