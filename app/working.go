package app

import (
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/views/textfmt"
)

// phaseWords say what a running turn waits for on the working line.
var phaseWords = map[agent.Phase]string{
	agent.PhaseModelWait:  "Waiting for the model…",
	agent.PhaseThinking:   "Thinking…",
	agent.PhaseResponding: "Responding…",
	agent.PhaseTools:      "Running tools…",
}

// charsPerToken turns streamed characters into an estimate of the tokens
// of a step whose usage has not come yet.
const charsPerToken = 4

// work is what the working line knows of the running turn.
type work struct {
	since time.Time
	// settled counts the output tokens of the turn's finished steps, by
	// their usage; streamed the characters of the step under way.
	settled, streamed int
	// ticking says a one-second tick is on its way.
	ticking bool
}

// track folds one live event into the working line's counts and says
// whether the one-second tick has to start.
func (m *Model) track(e agent.Event) (startTick bool) {
	switch e := e.(type) {
	case agent.StatusChanged:
		if e.Status == agent.StatusRunning && m.status != agent.StatusRunning {
			m.work = work{since: m.opts.Now(), ticking: m.work.ticking}
		}
	case agent.Delta:
		switch e.Chunk.Kind {
		case llm.ChunkText, llm.ChunkReasoning:
			m.work.streamed += len(e.Chunk.Text)
		case llm.ChunkToolCall:
			if e.Chunk.ToolCall != nil {
				m.work.streamed += len(e.Chunk.ToolCall.Arguments)
			}
		}
	case agent.StepDiscarded:
		m.work.streamed = 0
	case agent.Logged:
		if d, ok := e.Event.Data.(session.AssistantMessage); ok {
			m.work.settled += d.Usage.Output
			m.work.streamed = 0
		}
	}
	if m.work.ticking || m.status != agent.StatusRunning {
		return false
	}
	m.work.ticking = true
	return true
}

// ticked redraws the clocks of a running turn and asks for the next tick
// while it runs.
func (m *Model) ticked() tea.Cmd {
	m.tr.Tick(m.opts.Now())
	if !m.running() {
		m.work.ticking = false
		return nil
	}
	return tickEverySecond()
}

// workingRow is the line above the status row while a turn runs:
// `✻ Thinking… (12s · ↓ 1.2k tokens · esc to interrupt)`. A question or
// approval waiting for the user takes its place: the turn waits for the
// user then, not for tools, and the dialog says what to do.
func (m *Model) workingRow() []string {
	words, ok := phaseWords[m.phase]
	if !m.running() || !ok || m.requestOpen() {
		return nil
	}
	facts := []string{textfmt.Seconds(m.opts.Now().Sub(m.work.since))}
	if n := m.work.settled + m.work.streamed/charsPerToken; n > 0 {
		facts = append(facts, "↓ "+textfmt.Compact(n)+" tokens")
	}
	facts = append(facts, "esc to interrupt")
	text := m.theme.Active.Render(phaseGlyphs[m.phase]+" "+words) + " " + m.theme.Dim.Render("("+strings.Join(facts, " · ")+")")
	return []string{ansi.Truncate(text, m.width, "…")}
}
