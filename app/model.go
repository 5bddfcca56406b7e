// Package app is tack's full-screen program: the bubbletea root model that
// composes the views (transcript, plan strip, status row, editor) and the
// overlays (questions, approvals, pickers, completion, history search,
// details, help), routes keys and turns backend events into messages.
//
// Update does no I/O. Every call into the backend happens in a tea.Cmd; one
// pump command turns the agent's live events into batches of messages, and
// a second one watches the question and approval queue. A test with a
// counting fake backend holds Update to that.
package app

import (
	"context"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/complete"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/editor"
	"github.com/tack-agent/tack/views/theme"
	"github.com/tack-agent/tack/views/transcript"
)

// Options are everything the program takes from outside. Nothing is read
// from globals, so tests freeze the clock, the directory and the colours.
type Options struct {
	Backend Backend
	// Now is the clock for timestamps on screen and for the keystroke
	// guard of questions and approvals.
	Now func() time.Time
	// Cwd, Home and Branch fill the status row (home shows as ~).
	Cwd, Home, Branch string
	// Getenv reads VISUAL and EDITOR for Ctrl+G (os.Getenv when nil).
	Getenv func(string) string
	// Colour paints the 16-colour palette; false keeps attributes only.
	Colour bool
	// Background is the terminal's background (theme = auto|dark|light,
	// COLORFGBG): colours are picked to read on it.
	Background theme.Background
	// AskBackground asks the terminal for its background colour (OSC 11,
	// theme = auto); its answer, when it comes in time, decides over
	// Background.
	AskBackground bool
	// Notify announces a turn's end while the terminal is not focused
	// (the bell when empty).
	Notify Notify
	// Welcome is the banner subtitle until the session has a title.
	Welcome string
	// Prompt, when set, is sent as the first prompt once the program runs.
	Prompt string
	// PlainShiftEnter says the terminal sends Shift+Enter as Enter
	// (iostreams' ShiftEnterIsEnter): the editor's hint offers \ then
	// Enter for a new line instead.
	PlainShiftEnter bool
	// PickSession opens the session picker as soon as the program runs
	// (tack --resume with no id), searching for PickSearch (tack --resume
	// with words that are no session's id).
	PickSession bool
	PickSearch  string
	// ShowReasoning starts with reasoning shown whole rather than folded
	// to one line per step.
	ShowReasoning bool
	// HideReasoning leaves reasoning out of the transcript, even as one
	// folded line, until Ctrl+T shows it (--no-reasoning).
	HideReasoning bool
	// Suspend stops the program as the shell's Ctrl+Z does (the terminal
	// is restored first, and fg redraws); nil where no job-control shell
	// could resume it.
	Suspend func()
	// Terminal is handed to the external editor (Ctrl+G) while it runs;
	// nil where bubbletea's own renderer holds the terminal.
	Terminal Terminal
	// Settled is closed once the screen's start has settled (once the keys
	// typed as it appeared pause, or a moment after the first frame if
	// none came). The sandbox's probe (a fork of tack) and the
	// workspace's listing wait for it, so they do not compete with the
	// keys of someone typing as the screen appears. Nil: they start once
	// the first frame is out.
	Settled <-chan struct{}
	// Frame is the shortest gap between event batches (1/60 s when zero).
	Frame time.Duration
	// Width and Height are the initial terminal size, until the first
	// WindowSizeMsg.
	Width, Height int
}

// minWidth is the narrowest layout: the editor's prompt and one wide
// character. A narrower terminal clips the right-hand columns.
const minWidth = 4

// Result is what the program asks its owner to do after it ended: resume
// another session (ResumeID, in directory Cwd when it is not empty), or
// start a new one with the same settings (New).
type Result struct {
	ResumeID string
	Cwd      string
	New      bool
}

// Next reports whether the owner should run another session.
func (r Result) Next() bool { return r.ResumeID != "" || r.New }

// Model is the root model of the chat screen. Use it through a pointer.
type Model struct {
	opts  Options
	be    Backend
	ctx   context.Context
	stop  context.CancelFunc
	sub   Subscription
	theme theme.Theme

	width, height int
	tr            *transcript.Transcript
	proj          *session.Projection
	model         modelInfo
	// spent is what the session cost so far: its steps, its subagents'
	// and its side requests, each at the price in force when it ran
	// (DeepSeek halves it off-peak).
	spent      float64
	permission string

	sessionID  string
	status     agent.Status
	phase      agent.Phase
	phaseSince time.Time
	work       work  // the running turn's clock and token count
	planOpen   bool  // the plan strip lists every item
	queue      queue // steering and follow-ups waiting for the loop
	// restored says what a cancel put back in the editor, told once the
	// turn's end says it was cancelled.
	restored string
	requests []*interact.Request

	editor   editor.Editor
	bindings map[string]binding // the chat keys of keyTable
	menu     *complete.Menu
	uses     map[string]int // command runs by name, frequent first in the menu
	files    fileIndex
	ov       overlays
	scroll   int        // rows above the bottom; 0 follows new output
	held     *heldPlace // see keepPlace
	fit      fitted
	earlier  earlier
	recall   recall
	input    heldInput // keys and pastes waiting for an earlier one
	mouse    bool
	armedCtC bool // a second Ctrl+C exits
	armedEsc bool // a second Esc opens the rewind picker
	focus    focus
	bgAsked  bool   // the terminal's background colour is awaited
	hint     string // a one-row reminder above the editor, until the next key
	exiting  bool   // exit once the running turn ends
	shells   int    // `!command`s run, to name their cards
	// out hands the backend what the user sends, in order.
	out outbox
	// stopShells stop the `!command`s still running, by card id.
	stopShells map[string]context.CancelFunc
	result     Result
	// shown is the last view drawn, and idle says that only messages
	// that change nothing on screen came since (see View).
	shown *tea.View
	idle  bool
	// statusLine runs the user's status line command and keeps its rows.
	statusLine statusLine
	// drawnStatus and drawnBanner are the last status row and banner.
	drawnStatus memo[statusKey]
	drawnBanner memo[bannerKey]
}

// New makes the chat model over o.Backend. Nothing is asked of the backend
// until the program runs Init's command.
func New(o Options) *Model {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Frame == 0 {
		o.Frame = defaultFrame
	}
	ctx, stop := context.WithCancel(context.Background())
	m := &Model{
		opts: o, be: o.Backend, ctx: ctx, stop: stop,
		theme:  theme.NewOn(o.Background, o.Colour),
		width:  max(o.Width, minWidth),
		height: max(o.Height, 1),
		status: agent.StatusIdle,
		mouse:  true,
		proj:   session.NewProjection(session.Header{}),
		uses:   map[string]int{},
	}
	m.statusLine.started = o.Now()
	m.bindings = chatKeys(keyTable())
	m.tr = transcript.New(transcript.Settings{Colour: o.Colour, Background: o.Background, Reasoning: o.ShowReasoning, HideReasoning: o.HideReasoning, Cards: cards.Collapsed, Dir: o.Cwd})
	m.editor = editor.New(m.theme, m.width)
	m.editor.SetPlainShiftEnter(o.PlainShiftEnter)
	m.menu = complete.NewMenu(m.theme)
	m.layout()
	return m
}

// Close stops the program's backend commands (the pump and the request
// watcher). The owner calls it after the program ended.
func (m *Model) Close() {
	m.stop()
	if m.sub != nil {
		m.sub.Close()
	}
}

// Result is what the owner should do once the program ended; the zero
// Result asks for nothing.
func (m *Model) Result() Result { return m.result }

// Init subscribes to the agent before the program draws its first frame,
// so that frame is the session's whole screen (model, mode, history)
// rather than the banner alone with the rest drawn over it a frame later.
// It is the one call to the backend outside a command: bubbletea runs Init
// just before that frame, and what it reads (the agent's state, a resumed
// session's last events) is what the frame shows. The workspace is listed
// for @ completion, and the sandbox probed, once that frame is out
// (frameOutMsg) and the start has settled (Options.Settled): the walk of a
// big checkout and the probe's fork would compete with the start, and
// with the first keys typed, for the CPU.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.subscribed(subscription(m.be)), watchRequests(m.ctx, m.be, true), m.askBackground())
}

// Update applies one message. It calls nothing on the backend and does no
// I/O: what must happen outside comes back as a tea.Cmd.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m.idle = m.changesNothing(msg)
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.keepPlace(func() {
			m.width, m.height = max(msg.Width, minWidth), max(msg.Height, 1)
			m.layout()
		})
		return m, m.readEarlier()
	case subscribedMsg:
		return m, m.subscribed(msg)
	case eventsMsg:
		return m, m.applyEvents(msg)
	case requestsMsg:
		m.setRequests(msg.pending)
		return m, watchRequests(m.ctx, m.be, false)
	case commandsMsg:
		m.setCommands(msg.commands)
		m.refreshMenu()
		return m, watchCommands(m.ctx, m.be, msg.commands)
	case commandMsg:
		return m, m.commandDone(msg)
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case tea.PasteMsg:
		return m, m.paste(msg)
	case pasteCheckedMsg:
		return m, tea.Batch(m.editorKey(msg.paste), m.resumeInput())
	case tea.MouseWheelMsg:
		m.wheel(msg)
		return m, m.readEarlier()
	case tickMsg:
		return m, m.ticked()
	case tea.FocusMsg:
		m.focus.away = false
		return m, nil
	case tea.BlurMsg:
		m.focus.away = true
		return m, nil
	}
	return m, m.updateOther(msg)
}

// changesNothing reports whether msg leaves the screen as it is: bubbletea
// sends its colour profile, environment and the size the program has
// already right after the first frame, and asks for a view after each.
func (m *Model) changesNothing(msg tea.Msg) bool {
	switch msg := msg.(type) {
	case tea.ColorProfileMsg, tea.EnvMsg, tea.ModeReportMsg, tea.KeyboardEnhancementsMsg, frameOutMsg, settledMsg:
		return true
	case tea.WindowSizeMsg:
		return max(msg.Width, minWidth) == m.width && max(msg.Height, 1) == m.height
	}
	return false
}

// updateOther handles the results of the overlays' and tools' commands.
func (m *Model) updateOther(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case earlierMsg:
		return m.earlierRead(msg)
	case filesMsg:
		return m.filesIndexed(msg)
	case permissionMsg:
		return m.permissionChanged(msg)
	case frameOutMsg:
		return whenSettled(m.ctx, m.opts.Settled)
	case settledMsg:
		return tea.Batch(probeSandbox(m.ctx, m.be), m.files.start(m.ctx, m.be), m.statusLineSettled())
	case statusLineMsg:
		return m.statusLineRan(msg)
	case statusLineDueMsg:
		return m.statusLineDue()
	case statusLineTickMsg:
		return m.statusLineTicked()
	case sandboxProbedMsg:
		if msg.label != "" {
			m.permission = msg.label
		}
	case modelsMsg:
		m.openModelPicker(msg)
	case modelSetMsg:
		m.modelSet(msg)
		return m.refreshStatusLine()
	case sessionsMsg:
		m.sessionsLoaded(msg)
	case recallMsg:
		return m.recalled()
	case historyMsg:
		m.historyLoaded(msg)
	case shellMsg:
		m.shellDone(msg)
	case draftFileMsg:
		return m.editDraftIn(msg)
	case draftEditedMsg:
		return m.draftEdited(msg)
	case draftReadMsg:
		m.draftRead(msg)
	case tea.BackgroundColorMsg:
		m.backgroundAnswered(msg)
	case backgroundWaitMsg:
		m.bgAsked = false
	}
	return nil
}

// layout sizes the editor and the transcript to the window.
func (m *Model) layout() {
	m.editor.SetWidth(m.width)
	m.editor.SetMaxHeight(m.height)
	s := m.tr.Settings()
	s.Width, s.Colour, s.Background = m.width, m.opts.Colour, m.opts.Background
	m.tr.SetSettings(s)
}

// subscribed replays the history and starts the pump.
func (m *Model) subscribed(msg subscribedMsg) tea.Cmd {
	m.sub = msg.sub
	m.model = msg.model
	m.permission = msg.permission
	m.sessionID = msg.sessionID
	m.proj = msg.history.Projection
	if m.proj == nil {
		m.proj = session.NewProjection(msg.header)
	}
	m.spent = msg.spent
	m.uses = m.proj.CommandUses()
	if m.uses == nil {
		m.uses = map[string]int{}
	}
	m.setCommands(msg.commands)
	for _, e := range msg.history.Recent {
		show(m.tr, e)
	}
	if err := msg.history.Err; err != nil {
		m.notice("Could not read this session's history: "+err.Error(), transcript.NoticeError)
	}
	m.earlier = earlier{more: msg.history.Earlier, before: msg.history.NextSeq, chunk: earlierChunk}
	if len(msg.history.Recent) > 0 {
		m.earlier.before = msg.history.Recent[0].Seq
	}
	cmds := []tea.Cmd{pump(m.ctx, m.be, m.sub, 0), m.readEarlier(), afterFrame, watchCommands(m.ctx, m.be, msg.commands)}
	if m.opts.Prompt != "" {
		cmds = append(cmds, m.submit(m.opts.Prompt))
	}
	if m.opts.PickSession {
		cmds = append(cmds, m.openSessionPicker(m.opts.PickSearch))
	}
	return tea.Batch(cmds...)
}

// applyLogged folds a live durable event into the projection and the
// transcript. A rewind of the conversation redraws the transcript: the
// projection no longer holds the rewound turns, and the transcript it
// holds is read back from the log.
func (m *Model) applyLogged(e session.Event) tea.Cmd {
	m.proj.Apply(e)
	if d, ok := e.Data.(session.AssistantMessage); ok && m.model.known {
		m.spent += m.model.spec.Cost(d.Usage, e.Time)
	}
	switch d := e.Data.(type) {
	case session.TaskUsage:
		m.spent += d.Cost // a subagent's step, priced by the backend at its model
	case session.SideUsage:
		m.spent += d.Cost // a title, a summary, a hook's judgement
	}
	if d, ok := e.Data.(session.InboxDiscard); ok {
		m.restoreQueued(d.Texts) // live: the user cancelled; what they queued is theirs
		return nil
	}
	if d, ok := e.Data.(session.Rewind); ok && d.Conversation {
		m.tr.Clear()
		return m.readEarlierFrom(e.Seq, true)
	}
	m.showLogged(e)
	if _, ok := e.Data.(session.TurnEnd); ok && m.restored != "" {
		m.notice(m.restored, transcript.NoticeDim)
		m.restored = ""
	}
	return nil
}

// showLogged adds a durable event to the transcript.
func (m *Model) showLogged(e session.Event) {
	switch d := e.Data.(type) {
	case session.ToolResult:
		m.files.stale = true
	case session.CommandRun:
		m.uses[d.Name]++
	}
	show(m.tr, e)
}

// show folds a durable event, live or from the history, into tr.
func show(tr *transcript.Transcript, e session.Event) {
	if d, ok := e.Data.(session.UserMessage); ok && d.Kind == session.KindContext && d.Origin == launch.ShellOrigin {
		tr.AddNotice(shellContextNote(d.Text), transcript.NoticeDim)
		return
	}
	tr.ApplyLogged(e)
}

// applyEvents folds one batch of live events in and asks for the next.
func (m *Model) applyEvents(msg eventsMsg) tea.Cmd {
	if msg.ended {
		return nil
	}
	changed := msg.model.id != m.model.id || msg.model.effort != m.model.effort
	m.model = msg.model
	m.permission = msg.permission
	before := m.tr.Lines()
	wasRunning := m.running()
	var reads, tick tea.Cmd
	for _, e := range msg.events {
		if m.track(e) {
			tick = tickEverySecond()
		}
		switch e := e.(type) {
		case agent.Logged:
			m.countForStatusLine(e.Event)
			changed = true
			if cmd := m.applyLogged(e.Event); cmd != nil {
				reads = cmd
			}
		case agent.StatusChanged:
			m.status = e.Status
			if e.Status != agent.StatusRunning {
				m.queue = queue{}
				m.phase = agent.PhaseIdle
			}
		case agent.PhaseChanged:
			m.phase, m.phaseSince = e.Phase, m.opts.Now()
		case agent.InboxChanged:
			m.queueChanged(e)
		default:
			m.tr.Apply(e)
		}
	}
	m.editor.SetRunning(m.running())
	glyph := ""
	if m.running() {
		glyph = phaseGlyphs[m.phase]
		// A running card's new output comes with its clock up to now, not
		// up to the last tick, which may be most of a second behind.
		m.tr.Tick(m.opts.Now())
	}
	m.editor.SetMark(glyph)
	m.keepRowsStill(before)
	if m.exiting && m.status == agent.StatusIdle {
		return tea.Quit
	}
	var notice, status tea.Cmd
	if wasRunning && !m.running() {
		notice = m.turnEnded(m.proj.Title())
	}
	if changed {
		status = m.refreshStatusLine()
	}
	return tea.Batch(pump(m.ctx, m.be, m.sub, m.opts.Frame), m.files.refresh(m.ctx, m.be), reads, tick, notice, status)
}

// running reports whether a turn is in progress.
func (m *Model) running() bool { return m.status == agent.StatusRunning }
