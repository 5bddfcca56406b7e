package interacttest

import (
	"context"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
)

func TestServeSettlesEachRequestOnceInOrder(t *testing.T) {
	b := interact.NewBroker()
	var seen []string
	Serve(t, b, func(r *interact.Request) {
		seen = append(seen, r.Approval.Tool)
		r.Decide(interact.Decision{Verdict: interact.Deny})
	})
	for _, tool := range []string{"bash", "write"} {
		if d, err := b.Approve(context.Background(), interact.Approval{Tool: tool}); err != nil || d.Verdict != interact.Deny {
			t.Fatalf("%s: want a denial, got %+v, %v", tool, d, err)
		}
	}
	if len(seen) != 2 || seen[0] != "bash" || seen[1] != "write" {
		t.Errorf("want bash then write settled once each, got %q", seen)
	}
}
