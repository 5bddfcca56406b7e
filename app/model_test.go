package app

import (
	"context"
	"sync/atomic"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// countingBackend counts every call made into it.
type countingBackend struct {
	calls atomic.Int64
	sent  atomic.Value
}

func (c *countingBackend) hit()                   { c.calls.Add(1) }
func (c *countingBackend) SessionID() string      { c.hit(); return "s-1" }
func (c *countingBackend) Header() session.Header { c.hit(); return session.Header{ID: "s-1"} }
func (c *countingBackend) Subscribe() ([]session.Event, Subscription) {
	c.hit()
	return nil, c
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
func (c *countingBackend) Execute(context.Context, string) (commands.Execution, bool) {
	c.hit()
	return commands.Execution{}, false
}
func (c *countingBackend) WaitRequests(context.Context, bool) ([]*interact.Request, error) {
	c.hit()
	return nil, nil
}
func (c *countingBackend) Wait(context.Context) ([]agent.Event, error) {
	c.hit()
	return nil, nil
}
func (c *countingBackend) Close() { c.hit() }

func key(s string) tea.KeyPressMsg {
	switch s {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "pgup":
		return tea.KeyPressMsg{Code: tea.KeyPgUp}
	}
	if len(s) == 6 && s[:5] == "ctrl+" {
		return tea.KeyPressMsg{Code: rune(s[5]), Mod: tea.ModCtrl}
	}
	return tea.KeyPressMsg{Code: rune(s[0]), Text: s}
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
	step := func(msg tea.Msg) tea.Cmd {
		t.Helper()
		before := be.calls.Load()
		_, cmd := m.Update(msg)
		_ = m.View()
		if n := be.calls.Load() - before; n != 0 {
			t.Fatalf("want Update(%T) and View to call the backend 0 times, got %d", msg, n)
		}
		return cmd
	}
	run := func(cmd tea.Cmd) {
		t.Helper()
		if cmd == nil {
			t.Fatal("want a command, got nil")
		}
		before := be.calls.Load()
		cmd()
		if be.calls.Load() == before {
			t.Fatal("want the returned command to call the backend, got no call")
		}
	}
	step(tea.WindowSizeMsg{Width: 100, Height: 30})
	step(subscribedMsg{sessionID: "s-1", sub: be})
	for _, k := range []string{"h", "i"} {
		step(key(k))
	}
	run(step(key("enter")))
	if got := be.sent.Load(); got != "send hi" {
		t.Fatalf("want Enter while idle to send, got %v", got)
	}
	step(eventsMsg{events: []agent.Event{
		agent.StatusChanged{Status: agent.StatusRunning},
		agent.Logged{Event: session.Event{Type: "turn/start", Seq: 1, Data: session.TurnStart{Turn: 1}}},
		agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "Hel"}},
		agent.Delta{Turn: 1, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: "lo"}},
		agent.InboxChanged{Steering: []string{"more"}},
	}})
	step(key("x"))
	run(step(key("enter")))
	if got := be.sent.Load(); got != "steer x" {
		t.Fatalf("want Enter while running to steer, got %v", got)
	}
	step(key("y"))
	run(step(key("tab")))
	if got := be.sent.Load(); got != "send y" {
		t.Fatalf("want Tab while running to queue a follow-up, got %v", got)
	}
	step(key("pgup"))
	step(key("ctrl+o"))
	step(key("ctrl+t"))
	run(step(key("esc")))
	if got := be.sent.Load(); got != "cancel" {
		t.Fatalf("want Esc while running to cancel, got %v", got)
	}
	step(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusIdle}}})
	step(key("/"))
	step(key("x"))
	run(step(key("enter")))
	step(commandMsg{line: "/x"})
	step(requestsMsg{})
}
