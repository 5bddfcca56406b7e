package app

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// countingBackend counts every call made into it. History reads from
// logged, the session's events, which a test extends as it goes.
type countingBackend struct {
	calls  atomic.Int64
	sent   atomic.Value
	logged []session.Event
}

func (c *countingBackend) History(before int64, n int) ([]session.Event, bool, error) {
	c.hit()
	p := session.NewProjection(session.Header{ID: "s-1"})
	for _, e := range c.logged {
		p.Apply(e)
	}
	return p.History(session.Events(c.logged), before, n)
}

// readHistory serves the reads of earlier history m asks for from be, as
// their commands would, until it asks for none.
func readHistory(m *Model, be Backend) {
	for m.earlier.loading {
		events, more, err := be.History(m.earlier.before, m.earlier.chunk)
		m.Update(earlierMsg{load: m.earlier.load, events: events, more: more, err: err})
	}
}

func (c *countingBackend) hit()                   { c.calls.Add(1) }
func (c *countingBackend) SessionID() string      { c.hit(); return "s-1" }
func (c *countingBackend) Header() session.Header { c.hit(); return session.Header{ID: "s-1"} }
func (c *countingBackend) Subscribe() (agent.Snapshot, Subscription) {
	c.hit()
	return agent.Snapshot{}, c
}
func (c *countingBackend) Send(text string)            { c.hit(); c.sent.Store("send " + text) }
func (c *countingBackend) Steer(text string)           { c.hit(); c.sent.Store("steer " + text) }
func (c *countingBackend) Cancel()                     { c.hit(); c.sent.Store("cancel") }
func (c *countingBackend) Status() agent.Status        { c.hit(); return agent.StatusIdle }
func (c *countingBackend) AcceptsNextStep() bool       { c.hit(); return false }
func (c *countingBackend) Model() (string, llm.Effort) { c.hit(); return "m", llm.EffortHigh }
func (c *countingBackend) LookupModel(string) (llm.Model, bool) {
	c.hit()
	return llm.Model{}, false
}
func (c *countingBackend) Execute(_ context.Context, line string) (commands.Execution, bool) {
	c.hit()
	c.sent.Store("execute " + line)
	return commands.Execution{}, false
}
func (c *countingBackend) ExecuteLocal(line string, res commands.Result) (commands.Execution, bool) {
	c.hit()
	c.sent.Store("execute " + line)
	return commands.Execution{Result: res}, true
}
func (c *countingBackend) WaitRequests(context.Context, bool) ([]*interact.Request, error) {
	c.hit()
	return nil, nil
}
func (c *countingBackend) Wait(context.Context) ([]agent.Event, error) {
	c.hit()
	return nil, nil
}
func (c *countingBackend) Close()                  { c.hit() }
func (c *countingBackend) PermissionLabel() string { c.hit(); return "auto · sandboxed" }
func (c *countingBackend) ProbeSandbox(context.Context) string {
	c.hit()
	return "auto · sandboxed"
}
func (c *countingBackend) CyclePermissions() (string, error) {
	c.hit()
	c.sent.Store("cycle")
	return "plan · sandboxed", nil
}
func (c *countingBackend) Models() []llm.Model {
	c.hit()
	return []llm.Model{{ID: "m", Name: "M"}, {ID: "n", Name: "N"}}
}
func (c *countingBackend) SetModel(model string, effort llm.Effort) error {
	c.hit()
	c.sent.Store("model " + model)
	return nil
}
func (c *countingBackend) WaitCommands(context.Context, []commands.Command) ([]commands.Command, error) {
	c.hit()
	return nil, context.Canceled
}
func (c *countingBackend) SlashCommands() []commands.Command {
	c.hit()
	return []commands.Command{{Name: "model"}, {Name: "help"}}
}
func (c *countingBackend) Sessions(bool) ([]session.Summary, error) {
	c.hit()
	return []session.Summary{{ID: "s-0", Cwd: "/w", Title: "older"}}, nil
}
func (c *countingBackend) Inject(origin, text string) { c.hit() }
func (c *countingBackend) Files(context.Context) ([]string, error) {
	c.hit()
	return []string{"main.go"}, nil
}
func (c *countingBackend) Shell(_ context.Context, command string) launch.ShellRun {
	c.hit()
	c.sent.Store("shell " + command)
	return launch.ShellRun{Output: "ok"}
}
func (c *countingBackend) PromptHistory(context.Context) []string {
	c.hit()
	return []string{"an older prompt"}
}
func (c *countingBackend) StatusLine(context.Context, hooks.StatusInput) (hooks.StatusRun, error) {
	c.hit()
	return hooks.StatusRun{Rows: []string{"a status line"}}, nil
}

// noIO drives a model and fails when Update or View calls the backend.
type noIO struct {
	t  *testing.T
	be *countingBackend
	m  *Model
}

func (d noIO) step(msg tea.Msg) tea.Cmd {
	d.t.Helper()
	before := d.be.calls.Load()
	_, cmd := d.m.Update(msg)
	_ = d.m.View()
	if n := d.be.calls.Load() - before; n != 0 {
		d.t.Fatalf("want Update(%T) and View to call the backend 0 times, got %d", msg, n)
	}
	return cmd
}

// run runs cmd, which must call the backend, and steps the message it
// returns.
func (d noIO) run(cmd tea.Cmd) tea.Msg {
	d.t.Helper()
	if cmd == nil {
		d.t.Fatal("want a command, got nil")
	}
	before := d.be.calls.Load()
	msg := cmd()
	if d.be.calls.Load() == before {
		d.t.Fatalf("want the returned command to call the backend, got no call (message %T)", msg)
	}
	if msg != nil {
		next := d.step(msg)
		if _, ok := msg.(commandMsg); ok && next != nil {
			return d.run(next) // the overlay a command opens loads in a command of its own
		}
	}
	return msg
}

func (d noIO) wantSent(what, want string) {
	d.t.Helper()
	if got := d.be.sent.Load(); got != want {
		d.t.Fatalf("want %s to reach the backend as %q, got %v", what, want, got)
	}
}

// TestUpdateCallsNoBackendOutsideCommands drives Update through typing,
// sending, steering, cancelling, scrolling and a stream of events, and
// requires that no call reaches the backend until a returned command runs.
func TestUpdateCallsNoBackendOutsideCommands(t *testing.T) {
	be := &countingBackend{}
	m := New(Options{Backend: be, Width: 80, Height: 24})
	if n := be.calls.Load(); n != 0 {
		t.Fatalf("want New to call the backend 0 times, got %d", n)
	}
	d := noIO{t: t, be: be, m: m}
	d.step(tea.WindowSizeMsg{Width: 100, Height: 30})
	d.step(subscribedMsg{sessionID: "s-1", sub: be})
	keys.TypeText(d.step, "hi")
	d.run(d.step(keys.Key("enter")))
	d.wantSent("Enter while idle", "send hi")
	d.step(eventsMsg{events: []agent.Event{
		agent.StatusChanged{Status: agent.StatusRunning},
		agent.Logged{Event: session.Event{Type: "turn/start", Seq: 1, Data: session.TurnStart{Turn: 1}}},
		agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "Hel"}},
		agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "lo"}},
		agent.InboxChanged{Steering: []string{"more"}},
		agent.PhaseChanged{Phase: agent.PhaseCompacting},
	}})
	d.step(tickMsg{})
	d.step(keys.Key("x"))
	d.run(d.step(keys.Key("enter")))
	d.wantSent("Enter while running", "steer x")
	d.step(keys.Key("y"))
	d.run(d.step(keys.Key("tab")))
	d.wantSent("Tab while running", "send y")
	d.step(keys.Key("pgup"))
	d.step(keys.Key("ctrl+o"))
	d.step(keys.Key("ctrl+t"))
	d.run(d.step(keys.Key("esc")))
	d.wantSent("Esc while running", "cancel")
	d.step(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusIdle}}})
	keys.TypeText(d.step, "/x")
	d.run(d.step(keys.Key("enter")))
	d.step(commandMsg{line: "/x"})
	d.step(requestsMsg{})
}

// TestOverlayPathsCallNoBackendOutsideCommands covers Shift+Tab, the model
// and session pickers, completion, history search, details, help, `!` and
// a question: each reaches the backend only through a command.
func TestOverlayPathsCallNoBackendOutsideCommands(t *testing.T) {
	be := &countingBackend{}
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	m := New(Options{Backend: be, Width: 80, Height: 24, Now: func() time.Time { clock = clock.Add(time.Second); return clock }})
	d := noIO{t: t, be: be, m: m}
	d.step(subscribedMsg{sessionID: "s-1", sub: be, commands: be.SlashCommands()})
	d.run(d.step(keys.Key("shift+tab")))
	d.wantSent("Shift+Tab", "cycle")
	if m.permission != "plan · sandboxed" {
		t.Fatalf("want the status row to show the new mode plan · sandboxed, got %q", m.permission)
	}

	keys.TypeText(d.step, "/model")
	if !m.menu.Open() {
		t.Fatal("want the command menu open on a /model draft, got it closed")
	}
	d.step(keys.Key("esc"))
	d.run(d.step(keys.Key("enter")))
	if m.ov.models == nil {
		t.Fatal("want /model to open the model picker, got none")
	}
	d.step(keys.Key("down"))
	d.run(d.step(keys.Key("enter")))
	d.wantSent("choosing a model", "model n")

	keys.TypeText(d.step, "/resume")
	d.step(keys.Key("esc"))
	d.run(d.step(keys.Key("enter")))
	if m.ov.sessions == nil {
		t.Fatal("want /resume to open the session picker, got none")
	}
	d.step(keys.Key("esc"))

	d.run(d.step(keys.Key("ctrl+r")))
	d.step(keys.Key("esc"))
	d.step(keys.Key("?"))
	d.step(keys.Key("esc"))
	keys.TypeText(d.step, "/details")
	d.step(keys.Key("esc"))
	d.step(keys.Key("enter"))
	d.step(keys.Key("tab"))
	d.step(keys.Key("esc"))

	keys.TypeText(d.step, "!ls")
	d.run(d.step(keys.Key("enter")))
	d.wantSent("a ! draft", "shell ls")

	broker := interact.NewBroker()
	defer broker.Mount()()
	answered := make(chan []interact.Answer, 1)
	go func() {
		a, _ := broker.Ask(context.Background(), []interact.Question{{ID: "q", Question: "Which?", Options: []interact.Option{{Label: "A"}, {Label: "B"}}}})
		answered <- a
	}()
	<-broker.Changes()
	d.step(requestsMsg{pending: broker.Pending()})
	d.step(keys.Key("down"))
	cmd := d.step(keys.Key("enter"))
	if cmd == nil {
		t.Fatal("want Enter on the question to return the command that answers it, got nil")
	}
	cmd()
	if got := <-answered; len(got) != 1 || got[0].Selected[0] != "B" {
		t.Fatalf("want the answer B, got %+v", got)
	}
}

// Links to files in the answers start from the working directory, so a
// click in the terminal opens the file the model named.
func TestAnswersLinkFilesFromTheWorkingDirectory(t *testing.T) {
	m := New(Options{Backend: &countingBackend{}, Width: 80, Height: 24, Cwd: "/work/proj"})
	if got := m.tr.Settings().Dir; got != "/work/proj" {
		t.Errorf("want the transcript's links to start from the working directory, got %q", got)
	}
}

// Where the terminal sends Shift+Enter as Enter, the empty editor offers
// a backslash before Enter for a new line.
func TestEditorHintFollowsTheTerminalsShiftEnter(t *testing.T) {
	m := New(Options{Backend: &countingBackend{}, Width: 100, Height: 24, PlainShiftEnter: true})
	m.Update(subscribedMsg{sessionID: "s-1", sub: &countingBackend{}})
	if got := screen(m); !strings.Contains(got, `\ then Enter for a new line`) {
		t.Errorf("want the backslash offered, got:\n%s", got)
	}
}
