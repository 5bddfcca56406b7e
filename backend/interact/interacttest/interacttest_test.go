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

func TestAnswerFirstAnswersARequestAndHandsBackItsQuestions(t *testing.T) {
	b := interact.NewBroker()
	asked := AnswerFirst(t, b, func(r *interact.Request) {
		r.Answer([]interact.Answer{{ID: "db", Custom: "SQLite"}})
	})
	answers, err := b.Ask(context.Background(), []interact.Question{{ID: "db", Question: "Which database?"}})
	if err != nil || len(answers) != 1 || answers[0].Custom != "SQLite" {
		t.Fatalf("want the first request answered SQLite, got %+v, %v", answers, err)
	}
	if qs := <-asked; len(qs) != 1 || qs[0].Question != "Which database?" {
		t.Errorf("want the first request's question handed back, got %+v", qs)
	}
}

func TestPendingLeavesEveryRequestPendingInOrder(t *testing.T) {
	b := Pending(t, interact.Approval{Tool: "bash"}, []interact.Question{{ID: "q", Question: "Which?"}})
	pending := b.Pending()
	if len(pending) != 2 || pending[0].Approval == nil || pending[0].Approval.Tool != "bash" ||
		len(pending[1].Questions) != 1 || pending[1].Questions[0].ID != "q" {
		t.Fatalf("want the bash approval then question q pending, got %+v", pending)
	}
}
