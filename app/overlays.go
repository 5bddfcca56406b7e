package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/approval"
	"github.com/tack-agent/tack/overlays/details"
	"github.com/tack-agent/tack/overlays/help"
	"github.com/tack-agent/tack/overlays/historysearch"
	"github.com/tack-agent/tack/overlays/modelpicker"
	"github.com/tack-agent/tack/overlays/question"
	"github.com/tack-agent/tack/overlays/rewindpicker"
	"github.com/tack-agent/tack/overlays/sessionpicker"
	"github.com/tack-agent/tack/views/transcript"
)

// overlays are the open overlay components. A question or approval sits
// between the status row and the editor, above anything else; at most one
// of the others (a picker, the history search, details, help) is open at a
// time. Each closes itself on Esc, which is why Esc reaches the open
// overlay before it may cancel a turn.
type overlays struct {
	reqID    int64
	settled  map[int64]bool
	question *question.Panel
	approval *approval.Dialog

	models   *modelpicker.Picker
	sessions *sessionpicker.Picker
	history  *historysearch.Search
	search   historySearch
	details  *details.Dialog
	help     *help.Help
	rewind   *rewindpicker.Picker

	commands []commands.Command
}

// open reports whether an overlay other than a request is open.
func (o *overlays) open() bool {
	return o.models != nil || o.sessions != nil || o.history != nil || o.details != nil || o.help != nil || o.rewind != nil
}

func (o *overlays) closeAll() {
	o.models, o.sessions, o.history, o.details, o.help, o.rewind = nil, nil, nil, nil, nil, nil
}

// modelsMsg carries the catalog for the model picker.
type modelsMsg struct {
	models  []llm.Model
	current string
	effort  llm.Effort
}

// modelSetMsg is the outcome of choosing a model.
type modelSetMsg struct {
	model  string
	effort llm.Effort
	err    error
	info   modelInfo
}

// sessionsMsg carries the session listing for the picker.
type sessionsMsg struct{ loaded sessionpicker.Loaded }

// overlayKey hands a key or paste to the open overlay.
func (m *Model) overlayKey(msg tea.Msg) tea.Cmd {
	switch {
	case m.ov.models != nil:
		return m.modelPickerKey(msg)
	case m.ov.sessions != nil:
		return m.sessionPickerKey(msg)
	case m.ov.history != nil:
		m.historyKey(msg)
	case m.ov.details != nil:
		out := m.ov.details.Update(msg)
		if out.Kind == details.Closed {
			m.ov.details = nil
		}
		if out.Kind == details.Changed {
			s := m.tr.Settings()
			s.Cards, s.Reasoning = out.Cards, out.Reasoning
			m.setDetails(s)
		}
	case m.ov.help != nil:
		if m.ov.help.Update(msg).Closed {
			m.ov.help = nil
		}
	case m.ov.rewind != nil:
		return m.rewindPickerKey(msg)
	}
	return nil
}

// loadModels asks for the catalog; the picker opens when it arrives.
func (m *Model) loadModels() tea.Cmd {
	be := m.be
	return func() tea.Msg {
		id, effort := be.Model()
		return modelsMsg{models: be.Models(), current: id, effort: effort}
	}
}

func (m *Model) openModelPicker(msg modelsMsg) {
	if m.requestOpen() || m.ov.open() {
		return
	}
	m.ov.models = modelpicker.New(msg.models, msg.current, msg.effort, m.theme)
}

func (m *Model) modelPickerKey(msg tea.Msg) tea.Cmd {
	out := m.ov.models.Update(msg)
	if out.Kind == modelpicker.None {
		return nil
	}
	m.ov.models = nil
	if out.Kind != modelpicker.Selected {
		return nil
	}
	be := m.be
	return func() tea.Msg {
		err := be.SetModel(out.Model, out.Effort)
		return modelSetMsg{model: out.Model, effort: out.Effort, err: err, info: lookupModel(be)}
	}
}

func (m *Model) modelSet(msg modelSetMsg) {
	m.model = msg.info
	if msg.err != nil {
		m.notice("Could not switch to "+msg.model+": "+msg.err.Error(), transcript.NoticeError)
		return
	}
	m.notice("Model selected: "+msg.model+". Reasoning effort: "+string(msg.effort)+". New steps will use it.", transcript.NoticeInfo)
}

// openSessionPicker opens the picker at once, searching for search, and
// lists the sessions of this workspace and of all workspaces in a
// command.
func (m *Model) openSessionPicker(search string) tea.Cmd {
	if m.requestOpen() || m.ov.open() {
		return nil
	}
	m.ov.sessions = sessionpicker.New(m.opts.Cwd, m.opts.Home, m.sessionID, m.opts.Now(), m.theme)
	m.ov.sessions.Search(search)
	be := m.be
	return func() tea.Msg {
		here, err := be.Sessions(false)
		var all []session.Summary
		if err == nil {
			all, err = be.Sessions(true)
		}
		return sessionsMsg{loaded: sessionpicker.Loaded{Workspace: here, All: all, Err: err}}
	}
}

func (m *Model) sessionsLoaded(msg sessionsMsg) {
	if m.ov.sessions != nil {
		m.ov.sessions.Update(msg.loaded)
	}
}

func (m *Model) sessionPickerKey(msg tea.Msg) tea.Cmd {
	out := m.ov.sessions.Update(msg)
	if out.Kind == sessionpicker.None {
		return nil
	}
	m.ov.sessions = nil
	if out.Kind != sessionpicker.Chosen {
		return nil
	}
	return m.resume(out.Session.ID, out.Session.Cwd)
}

// resume ends the program asking its owner to resume id in cwd; a running
// turn is cancelled first.
func (m *Model) resume(id, cwd string) tea.Cmd {
	m.result = Result{ResumeID: id, Cwd: cwd}
	return m.exit()
}

func (m *Model) openDetails() {
	m.ov.closeAll()
	s := m.tr.Settings()
	m.ov.details = details.New(s.Cards, s.Reasoning, m.theme)
	m.ov.details.HideFolded = s.HideReasoning
}

// openHelp shows the keys and the commands.
func (m *Model) openHelp() {
	m.ov.closeAll()
	m.ov.help = help.New(helpKeys(keyTable()), completionCommands(m.ov.commands), m.theme)
}
