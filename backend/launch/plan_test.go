package launch

import (
	"context"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
)

func openForTest(t *testing.T, home, cwd, resume string) *Session {
	t.Helper()
	return openForTestAt(t, home, cwd, resume, "")
}

func planModeEvents(s *Session) []bool {
	var out []bool
	for _, e := range s.Agent.Events() {
		if d, ok := e.Data.(session.PlanMode); ok {
			out = append(out, d.Active)
		}
	}
	return out
}

func TestPlanModeSurvivesResume(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	s := openForTest(t, home, cwd, "")
	exec, ok := s.Commands.Execute(context.Background(), s.Agent, "/plan", nil)
	if !ok || exec.Result.Text != "Plan mode on. Use /plan off to leave." {
		t.Fatalf("want /plan to turn plan mode on, got %+v (found %v)", exec.Result, ok)
	}
	if _, ok := s.Agent.Tools().Get("exit_plan_mode"); !ok {
		t.Fatal("want exit_plan_mode registered")
	}
	id := s.Agent.SessionID()
	s.Close()

	resumed := openForTest(t, home, cwd, id)
	defer resumed.Close()
	if !resumed.Policy.Plan() || resumed.Policy.Label() != "plan" || resumed.Policy.Mode() != permission.FullAccess {
		t.Fatalf("want plan mode restored over full-access, got plan=%v label=%s mode=%s",
			resumed.Policy.Plan(), resumed.Policy.Label(), resumed.Policy.Mode())
	}
}

func TestCyclePermissionsStepsThroughPlanModeAndRecordsIt(t *testing.T) {
	s := openForTest(t, t.TempDir(), t.TempDir(), "")
	defer s.Close()
	var labels []string
	for range 3 {
		label, err := s.CyclePermissions()
		if err != nil {
			t.Fatal(err)
		}
		labels = append(labels, label)
	}
	// From full-access Shift+Tab steps to auto, and never back.
	want := []string{"auto · sandboxed", "plan · sandboxed", "read-only · sandboxed"}
	for i := range want {
		if labels[i] != want[i] {
			t.Fatalf("want labels %v from full-access, got %v", want, labels)
		}
	}
	if got := planModeEvents(s); len(got) != 2 || !got[0] || got[1] {
		t.Fatalf("want plan/mode on then off, got %v", got)
	}
}

func TestChoosingAPermissionModeLeavesPlanMode(t *testing.T) {
	s := openForTest(t, t.TempDir(), t.TempDir(), "")
	defer s.Close()
	ctx := context.Background()
	s.Commands.Execute(ctx, s.Agent, "/plan", nil)
	exec, _ := s.Commands.Execute(ctx, s.Agent, "/permissions", nil)
	if exec.Result.Text != "Permission mode: plan · sandboxed (available: read-only, ask, auto, full-access)" {
		t.Fatalf("want /permissions to show plan, got %q", exec.Result.Text)
	}
	s.Commands.Execute(ctx, s.Agent, "/permissions ask", nil)
	if s.Policy.Plan() || s.Policy.Label() != "ask" {
		t.Fatalf("want plan mode left for ask, got %s", s.Policy.Label())
	}
	if got := planModeEvents(s); len(got) != 2 || got[1] {
		t.Fatalf("want plan/mode on then off, got %v", got)
	}
}

// Claude Code's --permission-mode plan starts the session in plan mode,
// over the configured mode, and says so in the log.
func TestPermissionModePlanStartsInPlanMode(t *testing.T) {
	llm := llmtest.New(t, llmtest.ReplyText("ok"))
	s := openMCP(t, t.TempDir(), t.TempDir(), "plan", llm)
	if !s.Policy.Plan() || s.Policy.Mode() != permission.DefaultMode || !s.Agent.PlanMode() {
		t.Errorf("want plan mode over %s, got plan %v, mode %s, agent plan %v", permission.DefaultMode, s.Policy.Plan(), s.Policy.Mode(), s.Agent.PlanMode())
	}
}
