package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/views/textfmt"
)

// The question panel and approval dialog are overlays of their own; until
// they exist the app shows that a request waits and settles it without
// ever leaving it hanging: approvals take y (allow), a (allow for the
// session) or n; Esc denies an approval or interrupts a question.

// requestKey answers an approval with y, a or n while the editor is empty.
func (m *Model) requestKey(key string) (tea.Cmd, bool) {
	if len(m.requests) == 0 || m.requests[0].Approval == nil || !m.editor.empty() {
		return nil, false
	}
	var v interact.Verdict
	switch key {
	case "y":
		v = interact.Allow
	case "a":
		v = interact.AllowSession
	case "n":
		v = interact.Deny
	default:
		return nil, false
	}
	return m.settle(func(r *interact.Request) { r.Decide(interact.Decision{Verdict: v}) }), true
}

// dismissRequest is Esc with a request pending: deny it or interrupt it.
func (m *Model) dismissRequest() tea.Cmd {
	return m.settle(func(r *interact.Request) {
		if r.Approval != nil {
			r.Decide(interact.Decision{Verdict: interact.Deny, Reason: "The user declined."})
			return
		}
		r.Fail(interact.ErrInterrupted)
	})
}

// settle answers the oldest request in a command and drops it from view;
// the watcher brings the queue's new state.
func (m *Model) settle(answer func(*interact.Request)) tea.Cmd {
	r := m.requests[0]
	m.requests = m.requests[1:]
	return func() tea.Msg { answer(r); return nil }
}

// requestLine is the one-row notice of the oldest pending request.
func (m *Model) requestLine() string {
	if len(m.requests) == 0 {
		return ""
	}
	r := m.requests[0]
	if a := r.Approval; a != nil {
		return m.theme.Warning.Render("Allow "+textfmt.SanitizeLine(a.Tool)+": "+textfmt.SanitizeLine(a.Summary)+"?") +
			m.theme.Dim.Render("  y allow · a allow for this session · n or esc deny")
	}
	q := "The model asks a question"
	if len(r.Questions) > 0 {
		q = textfmt.SanitizeLine(r.Questions[0].Question)
	}
	return m.theme.Warning.Render("? "+q) + m.theme.Dim.Render("  esc to dismiss (answering questions is not available yet)")
}
