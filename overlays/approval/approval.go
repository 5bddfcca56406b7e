// Package approval is the dialog that asks whether a tool call may run:
// the tool, its summary, the command or the diff (scrollable), and the
// choices allow once, allow for this session and deny with an optional
// reason. It does no I/O; its caller settles the request with the
// Decision it reports.
package approval

import (
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/internal/field"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/overlays/internal/keyguard"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Guard is how long after opening the dialog ignores keys, so that a
// keystroke meant for the editor does not decide.
const Guard = keyguard.Delay

// Outcome is what Update reports: Decided with the Decision, or not yet.
type Outcome struct {
	Decided  bool
	Decision interact.Decision
}

// Dialog asks about one interact.Approval. Create it with New; feed it
// keys with Update and draw it with View.
type Dialog struct {
	th      theme.Theme
	a       interact.Approval
	guard   keyguard.Guard
	queued  int
	choices []interact.Verdict
	choice  int
	denying bool // typing the reason for a denial
	reason  field.Field

	scroll int
	page   int

	// rendered caches the body at renderedWidth: the approval never
	// changes, so a frame re-renders the card only when the width does.
	rendered      []string
	renderedWidth int
}

// New opens a dialog for a at time now; keys within Guard of now are
// ignored. "Allow for this session" is offered only when a.Remember says
// what would be remembered.
func New(a interact.Approval, th theme.Theme, now time.Time) *Dialog {
	d := &Dialog{th: th, a: a, guard: keyguard.Open(now), choices: []interact.Verdict{interact.Allow}}
	if a.Remember != "" {
		d.choices = append(d.choices, interact.AllowSession)
	}
	d.choices = append(d.choices, interact.Deny)
	return d
}

// SetQueued tells the dialog how many more requests wait behind it.
func (d *Dialog) SetQueued(n int) { d.queued = n }

// Update handles a key press or paste received at now. y, a and n decide
// at once (n asks for an optional reason first), Tab and ←/→ move between
// the choices, Enter confirms, ↑/↓ and PgUp/PgDn scroll the command or
// diff, Esc and Ctrl+C deny.
func (d *Dialog) Update(msg tea.Msg, now time.Time) Outcome {
	if !d.guard.Input(msg, now) {
		return Outcome{}
	}
	k, _ := msg.(tea.KeyPressMsg)
	key := k.String()
	if key == "ctrl+c" {
		return deny("")
	}
	if d.denying {
		switch key {
		case "enter":
			return deny(strings.TrimSpace(d.reason.Value()))
		case "esc":
			d.denying = false
		default:
			d.reason.Update(msg)
		}
		return Outcome{}
	}
	return d.choose(key)
}

func deny(reason string) Outcome {
	return Outcome{Decided: true, Decision: interact.Decision{Verdict: interact.Deny, Reason: reason}}
}

func (d *Dialog) choose(key string) Outcome {
	switch key {
	case "esc":
		return deny("")
	case "y", "1":
		return d.pick(interact.Allow)
	case "a":
		return d.pick(interact.AllowSession)
	case "n":
		return d.pick(interact.Deny)
	case "2", "3":
		if i := int(key[0] - '1'); i < len(d.choices) {
			return d.pick(d.choices[i])
		}
	case "enter":
		return d.pick(d.choices[d.choice])
	case "tab", "right":
		d.choice = (d.choice + 1) % len(d.choices)
	case "shift+tab", "left":
		d.choice = (d.choice + len(d.choices) - 1) % len(d.choices)
	case "up":
		d.scroll--
	case "down":
		d.scroll++
	case "pgup":
		d.scroll -= max(1, d.page)
	case "pgdown":
		d.scroll += max(1, d.page)
	}
	return Outcome{}
}

// pick decides v when it is offered; Deny first asks for a reason.
func (d *Dialog) pick(v interact.Verdict) Outcome {
	for i, c := range d.choices {
		if c != v {
			continue
		}
		d.choice = i
		if v == interact.Deny {
			d.denying = true
			return Outcome{}
		}
		return Outcome{Decided: true, Decision: interact.Decision{Verdict: v}}
	}
	return Outcome{}
}

// View draws the dialog as a box of at most width×height cells. The
// command or diff takes the room that is left after the summary, the
// choices and the hints, and scrolls when it does not fit. View remembers
// the page height PgUp and PgDn step by.
func (d *Dialog) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	inner := max(1, width-4)
	title := "Allow " + textfmt.SanitizeLine(d.a.Tool) + "?"
	if d.queued > 0 {
		title += " (" + strconv.Itoa(d.queued) + " more waiting)"
	}
	head, tail, body := d.headRows(inner), d.tailRows(inner, false), d.body(inner)
	if 2+len(head)+len(tail)+len(body) > height {
		tail = d.tailRows(inner, true)
	}
	scrolls := len(body) > height-2-len(head)-len(tail)
	tail[len(tail)-1] = d.th.Dim.Render(d.hint(inner, scrolls))
	avail := max(0, height-2-len(head)-len(tail))
	// A blank row sets the choices apart when the body fits with it; a
	// scrolling body gets the row instead.
	if len(body) > 0 && len(body) < avail {
		tail = append([]string{""}, tail...)
		avail--
	}
	shown, top, page := frame.Scroll(d.th, body, d.scroll, avail)
	d.scroll, d.page = top, page
	rows := append(append(head, shown...), tail...)
	if len(rows) > height-2 && len(head) > 0 {
		rows = rows[1:]
	}
	return frame.Join(frame.Box(d.th, title, rows, width, height), width, height)
}

// Height is how many rows the dialog takes at width when nothing of it
// has to scroll, so its caller can make room for it.
func (d *Dialog) Height(width int) int {
	inner := max(1, width-4)
	n := 2 + len(d.headRows(inner)) + len(d.tailRows(inner, false))
	if body := len(d.body(inner)); body > 0 {
		n += body + 1
	}
	return n
}

// headRows say what the call is and why it asks: the summary when no card
// names the call, and what it wants beyond the sandbox.
func (d *Dialog) headRows(inner int) []string {
	var head []string
	if s := textfmt.RevealLine(d.a.Summary); s != "" && d.a.Card == nil {
		head = append(head, d.th.Bold.Render(s))
	}
	if w := textfmt.RevealLine(d.a.Why); w != "" {
		style := d.th.Warning
		if d.a.Confined {
			style = d.th.Dim
		}
		// The model's reason follows what the call wants: wrapped, so that
		// a narrow window still shows it, up to maxWhyRows.
		rows := frame.Wrap(w, inner)
		if len(rows) > maxWhyRows {
			rows = rows[:maxWhyRows]
			rows[maxWhyRows-1] = ansi.Truncate(rows[maxWhyRows-1]+"…", inner, "…")
		}
		for _, r := range rows {
			head = append(head, style.Render(r))
		}
	}
	return head
}

// maxWhyRows bounds the rows of what a call wants and why.
const maxWhyRows = 4

// tailRows are the choices, the reason field while denying, and the hint;
// tight when the dialog lacks the rows to show all of its body.
func (d *Dialog) tailRows(inner int, tight bool) []string {
	tail := d.choiceRows(inner, tight)
	if d.denying {
		label := "Reason (optional): "
		tail = append(tail, d.th.Accent.Render(label)+d.reason.View(d.th, inner-len(label), "why not, for the model"))
	}
	return append(tail, d.th.Dim.Render(d.hint(inner, false)))
}

// body is the tool card when the approval brings one, else the details
// text, rendered once per width.
func (d *Dialog) body(width int) []string {
	if d.rendered == nil || d.renderedWidth != width {
		d.rendered, d.renderedWidth = d.renderBody(width), width
	}
	return d.rendered
}

func (d *Dialog) renderBody(width int) []string {
	if c := d.a.Card; c != nil && c.Kind == card.Terminal && c.Terminal != nil {
		return d.command(*c, width)
	}
	if d.a.Card != nil {
		return cards.Render(cards.Tool{Name: d.a.Tool, Call: revealCard(*d.a.Card)}, width, cards.Expanded, d.th)
	}
	if d.a.Details == "" || d.a.Details == d.a.Summary {
		return []string{}
	}
	return frame.Wrap(textfmt.Reveal(d.a.Details), width)
}

// command is a command card in full, as the user must read it to decide:
// the command behind "$ ", wrapped and never cut short as a card's
// one-line header would be, then the model's description and the working directory, faint.
func (d *Dialog) command(c card.Card, width int) []string {
	var rows []string
	// Cut at the width, not at spaces or hyphens: "sort -" above "V" would
	// read as another command.
	wrapped := ansi.Hardwrap(textfmt.Reveal(c.Terminal.Command), max(1, width-2), true)
	for i, line := range strings.Split(wrapped, "\n") {
		lead := "  "
		if i == 0 {
			lead = "$ "
		}
		rows = append(rows, d.th.Bold.Render(lead+line))
	}
	for _, extra := range []string{c.Description, inDir(c.Terminal.Cwd)} {
		for _, line := range frame.Wrap(textfmt.Reveal(extra), width) {
			if extra != "" {
				rows = append(rows, d.th.Dim.Render(line))
			}
		}
	}
	return rows
}

// revealCard is c with the text a person decides on revealed: a diff or
// file body that reads one way and means another (Trojan Source's bidi
// overrides) shows its invisible characters escaped.
func revealCard(c card.Card) card.Card {
	c.Subject, c.Description, c.Body = textfmt.RevealLine(c.Subject), textfmt.RevealLine(c.Description), textfmt.Reveal(c.Body)
	diffs := make([]card.FileDiff, len(c.Diffs))
	for i, fd := range c.Diffs {
		fd.Path = textfmt.RevealLine(fd.Path)
		lines := make([]card.DiffLine, len(fd.Lines))
		for j, l := range fd.Lines {
			l.Text = textfmt.RevealLine(l.Text)
			lines[j] = l
		}
		fd.Lines = lines
		diffs[i] = fd
	}
	c.Diffs = diffs
	return c
}

func inDir(cwd string) string {
	if cwd == "" {
		return ""
	}
	return "in " + cwd
}

// choiceRows lays the choices out on one row when they fit, first with
// their full labels, then the short ones, then (tight, when rows are
// scarce) the tiny ones; else one per row with the full labels. The
// highlighted choice is in reverse video.
func (d *Dialog) choiceRows(width int, tight bool) []string {
	forms := make([][]string, 3)
	for _, c := range d.choices {
		labels := d.labels(c)
		for i := range forms {
			forms[i] = append(forms[i], labels[i])
		}
	}
	cells := func(labels []string) (cells []string, oneRow int) {
		for i, l := range labels {
			cell := " " + l + " "
			oneRow += ansi.StringWidth(cell) + 2
			if i == d.choice {
				cell = d.th.Mark(cell)
			}
			cells = append(cells, cell)
		}
		return cells, oneRow - 2
	}
	if !tight {
		forms = forms[:2]
	}
	for _, labels := range forms {
		if c, w := cells(labels); w <= width {
			return []string{strings.Join(c, "  ")}
		}
	}
	c, _ := cells(forms[0])
	return c
}

// labels are the full, the short and the tiny label of a choice.
func (d *Dialog) labels(v interact.Verdict) [3]string {
	switch v {
	case interact.Allow:
		return [3]string{"Allow once", "Allow once", "Once"}
	case interact.AllowSession:
		what := "(" + textfmt.RevealLine(d.a.Remember) + ")"
		return [3]string{"Allow for this session " + what, "This session " + what, "Session"}
	}
	return [3]string{"Deny", "Deny", "Deny"}
}

// hint names the keys, in the longest form that fits: the session choice
// only when the dialog offers it, scrolling only when the body scrolls.
func (d *Dialog) hint(width int, scrolls bool) string {
	if d.denying {
		return frame.Hint(width, "Enter deny • Esc back", "↵ deny Esc back")
	}
	full, short, tiny := []string{"y allow"}, []string{"y allow"}, []string{"y"}
	if len(d.choices) == 3 {
		full, short, tiny = append(full, "a session"), append(short, "a session"), append(tiny, "a")
	}
	full = append(full, "n deny", "Tab choose", "Enter confirm")
	short = append(short, "n deny", "Tab/↵ choose")
	tiny = append(tiny, "n", "Tab", "↵")
	if scrolls {
		full, short, tiny = append(full, "↑/↓ PgUp/PgDn scroll"), append(short, "↑↓ scroll"), append(tiny, "↑↓")
	}
	return frame.Hint(width, strings.Join(append(full, "Esc deny"), " • "), strings.Join(short, " • "),
		strings.Join(append(tiny, "Esc"), " "))
}
