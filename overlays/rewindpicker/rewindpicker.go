// Package rewindpicker is the /rewind picker (Esc Esc): the session's turns,
// newest first, each with its prompt, time and the files tack changed in
// it, then a choice of what to restore — files and conversation, files
// only, or conversation only. A rewind refused because it would lose
// changes made outside tack comes back to it as a confirmation listing the
// files. The picker does nothing itself: its outcome is the command line
// to run.
package rewindpicker

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Exact texts of the picker.
const (
	Title        = "Rewind"
	ConfirmTitle = "Files changed outside tack"
	NoTurns      = "No turns yet: nothing to rewind to."
	// NoGitNote is shown for a turn whose checkpoint was taken without git.
	NoGitNote    = "Without git, files are restored only where tack's edit and write tools changed them; changes made by shell commands stay."
	listFooter   = "↑/↓ choose  •  Enter select  •  Esc cancel"
	choiceFooter = "↑/↓ choose  •  Enter rewind  •  Esc back"
)

// Kind says what came of a message.
type Kind int

const (
	None   Kind = iota // still open
	Run                // Outcome.Line is to be run
	Closed             // dismissed
)

// Outcome is what Update reports.
type Outcome struct {
	Kind Kind
	Line string
}

// stage is which screen the picker shows.
type stage int

const (
	pickTurn stage = iota
	pickScope
	confirm
)

// item is one row of the turn list: a turn, or the undo of the last
// rewind.
type item struct {
	turn session.TurnPoint
	undo *session.RewindPoint
}

// choice is one row of the scope and confirmation screens.
type choice struct {
	label, why string // why is set when the choice is not available
	line       string // "" closes the picker
}

// Picker is the rewind picker. Create it with New or Confirm.
type Picker struct {
	th      theme.Theme
	now     time.Time
	stage   stage
	items   []item
	cursor  int
	top     int
	chosen  item
	choices []choice
	pick    int
	paths   []string
}

// New opens the picker on turns (oldest first, as the projection lists
// them) and the rewinds that stand; the latest can be undone. now dates
// the turns of today by time alone.
func New(turns []session.TurnPoint, rewinds []session.RewindPoint, now time.Time, th theme.Theme) *Picker {
	p := &Picker{th: th, now: now}
	if len(rewinds) > 0 {
		r := rewinds[len(rewinds)-1]
		p.items = append(p.items, item{undo: &r})
	}
	for i := len(turns) - 1; i >= 0; i-- {
		p.items = append(p.items, item{turn: turns[i]})
	}
	if len(rewinds) > 0 && len(turns) > 0 {
		p.cursor = 1 // on the newest turn; the undo is one up
	}
	return p
}

// Confirm opens the picker on the refusal of line, a rewind that would lose
// the changes made outside tack to paths: run it forced, rewind the
// conversation only, or cancel.
func Confirm(line string, paths []string, th theme.Theme) *Picker {
	p := &Picker{th: th, stage: confirm, paths: paths}
	keep := choice{label: "Rewind the conversation only, keep the files", line: strings.TrimSuffix(line, " --force") + " --conversation"}
	if strings.Contains(line, "--files") {
		keep.line, keep.why = "", "this rewind restores files only"
	}
	p.choices = []choice{{label: "Restore anyway (/redo puts the changes back)", line: line}, keep, {label: "Cancel"}}
	return p
}

// Update handles a key press.
func (p *Picker) Update(msg tea.Msg) Outcome {
	k, _ := msg.(tea.KeyPressMsg)
	switch k.String() {
	case "ctrl+c":
		return Outcome{Kind: Closed}
	case "esc":
		if p.stage == pickScope {
			p.stage = pickTurn
			return Outcome{}
		}
		return Outcome{Kind: Closed}
	case "up":
		p.move(-1)
	case "down":
		p.move(1)
	case "enter":
		return p.enter()
	}
	return Outcome{}
}

func (p *Picker) move(d int) {
	if p.stage == pickTurn {
		p.cursor = max(0, min(len(p.items)-1, p.cursor+d))
		return
	}
	for i := p.pick + d; i >= 0 && i < len(p.choices); i += d {
		if p.choices[i].why == "" {
			p.pick = i
			return
		}
	}
}

func (p *Picker) enter() Outcome {
	switch p.stage {
	case pickTurn:
		if len(p.items) == 0 {
			return Outcome{Kind: Closed}
		}
		p.chosen = p.items[p.cursor]
		p.choices = scopes(p.chosen)
		p.stage, p.pick = pickScope, 0
		for p.pick < len(p.choices)-1 && p.choices[p.pick].why != "" {
			p.pick++
		}
		return Outcome{}
	default:
		c := p.choices[p.pick]
		if c.why != "" {
			return Outcome{}
		}
		if c.line == "" {
			return Outcome{Kind: Closed}
		}
		return Outcome{Kind: Run, Line: c.line}
	}
}

// scopes are what a rewind to it can restore.
func scopes(it item) []choice {
	if it.undo != nil {
		r := it.undo
		both := choice{label: "Undo it: files and conversation", line: "/redo"}
		files := choice{label: "Undo it for the files only", line: "/redo --files"}
		conv := choice{label: "Undo it for the conversation only", line: "/redo --conversation"}
		if r.Files == "" {
			both.why, files.why = "that rewind left the files alone", "that rewind left the files alone"
		}
		if !r.Conversation {
			both.why, conv.why = "that rewind left the conversation alone", "that rewind left the conversation alone"
		}
		return []choice{both, files, conv}
	}
	n := strconv.Itoa(it.turn.Turn)
	out := []choice{
		{label: "Restore files and conversation", line: "/rewind " + n},
		{label: "Restore files only", line: "/rewind " + n + " --files"},
		{label: "Restore conversation only", line: "/rewind " + n + " --conversation"},
	}
	if it.turn.Checkpoint.ID == "" {
		why := "no checkpoint of the files before this turn"
		if e := it.turn.Checkpoint.Error; e != "" {
			why = e
		}
		out[0].why, out[1].why = why, why
	}
	return out
}

// View draws the picker as a box filling at most width×height.
func (p *Picker) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	inner := max(1, width-4)
	var rows []string
	title := Title
	switch p.stage {
	case pickTurn:
		rows = p.turnRows(inner, height)
	case pickScope:
		title, rows = p.scopeRows(inner)
	case confirm:
		title, rows = ConfirmTitle, p.confirmRows(inner)
	}
	if p.stage != pickTurn {
		rows = fit(rows, height-2)
	}
	return frame.Join(frame.Box(p.th, title, rows, width, height), width, height)
}

// fit keeps rows within room for a box that would cut them from the
// bottom: blank rows go first, the lowest first, then the rows above the
// last one, since the keys it names matter more than they do.
func fit(rows []string, room int) []string {
	if len(rows) <= room || room < 2 {
		return rows
	}
	kept := append([]string(nil), rows...)
	for i := len(kept) - 1; i >= 0 && len(kept) > room; i-- {
		if kept[i] == "" {
			kept = append(kept[:i], kept[i+1:]...)
		}
	}
	if len(kept) > room {
		kept = append(kept[:room-1], kept[len(kept)-1])
	}
	return kept
}

func (p *Picker) turnRows(inner, height int) []string {
	if len(p.items) == 0 {
		return []string{p.th.Dim.Render(NoTurns), p.th.Dim.Render(frame.Hint(inner, "Esc close"))}
	}
	shown := max(1, (height-2-1)/2)
	p.top = frame.Window(len(p.items), p.cursor, shown, p.top)
	var rows []string
	for i := p.top; i < min(len(p.items), p.top+shown); i++ {
		mark, style := frame.Mark(p.th, i == p.cursor)
		head, meta := p.describe(p.items[i])
		rows = append(rows, style.Render(frame.Truncate(mark+head, inner)))
		rows = append(rows, "  "+p.th.Dim.Render(frame.Truncate(meta, inner-2)))
	}
	return append(rows, p.th.Dim.Render(frame.Hint(inner, listFooter, "↑↓ • ↵ • Esc")))
}

// describe is an item's two rows: what it is, then when and what changed.
func (p *Picker) describe(it item) (string, string) {
	if r := it.undo; r != nil {
		head := "↶ Undo the last rewind"
		if len(r.Turns) > 0 {
			head += " (brings back " + turnsText(r.Turns) + ")"
		}
		what := []string{}
		if r.Files != "" {
			what = append(what, "files")
		}
		if r.Conversation {
			what = append(what, "conversation")
		}
		return head, "it rewound the " + strings.Join(what, " and ")
	}
	t := it.turn
	head := "Turn " + strconv.Itoa(t.Turn) + "  " + textfmt.SanitizeLine(oneLine(t.Prompt))
	parts := []string{p.when(t.Time)}
	switch n := len(t.Changed); {
	case t.Checkpoint.ID == "":
		parts = append(parts, "no checkpoint: conversation only")
	case n == 0:
		parts = append(parts, "no files changed")
	default:
		parts = append(parts, fmt.Sprintf("%d %s changed: %s", n, plural(n, "file"), textfmt.SanitizeLine(strings.Join(t.Changed, ", "))))
	}
	return head, strings.Join(parts, " · ")
}

// when is a turn's time: the clock alone today, else the date too.
func (p *Picker) when(t time.Time) string {
	if t.IsZero() {
		return "time unknown"
	}
	if y, m, d := t.Date(); !p.now.IsZero() {
		if ny, nm, nd := p.now.Date(); y == ny && m == nm && d == nd {
			return t.Format("15:04")
		}
	}
	return t.Format("2006-01-02 15:04")
}

func (p *Picker) scopeRows(inner int) (string, []string) {
	var title, lead string
	if p.chosen.undo != nil {
		title, lead = "Undo the last rewind", "Return to how things were before the last rewind."
	} else {
		title = "Rewind to before turn " + strconv.Itoa(p.chosen.turn.Turn)
		lead = textfmt.SanitizeLine(oneLine(p.chosen.turn.Prompt))
	}
	rows := []string{p.th.Dim.Render(frame.Truncate(lead, inner)), ""}
	rows = append(rows, p.choiceRows(inner)...)
	if p.chosen.undo == nil {
		rows = append(rows, "")
		if p.chosen.turn.Checkpoint.Store == string(checkpoint.KindFiles) {
			for _, line := range frame.Wrap(NoGitNote, inner) {
				rows = append(rows, p.th.Warning.Render(line))
			}
		}
		rows = append(rows, p.th.Dim.Render(frame.Truncate("The turns stay in the log; /redo brings them back.", inner)))
	}
	return title, append(rows, p.th.Dim.Render(frame.Hint(inner, choiceFooter, "↑↓ • ↵ • Esc")))
}

func (p *Picker) confirmRows(inner int) []string {
	rows := frame.Wrap("Restoring would lose the changes made outside tack to:", inner)
	for i, path := range p.paths {
		if i == 8 {
			rows = append(rows, "  "+fmt.Sprintf("and %d more", len(p.paths)-i))
			break
		}
		rows = append(rows, p.th.Warning.Render(frame.Truncate("  "+textfmt.SanitizeLine(path), inner)))
	}
	rows = append(append(rows, ""), p.choiceRows(inner)...)
	return append(rows, p.th.Dim.Render(frame.Hint(inner, "↑/↓ choose  •  Enter  •  Esc cancel", "↑↓ • ↵ • Esc")))
}

func (p *Picker) choiceRows(inner int) []string {
	var rows []string
	for i, c := range p.choices {
		mark, style := frame.Mark(p.th, i == p.pick)
		text := mark + c.label
		if c.why != "" {
			style = style.Inherit(p.th.Dim)
			text += " — " + textfmt.SanitizeLine(c.why)
		}
		rows = append(rows, style.Render(frame.Truncate(text, inner)))
	}
	return rows
}

// oneLine is text on one line, spaces collapsed.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }

func plural(n int, noun string) string {
	if n == 1 {
		return noun
	}
	return noun + "s"
}

// turnsText names turns: "turn 3", "turns 2–3", "turns 2, 4 and 5".
func turnsText(turns []int) string {
	if len(turns) == 1 {
		return "turn " + strconv.Itoa(turns[0])
	}
	if turns[len(turns)-1]-turns[0] == len(turns)-1 {
		return fmt.Sprintf("turns %d–%d", turns[0], turns[len(turns)-1])
	}
	parts := make([]string, len(turns))
	for i, t := range turns {
		parts[i] = strconv.Itoa(t)
	}
	return "turns " + strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}
