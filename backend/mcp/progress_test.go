package mcp

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestHeldCallOutlastsItsTimeout pins that the user's time answering a
// server's form is not the server's silence: a call whose timeout passes
// while it is held goes on, and times out a full timeout after release.
func TestHeldCallOutlastsItsTimeout(t *testing.T) {
	var p progressWatch
	const d = 20 * time.Millisecond
	ctx, _, done := p.quietTimeout(context.Background(), d)
	defer done()
	release := p.hold()
	time.Sleep(5 * d) // the user taking their time
	if ctx.Err() != nil {
		t.Fatalf("the call ended (%v) while the user was answering its server", context.Cause(ctx))
	}
	released := time.Now()
	release()
	select {
	case <-ctx.Done():
	case <-time.After(100 * d):
		t.Fatalf("the call never timed out after release: release must start its timeout again")
	}
	if waited := time.Since(released); !errors.Is(context.Cause(ctx), errSilent) || waited < d {
		t.Errorf("after release the call ended with %v after %s, want errSilent after at least %s", context.Cause(ctx), waited, d)
	}
}
