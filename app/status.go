package app

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/views/planstrip"
	"github.com/tack-agent/tack/views/statusrow"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
	"github.com/tack-agent/tack/views/transcript"
)

// phaseGlyphs mark what a running turn waits for, in place of the
// editor's ">".
var phaseGlyphs = map[agent.Phase]string{
	agent.PhaseModelWait:  "◍",
	agent.PhaseThinking:   "✻",
	agent.PhaseResponding: "●",
	agent.PhaseTools:      "⚙",
	agent.PhaseCompacting: "⊙",
}

// tickMsg redraws the clocks of a running turn.
type tickMsg struct{}

// permissionMsg is the outcome of Shift+Tab.
type permissionMsg struct {
	label string
	err   error
}

func tickEverySecond() tea.Cmd {
	return tea.Tick(time.Second, func(time.Time) tea.Msg { return tickMsg{} })
}

// statusRow is the row above the editor: the running phase, then where,
// which model, what it cost, how full the context is; the permission
// badge and `N queued` on the right.
func (m *Model) statusRow() string {
	u := m.proj.Usage()
	s := statusrow.Status{
		Cwd: m.opts.Cwd, Home: m.opts.Home, Branch: m.opts.Branch,
		Model: m.model.id, Effort: string(m.model.effort),
		Uncached: u.Sum.Input, CacheRead: u.Sum.CacheRead, Output: u.Sum.Output,
		ContextPct: -1,
	}
	if m.model.known && m.model.spec.ContextWindow > 0 {
		// Rounded, as /status and /context show it.
		w := m.model.spec.ContextWindow
		s.ContextPct = (m.proj.ContextTokens()*200 + w) / (2 * w)
	}
	if m.model.known {
		_, s.OffPeak = m.model.spec.PriceAt(m.opts.Now())
	}
	if m.model.known || m.spent > 0 {
		// A subagent on a priced model costs even under an unpriced one.
		s.Cost = m.spent
	}
	if m.running() {
		s.Queued = m.queue.len()
	}
	s.Mode = m.permission
	s.PlanMode = permission.ModeOfLabel(m.permission) == permission.PlanLabel
	s.Unconfined = strings.HasSuffix(m.permission, "no sandbox")
	key := statusKey{s, m.width, m.theme.Colour, m.theme.Background}
	return m.drawnStatus.get(key, func() []string { return []string{statusrow.Render(s, m.width, m.theme)} })[0]
}

// statusKey is what the status row shows, at which width and in which
// palette.
type statusKey struct {
	status statusrow.Status
	width  int
	colour bool
	bg     theme.Background
}

// compactionRow is `Context being compacted <elapsed>` while compacting.
func (m *Model) compactionRow() []string {
	if m.phase != agent.PhaseCompacting || !m.running() {
		return nil
	}
	text := "Context being compacted " + textfmt.Duration(m.opts.Now().Sub(m.phaseSince).Truncate(time.Second))
	return []string{ansi.Truncate(m.theme.Dim.Render(text), m.width, "…")}
}

// planRows is the plan strip: the latest todo list of the current turn.
func (m *Model) planRows() []string {
	return planstrip.Render(m.proj.Todos(), m.width, m.planOpen, m.theme)
}

// cyclePermissions is Shift+Tab.
func (m *Model) cyclePermissions() tea.Cmd {
	be := m.be
	return func() tea.Msg {
		label, err := be.CyclePermissions()
		return permissionMsg{label: label, err: err}
	}
}

func (m *Model) permissionChanged(msg permissionMsg) tea.Cmd {
	if msg.err != nil {
		m.notice("Could not change the permission mode: "+msg.err.Error(), transcript.NoticeError)
	}
	if msg.label == "" {
		return nil
	}
	m.permission = msg.label
	m.settingNotice("permission", "Permission mode: "+msg.label+permissionSummary(msg.label))
	return nil
}

// permissionSummary explains a mode label after its name.
func permissionSummary(label string) string {
	mode := permission.ModeOfLabel(label)
	if mode == permission.PlanLabel {
		return " — read and plan; edits and changing commands are refused, read-only commands run in a sandbox without writes or network."
	}
	return " — " + permission.Mode(mode).Summary() + "."
}
