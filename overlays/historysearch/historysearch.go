// Package historysearch is the Ctrl+R reverse search over earlier prompts:
// type to filter, the match highlighted, Enter to put the prompt in the
// editor.
package historysearch

import (
	"strconv"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/internal/field"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Kind says what came of a key.
type Kind int

const (
	None      Kind = iota // still open
	Chosen                // Outcome.Prompt goes into the editor
	Cancelled             // closed without a choice
)

// Outcome is what Update reports.
type Outcome struct {
	Kind   Kind
	Prompt string
}

// Search is the history search. Create it with New.
type Search struct {
	th      theme.Theme
	prompts []string
	lower   []string
	query   field.Field
	matches []int
	cursor  int
	top     int
}

// New opens a search over prompts, newest first.
func New(prompts []string, th theme.Theme) *Search {
	s := &Search{th: th, prompts: prompts, lower: make([]string, len(prompts))}
	for i, p := range prompts {
		s.lower[i] = strings.ToLower(p)
	}
	s.refilter()
	return s
}

// Update handles a key press or paste: typing filters (case-insensitive
// substring), ↓ or Ctrl+R moves to the next older match, ↑ to the newer
// one, Enter chooses, Esc and Ctrl+C cancel.
func (s *Search) Update(msg tea.Msg) Outcome {
	k, _ := msg.(tea.KeyPressMsg)
	switch k.String() {
	case "esc", "ctrl+c", "ctrl+g":
		return Outcome{Kind: Cancelled}
	case "enter":
		if len(s.matches) == 0 {
			return Outcome{Kind: Cancelled}
		}
		return Outcome{Kind: Chosen, Prompt: s.prompts[s.matches[s.cursor]]}
	case "down", "ctrl+r", "ctrl+n":
		s.cursor = max(0, min(len(s.matches)-1, s.cursor+1))
	case "up", "ctrl+s", "ctrl+p":
		s.cursor = max(0, s.cursor-1)
	default:
		if s.query.Update(msg) {
			s.refilter()
		}
	}
	return Outcome{}
}

func (s *Search) refilter() {
	q := strings.ToLower(s.query.Value())
	s.matches = s.matches[:0]
	for i, l := range s.lower {
		if strings.Contains(l, q) {
			s.matches = append(s.matches, i)
		}
	}
	s.cursor, s.top = 0, 0
}

// View draws the matches (newest at the top, the chosen one in reverse
// video, the query highlighted) over the search row, in at most
// width×height cells.
func (s *Search) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	label := "History search: "
	count := s.th.Dim.Render("  " + strconv.Itoa(len(s.matches)) + "/" + strconv.Itoa(len(s.prompts)))
	input := s.th.Accent.Render(label) + s.query.View(s.th, max(1, width-len(label)-12), "type to search earlier prompts")
	n := max(0, height-2)
	var rows []string
	if len(s.matches) == 0 {
		rows = append(rows, s.th.Dim.Render("No matching prompt"))
	} else {
		s.top = frame.Window(len(s.matches), s.cursor, n, s.top)
		for i := s.top; i < min(len(s.matches), s.top+n); i++ {
			rows = append(rows, s.row(i, width))
		}
	}
	rows = append(rows, input+count, s.th.Dim.Render(frame.Hint(width,
		"type to filter • ↑/↓ or Ctrl+R next match • Enter use • Esc cancel", "↑↓ ^R next ↵ use Esc")))
	if len(rows) > height {
		rows = rows[len(rows)-height:]
	}
	return frame.Join(rows, width, height)
}

// row is one prompt on one row, its first match emphasised; the chosen
// row is in reverse video across the width.
func (s *Search) row(i, width int) string {
	text := textfmt.SanitizeLine(strings.ReplaceAll(s.prompts[s.matches[i]], "\n", " ⏎ "))
	text = frame.Truncate(" "+text, width)
	base, mark := s.th.Plain, s.th.Label
	if i == s.cursor {
		base, mark = s.th.Selection, s.th.SelectionMatch
		if rest, ok := strings.CutPrefix(text, " "); ok && !s.th.Colour {
			text = "›" + rest
		}
		text += strings.Repeat(" ", max(0, width-ansi.StringWidth(text)))
	}
	q := strings.ToLower(textfmt.SanitizeLine(s.query.Value()))
	lower := strings.ToLower(text)
	at := strings.Index(lower, q)
	if q == "" || at < 0 || len(lower) != len(text) {
		return base.Render(text)
	}
	end := at + len(q)
	return base.Render(text[:at]) + mark.Render(text[at:end]) + base.Render(text[end:])
}
