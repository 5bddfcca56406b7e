package app

import (
	"slices"
	"sync"
	"testing"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// orderBackend records the order in which the user's messages arrive.
type orderBackend struct {
	*countingBackend
	mu  sync.Mutex
	got []string
}

func (b *orderBackend) add(s string)      { b.mu.Lock(); b.got = append(b.got, s); b.mu.Unlock() }
func (b *orderBackend) Send(text string)  { b.add("send " + text) }
func (b *orderBackend) Steer(text string) { b.add("steer " + text) }
func (b *orderBackend) Cancel()           { b.add("cancel") }

// What the user sends reaches the agent in the order they sent it, however
// the commands Update returns are scheduled: here the last runs first,
// each with the messages it yields stepped through Update in turn.
func TestTheUserMessagesReachTheBackendInOrder(t *testing.T) {
	be := &orderBackend{countingBackend: &countingBackend{}}
	m := New(Options{Backend: be, Width: 80, Height: 24})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be})
	m.Update(eventsMsg{events: []agent.Event{agent.StatusChanged{Status: agent.StatusRunning}}})
	var cmds []tea.Cmd
	press := func(k string) {
		_, cmd := m.Update(keys.Key(k))
		cmds = append(cmds, cmd)
	}
	keys.TypeText(keys.Into(m), "also handle tabs")
	press("enter")
	keys.TypeText(keys.Into(m), "then update the README")
	press("tab")
	press("esc")
	var wg sync.WaitGroup
	for _, cmd := range slices.Backward(cmds) {
		wg.Go(func() { stepCommands(m, cmd) })
		wg.Wait()
	}
	want := []string{"steer also handle tabs", "send then update the README", "cancel"}
	if !slices.Equal(be.got, want) {
		t.Fatalf("want %q, got %q", want, be.got)
	}
}

// stepCommands runs cmd and steps what it yields through m's Update, as
// the program would, down to the commands that yield nothing.
func stepCommands(m *Model, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case nil:
	case tea.BatchMsg:
		for _, c := range msg {
			stepCommands(m, c)
		}
	default:
		_, next := m.Update(msg)
		stepCommands(m, next)
	}
}

// A paste is checked off the update loop for an image's path; the keys
// after it wait for it, so a paste then Enter sends the paste, and text
// typed after a paste follows it.
func TestKeysAfterAPasteWaitForIt(t *testing.T) {
	be := &orderBackend{countingBackend: &countingBackend{}}
	m := New(Options{Backend: be, Width: 80, Height: 24})
	m.Update(subscribedMsg{sessionID: "s-1", sub: be})
	keys.TypeText(keys.Into(m), "look: ")
	var cmds []tea.Cmd
	for _, msg := range []tea.Msg{tea.PasteMsg{Content: "pasted words"}, keys.Key("!"), keys.Key("enter")} {
		_, cmd := m.Update(msg)
		cmds = append(cmds, cmd)
	}
	for _, cmd := range slices.Backward(cmds) {
		stepCommands(m, cmd)
	}
	if want := []string{"send look: pasted words!"}; !slices.Equal(be.got, want) {
		t.Fatalf("want %q, got %q", want, be.got)
	}
}
