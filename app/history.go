package app

import (
	"slices"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/historysearch"
)

// Ctrl+R searches the prompts of every session of this workspace. The
// search opens at once over this session's prompts (from its projection)
// while a command asks the backend for the other sessions' prompts
// (Backend.PromptHistory); when they arrive the search is rebuilt over all
// of them and the keys typed into it meanwhile are replayed, so nothing
// typed is lost.

// recallMsg says a resumed session's prompts are listed, for the
// editor's Up-arrow recall and Ctrl+R. A long session has tens of
// thousands, read from its index: they are listed in a command when they
// are first needed (loadRecall), not while the session opens.
type recallMsg struct{}

// recall is the listing of the session's prompts. An Up or Down that
// would browse them before they are listed waits, with every key pressed
// after it (heldInput), and they are handled in order once they are.
type recall struct {
	ready bool
}

// listRecall holds k, a key for the editor's history, and lists the
// prompts.
func (m *Model) listRecall(k tea.KeyPressMsg) tea.Cmd {
	m.input.wait(k)
	return loadRecall(m.proj.ForDisplay())
}

// recallListed gives the editor the listed prompts.
func (m *Model) recallListed() {
	if !m.recall.ready {
		m.recall.ready = true
		m.editor.SetHistory(m.proj.Prompts())
	}
}

// recalled handles the keys held for the listing.
func (m *Model) recalled() tea.Cmd {
	m.recallListed()
	return m.resumeInput()
}

// loadRecall lists the prompts of p, a copy of the model's projection
// that shares their encoded form with it, so the model's own list is then
// quick to take.
func loadRecall(p *session.Projection) tea.Cmd {
	return func() tea.Msg {
		p.Prompts()
		return recallMsg{}
	}
}

// historyMsg carries the prompts of the workspace's other sessions,
// newest first, for the search opened as load.
type historyMsg struct {
	load    int
	prompts []string
}

// historySearch is the open search's loading state.
type historySearch struct {
	load  int       // numbers each Ctrl+R; a stale historyMsg is dropped
	keys  []tea.Msg // typed into the search since it opened
	ready bool      // the other sessions' prompts arrived
}

// openHistory is Ctrl+R: open the search over this session's prompts, if
// they are listed, and read the other sessions' in a command, which lists
// this session's too.
func (m *Model) openHistory() tea.Cmd {
	m.ov.closeAll()
	m.ov.search = historySearch{load: m.ov.search.load + 1}
	var prompts []string
	if m.recall.ready {
		prompts = m.sessionPrompts()
	}
	m.ov.history = historysearch.New(prompts, m.theme)
	be, ctx, load, p := m.be, m.ctx, m.ov.search.load, m.proj.ForDisplay()
	return func() tea.Msg {
		p.Prompts()
		return historyMsg{load: load, prompts: be.PromptHistory(ctx)}
	}
}

// historyKey hands a key to the search, remembering it until the other
// sessions' prompts arrive.
func (m *Model) historyKey(msg tea.Msg) {
	if !m.ov.search.ready {
		m.ov.search.keys = append(m.ov.search.keys, msg)
	}
	out := m.ov.history.Update(msg)
	if out.Kind != historysearch.None {
		m.ov.history = nil
	}
	if out.Kind == historysearch.Chosen {
		m.setDraft(out.Prompt)
	}
}

// historyLoaded rebuilds the open search over this session's prompts and
// the other sessions', newest first and each once, and replays the keys.
func (m *Model) historyLoaded(msg historyMsg) {
	m.recallListed()
	if m.ov.history == nil || msg.load != m.ov.search.load {
		return
	}
	m.ov.search.ready = true
	m.ov.history = historysearch.New(dedupe(append(m.sessionPrompts(), msg.prompts...)), m.theme)
	for _, k := range m.ov.search.keys {
		m.ov.history.Update(k)
	}
	m.ov.search.keys = nil
}

// sessionPrompts are this session's prompts, newest first.
func (m *Model) sessionPrompts() []string {
	prompts := slices.Clone(m.proj.Prompts())
	slices.Reverse(prompts)
	return prompts
}

// dedupe keeps the first of each equal prompt.
func dedupe(prompts []string) []string {
	seen := make(map[string]bool, len(prompts))
	return slices.DeleteFunc(prompts, func(p string) bool {
		if seen[p] {
			return true
		}
		seen[p] = true
		return false
	})
}
