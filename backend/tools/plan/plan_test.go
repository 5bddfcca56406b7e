package plan_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/plan"
)

const thePlan = "# Rename Foo\n\n1. Rename `Foo` to `Bar` in foo.go.\n2. Run go test."

// recorded collects the events a tool records.
type recorded struct{ events []session.Data }

func (r *recorded) record(d session.Data) error { r.events = append(r.events, d); return nil }

// answerWith mounts an answerer on b that answers the first question set
// with answer, and returns the questions it was asked.
func answerWith(t *testing.T, b *interact.Broker, answer interact.Answer) <-chan []interact.Question {
	t.Helper()
	return interacttest.AnswerFirst(t, b, func(r *interact.Request) { r.Answer([]interact.Answer{answer}) })
}

func planArgs(p string) json.RawMessage {
	raw, _ := json.Marshal(map[string]string{"plan": p})
	return raw
}

func run(t *testing.T, policy *permission.Policy, b *interact.Broker, rec *recorded, raw json.RawMessage) tools.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	return plan.New(policy).Run(ctx, tools.Call{ID: "call-1", Args: raw, Env: &tools.Env{Interact: b, Record: rec.record}})
}

func planningPolicy() *permission.Policy {
	p := permission.NewPolicy(permission.FullAccess, nil)
	p.SetPlan(true)
	return p
}

func TestApprovingThePlanLeavesPlanModeAndRecordsIt(t *testing.T) {
	b := interact.NewBroker()
	asked := answerWith(t, b, interact.Answer{ID: "plan_review", Selected: []string{"Approve"}})
	policy, rec := planningPolicy(), &recorded{}
	r := run(t, policy, b, rec, planArgs(thePlan))
	if r.IsError || r.Text != "Plan approved — plan mode exited; carry out the plan starting with your next step." {
		t.Fatalf("want the approval text, got %+v", r)
	}
	if policy.Plan() || policy.Mode() != permission.FullAccess {
		t.Fatalf("want plan mode left with full-access restored, got plan=%v mode=%s", policy.Plan(), policy.Mode())
	}
	if len(rec.events) != 1 || rec.events[0] != (session.PlanMode{Active: false}) {
		t.Fatalf("want one plan/mode inactive event, got %+v", rec.events)
	}
	qs := <-asked
	if len(qs) != 1 {
		t.Fatalf("want one question, got %d", len(qs))
	}
	q := qs[0]
	if q.Header != "Plan review" || q.Question != "Approve this plan and leave plan mode?" || q.Detail != thePlan || !q.AllowCustom {
		t.Fatalf("want the plan review question with the plan as detail, got %+v", q)
	}
	if len(q.Options) != 2 || q.Options[0].Label != "Approve" || !q.Options[0].Recommended || q.Options[1].Label != "Keep planning" {
		t.Fatalf("want options Approve (recommended) and Keep planning, got %+v", q.Options)
	}
	if r.Card == nil || r.Card.Kind != card.Question || r.Card.Body != thePlan+"\n\nApproved" {
		t.Fatalf("want a question card with the plan and the decision, got %+v", r.Card)
	}
}

func TestNotApprovingKeepsPlanningWithTheFeedback(t *testing.T) {
	cases := []struct {
		name   string
		answer interact.Answer
		want   string
	}{
		{"keep planning", interact.Answer{Selected: []string{"Keep planning"}},
			"Error: The user chose to keep planning; their feedback: none"},
		{"keep planning with feedback", interact.Answer{Selected: []string{"Keep planning"}, Custom: "also update the docs"},
			"Error: The user chose to keep planning; their feedback: also update the docs"},
		{"custom text only", interact.Answer{Selected: []string{}, Custom: "split step 1"},
			"Error: The user chose to keep planning; their feedback: split step 1"},
		{"dismissed", interact.Answer{Selected: []string{}},
			"Error: The user dismissed the plan review to speak instead; stay in plan mode and wait for their message."},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := interact.NewBroker()
			answerWith(t, b, c.answer)
			policy, rec := planningPolicy(), &recorded{}
			r := run(t, policy, b, rec, planArgs(thePlan))
			if !r.IsError || r.Text != c.want {
				t.Fatalf("want %q, got %+v", c.want, r)
			}
			if !policy.Plan() || len(rec.events) != 0 {
				t.Fatalf("want plan mode kept and nothing recorded, got plan=%v events %+v", policy.Plan(), rec.events)
			}
		})
	}
}

func TestApprovalWithANotePassesTheNoteOn(t *testing.T) {
	b := interact.NewBroker()
	answerWith(t, b, interact.Answer{Selected: []string{"Approve"}, Custom: "skip step 2"})
	policy := planningPolicy()
	r := run(t, policy, b, &recorded{}, planArgs(thePlan))
	want := plan.Approved + "\nThe user's note: skip step 2"
	if r.IsError || r.Text != want || policy.Plan() {
		t.Fatalf("want %q with plan mode left, got %+v (plan=%v)", want, r, policy.Plan())
	}
}

func TestExitPlanModeOutsidePlanModeIsAnError(t *testing.T) {
	b := interact.NewBroker()
	r := run(t, permission.NewPolicy(permission.Ask, nil), b, &recorded{}, planArgs(thePlan))
	if !r.IsError || r.Text != "Error: exit_plan_mode is only available in plan mode" {
		t.Fatalf("want the outside-plan-mode error, got %+v", r)
	}
	if len(b.Pending()) != 0 {
		t.Fatal("want no question asked outside plan mode")
	}
}

func TestBlankPlanIsInvalid(t *testing.T) {
	for _, raw := range []string{`{"plan":"  \n"}`, `{}`, `{"plan":7}`, `{"allowedPrompts":[]}`} {
		r := run(t, planningPolicy(), interact.NewBroker(), &recorded{}, json.RawMessage(raw))
		if !r.IsError || r.Code != session.CodeInvalidArgs {
			t.Errorf("%s: want an invalid-arguments error, got %+v", raw, r)
		}
	}
}

// Claude Code's ExitPlanMode takes any member beside the plan: its
// deprecated allowedPrompts, and whatever a newer one sends.
func TestOtherMembersBesideThePlanPass(t *testing.T) {
	b := interact.NewBroker()
	answerWith(t, b, interact.Answer{Selected: []string{"Approve"}})
	args := json.RawMessage(`{"plan":"# Plan\n\n1. Fix it","allowedPrompts":[{"tool":"Bash","prompt":"run tests"}],"extra":1}`)
	if r := run(t, planningPolicy(), b, &recorded{}, args); r.IsError {
		t.Fatalf("want the plan reviewed, got %q", r.Text)
	}
}

func TestReviewFailuresReadLikeAskUserQuestion(t *testing.T) {
	r := run(t, planningPolicy(), interact.NewBroker(), &recorded{}, planArgs(thePlan))
	if r.Text != "Error: "+interact.ErrNoAnswerer.Error() {
		t.Fatalf("want the no-answerer error without a front door, got %q", r.Text)
	}

	b := interact.NewBroker()
	unmount := b.Mount()
	defer unmount()
	ctx, cancel := context.WithCancel(context.Background())
	results := make(chan tools.Result, 1)
	policy := planningPolicy()
	go func() {
		results <- plan.New(policy).Run(ctx, tools.Call{Args: planArgs(thePlan), Env: &tools.Env{Interact: b}})
	}()
	for len(b.Pending()) == 0 {
		<-b.Changes()
	}
	cancel()
	select {
	case r := <-results:
		if r.Text != "Error: "+interact.ErrInterrupted.Error() || !policy.Plan() {
			t.Fatalf("want the interrupted error with plan mode kept, got %q (plan=%v)", r.Text, policy.Plan())
		}
	case <-time.After(time.Minute):
		t.Fatal("want Run to return after cancel, it did not")
	}
}

func TestApprovalStandsWhenTheLogCannotRecordIt(t *testing.T) {
	b := interact.NewBroker()
	answerWith(t, b, interact.Answer{Selected: []string{"Approve"}})
	policy := planningPolicy()
	r := plan.New(policy).Run(context.Background(), tools.Call{Args: planArgs(thePlan), Env: &tools.Env{Interact: b,
		Record: func(session.Data) error { return errors.New("disk full") }}})
	if r.IsError || r.Text != plan.Approved || policy.Plan() {
		t.Fatalf("want the approval to stand with plan mode left, got %+v (plan=%v)", r, policy.Plan())
	}
}

func TestPresentShowsThePlan(t *testing.T) {
	c := plan.New(planningPolicy()).Present(planArgs(thePlan))
	if c.Kind != card.Question || c.Title != "Plan review" || c.Body != thePlan {
		t.Fatalf("want a Plan review question card with the plan, got %+v", c)
	}
}
