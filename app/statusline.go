package app

import (
	"errors"
	"math"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/statusrow"
	"github.com/tack-agent/tack/views/transcript"
)

// statusLineGap is the shortest time between two runs of the user's
// status line command, as in Claude Code.
const statusLineGap = 300 * time.Millisecond

// statusLine is the state of the user's status line command (Claude
// Code's statusLine setting), whose rows show above the status row. It
// runs once the start has settled, and again after what changes its
// figures (a logged event, a new model), at most every statusLineGap,
// one run at a time.
type statusLine struct {
	off     bool // no command is set: nothing to run, ever
	ready   bool // the start has settled: runs may begin
	running bool
	due     bool // a change came while it ran, or too soon after
	waiting bool // a statusLineDueMsg is on its way
	ticking bool // a statusLineTickMsg is on its way
	last    time.Time
	rows    []string
	// version counts the changes of rows, for the memo of their drawing.
	version int
	drawn   memo[statusLineKey]
	// failed is the last failure told, so the same one is told once.
	failed string
	// started is when this run of tack began; added and removed count
	// the lines its edits changed, and api the time steps waited for the
	// model.
	started        time.Time
	added, removed int
	api            time.Duration
}

// statusLineMsg is the outcome of one run.
type statusLineMsg struct {
	run hooks.StatusRun
	err error
}

// statusLineDueMsg says statusLineGap has passed since the last run.
type statusLineDueMsg struct{}

// statusLineTickMsg says the command's refresh interval has passed.
type statusLineTickMsg struct{}

// refreshStatusLine runs the command, or marks a run due when one runs
// or the last began under statusLineGap ago.
func (m *Model) refreshStatusLine() tea.Cmd {
	sl := &m.statusLine
	if sl.off {
		return nil
	}
	if !sl.ready {
		sl.due = true
		return nil
	}
	now := m.opts.Now()
	if wait := statusLineGap - now.Sub(sl.last); sl.running || wait > 0 {
		sl.due = true
		if sl.running || sl.waiting {
			return nil
		}
		sl.waiting = true
		return tea.Tick(wait, func(time.Time) tea.Msg { return statusLineDueMsg{} })
	}
	sl.running, sl.due, sl.last = true, false, now
	be, ctx, in := m.be, m.ctx, m.statusInput(now)
	return func() tea.Msg {
		run, err := be.StatusLine(ctx, in)
		return statusLineMsg{run, err}
	}
}

// statusLineRan takes a run's rows, tells a new failure once, runs again
// when a change came meanwhile, and keeps the command's refresh interval.
func (m *Model) statusLineRan(msg statusLineMsg) tea.Cmd {
	sl := &m.statusLine
	sl.running = false
	switch {
	case errors.Is(msg.err, launch.ErrNoStatusLine):
		sl.off, sl.rows = true, nil
		return nil
	case msg.err != nil && m.ctx.Err() != nil:
		return nil
	case msg.err != nil:
		sl.rows = nil
		if text := msg.err.Error(); text != sl.failed {
			sl.failed = text
			m.notice(text, transcript.NoticeWarning)
		}
	default:
		sl.rows, sl.failed = msg.run.Rows, ""
	}
	sl.version++
	var tick tea.Cmd
	if every := msg.run.Every; every > 0 && !sl.ticking {
		sl.ticking = true
		tick = tea.Tick(every, func(time.Time) tea.Msg { return statusLineTickMsg{} })
	}
	if sl.due {
		return tea.Batch(m.refreshStatusLine(), tick)
	}
	return tick
}

// statusLineTicked runs the command, its refresh interval having passed.
func (m *Model) statusLineTicked() tea.Cmd {
	m.statusLine.ticking = false
	return m.refreshStatusLine()
}

// statusLineSettled lets runs begin, now that the start has settled,
// and begins the first.
func (m *Model) statusLineSettled() tea.Cmd {
	m.statusLine.ready = true
	return m.refreshStatusLine()
}

// statusLineDue runs a run that was due.
func (m *Model) statusLineDue() tea.Cmd {
	m.statusLine.waiting = false
	if !m.statusLine.due {
		return nil
	}
	return m.refreshStatusLine()
}

// countForStatusLine adds a live event's share of the figures only the
// front door sees: the lines an edit changed and the model's time.
func (m *Model) countForStatusLine(e session.Event) {
	switch d := e.Data.(type) {
	case session.ToolResult:
		if d.Card != nil && !d.IsError {
			for _, diff := range d.Card.Diffs {
				m.statusLine.added += diff.Added
				m.statusLine.removed += diff.Removed
			}
		}
	case session.StepEnd:
		t := d.Timing
		m.statusLine.api += time.Duration(t.ModelWait+t.Thinking+t.Response) * time.Millisecond
	}
}

// statusInput is the figures the status row shows, in the shape status
// line commands read (the backend adds the session's own fields).
func (m *Model) statusInput(now time.Time) hooks.StatusInput {
	last, ok := m.proj.LastRequest()
	sl := m.statusLine
	in := hooks.StatusInput{
		SessionName: m.proj.Name(),
		Model:       hooks.StatusModel{ID: m.model.id, DisplayName: m.model.id},
		Cost: hooks.StatusCost{TotalUSD: m.spent, DurationMS: now.Sub(sl.started).Milliseconds(), APIMS: sl.api.Milliseconds(),
			LinesAdded: sl.added, LinesRemoved: sl.removed},
		ContextWindow: hooks.StatusContext{TotalInput: last.Prompt(), TotalOutput: last.Output},
		Exceeds200K:   last.Prompt() > 200_000,
		Columns:       m.width, Lines: m.height,
	}
	in.Effort, in.Thinking = hooks.EffortOf(m.model.effort)
	if m.model.known {
		in.Model.DisplayName = m.model.spec.Name
		in.ContextWindow.Size = m.model.spec.ContextWindow
	}
	if ok {
		in.ContextWindow.CurrentUsage = &hooks.StatusTokens{Input: last.Input, Output: last.Output, CacheRead: last.CacheRead}
		if size := in.ContextWindow.Size; size > 0 {
			used := min(int(math.Round(float64(m.proj.ContextTokens())*100/float64(size))), 100)
			left := 100 - used
			in.ContextWindow.UsedPct, in.ContextWindow.RemainingPct = &used, &left
		}
	}
	return in
}

// statusLineKey is what the command's rows are drawn for.
type statusLineKey struct {
	version, width int
	colour         bool
}

// statusLineRows are the command's rows as drawn at the screen's width.
func (m *Model) statusLineRows() []string {
	sl := &m.statusLine
	return sl.drawn.get(statusLineKey{sl.version, m.width, m.theme.Colour}, func() []string {
		rows := make([]string, len(sl.rows))
		for i, r := range sl.rows {
			rows[i] = statusrow.Custom(r, m.width, m.theme.Colour)
		}
		return rows
	})
}
