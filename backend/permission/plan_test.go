package permission

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/session"
)

func planning(mode Mode) *Policy {
	p := newPolicy(mode, nil)
	p.SetPlan(true)
	return p
}

// bashArgs is the JSON arguments of a bash call running command.
func bashArgs(command string) string {
	args, _ := json.Marshal(map[string]string{"command": command})
	return string(args)
}

func TestPlanModeRefusesEditsWithAnErrorTheModelReads(t *testing.T) {
	for _, tool := range []fakeTool{editTool, writeTool} {
		l := &log{}
		_, err := planning(FullAccess).Authorize(context.Background(), tool, call(l, `{"file_path":"a.go"}`))
		want := "plan mode: " + tool.name + " is not allowed while planning. " +
			"Finish the plan and call exit_plan_mode to present it for review."
		if err == nil || err.Error() != want {
			t.Fatalf("%s: want %q, got %v", tool.name, want, err)
		}
		e := l.take()
		if len(e) != 1 || e[0].(session.ApprovalDecided).Policy != "plan" || e[0].(session.ApprovalDecided).Decision != "deny" {
			t.Fatalf("%s: want one deny decided by the plan policy, got %+v", tool.name, e)
		}
	}
}

func TestPlanModeRunsReadsAndInteractions(t *testing.T) {
	for _, tool := range []fakeTool{readTool, askTool} {
		if _, err := planning(ReadOnly).Authorize(context.Background(), tool, call(&log{}, `{}`)); err != nil {
			t.Fatalf("%s: want it to run while planning, got %v", tool.name, err)
		}
	}
}

func TestPlanModeRunsOnlyReadOnlyCommands(t *testing.T) {
	cases := []struct {
		command string
		runs    bool
	}{
		{"ls -la", true},
		{"git status", true},
		{"git log --oneline -5 | head -3", true},
		{"cat go.mod && grep -rn TODO backend | wc -l", true},
		{"find . -name '*.go' -type f", true},
		{"ls *.go 2>/dev/null", true},
		{"rg -n Policy backend", true},
		{"git branch -a", true},
		{"git branch --contains HEAD", true},
		{"go list ./...", true},
		{"go env GOPATH", true},
		{"echo $(git rev-parse HEAD)", true},
		{"git --no-pager -C sub log -p", true},
		{"rm x", false},
		{"git status > out.txt", false},
		{"ls >> log.txt", false},
		{"find . -delete", false},
		{"find . -name x -exec rm {} \\;", false},
		{"find . -execdir touch x \\;", false},
		{"git commit -m wip", false},
		{"git branch feature", false},
		{"git branch -D feature", false},
		{"git diff --output=patch.diff", false},
		{"git -c core.pager=less log", false},
		{"go build ./...", false},
		{"go env -w GOFLAGS=-mod=mod", false},
		{"go vet -vettool=/tmp/x ./...", false},
		{"sort -o sorted.txt data.txt", false},
		{"tree -o tree.txt", false},
		{"rg --pre ./script x", false},
		{"ls && rm -rf build", false},
		{"echo $(rm x)", false},
		{"FOO=1 ls", false},
		{"LC_ALL=C grep -rn TODO .", true},
		{"NO_COLOR=1 TZ=UTC git log -3", true},
		{"LC_ALL=C PATH=/tmp ls", false},
		{"GIT_DIR=/tmp/x git log", false},
		{"LANG=$(touch x) ls", false},
		{"LANG=C rm x", false},
		{"sed -i s/a/b/ f", false},
		{"xargs rm < list", false},
		{"bash -c ls", false},
		{"find $DIR -name x", false},
		{"ls; if true; then ls; fi", false},
		{"echo 'unterminated", false},
	}
	for _, c := range cases {
		_, err := planning(FullAccess).Authorize(context.Background(), bashTool, call(&log{}, bashArgs(c.command)))
		if c.runs {
			if err != nil {
				t.Errorf("%q: want it to run while planning, got %v", c.command, err)
			}
			continue
		}
		want := `plan mode: only read-only commands run while planning; "` + c.command + `" may change things.`
		if err == nil || err.Error() != want {
			t.Errorf("%q: want %q, got %v", c.command, want, err)
		}
	}
}

func TestPlanModeDoesNotAskEvenWhenTheModeWould(t *testing.T) {
	p, a := answeredPolicy(t, Ask, interact.Decision{Verdict: interact.Allow})
	p.SetPlan(true)
	l := &log{}
	if _, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"git status"}`)); err != nil {
		t.Fatalf("want a read-only command to run while planning, got %v", err)
	}
	if _, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"make"}`)); err == nil {
		t.Fatal("want make refused while planning, got it allowed")
	}
	if a.count() != 0 {
		t.Fatalf("want no approval asked while planning, got %d", a.count())
	}
	want := []session.Data{
		session.ApprovalDecided{CallID: "call-1", Tool: "bash", Decision: "allow", Policy: "plan"},
		session.ApprovalDecided{CallID: "call-1", Tool: "bash", Decision: "deny", Policy: "plan",
			Reason: `plan mode: only read-only commands run while planning; "make" may change things.`},
	}
	if e := l.take(); len(e) != 2 || e[0] != want[0] || e[1] != want[1] {
		t.Fatalf("want events %+v, got %+v", want, e)
	}
}

func TestLeavingPlanModeRestoresTheMode(t *testing.T) {
	p := newPolicy(FullAccess, nil)
	if !p.SetPlan(true) || p.SetPlan(true) {
		t.Fatal("want SetPlan to report a change only the first time")
	}
	if p.Label() != "plan" || p.Mode() != FullAccess {
		t.Fatalf("want label plan over full-access, got %s over %s", p.Label(), p.Mode())
	}
	if !p.SetPlan(false) || p.Plan() {
		t.Fatal("want plan mode off after SetPlan(false)")
	}
	if p.Label() != "full-access" {
		t.Fatalf("want label full-access after planning, got %s", p.Label())
	}
	if _, err := p.Authorize(context.Background(), editTool, call(&log{}, `{"file_path":"a.go"}`)); err != nil {
		t.Fatalf("want edits to run again under full-access, got %v", err)
	}
}
