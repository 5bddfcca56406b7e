package testkit

import (
	"context"
	"testing"
	"time"
)

// SettleLimit bounds a wait for an agent to settle. It only catches a
// hang: a turn runs tools and scripted model replies, which take seconds
// on a machine shared by several builds.
const SettleLimit = time.Minute

// Idler is what Settle waits for: an agent (backend/agent's), which says
// when it has ended its turn with nothing queued.
type Idler interface {
	WhenIdle(ctx context.Context) error
}

// Settle waits for a to settle, and fails tb when it has not within
// SettleLimit.
func Settle(tb testing.TB, a Idler) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), SettleLimit)
	defer cancel()
	if err := a.WhenIdle(ctx); err != nil {
		tb.Fatalf("want the agent settled within %v: %v", SettleLimit, err)
	}
}
