package permission

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// escalatingTool is bash with its sandbox argument.
type escalatingTool struct{ fakeTool }

func (escalatingTool) Escalation(args json.RawMessage) tools.Escalation {
	var a struct{ Sandbox, Justification string }
	_ = json.Unmarshal(args, &a)
	return tools.Escalation{Kind: a.Sandbox, Justification: a.Justification}
}

var escBash = escalatingTool{bashTool}

func escArgs(command, kind string) string {
	b, _ := json.Marshal(map[string]string{"command": command, "sandbox": kind, "justification": "to fetch modules"})
	return string(b)
}

func TestEscalationAsksAndIsRememberedWithItsKind(t *testing.T) {
	p, a := answeredPolicy(t, Auto, interact.Decision{Verdict: interact.AllowSession}, interact.Decision{Verdict: interact.Deny})
	l := &log{}
	grant, err := p.Authorize(context.Background(), escBash, call(l, escArgs("go mod download", "network")))
	if err != nil || grant != (tools.Sandbox{Network: true}) {
		t.Fatalf("want the approved escalation to run in the sandbox with network, got %+v, %v", grant, err)
	}
	got := <-a.asked
	if !strings.Contains(got.Why, "network") || !strings.Contains(got.Why, "to fetch modules") || got.Remember != "go mod" || got.Confined {
		t.Fatalf("want an approval saying network and why, remembering go mod, not confined; got %+v", got)
	}
	if grant, err := p.Authorize(context.Background(), escBash, call(l, escArgs("go mod tidy", "network"))); err != nil || !grant.Network {
		t.Fatalf("want the remembered prefix and escalation to cover go mod tidy, got %+v, %v", grant, err)
	}
	if a.count() != 0 {
		t.Fatal("want no question for a remembered escalation")
	}
	// Remembered with network, not outside: leaving the sandbox asks.
	if _, err := p.Authorize(context.Background(), escBash, call(l, escArgs("go mod tidy", "outside"))); err == nil {
		t.Fatal("want an escalation outside the sandbox asked (and denied), not covered by a network allowance")
	}
	// Without an escalation the command just runs, sandboxed.
	if grant, err := p.Authorize(context.Background(), escBash, call(l, `{"command":"go mod tidy"}`)); err != nil || grant != (tools.Sandbox{}) {
		t.Fatalf("want a plain command run in the default sandbox, got %+v, %v", grant, err)
	}
}

// In ask mode a command that stays in the sandbox asks too; its approval
// says so as a fact, not a warning.
func TestAskModeApprovalOfASandboxedCommandIsConfined(t *testing.T) {
	p, a := answeredPolicy(t, Ask, interact.Decision{Verdict: interact.Allow})
	if _, err := p.Authorize(context.Background(), escBash, call(&log{}, `{"command":"ls"}`)); err != nil {
		t.Fatal(err)
	}
	if got := <-a.asked; !got.Confined || got.Why != "Runs in the sandbox." {
		t.Fatalf("want a confined approval that says it runs in the sandbox, got %+v", got)
	}
}

func TestEscalationOutsideRunsUnconfinedOnceApproved(t *testing.T) {
	p, _ := answeredPolicy(t, ReadOnly, interact.Decision{Verdict: interact.Allow})
	grant, err := p.Authorize(context.Background(), escBash, call(&log{}, escArgs("npm i -g x", "outside")))
	if err != nil || !grant.Off {
		t.Fatalf("want the approved escalation to run without the sandbox, got %+v, %v", grant, err)
	}
}

func TestPlanModeRefusesEscalationAndRunsReadOnlyCommandsWithoutWritesOrNetwork(t *testing.T) {
	p := planning(Auto)
	p.SetSandbox(fakeSandbox{active: true}, true)
	l := &log{}
	if _, err := p.Authorize(context.Background(), escBash, call(l, escArgs("git status", "network"))); err == nil || !strings.Contains(err.Error(), "plan mode") {
		t.Fatalf("want escalation refused while planning, got %v", err)
	}
	grant, err := p.Authorize(context.Background(), escBash, call(l, `{"command":"cat $(( '$(echo x > F)' ))"}`))
	if err == nil && !grant.ReadOnly {
		t.Fatalf("want a hidden write refused, or run where nothing can be written, got %+v", grant)
	}
	grant, err = p.Authorize(context.Background(), escBash, call(l, `{"command":"git status"}`))
	if err != nil || grant != (tools.Sandbox{ReadOnly: true}) {
		t.Fatalf("want a read-only command run in a sandbox without writes or network (even with [sandbox] network on), got %+v, %v", grant, err)
	}
}

func TestRemembersNothingForCommandsTheParserCannotFollow(t *testing.T) {
	p, a := answeredPolicy(t, Auto, interact.Decision{Verdict: interact.AllowSession}, interact.Decision{Verdict: interact.Deny})
	l := &log{}
	if _, err := p.Authorize(context.Background(), escBash, call(l, escArgs("ls", "outside"))); err != nil {
		t.Fatal(err)
	}
	<-a.asked
	_, err := p.Authorize(context.Background(), escBash, call(l, escArgs(`ls $(( '$(touch pwned)' ))`, "outside")))
	if err == nil {
		t.Fatal("want a hidden command asked about although ls is remembered outside the sandbox")
	}
	if got := <-a.asked; got.Remember != "" {
		t.Fatalf("want no session choice for it, got %q", got.Remember)
	}
	events := l.take()
	if d, ok := events[len(events)-1].(session.ApprovalDecided); !ok || d.Decision != "deny" {
		t.Fatalf("want the denial recorded last, got %+v", events)
	}
}

func TestEscalateAfterARefusalAsksOrDenies(t *testing.T) {
	p, a := answeredPolicy(t, Auto, interact.Decision{Verdict: interact.Allow})
	e := tools.Escalation{Kind: tools.EscalateNetwork, Justification: "the sandbox refused network access (Could not resolve host)"}
	grant, err := p.Escalate(context.Background(), escBash, call(&log{}, `{"command":"curl x"}`), e)
	if err != nil || !grant.Network {
		t.Fatalf("want the rerun allowed with network, got %+v, %v", grant, err)
	}
	if got := <-a.asked; !strings.Contains(got.Why, "Could not resolve host") {
		t.Fatalf("want the approval to say what the sandbox refused, got %q", got.Why)
	}
	if _, err := planning(Auto).Escalate(context.Background(), escBash, call(&log{}, `{"command":"curl x"}`), e); err == nil {
		t.Fatal("want no rerun offered while planning")
	}
	if _, err := newPolicy(Auto, nil).Escalate(context.Background(), escBash, call(&log{}, `{"command":"curl x"}`), e); err == nil {
		t.Fatal("want no rerun without anybody to approve it")
	}
}
