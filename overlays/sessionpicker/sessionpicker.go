// Package sessionpicker is the /resume picker: sessions of this workspace
// (or of all workspaces), newest first, searchable by title and id, with
// the sessions that cannot be resumed shown and explained. It opens before
// the listing arrives; the caller lists sessions in a command and sends
// the result as a Loaded message.
package sessionpicker

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/internal/field"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Exact texts of the picker.
const (
	Title    = "Resume session"
	Loading  = "Loading sessions…"
	Footer   = "Type to search  •  ↑/↓ navigate  •  Tab scope  •  Enter resume  •  Esc clear/cancel"
	Untitled = "Untitled session"
)

// Loaded carries the listing: the sessions of this workspace and of every
// workspace, each newest first (session.List with all false and true).
type Loaded struct {
	Workspace []session.Summary
	All       []session.Summary
	Err       error
}

// Kind says what came of a message.
type Kind int

const (
	None   Kind = iota // still open
	Chosen             // Outcome.Session is to be resumed
	Closed             // dismissed
)

// Outcome is what Update reports.
type Outcome struct {
	Kind    Kind
	Session session.Summary
}

// Picker is the session picker. Create it with New.
type Picker struct {
	th       theme.Theme
	now      time.Time // when the picker opened: times show relative to it
	cwd      string    // shown home-relative
	home     string
	current  string
	loaded   bool
	err      error
	here     []session.Summary
	all      []session.Summary
	allScope bool
	search   field.Field
	matches  []int
	// branchW and spaceW are the widest branch and workspace among the
	// matches, measured when they change rather than every frame.
	branchW, spaceW int
	cursor          int
	top             int
}

// New opens the picker at time now, showing Loading until a Loaded message
// arrives. cwd is the workspace (shown relative to home); current is the
// id of the session already open here, which cannot be chosen.
func New(cwd, home, current string, now time.Time, th theme.Theme) *Picker {
	return &Picker{th: th, now: now, home: home, cwd: textfmt.HomeRel(cwd, home), current: current}
}

// Search puts q in the search field, as if typed (tack --resume TERM).
func (p *Picker) Search(q string) {
	p.search.SetValue(q)
	p.refilter()
}

// Update handles a Loaded message, a key press or a paste.
func (p *Picker) Update(msg tea.Msg) Outcome {
	if l, ok := msg.(Loaded); ok {
		p.loaded, p.err = true, l.Err
		// Subagents' sessions sit under the session that started them.
		p.here, p.all = session.Nest(l.Workspace), session.Nest(l.All)
		p.refilter()
		return Outcome{}
	}
	k, _ := msg.(tea.KeyPressMsg)
	switch k.String() {
	case "ctrl+c":
		return Outcome{Kind: Closed}
	case "esc":
		if p.search.Empty() {
			return Outcome{Kind: Closed}
		}
		p.search.SetValue("")
		p.refilter()
	case "tab":
		p.allScope = !p.allScope
		p.search.SetValue("")
		p.refilter()
	case "up":
		p.cursor = max(0, p.cursor-1)
	case "down":
		p.cursor = max(0, min(len(p.matches)-1, p.cursor+1))
	case "enter":
		if len(p.matches) > 0 {
			if s := p.scope()[p.matches[p.cursor]]; p.disabled(s) == "" {
				return Outcome{Kind: Chosen, Session: s}
			}
		}
	default:
		if p.search.Update(msg) {
			p.refilter()
		}
	}
	return Outcome{}
}

func (p *Picker) scope() []session.Summary {
	if p.allScope {
		return p.all
	}
	return p.here
}

// refilter keeps the sessions whose title or id (or workspace, in the
// all-workspaces scope) contains the search, ignoring case, and puts the
// cursor on the first that can be opened.
func (p *Picker) refilter() {
	q := strings.ToLower(p.search.Value())
	p.matches = p.matches[:0]
	for i, s := range p.scope() {
		text := s.Title + "\n" + s.ID
		if p.allScope {
			text += "\n" + s.Cwd
		}
		if strings.Contains(strings.ToLower(text), q) {
			p.matches = append(p.matches, i)
		}
	}
	p.branchW, p.spaceW = 0, 0
	for _, m := range p.matches {
		s := p.scope()[m]
		p.branchW = max(p.branchW, ansi.StringWidth(textfmt.SanitizeLine(s.Branch)))
		p.spaceW = max(p.spaceW, ansi.StringWidth(p.workspace(s)))
	}
	// Start on the first session Enter can open, not on the current one.
	p.cursor, p.top = 0, 0
	for i, m := range p.matches {
		if p.disabled(p.scope()[m]) == "" {
			p.cursor = i
			break
		}
	}
}

// disabled says why s cannot be resumed, or "".
func (p *Picker) disabled(s session.Summary) string {
	switch {
	case s.ID == p.current:
		return "current"
	case s.Err != nil:
		return "unreadable: " + s.Err.Error()
	case s.OpenPID > 0:
		return "open in process " + strconv.Itoa(s.OpenPID)
	case s.OpenPID < 0:
		return "open in another process"
	case s.Cwd == "":
		return "no recorded workspace"
	}
	return ""
}

// View draws the picker as a box filling at most width×height.
func (p *Picker) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	inner := max(1, width-4)
	// Box, scope and search rows, the column heads, the detail row and
	// the hint take seven rows; each session takes one.
	shown := max(1, height-7)
	search := p.th.Accent.Render("Search: ") + p.search.View(p.th, inner-8-10, "title or id")
	rows := []string{p.scopeLine(), frame.WithPosition(p.th, search, inner, p.cursor, len(p.matches), shown)}
	switch {
	case !p.loaded:
		rows = append(rows, p.th.Dim.Render(Loading))
	case p.err != nil:
		rows = append(rows, p.th.Error.Render(textfmt.SanitizeLine("Could not list sessions: "+p.err.Error())))
	case len(p.matches) == 0 && p.search.Empty():
		rows = append(rows, p.th.Dim.Render("No sessions yet"))
	case len(p.matches) == 0:
		rows = append(rows, p.th.Dim.Render("No sessions match the search"))
	default:
		rows = append(rows, p.list(inner, shown)...)
	}
	rows = append(rows, p.th.Dim.Render(frame.Hint(inner, Footer, "Type • ↑↓ • Tab scope • ↵ • Esc", "↑↓ Tab ↵ Esc")))
	return frame.Join(frame.Box(p.th, Title, rows, width, height), width, height)
}

func (p *Picker) scopeLine() string {
	here := "this workspace " + textfmt.SanitizeLine(p.cwd)
	all := "all workspaces"
	if p.loaded {
		all += " (" + strconv.Itoa(len(p.all)) + ")"
	}
	if p.allScope {
		return p.th.Bold.Render(all) + p.th.Dim.Render("  ⇥ "+here)
	}
	return p.th.Bold.Render(here) + p.th.Dim.Render("  ⇥ "+all)
}

// columns are the widths of the list's columns at a width: the time, the
// message count, the branch and (all workspaces) the workspace; the title
// takes the rest. Narrow, the workspace goes first, then the branch, then
// the messages, so the title keeps at least titleMin cells.
type columns struct{ when, messages, branch, workspace int }

const (
	whenWidth     = 12
	messagesWidth = len("Messages") + 2
	branchMax     = 24
	spaceMax      = 24
	titleMin      = 16
)

func (p *Picker) columns(width int) columns {
	c := columns{when: whenWidth, messages: messagesWidth}
	if p.branchW > 0 {
		c.branch = min(p.branchW+2, branchMax)
	}
	if p.allScope && p.spaceW > 0 {
		c.workspace = min(p.spaceW+2, spaceMax)
	}
	// A column with anything in it is at least as wide as its head.
	if c.branch > 0 {
		c.branch = max(c.branch, len("Branch")+2)
	}
	if c.workspace > 0 {
		c.workspace = max(c.workspace, len("Workspace")+2)
	}
	for _, drop := range []*int{&c.workspace, &c.branch, &c.messages} {
		if 2+c.when+c.messages+c.branch+c.workspace+titleMin > width {
			*drop = 0
		}
	}
	return c
}

// heads is the faint row naming the columns.
func (p *Picker) heads(c columns, width int) string {
	row := "  " + pad("Modified", c.when)
	if c.messages > 0 {
		row += padLeft("Messages", c.messages-2) + "  "
	}
	row += pad("Branch", c.branch) + pad("Workspace", c.workspace) + "Title"
	return p.th.Dim.Render(frame.Truncate(row, width))
}

// list draws the column heads and up to n sessions, one row each,
// scrolled to the cursor, then a row of details for the cursor's session.
func (p *Picker) list(width, n int) []string {
	c := p.columns(width)
	rows := []string{p.heads(c, width)}
	p.top = frame.Window(len(p.matches), p.cursor, n, p.top)
	for i := p.top; i < min(len(p.matches), p.top+n); i++ {
		s := p.scope()[p.matches[i]]
		why := p.disabled(s)
		mark, style := frame.Mark(p.th, i == p.cursor)
		if why != "" {
			style = style.Inherit(p.th.Dim)
		}
		row := mark + pad(ago(p.now, s.LastActive), c.when)
		if c.messages > 0 {
			row += padLeft(messages(s), c.messages-2) + "  "
		}
		row += pad(textfmt.SanitizeLine(s.Branch), c.branch) + pad(p.workspace(s), c.workspace) + p.title(s)
		if why != "" {
			row += " (" + textfmt.SanitizeLine(why) + ")"
		}
		rows = append(rows, style.Render(frame.Truncate(row, width)))
	}
	s := p.scope()[p.matches[p.cursor]]
	return append(rows, p.th.Dim.Render(frame.Truncate(p.detail(s), width)))
}

// title is a session's title: its own, else its first prompt; a subagent's
// is marked as nested under its parent.
func (p *Picker) title(s session.Summary) string {
	title := textfmt.SanitizeLine(s.Title)
	if title == "" {
		title = Untitled
	}
	if s.Parent != "" {
		title = "↳ " + title
	}
	return title
}

// detail is the row under the list about the cursor's session: the first
// prompt when the title is not it, why it cannot be resumed, its turns
// and what the "?" means when its message count is unknown, the
// workspace and the id to resume it by, the most telling first.
func (p *Picker) detail(s session.Summary) string {
	var parts []string
	if fp := textfmt.SanitizeLine(s.FirstPrompt); fp != "" && fp != textfmt.SanitizeLine(s.Title) {
		parts = append(parts, "“"+fp+"”")
	}
	if why := p.disabled(s); why != "" {
		parts = append(parts, textfmt.SanitizeLine(why))
	}
	if s.Messages < 0 && s.Err == nil {
		if s.Turns > 0 {
			unit := " turns"
			if s.Turns == 1 {
				unit = " turn"
			}
			parts = append(parts, strconv.Itoa(s.Turns)+unit)
		}
		parts = append(parts, "messages counted once it is opened")
	}
	if s.Cwd != "" {
		parts = append(parts, p.workspace(s))
	}
	return strings.Join(append(parts, textfmt.SanitizeLine(s.ID)), " · ")
}

func (p *Picker) workspace(s session.Summary) string {
	return textfmt.SanitizeLine(textfmt.HomeRel(s.Cwd, p.home))
}

// pad fits text into a column of width cells with two cells of gutter;
// a zero width drops the column.
func pad(text string, width int) string {
	if width <= 0 {
		return ""
	}
	text = frame.Truncate(text, width-2)
	return text + strings.Repeat(" ", width-ansi.StringWidth(text))
}

// padLeft right-aligns text in width cells.
func padLeft(text string, width int) string {
	text = frame.Truncate(text, width)
	return strings.Repeat(" ", max(width-ansi.StringWidth(text), 0)) + text
}

// messages is a session's message count: "?" when List did not count it
// (a long log without a current index; the detail row says so), "–" when
// its log could not be read.
func messages(s session.Summary) string {
	switch {
	case s.Err != nil:
		return "–"
	case s.Messages < 0:
		return "?"
	}
	return strconv.Itoa(s.Messages)
}

// ago says how long before now t was, as a person would: "just now",
// "5 min ago", "3 h ago", "yesterday", "4 days ago", then the date.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "–"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return "just now"
	case d < time.Hour:
		return strconv.Itoa(int(d/time.Minute)) + " min ago"
	case d < 24*time.Hour:
		return strconv.Itoa(int(d/time.Hour)) + " h ago"
	case d < 48*time.Hour:
		return "yesterday"
	case d < 7*24*time.Hour:
		return strconv.Itoa(int(d/(24*time.Hour))) + " days ago"
	case t.Year() == now.Year():
		return t.Format("Jan 2")
	}
	return t.Format("2006-01-02")
}
