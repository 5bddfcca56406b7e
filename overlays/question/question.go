// Package question is the panel that answers ask_user_question: one
// question set at a time, each question answered by choosing options or
// typing a custom answer, the answers returned together when the last one
// is submitted. The panel does no I/O; its caller settles the request with
// the Outcome.
package question

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/internal/field"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/overlays/internal/keyguard"
	"github.com/tack-agent/tack/views/markdown"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// MaxHeight is the most rows the panel takes, however tall the terminal.
const MaxHeight = 20

// Guard is how long after opening the panel ignores keys, so that someone
// typing in the editor when a question arrives does not answer it by
// accident.
const Guard = keyguard.Delay

// Validation messages, shown above the control hints.
const (
	MsgSelectOne = "Select at least one option, or press Tab for a custom answer."
	MsgEmpty     = "Enter an answer before submitting."
)

// Kind says what came of a key.
type Kind int

const (
	// None: the panel is still open.
	None Kind = iota
	// Answered: every question has an answer, in Outcome.Answers.
	Answered
	// Interrupted: the user dismissed the questions (Esc or Ctrl+C); the
	// request fails with interact.ErrInterrupted.
	Interrupted
)

// Outcome is what Update reports.
type Outcome struct {
	Kind    Kind
	Answers []interact.Answer // one per question, in order, when Answered
}

// Panel shows one question set. Create it with New; feed it keys with
// Update and draw it with View.
type Panel struct {
	th      theme.Theme
	qs      []interact.Question
	states  []state
	answers []interact.Answer
	guard   keyguard.Guard
	queued  int

	// The question text and the options scroll apart, so the options
	// stay in view however long the question is.
	textTop   int  // first question row shown
	textPage  int  // question rows the last View showed
	textPaged bool // the last View hid some question rows
	optTop    int  // first option row shown
	optPage   int  // option rows the last View showed
	follow    bool // scroll the options to the cursor at the next View

	// detail is the current question's detail rendered as Markdown, kept
	// for the question and width it was rendered for.
	md          *markdown.Renderer
	detail      []string
	detailFor   [2]int // question index, width
	detailReady bool
}

type state struct {
	cursor  int
	checked []bool
	custom  field.Field
	typing  bool // custom answer mode
	problem string
}

// New opens a panel for qs at time now; keys within Guard of now are
// ignored. qs must not be empty.
func New(qs []interact.Question, th theme.Theme, now time.Time) *Panel {
	p := &Panel{th: th, qs: qs, guard: keyguard.Open(now), follow: true}
	for _, q := range qs {
		s := state{checked: make([]bool, len(q.Options)), typing: len(q.Options) == 0}
		for i, o := range q.Options {
			if o.Recommended {
				if q.MultiSelect {
					s.checked[i] = true
				} else if s.cursor == 0 {
					s.cursor = i
				}
			}
		}
		p.states = append(p.states, s)
	}
	return p
}

// SetQueued tells the panel how many more requests wait behind it, shown
// in its header.
func (p *Panel) SetQueued(n int) { p.queued = n }

// Update handles a key press or paste received at now.
func (p *Panel) Update(msg tea.Msg, now time.Time) Outcome {
	if !p.guard.Input(msg, now) || len(p.states) == 0 {
		return Outcome{}
	}
	k, isKey := msg.(tea.KeyPressMsg)
	s := &p.states[len(p.answers)]
	switch key := k.String(); {
	case isKey && key == "ctrl+c":
		return Outcome{Kind: Interrupted}
	case isKey && (key == "pgup" || key == "pgdown"):
		p.pageBy(key == "pgdown")
	case s.typing:
		return p.customKey(msg, s)
	case isKey:
		return p.optionKey(key, s)
	}
	return Outcome{}
}

func (p *Panel) optionKey(key string, s *state) Outcome {
	q := p.qs[len(p.answers)]
	switch key {
	case "esc":
		return Outcome{Kind: Interrupted}
	case "up", "down":
		d := 1
		if key == "up" {
			d = -1
		}
		s.cursor = min(max(0, s.cursor+d), len(q.Options)-1)
		p.follow = true
	case "space":
		if q.MultiSelect {
			s.checked[s.cursor] = !s.checked[s.cursor]
			s.problem = ""
		}
	case "tab", "c":
		if q.AllowCustom {
			s.typing, s.problem = true, ""
		}
	case "enter":
		if !q.MultiSelect {
			return p.submit(interact.Answer{ID: q.ID, Selected: []string{q.Options[s.cursor].Label}})
		}
		sel := checkedLabels(q, s)
		if len(sel) == 0 {
			s.problem = MsgSelectOne
			return Outcome{}
		}
		return p.submit(interact.Answer{ID: q.ID, Selected: sel})
	default:
		if n, err := strconv.Atoi(key); err == nil && n >= 1 && n <= len(q.Options) {
			s.cursor = n - 1
			p.follow = true
		}
	}
	return Outcome{}
}

func (p *Panel) customKey(msg tea.Msg, s *state) Outcome {
	q := p.qs[len(p.answers)]
	k, _ := msg.(tea.KeyPressMsg)
	switch k.String() {
	case "esc":
		if len(q.Options) == 0 {
			return Outcome{Kind: Interrupted}
		}
		s.typing, s.problem = false, ""
	case "enter":
		text := strings.TrimSpace(s.custom.Value())
		sel := []string{}
		if q.MultiSelect {
			sel = checkedLabels(q, s)
		}
		if text == "" && len(sel) == 0 {
			s.problem = MsgEmpty
			return Outcome{}
		}
		return p.submit(interact.Answer{ID: q.ID, Selected: sel, Custom: text})
	default:
		if s.custom.Update(msg) {
			s.problem = ""
		}
	}
	return Outcome{}
}

func checkedLabels(q interact.Question, s *state) []string {
	sel := []string{}
	for i, on := range s.checked {
		if on {
			sel = append(sel, q.Options[i].Label)
		}
	}
	return sel
}

// pageBy moves the question text a page down or up when it does not fit,
// else the options.
func (p *Panel) pageBy(down bool) {
	sign := -1
	if down {
		sign = 1
	}
	if p.textPaged {
		p.textTop += sign * max(1, p.textPage)
		return
	}
	p.optTop += sign * max(1, p.optPage)
	p.follow = false
}

// submit records the current question's answer and moves to the next, or
// reports every answer after the last.
func (p *Panel) submit(a interact.Answer) Outcome {
	p.answers = append(p.answers, a)
	p.textTop, p.optTop, p.follow = 0, 0, true
	if len(p.answers) < len(p.qs) {
		return Outcome{}
	}
	return Outcome{Kind: Answered, Answers: p.answers}
}

// View draws the panel in at most width×height cells (never taller than
// MaxHeight): the header, the question and its detail, the options, the
// custom answer field, a validation message and the control hints. When
// they do not fit, the question text pages (PgUp/PgDn) above options that
// stay in view and scroll to the cursor. View remembers the page heights
// it used, which PgUp and PgDn step by.
func (p *Panel) View(width, height int) string {
	if len(p.answers) >= len(p.qs) || width <= 0 || height <= 0 {
		return ""
	}
	height = min(height, MaxHeight)
	i := len(p.answers)
	q, s := p.qs[i], &p.states[i]
	text := p.text(q, width)
	opts, cursorRows := p.options(q, s, width)
	var tail []string
	if s.typing {
		label := "Custom answer: "
		tail = append(tail, p.th.Accent.Render(label)+s.custom.View(p.th, width-len(label), "type your answer"))
	}
	if s.problem != "" {
		tail = append(tail, p.th.Error.Render(s.problem))
	}
	avail := max(0, height-2-len(tail))
	textRoom, optRoom := split(len(text), len(opts), avail)
	var shown []string
	shown, p.textTop, p.textPage = frame.Scroll(p.th, text, p.textTop, textRoom)
	p.textPaged = len(text) > textRoom
	shownOpts := p.window(opts, cursorRows, optRoom)
	rows := append([]string{p.header(i)}, shown...)
	rows = append(append(rows, shownOpts...), tail...)
	rows = append(rows, p.th.Dim.Render(p.hint(q, s, p.textPaged || len(opts) > optRoom, width)))
	return frame.Join(rows, width, height)
}

// Height is how many rows the panel needs at width to show its options
// whole under the question's first rows (a longer question pages), at
// most MaxHeight, so its caller can make room for it.
func (p *Panel) Height(width int) int {
	if len(p.answers) >= len(p.qs) || width <= 0 {
		return 0
	}
	i := len(p.answers)
	q, s := p.qs[i], &p.states[i]
	opts, _ := p.options(q, s, width)
	n := 2 + min(len(p.text(q, width)), pagedText) + len(opts)
	if s.typing {
		n++
	}
	if s.problem != "" {
		n++
	}
	return min(n, MaxHeight)
}

// pagedText is how many rows of a long question's text Height keeps in
// view: enough to page it with its ↑/↓ markers.
const pagedText = 3

// split shares avail rows between the question text and the options:
// everything when both fit, else the options as much as they need while
// the text keeps a third of the room, and three rows (enough to page with
// its ↑/↓ markers) unless the room is so small that the options matter
// more.
func split(text, opts, avail int) (textRoom, optRoom int) {
	if text+opts <= avail {
		return text, opts
	}
	keep := max(3, avail/3)
	if avail < 8 {
		keep = max(1, avail/3)
	}
	keep = min(text, keep)
	optRoom = max(0, min(opts, avail-keep))
	return max(0, avail-optRoom), optRoom
}

func (p *Panel) header(i int) string {
	q := p.qs[i]
	h := "Question " + strconv.Itoa(i+1) + "/" + strconv.Itoa(len(p.qs)) +
		" (" + strconv.Itoa(len(p.qs)-i) + " unanswered)"
	if q.Header != "" {
		h += " · " + textfmt.SanitizeLine(q.Header)
	}
	out := p.th.Label.Render(h)
	if p.queued > 0 {
		out += p.th.Dim.Render(" · " + strconv.Itoa(p.queued) + " more waiting")
	}
	return out
}

// text is the question, wrapped to width, and its detail (a plan under
// review) rendered as Markdown below a blank row.
func (p *Panel) text(q interact.Question, width int) []string {
	rows := frame.Wrap(textfmt.Sanitize(q.Question), width)
	if q.Detail != "" {
		rows = append(append(rows, ""), p.detailRows(q, width)...)
	}
	return rows
}

// detailRows renders the current question's detail once per question and
// width: View runs every frame.
func (p *Panel) detailRows(q interact.Question, width int) []string {
	key := [2]int{len(p.answers), width}
	if p.detailReady && p.detailFor == key {
		return p.detail
	}
	if p.md == nil {
		p.md = markdown.New(markdown.Options{Colour: p.th.Colour, Background: p.th.Background})
	}
	p.detail, p.detailFor, p.detailReady = p.md.Render(q.Detail, width), key, true
	return p.detail
}

// options is a row per line of every option with its description;
// cursorRows is the span of the cursor's option.
func (p *Panel) options(q interact.Question, s *state, width int) (rows []string, cursorRows [2]int) {
	for j, o := range q.Options {
		mark, style := frame.Mark(p.th, j == s.cursor && !s.typing)
		lead := mark + strconv.Itoa(j+1) + ". "
		if q.MultiSelect {
			lead += map[bool]string{true: "[x] ", false: "[ ] "}[s.checked[j]]
		}
		pad := strings.Repeat(" ", len([]rune(lead)))
		if j == s.cursor {
			cursorRows[0] = len(rows)
		}
		label := frame.Wrap(textfmt.SanitizeLine(o.Label), max(1, width-len(pad)))
		for k, l := range label {
			r := pad + style.Render(l)
			if k == 0 {
				r = style.Render(lead + l)
			}
			if k == len(label)-1 && o.Recommended {
				r += p.th.Dim.Render(" (recommended)")
			}
			rows = append(rows, r)
		}
		if o.Description != "" {
			for _, d := range frame.Wrap(textfmt.Sanitize(o.Description), max(1, width-len(pad))) {
				rows = append(rows, pad+p.th.Dim.Render(d))
			}
		}
		if j == s.cursor {
			if !s.typing {
				rows = append(rows, p.preview(o.Preview, pad, width)...)
			}
			cursorRows[1] = len(rows)
		}
	}
	return rows, cursorRows
}

// preview is the rows of the chosen option's preview (a mock-up or a
// snippet): its lines as written, behind a rule, cut at width.
func (p *Panel) preview(text, pad string, width int) []string {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	rule := p.th.Dim.Render("│ ")
	var rows []string
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		rows = append(rows, pad+rule+frame.Truncate(textfmt.SanitizeLine(line), max(1, width-len(pad)-2)))
	}
	return rows
}

// window picks the option rows that fit in avail rows, scrolled to the
// cursor's option after it moved.
func (p *Panel) window(opts []string, cursor [2]int, avail int) []string {
	top := p.optTop
	if p.follow {
		k := max(1, avail-2)
		if cursor[1] > top+k {
			top = cursor[1] - k
		}
		if cursor[0] < top {
			top = cursor[0]
		}
	}
	var shown []string
	shown, p.optTop, p.optPage = frame.Scroll(p.th, opts, top, avail)
	return shown
}

// hint is the control row, in its compact form when the full one does not
// fit.
func (p *Panel) hint(q interact.Question, s *state, paged bool, width int) string {
	var full, short []string
	if s.typing {
		if q.MultiSelect {
			n := strconv.Itoa(len(checkedLabels(q, s))) + " selected"
			full, short = append(full, n), append(short, n)
		}
		esc := "Esc options"
		if len(q.Options) == 0 {
			esc = "Esc cancel"
		}
		full = append(full, "Enter submit", esc)
		short = append(short, "↵", "Esc")
	} else {
		if q.AllowCustom {
			full, short = append(full, "Tab custom answer"), append(short, "Tab")
		}
		if len(q.Options) > 1 {
			full, short = append(full, "↑/↓ navigate"), append([]string{"↑↓"}, short...)
		}
		if q.MultiSelect {
			full, short = append(full, "Space toggle"), append(short, "Sp")
		}
		full, short = append(full, "Enter submit", "Esc interrupt"), append(short, "↵", "Esc")
	}
	if paged {
		full, short = append(full, "PgUp/PgDn page"), append(short, "PgUp/PgDn")
	}
	return frame.Hint(width, strings.Join(full, " • "), strings.Join(short, " "))
}
