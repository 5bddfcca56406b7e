package agent

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// primeCounter is a store that only counts its primings.
type primeCounter struct {
	Checkpoints
	primed atomic.Int32
}

func (p *primeCounter) Prime(context.Context) error { p.primed.Add(1); return nil }

func TestPrimingWaitsItsTurnAndIsDroppedWhenTheAgentStopsFirst(t *testing.T) {
	store := &primeCounter{}
	a := &Agent{cfg: Config{Checkpoints: store}}
	a.primeCheckpoints(context.Background())
	a.bg.Wait()
	if store.primed.Load() != 1 {
		t.Fatal("want the store primed at once with no PrimeAfter")
	}
	waiting := &primeCounter{}
	a = &Agent{cfg: Config{Checkpoints: waiting, PrimeAfter: time.Hour}}
	ctx, stop := context.WithCancel(context.Background())
	a.primeCheckpoints(ctx)
	stop()
	a.bg.Wait()
	if waiting.primed.Load() != 0 {
		t.Fatal("want no priming once the agent stopped during PrimeAfter")
	}
}

// With PrimeWhen the priming waits for the front door's word, whatever
// PrimeAfter says, and not at all once it came.
func TestPrimingWaitsForPrimeWhen(t *testing.T) {
	store := &primeCounter{}
	when := make(chan struct{})
	a := &Agent{cfg: Config{Checkpoints: store, PrimeAfter: time.Nanosecond, PrimeWhen: when}}
	a.primeCheckpoints(context.Background())
	if store.primed.Load() != 0 {
		t.Fatal("want no priming before PrimeWhen is closed")
	}
	close(when)
	a.bg.Wait()
	if store.primed.Load() != 1 {
		t.Fatal("want the store primed once PrimeWhen is closed")
	}
	ctx, stop := context.WithCancel(context.Background())
	dropped := &primeCounter{}
	a = &Agent{cfg: Config{Checkpoints: dropped, PrimeWhen: make(chan struct{})}}
	a.primeCheckpoints(ctx)
	stop()
	a.bg.Wait()
	if dropped.primed.Load() != 0 {
		t.Fatal("want no priming once the agent stopped before PrimeWhen")
	}
}
