package interact

import (
	"context"
	"errors"
	"testing"
	"time"
)

// pendingAfter waits until the broker holds more than n requests and returns
// them; the wait follows Changes, never the clock.
func pendingAfter(t *testing.T, b *Broker, n int) []*Request {
	t.Helper()
	for {
		if p := b.Pending(); len(p) > n {
			return p
		}
		<-b.Changes()
	}
}

func TestWithoutAnswererQuestionsFailAndApprovalsDeny(t *testing.T) {
	b := NewBroker()
	if _, err := b.Ask(context.Background(), []Question{{ID: "q", Question: "?"}}); !errors.Is(err, ErrNoAnswerer) {
		t.Fatalf("want ErrNoAnswerer for a question, got %v", err)
	}
	d, err := b.Approve(context.Background(), Approval{Tool: "bash"})
	if !errors.Is(err, ErrNoAnswerer) || d.Verdict != Deny {
		t.Fatalf("want a deny with ErrNoAnswerer, got %+v, %v", d, err)
	}
	unmount := b.Mount()
	unmount()
	unmount()
	if b.Mounted() {
		t.Fatal("want no answerer after unmount (called twice), got one")
	}
	if _, err := b.Ask(context.Background(), nil); !errors.Is(err, ErrNoAnswerer) {
		t.Fatalf("want ErrNoAnswerer after unmount, got %v", err)
	}
}

func TestRequestsQueueFirstInFirstOut(t *testing.T) {
	b := NewBroker()
	defer b.Mount()()
	first := make(chan []Answer, 1)
	go func() {
		a, _ := b.Ask(context.Background(), []Question{{ID: "first"}})
		first <- a
	}()
	pendingAfter(t, b, 0)
	second := make(chan Decision, 1)
	go func() {
		d, _ := b.Approve(context.Background(), Approval{Tool: "bash", Summary: "ls"})
		second <- d
	}()
	p := pendingAfter(t, b, 1)
	if p[0].Questions[0].ID != "first" || p[1].Approval == nil || p[1].Approval.Summary != "ls" {
		t.Fatalf("want the question then the approval, got %+v, %+v", p[0], p[1])
	}
	if p[0].ID >= p[1].ID {
		t.Fatalf("want increasing ids, got %d then %d", p[0].ID, p[1].ID)
	}
	p[1].Decide(Decision{Verdict: AllowSession})
	p[0].Answer([]Answer{{ID: "first", Selected: []string{"yes"}}})
	p[0].Answer([]Answer{{ID: "first", Custom: "ignored: already settled"}})
	if a := <-first; len(a) != 1 || a[0].Selected[0] != "yes" {
		t.Fatalf("want the first answer to stand, got %+v", a)
	}
	if d := <-second; d.Verdict != AllowSession {
		t.Fatalf("want allow-session, got %+v", d)
	}
}

func TestCancelInterruptsAndLeavesTheQueue(t *testing.T) {
	b := NewBroker()
	defer b.Mount()()
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		_, err := b.Ask(ctx, []Question{{ID: "q"}})
		errc <- err
	}()
	pendingAfter(t, b, 0)
	cancel()
	if err := <-errc; !errors.Is(err, ErrInterrupted) {
		t.Fatalf("want ErrInterrupted, got %v", err)
	}
	if p := b.Pending(); len(p) != 0 {
		t.Fatalf("want an empty queue after the cancel, got %d requests", len(p))
	}
	if got := ErrInterrupted.Error(); got != "ask_user_question was interrupted before the user answered" {
		t.Fatalf("want the reference wording, got %q", got)
	}
}

func TestFailAllSettlesPendingAndLaterRequestsUntilTheNextMount(t *testing.T) {
	b := NewBroker()
	defer b.Mount()()
	errc := make(chan error, 1)
	go func() {
		_, err := b.Ask(context.Background(), []Question{{ID: "q"}})
		errc <- err
	}()
	pendingAfter(t, b, 0)
	b.FailAll(ErrStdinClosed)
	if err := <-errc; !errors.Is(err, ErrStdinClosed) {
		t.Fatalf("want ErrStdinClosed for the pending request, got %v", err)
	}
	if _, err := b.Ask(context.Background(), nil); !errors.Is(err, ErrStdinClosed) {
		t.Fatalf("want ErrStdinClosed for a later request, got %v", err)
	}
	if got := ErrStdinClosed.Error(); got != "ask_user_question cannot be answered because stdin is closed" {
		t.Fatalf("want the reference wording, got %q", got)
	}
	defer b.Mount()()
	go func() {
		_, err := b.Ask(context.Background(), []Question{{ID: "again"}})
		errc <- err
	}()
	p := pendingAfter(t, b, 0)
	p[0].Answer(nil)
	if err := <-errc; err != nil {
		t.Fatalf("want a fresh mount to take requests again, got %v", err)
	}
}

// TestWaitedSumsTheTimeRequestsWaitForAnAnswer: the time between asking
// and answering is counted, and nothing outside it.
func TestWaitedSumsTheTimeRequestsWaitForAnAnswer(t *testing.T) {
	b := NewBroker()
	defer b.Mount()()
	if b.Waited() != 0 {
		t.Fatalf("want no wait before any request, got %v", b.Waited())
	}
	before := time.Now()
	done := make(chan struct{})
	go func() {
		_, _ = b.Approve(context.Background(), Approval{Tool: "bash", Summary: "ls"})
		close(done)
	}()
	p := pendingAfter(t, b, 0)
	p[0].Decide(Decision{Verdict: Allow})
	<-done
	got, whole := b.Waited(), time.Since(before)
	if got <= 0 || got > whole {
		t.Fatalf("want a wait within the %v the request took, got %v", whole, got)
	}
}
