// Package modelpicker is the /model selector: the catalog's models with
// their context window, price and reasoning effort, filtered as the user
// types. It reports the chosen model and effort; applying them is the
// caller's business.
package modelpicker

import (
	"fmt"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/overlays/internal/field"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Exact texts of the selector.
const (
	Title   = "Select model"
	Footer  = "type to filter • ↑/↓ move • Shift+Tab reasoning • Enter select • Esc"
	NoMatch = "No models match the filter"
)

// Width is the widest the selector draws; MaxListRows the most rows its
// list takes.
const (
	Width       = 76
	MaxListRows = 20
)

// Kind says what came of a key.
type Kind int

const (
	None     Kind = iota // still open
	Selected             // Outcome.Model and Outcome.Effort were chosen
	Closed               // dismissed without a choice
)

// Outcome is what Update reports.
type Outcome struct {
	Kind   Kind
	Model  string // model id
	Effort llm.Effort
}

// Picker is the model selector. Create it with New.
type Picker struct {
	th      theme.Theme
	models  []llm.Model
	efforts map[string]llm.Effort
	current string
	filter  field.Field
	matches []int // indexes into models
	cursor  int   // index into matches
	top     int
}

// New opens the selector over models with current (and its effort)
// marked and highlighted; a current model the list lacks is shown first.
// A current model named by its ref or a legacy alias is the listed one.
func New(models []llm.Model, current string, effort llm.Effort, th theme.Theme) *Picker {
	if i := slices.IndexFunc(models, func(m llm.Model) bool { return m.Named(current) }); current != "" && i >= 0 {
		current = models[i].ID
	}
	if current != "" && !slices.ContainsFunc(models, func(m llm.Model) bool { return m.ID == current }) {
		models = append([]llm.Model{{ID: current, Name: current, Efforts: llm.Efforts, DefaultEffort: effort}}, models...)
	}
	p := &Picker{th: th, models: models, current: current, efforts: map[string]llm.Effort{}}
	for _, m := range models {
		p.efforts[m.ID] = m.DefaultEffort
	}
	if current != "" && effort != "" {
		p.efforts[current] = effort
	}
	p.refilter()
	p.toCurrent()
	return p
}

// toCurrent puts the cursor on the current model when it is listed.
func (p *Picker) toCurrent() {
	p.cursor = max(0, slices.IndexFunc(p.matches, func(i int) bool { return p.models[i].ID == p.current }))
}

// Update handles a key press or paste.
func (p *Picker) Update(msg tea.Msg) Outcome {
	k, _ := msg.(tea.KeyPressMsg)
	switch k.String() {
	case "esc", "ctrl+c":
		if k.String() == "esc" && !p.filter.Empty() {
			p.filter.SetValue("")
			p.refilter()
			p.toCurrent()
			return Outcome{}
		}
		return Outcome{Kind: Closed}
	case "enter":
		if len(p.matches) == 0 {
			return Outcome{}
		}
		m := p.models[p.matches[p.cursor]]
		return Outcome{Kind: Selected, Model: m.ID, Effort: p.efforts[m.ID]}
	case "up":
		p.cursor = max(0, p.cursor-1)
	case "down":
		p.cursor = max(0, min(len(p.matches)-1, p.cursor+1))
	case "shift+tab":
		p.cycleEffort()
	default:
		if p.filter.Update(msg) {
			p.refilter()
		}
	}
	return Outcome{}
}

func (p *Picker) cycleEffort() {
	if len(p.matches) == 0 {
		return
	}
	m := p.models[p.matches[p.cursor]]
	efforts := m.Efforts
	if len(efforts) == 0 {
		efforts = llm.Efforts
	}
	i := slices.Index(efforts, p.efforts[m.ID])
	p.efforts[m.ID] = efforts[(i+1)%len(efforts)]
}

// refilter keeps the models whose provider/model or name contains the
// filter, ignoring case.
func (p *Picker) refilter() {
	q := strings.ToLower(p.filter.Value())
	p.matches = p.matches[:0]
	for i, m := range p.models {
		if strings.Contains(strings.ToLower(qualified(m)), q) || strings.Contains(strings.ToLower(m.Name), q) {
			p.matches = append(p.matches, i)
		}
	}
	p.cursor, p.top = 0, 0
}

func qualified(m llm.Model) string {
	if m.Provider == "" {
		return m.ID
	}
	return m.Provider + "/" + m.ID
}

// View draws the selector as a box at most Width wide and height tall.
func (p *Picker) View(width, height int) string {
	width = min(width, Width)
	if width <= 0 || height <= 0 {
		return ""
	}
	inner := max(1, width-4)
	shown := max(1, min(MaxListRows, height-2-2)/2)
	filter := p.th.Accent.Render("Filter: ") + p.filter.View(p.th, inner-8-6, "provider/model or name")
	rows := []string{frame.WithPosition(p.th, filter, inner, p.cursor, len(p.matches), shown)}
	if len(p.matches) == 0 {
		rows = append(rows, p.th.Dim.Render(NoMatch))
	} else {
		rows = append(rows, p.list(inner, shown)...)
	}
	rows = append(rows, p.th.Dim.Render(frame.Hint(inner, Footer, "↑↓ ⇧Tab effort ↵ Esc")))
	return frame.Join(frame.Box(p.th, Title, rows, width, height), width, height)
}

// list draws up to n models, two rows each, scrolled to the cursor.
func (p *Picker) list(width, n int) []string {
	p.top = frame.Window(len(p.matches), p.cursor, n, p.top)
	var rows []string
	for i := p.top; i < min(len(p.matches), p.top+n); i++ {
		m := p.models[p.matches[i]]
		name := textfmt.SanitizeLine(qualified(m))
		mark, style := frame.Mark(p.th, i == p.cursor)
		rows = append(rows, style.Render(frame.Truncate(mark+name, width)))
		rows = append(rows, "    "+p.th.Dim.Render(p.describe(m, width-4)))
	}
	return rows
}

// describe is the second row of a model in width cells: name, context,
// price, effort and the current marker. When they do not fit, the price
// goes first, then the context, then the name, so the effort Shift+Tab
// changes and the current marker stay readable.
func (p *Picker) describe(m llm.Model, width int) string {
	type part struct {
		text string
		drop int // parts with a higher drop go first; 0 never does
	}
	parts := []part{{textfmt.SanitizeLine(m.Name), 1}}
	if m.ContextWindow > 0 {
		parts = append(parts, part{contextSize(m.ContextWindow) + " context", 2})
	}
	if m.Price.CacheMiss > 0 || m.Price.Output > 0 {
		parts = append(parts, part{fmt.Sprintf("$%.2f/$%.2f", m.Price.CacheMiss, m.Price.Output), 3})
	}
	if e := p.efforts[m.ID]; e != "" {
		parts = append(parts, part{"effort " + string(e), 0})
	}
	if m.ID == p.current {
		parts = append(parts, part{"current", 0})
	}
	join := func(min int) string {
		var keep []string
		for _, pt := range parts {
			if pt.drop == 0 || pt.drop < min {
				keep = append(keep, pt.text)
			}
		}
		return strings.Join(keep, " — ")
	}
	for drop := 4; drop > 1; drop-- {
		if s := join(drop); ansi.StringWidth(s) <= width {
			return s
		}
	}
	return frame.Truncate(join(1), width)
}

// contextSize writes a token count as 1M, 1.5M, 128K or 512.
func contextSize(n int) string {
	switch {
	case n >= 1_000_000:
		return strings.TrimSuffix(fmt.Sprintf("%.1f", float64(n)/1e6), ".0") + "M"
	case n >= 1000:
		return fmt.Sprintf("%dK", (n+500)/1000)
	}
	return fmt.Sprint(n)
}
