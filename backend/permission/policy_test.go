package permission

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// fakeTool is a tool with a given access; with shell set it presents its
// "command" argument as a terminal card, as bash does.
type fakeTool struct {
	name   string
	access tools.Access
	shell  bool
}

func (f fakeTool) Spec() tools.Spec { return tools.Spec{Name: f.name, Access: f.access} }

func (f fakeTool) Present(args json.RawMessage) card.Card {
	var a struct {
		Command  string `json:"command"`
		FilePath string `json:"file_path"`
	}
	_ = json.Unmarshal(args, &a)
	if f.shell {
		return card.Card{Kind: card.Terminal, Title: a.Command, Terminal: &card.TerminalView{Command: a.Command}}
	}
	return card.Card{Kind: card.Diff, Title: "Edit " + a.FilePath}
}

func (fakeTool) Run(context.Context, tools.Call) tools.Result { return tools.Result{} }

var (
	readTool  = fakeTool{name: "read", access: tools.AccessRead}
	askTool   = fakeTool{name: "ask_user_question", access: tools.AccessInteract}
	writeTool = fakeTool{name: "write", access: tools.AccessEdit}
	editTool  = fakeTool{name: "edit", access: tools.AccessEdit}
	bashTool  = fakeTool{name: "bash", access: tools.AccessExec, shell: true}
)

// log collects the events a Policy records.
type log struct {
	mu     sync.Mutex
	events []session.Data
}

func (l *log) record(d session.Data) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.events = append(l.events, d)
	return nil
}

func (l *log) take() []session.Data {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := l.events
	l.events = nil
	return out
}

// testWorkspace is the session directory of the calls the tests make; it
// need not exist.
const testWorkspace = "/tack-test-workspace"

func call(l *log, args string) tools.Call {
	return tools.Call{ID: "call-1", Args: json.RawMessage(args), Env: &tools.Env{Record: l.record, Cwd: testWorkspace}}
}

// fakeSandbox is a sandbox that can, or cannot, confine commands.
type fakeSandbox struct{ active bool }

func (f fakeSandbox) Status() sandbox.Status {
	if f.active {
		return sandbox.Status{Active: true, Mechanism: "test sandbox"}
	}
	return sandbox.Status{Reason: "no user namespaces (forced by the test)"}
}

// newPolicy is NewPolicy over a sandbox that confines commands.
func newPolicy(mode Mode, b *interact.Broker) *Policy {
	p := NewPolicy(mode, b)
	p.SetSandbox(fakeSandbox{active: true}, false)
	return p
}

// answerer answers every approval with the next decision and remembers
// what it was asked.
type answerer struct {
	asked chan interact.Approval
}

func mountAnswerer(t *testing.T, b *interact.Broker, decisions ...interact.Decision) *answerer {
	t.Helper()
	a := &answerer{asked: make(chan interact.Approval, len(decisions)+1)}
	next := 0
	interacttest.Serve(t, b, func(r *interact.Request) {
		if next < len(decisions) {
			a.asked <- *r.Approval
			r.Decide(decisions[next])
			next++
		}
	})
	return a
}

// answeredPolicy is a policy in mode whose approvals an answerer answers
// with decisions, in turn.
func answeredPolicy(t *testing.T, mode Mode, decisions ...interact.Decision) (*Policy, *answerer) {
	t.Helper()
	b := interact.NewBroker()
	a := mountAnswerer(t, b, decisions...)
	return newPolicy(mode, b), a
}

// nextAfter waits for the first pending request newer than id: a settled
// request stays pending until its waiter has taken the answer.
func nextAfter(ctx context.Context, b *interact.Broker, id int64) *interact.Request {
	for {
		for _, r := range b.Pending() {
			if r.ID > id {
				return r
			}
		}
		select {
		case <-b.Changes():
		case <-ctx.Done():
			return nil
		}
	}
}

func (a *answerer) count() int { return len(a.asked) }

func TestModeTable(t *testing.T) {
	const (
		runs    = "runs"
		asks    = "asks"
		refuses = "refuses"
	)
	type outcome struct {
		verdict string
		grant   tools.Sandbox
	}
	sandboxed, readOnly, off := tools.Sandbox{}, tools.Sandbox{ReadOnly: true}, tools.Sandbox{Off: true}
	want := map[Mode]map[string]outcome{
		ReadOnly:   {"read": {runs, sandboxed}, "ask_user_question": {runs, sandboxed}, "write": {refuses, sandboxed}, "bash": {runs, readOnly}},
		Ask:        {"read": {runs, sandboxed}, "ask_user_question": {runs, sandboxed}, "write": {asks, sandboxed}, "bash": {asks, sandboxed}},
		Auto:       {"read": {runs, sandboxed}, "ask_user_question": {runs, sandboxed}, "write": {runs, sandboxed}, "bash": {runs, sandboxed}},
		FullAccess: {"read": {runs, sandboxed}, "ask_user_question": {runs, sandboxed}, "write": {runs, sandboxed}, "bash": {runs, off}},
	}
	for _, mode := range Modes() {
		for _, tool := range []fakeTool{readTool, askTool, writeTool, bashTool} {
			p, a := answeredPolicy(t, mode, interact.Decision{Verdict: interact.Allow})
			grant, err := p.Authorize(context.Background(), tool, call(&log{}, `{"command":"ls","file_path":"a.go"}`))
			got := outcome{runs, grant}
			switch {
			case err != nil:
				got.verdict = refuses
			case a.count() == 1:
				got.verdict = asks
			}
			if got != want[mode][tool.name] {
				t.Errorf("%s mode, %s: want %+v, got %+v (err %v)", mode, tool.name, want[mode][tool.name], got, err)
			}
		}
	}
}

func TestWithoutASandboxEveryCommandAsksAndRunsUnconfined(t *testing.T) {
	for _, mode := range []Mode{ReadOnly, Ask, Auto} {
		b := interact.NewBroker()
		a := mountAnswerer(t, b, interact.Decision{Verdict: interact.Allow})
		p := NewPolicy(mode, b)
		p.SetSandbox(fakeSandbox{}, false)
		grant, err := p.Authorize(context.Background(), bashTool, call(&log{}, `{"command":"ls"}`))
		if err != nil || a.count() != 1 || grant != (tools.Sandbox{Off: true}) {
			t.Fatalf("%s mode without a sandbox: want the command asked about and run unconfined, got %+v, %v, %d asked", mode, grant, err, a.count())
		}
		if got := <-a.asked; !strings.HasPrefix(got.Why, "No sandbox") {
			t.Errorf("%s mode: want the approval to say there is no sandbox, got %q", mode, got.Why)
		}
		if l := p.StatusLabel(); l != string(mode)+" · no sandbox" {
			t.Errorf("%s mode: want the status label to say no sandbox, got %q", mode, l)
		}
	}
	p := NewPolicy(FullAccess, nil)
	p.SetSandbox(fakeSandbox{}, false)
	if grant, err := p.Authorize(context.Background(), bashTool, call(&log{}, `{"command":"ls"}`)); err != nil || !grant.Off {
		t.Fatalf("want full-access to run unasked without a sandbox, got %+v, %v", grant, err)
	}
}

func TestReadOnlyRefusesWritesWithAnActionableError(t *testing.T) {
	l := &log{}
	_, err := newPolicy(ReadOnly, nil).Authorize(context.Background(), writeTool, call(l, `{"file_path":"a.go"}`))
	want := "read-only mode: write is not allowed. Tell the user what you would change, or ask them to switch modes with /permissions."
	if err == nil || err.Error() != want {
		t.Fatalf("want %q, got %v", want, err)
	}
	events := l.take()
	if len(events) != 1 || events[0].(session.ApprovalDecided).Policy != "read-only" || events[0].(session.ApprovalDecided).Decision != "deny" {
		t.Fatalf("want one deny decided by the read-only policy, got %+v", events)
	}
}

func TestReadsRecordNoDecision(t *testing.T) {
	l := &log{}
	if _, err := newPolicy(ReadOnly, nil).Authorize(context.Background(), readTool, call(l, `{}`)); err != nil {
		t.Fatalf("want reads to run, got %v", err)
	}
	if e := l.take(); len(e) != 0 {
		t.Fatalf("want no events for a read, got %+v", e)
	}
}

func TestPolicyDecisionsAreRecorded(t *testing.T) {
	l := &log{}
	if _, err := newPolicy(FullAccess, nil).Authorize(context.Background(), bashTool, call(l, `{"command":"rm -rf build"}`)); err != nil {
		t.Fatalf("want full-access to run bash, got %v", err)
	}
	want := session.ApprovalDecided{CallID: "call-1", Tool: "bash", Decision: "allow", Policy: "full-access"}
	if e := l.take(); len(e) != 1 || e[0] != want {
		t.Fatalf("want %+v, got %+v", want, e)
	}
}

func TestAllowForSessionRemembersTheBashPrefix(t *testing.T) {
	b := interact.NewBroker()
	a := mountAnswerer(t, b,
		interact.Decision{Verdict: interact.AllowSession},
		interact.Decision{Verdict: interact.Deny, Reason: "do not delete files"},
	)
	p := newPolicy(Ask, b)
	l := &log{}
	if _, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"git status"}`)); err != nil {
		t.Fatalf("want the allowed call to run, got %v", err)
	}
	got := <-a.asked
	if got.Tool != "bash" || got.Summary != "git status" || got.Details != "git status" || got.Remember != "git status" || got.Card == nil || got.CallID != "call-1" {
		t.Fatalf("want an approval naming bash, the command and the prefix, got %+v", got)
	}
	wantEvents := []session.Data{
		session.ApprovalAsked{CallID: "call-1", Tool: "bash", Summary: "git status"},
		session.ApprovalDecided{CallID: "call-1", Tool: "bash", Decision: "allow-session", Remember: "git status"},
	}
	if e := l.take(); len(e) != 2 || e[0] != wantEvents[0] || e[1] != wantEvents[1] {
		t.Fatalf("want events %+v, got %+v", wantEvents, e)
	}

	for _, cmd := range []string{"git status --short", "git status -s"} {
		if _, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"`+cmd+`"}`)); err != nil {
			t.Fatalf("%s: want it to run on the remembered prefix, got %v", cmd, err)
		}
		if e := l.take(); len(e) != 1 || e[0].(session.ApprovalDecided).Policy != "remembered" {
			t.Fatalf("%s: want one decision by the remembered policy, got %+v", cmd, e)
		}
	}

	_, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"git status; rm x"}`))
	if err == nil || err.Error() != "the user denied this call: do not delete files" {
		t.Fatalf("want the user's reason to reach the model, got %v", err)
	}
	if got := <-a.asked; got.Remember != "" {
		t.Fatalf("want no allowance offered for a command that deletes files, got %q", got.Remember)
	}
}

func TestAllowForSessionRemembersEveryPrefixOfACompoundCommand(t *testing.T) {
	p, a := answeredPolicy(t, Ask, interact.Decision{Verdict: interact.AllowSession}, interact.Decision{Verdict: interact.Deny})
	l := &log{}
	if _, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"go build ./... && go test ./..."}`)); err != nil {
		t.Fatalf("want the allowed call to run, got %v", err)
	}
	if got := <-a.asked; got.Remember != "go build, go test" {
		t.Fatalf("want both prefixes offered, got %q", got.Remember)
	}
	l.take()
	for _, cmd := range []string{"go test -run X ./pkg", "go build . && go test .", "go test ./... | go build"} {
		if _, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"`+cmd+`"}`)); err != nil {
			t.Fatalf("%s: want it to run on the remembered prefixes, got %v", cmd, err)
		}
		if e := l.take(); len(e) != 1 || e[0].(session.ApprovalDecided).Remember != "go build, go test" {
			t.Fatalf("%s: want one decision by the remembered prefixes, got %+v", cmd, e)
		}
	}
	if _, err := p.Authorize(context.Background(), bashTool, call(l, `{"command":"go test ./... && go run ."}`)); err == nil {
		t.Fatal("want a command outside the remembered prefixes asked again and denied")
	}
}

func TestAllowForSessionRemembersTheToolForEdits(t *testing.T) {
	p, a := answeredPolicy(t, Ask, interact.Decision{Verdict: interact.AllowSession}, interact.Decision{Verdict: interact.Deny})
	l := &log{}
	if _, err := p.Authorize(context.Background(), writeTool, call(l, `{"file_path":"a.go"}`)); err != nil {
		t.Fatal(err)
	}
	if got := <-a.asked; got.Summary != "Edit a.go" || got.Remember != "write" || got.Card == nil || got.Card.Kind != card.Diff {
		t.Fatalf("want an approval with the diff card remembering write, got %+v", got)
	}
	if _, err := p.Authorize(context.Background(), writeTool, call(l, `{"file_path":"b.go"}`)); err != nil {
		t.Fatalf("want the remembered write to run, got %v", err)
	}
	_, err := p.Authorize(context.Background(), editTool, call(l, `{"file_path":"b.go"}`))
	if err == nil || err.Error() != "the user denied this call" {
		t.Fatalf("want edit to ask again and be denied without a reason, got %v", err)
	}
}

// The approval of an edit names its file as the card of the call and of
// its result do, from the workspace, though the model wrote it absolute.
func TestAnEditsApprovalNamesItsFileFromTheWorkspace(t *testing.T) {
	b := interact.NewBroker()
	a := mountAnswerer(t, b, interact.Decision{Verdict: interact.Allow})
	l := &log{}
	args := `{"file_path":"` + testWorkspace + `/calc.go","old_string":"a","new_string":"b"}`
	if _, err := newPolicy(Ask, b).Authorize(context.Background(), realTools(t)["edit"], call(l, args)); err != nil {
		t.Fatal(err)
	}
	if got := <-a.asked; got.Summary != "Edit calc.go" {
		t.Fatalf("want the approval to say Edit calc.go, got %q", got.Summary)
	}
}

func TestWithoutAnswererAskingDeniesAndNamesTheFlag(t *testing.T) {
	for name, b := range map[string]*interact.Broker{"nil broker": nil, "unmounted broker": interact.NewBroker()} {
		l := &log{}
		_, err := newPolicy(Ask, b).Authorize(context.Background(), bashTool, call(l, `{"command":"ls"}`))
		if err == nil || !strings.Contains(err.Error(), "--permission-mode full-access") {
			t.Fatalf("%s: want a denial naming --permission-mode full-access, got %v", name, err)
		}
		if e := l.take(); len(e) != 1 || e[0].(session.ApprovalDecided).Policy != "no-answerer" {
			t.Fatalf("%s: want one decision by the no-answerer policy, got %+v", name, e)
		}
	}
}

func TestClosedStdinDeniesTheCall(t *testing.T) {
	b := interact.NewBroker()
	unmount := b.Mount()
	defer unmount()
	b.FailAll(interact.ErrStdinClosed)
	_, err := newPolicy(Ask, b).Authorize(context.Background(), bashTool, call(&log{}, `{"command":"ls"}`))
	if err == nil || err.Error() != "the user cannot approve this call because stdin is closed" {
		t.Fatalf("want the stdin-closed denial, got %v", err)
	}
}

func TestCancelWhileAskingInterrupts(t *testing.T) {
	b := interact.NewBroker()
	unmount := b.Mount()
	defer unmount()
	ctx, cancel := context.WithCancel(context.Background())
	l := &log{}
	errc := make(chan error)
	go func() {
		_, err := newPolicy(Ask, b).Authorize(ctx, bashTool, call(l, `{"command":"ls"}`))
		errc <- err
	}()
	if nextAfter(context.Background(), b, 0) == nil {
		t.Fatal("want a pending approval")
	}
	cancel()
	select {
	case err := <-errc:
		if err == nil || err.Error() != "the approval request was interrupted before the user answered" {
			t.Fatalf("want the interrupted denial, got %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("want Authorize to return after cancel, it did not")
	}
	if e := l.take(); len(e) != 2 || e[0].EventType() != "approval/asked" || e[1].EventType() != "approval/decided" {
		t.Fatalf("want asked then decided, got %+v", e)
	}
}

func TestSetModeIsSeenByTheNextCall(t *testing.T) {
	p := newPolicy(Ask, nil)
	p.SetMode(FullAccess)
	if p.Mode() != FullAccess {
		t.Fatalf("want full-access, got %s", p.Mode())
	}
	if _, err := p.Authorize(context.Background(), bashTool, call(&log{}, `{"command":"ls"}`)); err != nil {
		t.Fatalf("want bash to run in full-access, got %v", err)
	}
}

func TestParseModeAcceptsAutoEditAsAuto(t *testing.T) {
	for _, m := range Modes() {
		got, err := ParseMode(string(m))
		if err != nil || got != m {
			t.Errorf("ParseMode(%q): want %q, got %q, %v", m, m, got, err)
		}
	}
	for name, want := range map[string]Mode{
		"auto-edit": Auto, "default": Ask, "acceptEdits": Auto, "bypassPermissions": FullAccess,
	} {
		if got, err := ParseMode(name); err != nil || got != want {
			t.Errorf("want %s read as %s, got %q, %v", name, want, got, err)
		}
	}
	// Hooks and the Agent SDK read each mode by Claude Code's name for it,
	// which --permission-mode takes back as the same mode, but read-only's.
	for _, m := range Modes() {
		p := NewPolicy(m, nil)
		name := p.ClaudeName()
		if got, err := ParseMode(name); m != ReadOnly && (err != nil || got != m) || name == string(m) {
			t.Errorf("%s: Claude Code's name %q reads back as %q, %v", m, name, got, err)
		}
		p.SetPlan(true)
		if got := p.ClaudeName(); got != "plan" {
			t.Errorf("%s in plan mode: want plan, got %q", m, got)
		}
	}
	if _, err := ParseMode("yolo"); err == nil || !strings.Contains(err.Error(), "read-only, ask, auto, full-access") {
		t.Errorf("want an error listing the modes, got %v", err)
	}
}

func TestShiftTabNeverReachesFullAccess(t *testing.T) {
	type step struct {
		mode Mode
		plan bool
	}
	got := []step{{Auto, false}}
	for range 5 {
		m, plan := Cycle(got[len(got)-1].mode, got[len(got)-1].plan)
		got = append(got, step{m, plan})
	}
	want := []step{{Auto, false}, {Auto, true}, {ReadOnly, false}, {Ask, false}, {Auto, false}, {Auto, true}}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("want the cycle %+v, got %+v", want, got)
		}
	}
	if m, plan := Cycle(FullAccess, false); m != Auto || plan {
		t.Errorf("want Shift+Tab from full-access to step back to auto, got %s plan=%v", m, plan)
	}
}
