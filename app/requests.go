package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/approval"
	"github.com/tack-agent/tack/overlays/question"
)

// Pending questions and approvals open, oldest first, as the question
// panel or the approval dialog between the status row and the editor.
// They take every key while open; each is settled in a command, since
// settling unblocks a backend goroutine.

// setRequests takes the broker's queue and opens the panel for its head.
// Requests settled here but still queued (their answer command has not
// run yet) are left out, so they never open twice.
func (m *Model) setRequests(pending []*interact.Request) {
	m.requests = nil
	kept := map[int64]bool{}
	for _, r := range pending {
		if m.ov.settled[r.ID] {
			kept[r.ID] = true
			continue
		}
		m.requests = append(m.requests, r)
	}
	m.ov.settled = kept
	m.openRequest()
}

// openRequest mounts the panel or dialog for the oldest request, keeping
// the one already open for it.
func (m *Model) openRequest() {
	defer func() { m.editor.SetHeld(m.requestOpen()) }()
	if len(m.requests) == 0 {
		m.ov.reqID, m.ov.question, m.ov.approval = 0, nil, nil
		return
	}
	r := m.requests[0]
	if r.ID != m.ov.reqID || (m.ov.question == nil && m.ov.approval == nil) {
		m.ov.reqID, m.ov.question, m.ov.approval = r.ID, nil, nil
		switch {
		case r.Approval != nil:
			m.ov.approval = approval.New(*r.Approval, m.theme, m.opts.Now())
		case len(r.Questions) > 0:
			m.ov.question = question.New(r.Questions, m.theme, m.opts.Now())
		}
	}
	if m.ov.approval != nil {
		m.ov.approval.SetQueued(len(m.requests) - 1)
	}
	if m.ov.question != nil {
		m.ov.question.SetQueued(len(m.requests) - 1)
	}
}

// requestOpen reports whether a question or approval takes the keys.
func (m *Model) requestOpen() bool { return m.ov.question != nil || m.ov.approval != nil }

// requestKey hands a key or paste to the open question or approval.
func (m *Model) requestKey(msg tea.Msg) tea.Cmd {
	now := m.opts.Now()
	if d := m.ov.approval; d != nil {
		out := d.Update(msg, now)
		if !out.Decided {
			return nil
		}
		return m.settle(func(r *interact.Request) { r.Decide(out.Decision) })
	}
	out := m.ov.question.Update(msg, now)
	switch out.Kind {
	case question.Answered:
		return m.settle(func(r *interact.Request) { r.Answer(out.Answers) })
	case question.Interrupted:
		return m.settle(func(r *interact.Request) { r.Fail(interact.ErrInterrupted) })
	}
	return nil
}

// settle answers the oldest request in a command, drops it from view and
// opens the next; the watcher brings the queue's new state.
func (m *Model) settle(answer func(*interact.Request)) tea.Cmd {
	r := m.requests[0]
	m.requests = m.requests[1:]
	if m.ov.settled == nil {
		m.ov.settled = map[int64]bool{}
	}
	m.ov.settled[r.ID] = true
	m.ov.question, m.ov.approval = nil, nil
	m.openRequest()
	return func() tea.Msg { answer(r); return nil }
}

// requestHeight is the rows the open approval or question takes when
// nothing of it has to scroll; 0 when none is open.
func (m *Model) requestHeight() int {
	switch {
	case m.ov.approval != nil:
		return m.ov.approval.Height(m.width)
	case m.ov.question != nil:
		return m.ov.question.Height(m.width)
	}
	return 0
}

// requestView draws the open question or approval in width×height.
func (m *Model) requestView(height int) string {
	switch {
	case m.ov.approval != nil:
		return m.ov.approval.View(m.width, height)
	case m.ov.question != nil:
		return m.ov.question.View(m.width, height)
	}
	return ""
}
