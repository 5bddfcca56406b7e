package app

import (
	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/overlays/help"
	"github.com/tack-agent/tack/views/planstrip"
)

// The chat screen's keys are one table (lazygit's pattern): each binding
// names its keys, where it applies, its help text and its action. Dispatch
// (globalKey) and the help overlay are both made from it, so they cannot
// drift apart; a test fails when a binding has no help text.
//
// A key goes to the first that is open of: the question or approval, an
// overlay, the completion menu; only then to the chat bindings and the
// editor. Chat bindings are therefore ignored while an overlay is open.
// Bindings of the other contexts are handled by the component named and
// are listed here for help.

// keyContext is where a binding applies.
type keyContext int

const (
	// inChat bindings are dispatched by the root model when no request,
	// overlay or completion menu took the key.
	inChat keyContext = iota
	// inEditor bindings are the editor's own keys.
	inEditor
	// inDraft bindings are text typed at the start of a draft or in it.
	inDraft
)

// binding is one row of the key table.
type binding struct {
	keys    []string // bubbletea key names, as KeyPressMsg.String gives them
	label   string   // the keys as help shows them
	context keyContext
	help    string
	// run is the action of an inChat binding; handled false passes the
	// key on to the editor (Home in a draft moves the cursor).
	run func(m *Model, key string) (cmd tea.Cmd, handled bool)
}

// always runs f and takes the key.
func always(f func(*Model) tea.Cmd) func(*Model, string) (tea.Cmd, bool) {
	return func(m *Model, _ string) (tea.Cmd, bool) { return f(m), true }
}

// act runs f, which needs no command, and takes the key.
func act(f func(*Model)) func(*Model, string) (tea.Cmd, bool) {
	return func(m *Model, _ string) (tea.Cmd, bool) { f(m); return nil, true }
}

// actOn is act for an f that tells the keys of its binding apart.
func actOn(f func(*Model, string)) func(*Model, string) (tea.Cmd, bool) {
	return func(m *Model, key string) (tea.Cmd, bool) { f(m, key); return nil, true }
}

// whenEmpty runs f only while the draft is empty; in a draft the key is
// the editor's.
func whenEmpty(f func(*Model, string)) func(*Model, string) (tea.Cmd, bool) {
	return func(m *Model, key string) (tea.Cmd, bool) {
		if !m.editor.Empty() {
			return nil, false
		}
		f(m, key)
		return nil, true
	}
}

// keyTable is the chat screen's bindings, in the order help lists them.
func keyTable() []binding {
	return []binding{
		{keys: []string{"enter"}, label: "Enter", help: "send (steer while the agent runs)", run: always((*Model).enter)},
		{keys: []string{"shift+enter", "alt+enter", "ctrl+j"}, label: "Shift/Alt+Enter, Ctrl+J, \\ Enter", context: inEditor, help: "newline"},
		{keys: []string{"up", "down"}, label: "Up/Down", context: inEditor, help: "prompt history; menu navigation"},
		{keys: []string{"tab"}, label: "Tab", help: "accept completion; queue a follow-up while running",
			run: always((*Model).followUp)},
		{keys: []string{"esc"}, label: "Esc", help: "close overlay; cancel the running turn or !command", run: always((*Model).escape)},
		{keys: []string{"alt+esc"}, label: "Esc Esc", help: "rewind to an earlier turn (while idle, in an empty draft)",
			run: always((*Model).escapeTwice)},
		{keys: []string{"ctrl+c"}, label: "Ctrl+C", help: "cancel a running turn or !command; clear input or exit while idle",
			run: always((*Model).interrupt)},
		{keys: []string{"ctrl+d"}, label: "Ctrl+D", help: "exit when idle", run: always((*Model).exitKey)},
		{keys: []string{"ctrl+o"}, label: "Ctrl+O", help: "cycle tool cards: collapsed, expanded, hidden",
			run: act((*Model).cycleCards)},
		{keys: []string{"ctrl+t"}, label: "Ctrl+T", help: "show or hide reasoning", run: act((*Model).toggleReasoning)},
		{keys: []string{planstrip.Key}, label: "Ctrl+S", help: "show the whole plan or fold it to one line",
			run: act(func(m *Model) { m.planOpen = !m.planOpen })},
		{keys: []string{"ctrl+r"}, label: "Ctrl+R", help: "search prompt history", run: always((*Model).openHistory)},
		{keys: []string{"ctrl+g"}, label: "Ctrl+G", help: "edit the draft in $VISUAL or $EDITOR",
			run: always((*Model).externalEditor)},
		{keys: []string{"ctrl+z"}, label: "Ctrl+Z", help: "suspend tack (fg resumes it)", run: always((*Model).suspend)},
		{keys: []string{"ctrl+l"}, label: "Ctrl+L", help: "redraw", run: always(func(*Model) tea.Cmd { return tea.ClearScreen })},
		{keys: []string{"pgup", "pgdown"}, label: "PgUp/PgDn, wheel", help: "scroll the transcript", run: actOn((*Model).pageKey)},
		{keys: []string{"home", "end"}, label: "Home/End", help: "scroll to the top or bottom while the draft is empty",
			run: whenEmpty((*Model).edgeKey)},
		{keys: []string{"ctrl+home", "ctrl+end"}, label: "Ctrl+Home/End", help: "scroll to the top or bottom",
			run: actOn((*Model).edgeKey)},
		{keys: []string{"shift+tab"}, label: "Shift+Tab", help: "cycle the permission mode", run: always((*Model).cyclePermissions)},
		{keys: []string{"f2"}, label: "F2", help: "toggle mouse capture (off: select text to copy)",
			run: act((*Model).toggleMouse)},
		{keys: []string{"ctrl+y"}, label: "Ctrl+Y, /copy", help: "copy the last answer (OSC 52)", run: always((*Model).copyLastAnswer)},
		{keys: []string{"?"}, label: "?", help: "this help, in an empty draft", run: whenEmpty(func(m *Model, _ string) { m.openHelp() })},
		{label: "@path", context: inDraft, help: "reference a file; Tab completes it"},
		{label: "/command", context: inDraft, help: "run a slash command; / lists them"},
		{label: "!command", context: inDraft, help: "run a shell command at once; its output becomes context"},
	}
}

// chatKeys indexes the inChat bindings by key name, for dispatch.
func chatKeys(table []binding) map[string]binding {
	out := map[string]binding{}
	for _, b := range table {
		if b.context != inChat {
			continue
		}
		for _, k := range b.keys {
			out[k] = b
		}
	}
	return out
}

// helpKeys is the table as the help overlay lists it.
func helpKeys(table []binding) []help.Binding {
	out := make([]help.Binding, len(table))
	for i, b := range table {
		out[i] = help.Binding{Keys: b.label, Action: b.help}
	}
	return out
}
