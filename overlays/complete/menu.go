// Package complete is the editor's completion menu: slash commands while
// the draft is "/name", and files and folders of the workspace after "@".
// Index lists the workspace (run it in a command); Files ranks the list
// per keystroke; Menu is the component the editor drives.
package complete

import (
	"path"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// MaxRows is the most rows the menu takes.
const MaxRows = 10

// Indexing is shown in the file menu until SetFiles brings the index.
const Indexing = "Indexing workspace…"

// Edit replaces Draft[Start:End] with Text; the cursor goes after Text.
type Edit struct {
	Start, End int
	Text       string
}

// Outcome is what Update reports.
type Outcome struct {
	// Handled: the menu used the key; otherwise the editor should.
	Handled bool
	// Accepted: apply Edit, then call Refresh (a folder keeps the menu
	// open inside it).
	Accepted bool
	Edit     Edit
	// Command is the accepted command's name, when a command was accepted.
	Command string
}

// Menu is the completion menu. Create it with NewMenu, give it commands
// and (when indexed) files, and call Refresh after every change to the
// draft or cursor.
type Menu struct {
	th       theme.Theme
	commands []Command
	uses     map[string]int
	files    *Files

	trig      Trigger
	open      bool
	dismissed int // start of the trigger Esc closed, or -1
	cmds      []Command
	paths     []FileMatch
	cursor    int
	top       int
	// moved says the user chose a row with ↑/↓ since the menu opened on
	// this query: only then does Enter accept a command.
	moved bool
	// fileStart is where the "@" token of the last Refresh starts, or -1;
	// began says that token is not the one of the Refresh before.
	fileStart int
	began     bool
}

// NewMenu returns a closed menu.
func NewMenu(th theme.Theme) *Menu { return &Menu{th: th, dismissed: -1, fileStart: -1} }

// SetTheme paints the menu in th from its next frame on.
func (m *Menu) SetTheme(th theme.Theme) { m.th = th }

// SetCommands sets the slash commands and how often each was used (nil
// for none).
func (m *Menu) SetCommands(cmds []Command, uses map[string]int) { m.commands, m.uses = cmds, uses }

// SetFiles sets the workspace index (nil while it is being built). Call
// Refresh afterwards to re-rank an open menu.
func (m *Menu) SetFiles(f *Files) { m.files = f }

// Open reports whether the menu shows and wants the navigation keys.
func (m *Menu) Open() bool { return m.open }

// Refresh recomputes the menu for draft with the cursor at byte offset
// cursor: it opens on a trigger, follows the query and closes when the
// trigger is gone. A menu closed with Esc stays closed until its trigger
// is.
func (m *Menu) Refresh(draft string, cursor int) {
	t, ok := FindTrigger(draft, cursor)
	m.followFileToken(t, ok)
	if !ok {
		m.open, m.dismissed = false, -1
		return
	}
	if t.Start == m.dismissed {
		m.open = false
		return
	}
	m.dismissed = -1
	if !m.open || t.Kind != m.trig.Kind || t.Query != m.trig.Query || t.Start != m.trig.Start {
		m.cursor, m.top, m.moved = 0, 0, false
	}
	m.trig = t
	switch t.Kind {
	case CommandTrigger:
		m.cmds = MatchCommands(m.commands, t.Query, m.uses)
		m.open = len(m.cmds) > 0
	case FileTrigger:
		m.paths = nil
		if m.files != nil {
			m.paths = m.files.Rank(t.Query, MaxFileResults)
		}
		m.open = m.files == nil || len(m.paths) > 0
	}
}

// FileTokenBegan reports whether the last Refresh found an "@" token the
// one before did not: the moment to list the workspace again, so files
// made since the last listing (by an editor, git, another shell) are
// offered.
func (m *Menu) FileTokenBegan() bool { return m.began }

func (m *Menu) followFileToken(t Trigger, ok bool) {
	start := -1
	if ok && t.Kind == FileTrigger {
		start = t.Start
	}
	m.began = start >= 0 && start != m.fileStart
	m.fileStart = start
}

func (m *Menu) count() int {
	if m.trig.Kind == CommandTrigger {
		return len(m.cmds)
	}
	return len(m.paths)
}

// Update handles a key while the menu is open: ↑/↓ (and Ctrl+P/Ctrl+N)
// move, Tab accepts, Esc closes. Enter accepts a file, and a command only
// once the user chose its row with ↑/↓: completion only completes, so
// Enter on a typed "/Help" or "/stat" runs what was typed (and the
// registry refuses it) instead of correcting it. Other keys are not
// handled.
func (m *Menu) Update(msg tea.Msg) Outcome {
	k, ok := msg.(tea.KeyPressMsg)
	if !m.open || !ok {
		return Outcome{}
	}
	switch k.String() {
	case "up", "ctrl+p":
		m.cursor, m.moved = max(0, m.cursor-1), true
	case "down", "ctrl+n":
		m.cursor, m.moved = max(0, min(m.count()-1, m.cursor+1)), true
	case "esc":
		m.open, m.dismissed = false, m.trig.Start
	case "enter":
		if m.trig.Kind == CommandTrigger && !m.moved {
			return Outcome{}
		}
		return m.accept()
	case "tab":
		return m.accept()
	default:
		return Outcome{}
	}
	return Outcome{Handled: true}
}

func (m *Menu) accept() Outcome {
	if m.count() == 0 {
		return Outcome{Handled: true}
	}
	m.open = false
	e := Edit{Start: m.trig.Start, End: m.trig.End}
	if m.trig.Kind == CommandTrigger {
		c := m.cmds[m.cursor]
		e.Text = "/" + c.Name + " "
		return Outcome{Handled: true, Accepted: true, Edit: e, Command: c.Name}
	}
	e.Text = FileText(m.paths[m.cursor].Path, m.trig.Quoted)
	return Outcome{Handled: true, Accepted: true, Edit: e}
}

// View draws the open menu in at most width×height cells (and MaxRows
// rows), the highlighted row in reverse video; a closed menu draws
// nothing.
func (m *Menu) View(width, height int) string {
	if !m.open || width <= 0 || height <= 0 {
		return ""
	}
	n := min(height, MaxRows)
	if m.trig.Kind == FileTrigger && m.files == nil {
		return frame.Join([]string{m.th.Dim.Render(Indexing)}, width, n)
	}
	m.top = frame.Window(m.count(), m.cursor, n, m.top)
	var rows []string
	for i := m.top; i < min(m.count(), m.top+n); i++ {
		rows = append(rows, m.row(i, width))
	}
	return frame.Join(rows, width, n)
}

func (m *Menu) row(i, width int) string {
	var left, right string
	if m.trig.Kind == CommandTrigger {
		c := m.cmds[i]
		left = "/" + textfmt.SanitizeLine(c.Name)
		if c.Hint != "" {
			left += " " + textfmt.SanitizeLine(c.Hint)
		}
		right = textfmt.SanitizeLine(c.Description)
	} else {
		p := m.paths[i]
		name := path.Base(strings.TrimSuffix(p.Path, "/"))
		left = "File · " + textfmt.SanitizeLine(name)
		if p.Dir {
			left = "Folder · " + textfmt.SanitizeLine(name) + "/"
		}
		right = textfmt.SanitizeLine(p.Path)
	}
	left = " " + left
	if right != "" {
		right = "  " + right
	}
	left = frame.Truncate(left, width)
	right = frame.Truncate(right, width-ansi.StringWidth(left))
	if i == m.cursor {
		if rest, ok := strings.CutPrefix(left, " "); ok && !m.th.Colour {
			left = "›" + rest
		}
		text := left + right
		return m.th.Selection.Render(text + strings.Repeat(" ", max(0, width-ansi.StringWidth(text))))
	}
	return left + m.th.Dim.Render(right)
}
