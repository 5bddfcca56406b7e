package app

import (
	"fmt"
	"runtime/debug"
	"sync"

	tea "charm.land/bubbletea/v2"
)

// Guard wraps the root model so that a panic in Update or in a command
// ends the program cleanly: bubbletea restores the terminal on the way out,
// and the owner prints Report afterwards, where the user can read it.
// (bubbletea's own handler prints a command's panic before restoring, on
// the alternate screen, where it is lost.) View panics are left to
// bubbletea, which restores the terminal before printing them.
type Guard struct {
	inner tea.Model

	mu     sync.Mutex
	report string
}

// panicMsg carries the report of a command that panicked.
type panicMsg struct{ report string }

// NewGuard wraps m.
func NewGuard(m tea.Model) *Guard { return &Guard{inner: m} }

// Report is the first panic caught, with its stack, or "".
func (g *Guard) Report() string {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.report
}

// Inner is the wrapped model as it is now (the first-run screen hands over
// to the chat model).
func (g *Guard) Inner() tea.Model { return g.inner }

func (g *Guard) record(r any) string {
	rep := fmt.Sprintf("panic: %v\n\n%s", r, debug.Stack())
	g.mu.Lock()
	if g.report == "" {
		g.report = rep
	}
	g.mu.Unlock()
	return rep
}

// Init runs the inner model's Init under the guard.
func (g *Guard) Init() (cmd tea.Cmd) {
	defer func() {
		if r := recover(); r != nil {
			g.record(r)
			cmd = tea.Quit
		}
	}()
	return g.wrap(g.inner.Init())
}

// Update passes msg on; a panic quits the program.
func (g *Guard) Update(msg tea.Msg) (model tea.Model, cmd tea.Cmd) {
	if p, ok := msg.(panicMsg); ok {
		g.mu.Lock()
		if g.report == "" {
			g.report = p.report
		}
		g.mu.Unlock()
		return g, tea.Quit
	}
	defer func() {
		if r := recover(); r != nil {
			g.record(r)
			model, cmd = g, tea.Quit
		}
	}()
	var next tea.Model
	next, cmd = g.inner.Update(msg)
	g.inner = next
	return g, g.wrap(cmd)
}

// View draws the inner model.
func (g *Guard) View() tea.View { return g.inner.View() }

// wrap makes cmd report its panic as a message instead of crashing.
func (g *Guard) wrap(cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = panicMsg{report: fmt.Sprintf("panic: %v\n\n%s", r, debug.Stack())}
			}
		}()
		msg = cmd()
		if b, ok := msg.(tea.BatchMsg); ok {
			for i, c := range b {
				b[i] = g.wrap(c)
			}
		}
		return msg
	}
}
