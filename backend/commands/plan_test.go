package commands

import (
	"context"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

// planSwitch is plan-mode state without a permission policy.
type planSwitch struct{ on bool }

func (p *planSwitch) Plan() bool { return p.on }

func (p *planSwitch) SetPlan(on bool) bool {
	changed := p.on != on
	p.on = on
	return changed
}

// chattyAgent is a fakeAgent that takes messages and context.
type chattyAgent struct {
	*fakeAgent
	sent, steered, injected []string
}

func (c *chattyAgent) Send(text string)  { c.sent = append(c.sent, text) }
func (c *chattyAgent) Steer(text string) { c.steered = append(c.steered, text) }
func (c *chattyAgent) Inject(origin, text string) {
	c.injected = append(c.injected, origin+": "+text)
}

func newChattyAgent(status agent.Status) *chattyAgent {
	a := &chattyAgent{fakeAgent: newFakeAgent("s-plan")}
	a.status = status
	return a
}

func runPlan(t *testing.T, plans *planSwitch, a Agent, line string) Execution {
	t.Helper()
	reg := New(Options{NewID: sequentialIDs()})
	if err := reg.Register(PlanCommand(plans)); err != nil {
		t.Fatal(err)
	}
	exec, ok := reg.Execute(context.Background(), a, line, nil)
	if !ok {
		t.Fatalf("%s: want /plan to be found", line)
	}
	return exec
}

// planEvents lists the plan/mode events of the log.
func planEvents(f *fakeAgent) []bool {
	var out []bool
	for _, e := range f.logged() {
		if d, ok := e.Data.(session.PlanMode); ok {
			out = append(out, d.Active)
		}
	}
	return out
}

func TestPlanCommandSwitchesPlanMode(t *testing.T) {
	cases := []struct {
		name    string
		status  agent.Status
		before  bool
		line    string
		after   bool
		text    string
		records []bool
	}{
		{"enter", agent.StatusIdle, false, "/plan", true, "Plan mode on. Use /plan off to leave.", []bool{true}},
		{"enter while running", agent.StatusRunning, false, "/plan",
			true, "Entering plan mode (applies from the next step). Use /plan off to leave.", []bool{true}},
		{"enter again", agent.StatusIdle, true, "/plan", true, "Plan mode is already on.", nil},
		{"leave", agent.StatusIdle, true, "/plan off", false, "Plan mode off.", []bool{false}},
		{"leave while running", agent.StatusRunning, true, "/plan  off ",
			false, "Leaving plan mode (applies from the next step).", []bool{false}},
		{"leave when inactive", agent.StatusIdle, false, "/plan off", false, "Plan mode is already inactive.", nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			plans, a := &planSwitch{on: c.before}, newChattyAgent(c.status)
			exec := runPlan(t, plans, a, c.line)
			if exec.Result.Kind != Success || exec.Result.Text != c.text {
				t.Fatalf("want success %q, got %+v", c.text, exec.Result)
			}
			if plans.on != c.after {
				t.Fatalf("want plan mode %v, got %v", c.after, plans.on)
			}
			if got := planEvents(a.fakeAgent); len(got) != len(c.records) || (len(got) == 1 && got[0] != c.records[0]) {
				t.Fatalf("want plan/mode events %v, got %v", c.records, got)
			}
			if len(c.records) == 1 && (len(a.injected) != 1 || !strings.HasPrefix(a.injected[0], "plan-mode: Plan mode is o")) {
				t.Fatalf("want one plan-mode notice for the model, got %q", a.injected)
			}
			if len(a.sent)+len(a.steered) != 0 {
				t.Fatalf("want nothing submitted, got sent %q steered %q", a.sent, a.steered)
			}
		})
	}
}

func TestPlanWithAMessageSendsWhenIdleAndSteersWhenRunning(t *testing.T) {
	idle := newChattyAgent(agent.StatusIdle)
	plans := &planSwitch{}
	exec := runPlan(t, plans, idle, "/plan refactor the parser")
	if exec.Result.Text != "Plan mode on. Use /plan off to leave." || !plans.on {
		t.Fatalf("want plan mode on, got %+v (on=%v)", exec.Result, plans.on)
	}
	if len(idle.sent) != 1 || idle.sent[0] != "refactor the parser" || len(idle.steered) != 0 {
		t.Fatalf("want the message sent, got sent %q steered %q", idle.sent, idle.steered)
	}

	running := newChattyAgent(agent.StatusRunning)
	runPlan(t, &planSwitch{}, running, "/plan and check the tests first")
	if len(running.steered) != 1 || running.steered[0] != "and check the tests first" || len(running.sent) != 0 {
		t.Fatalf("want the message steered, got sent %q steered %q", running.sent, running.steered)
	}

	again := newChattyAgent(agent.StatusIdle)
	exec = runPlan(t, &planSwitch{on: true}, again, "/plan next idea")
	if exec.Result.Text != "Plan mode is already on." || len(again.sent) != 1 {
		t.Fatalf("want the message sent while already planning, got %+v sent %q", exec.Result, again.sent)
	}
}

func TestPlanMessageNeedsAnAgentThatTakesMessages(t *testing.T) {
	plans, a := &planSwitch{}, newFakeAgent("s-plan")
	exec := runPlan(t, plans, a, "/plan do it")
	if exec.Result.Kind != Error || plans.on {
		t.Fatalf("want an error and plan mode unchanged, got %+v (on=%v)", exec.Result, plans.on)
	}
	if exec := runPlan(t, plans, a, "/plan"); exec.Result.Kind != Success || !plans.on {
		t.Fatalf("want /plan alone to work without Send, got %+v", exec.Result)
	}
}

func TestPlanModeIsUnchangedWhenTheLogRefusesTheEvent(t *testing.T) {
	plans, a := &planSwitch{}, newChattyAgent(agent.StatusIdle)
	a.failLog = true
	res := PlanCommand(plans).Handler(context.Background(), Invocation{Name: "plan", Agent: a, RawInput: "go"})
	if res.Kind != Error || plans.on || len(a.sent) != 0 {
		t.Fatalf("want an error, plan mode off and nothing sent, got %+v (on=%v, sent %q)", res, plans.on, a.sent)
	}
}

// notingAgent is a chattyAgent that holds plan notices for the next
// request, as the real agent does.
type notingAgent struct {
	*chattyAgent
	notes []string
}

func (n *notingAgent) Note(origin, before, after string) {
	n.notes = append(n.notes, origin+": "+before+" → "+after)
}

func TestPlanCommandNotesTheChangeForTheNextRequest(t *testing.T) {
	a := &notingAgent{chattyAgent: newChattyAgent(agent.StatusIdle)}
	plans := &planSwitch{}
	runPlan(t, plans, a, "/plan")
	runPlan(t, plans, a, "/plan off")
	want := []string{PlanOrigin + ": " + PlanNotice(false) + " → " + PlanNotice(true),
		PlanOrigin + ": " + PlanNotice(true) + " → " + PlanNotice(false)}
	if strings.Join(a.notes, "\n") != strings.Join(want, "\n") || len(a.injected) != 0 {
		t.Fatalf("want the changes noted, none injected at once; got notes %q, injected %q", a.notes, a.injected)
	}
}
