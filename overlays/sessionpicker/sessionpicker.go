// Package sessionpicker is the /resume picker: sessions of this workspace
// (or of all workspaces), newest first, searchable by title and id, with
// the sessions that cannot be resumed shown and explained. It opens before
// the listing arrives; the caller lists sessions in a command and sends
// the result as a Loaded message.
package sessionpicker

import (
	"fmt"
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"

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
	cwd      string // shown home-relative
	current  string
	loaded   bool
	err      error
	here     []session.Summary
	all      []session.Summary
	allScope bool
	search   field.Field
	matches  []int
	cursor   int
	top      int
}

// New opens the picker, showing Loading until a Loaded message arrives.
// cwd is the workspace (shown relative to home); current is the id of the
// session already open here, which cannot be chosen.
func New(cwd, home, current string, th theme.Theme) *Picker {
	return &Picker{th: th, cwd: textfmt.HomeRel(cwd, home), current: current}
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
	shown := max(1, (height-2-2-1)/2)
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

// list draws up to n sessions, two rows each, scrolled to the cursor.
func (p *Picker) list(width, n int) []string {
	p.top = frame.Window(len(p.matches), p.cursor, n, p.top)
	var rows []string
	for i := p.top; i < min(len(p.matches), p.top+n); i++ {
		s := p.scope()[p.matches[i]]
		title := textfmt.SanitizeLine(s.Title)
		if title == "" {
			title = Untitled
		}
		why := p.disabled(s)
		mark, style := "  ", p.th.Plain
		if i == p.cursor {
			mark, style = "❯ ", p.th.Selection
		}
		if why != "" {
			style = style.Inherit(p.th.Dim)
		}
		if s.Parent != "" {
			title = "↳ " + title
		}
		rows = append(rows, style.Render(frame.Truncate(mark+title, width)))
		rows = append(rows, "  "+p.th.Dim.Render(frame.Truncate(p.meta(s, why), width-2)))
	}
	return rows
}

// meta is the second row of a session: time, why it cannot be resumed,
// size, workspace (in the all-workspaces scope) and id, the most telling
// first as narrow rows lose their ends.
func (p *Picker) meta(s session.Summary, why string) string {
	parts := []string{}
	if !s.LastActive.IsZero() {
		parts = append(parts, s.LastActive.Format("2006-01-02 15:04"))
	}
	if why != "" {
		parts = append(parts, textfmt.SanitizeLine(why))
	}
	parts = append(parts, size(s.Size))
	if p.allScope && s.Cwd != "" {
		parts = append(parts, "workspace "+textfmt.SanitizeLine(s.Cwd))
	}
	return strings.Join(append(parts, textfmt.SanitizeLine(s.ID)), " · ")
}

// size writes a byte count as 812 B, 12.3 KB or 4.0 MB.
func size(n int64) string {
	switch {
	case n < 1024:
		return fmt.Sprintf("%d B", n)
	case n < 1024*1024:
		return fmt.Sprintf("%.1f KB", float64(n)/1024)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1024*1024))
}
