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

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/overlays/internal/field"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/cards"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Guard is how long after opening the dialog ignores keys, so that a
// keystroke meant for the editor does not decide.
const Guard = 300 * time.Millisecond

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
	opened  time.Time
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
	d := &Dialog{th: th, a: a, opened: now, choices: []interact.Verdict{interact.Allow}}
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
	switch msg.(type) {
	case tea.KeyPressMsg, tea.PasteMsg:
	default:
		return Outcome{}
	}
	if now.Sub(d.opened) < Guard {
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
	// A card names the call itself; the summary would repeat it.
	var head []string
	if s := textfmt.SanitizeLine(d.a.Summary); s != "" && d.a.Card == nil {
		head = append(head, d.th.Bold.Render(s))
	}
	// Why the call asks: what it wants beyond the sandbox, and the model's
	// reason for it.
	if w := textfmt.SanitizeLine(d.a.Why); w != "" {
		head = append(head, d.th.Warning.Render(ansi.Truncate(w, inner, "…")))
	}
	tail := d.choiceRows(inner)
	if d.denying {
		label := "Reason (optional): "
		tail = append(tail, d.th.Accent.Render(label)+d.reason.View(d.th, inner-len(label), "why not, for the model"))
	}
	tail = append(tail, d.th.Dim.Render(d.hint(inner)))
	body := d.body(inner)
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

// body is the tool card when the approval brings one, else the details
// text, rendered once per width.
func (d *Dialog) body(width int) []string {
	if d.rendered == nil || d.renderedWidth != width {
		d.rendered, d.renderedWidth = d.renderBody(width), width
	}
	return d.rendered
}

func (d *Dialog) renderBody(width int) []string {
	if d.a.Card != nil {
		return cards.Render(cards.Tool{Name: d.a.Tool, Call: *d.a.Card}, width, cards.Expanded, d.th)
	}
	if d.a.Details == "" || d.a.Details == d.a.Summary {
		return []string{}
	}
	return frame.Wrap(textfmt.Sanitize(d.a.Details), width)
}

// choiceRows lays the choices out on one row when they fit, then on one
// row with their short labels, else one per row with the full labels; the
// highlighted choice is in reverse video.
func (d *Dialog) choiceRows(width int) []string {
	full := make([]string, len(d.choices))
	short := make([]string, len(d.choices))
	for i, c := range d.choices {
		full[i], short[i] = d.label(c)
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
	for _, labels := range [][]string{full, short} {
		if c, w := cells(labels); w <= width {
			return []string{strings.Join(c, "  ")}
		}
	}
	c, _ := cells(full)
	return c
}

// label is the full and the short label of a choice.
func (d *Dialog) label(v interact.Verdict) (full, short string) {
	switch v {
	case interact.Allow:
		return "Allow once", "Allow once"
	case interact.AllowSession:
		what := "(" + textfmt.SanitizeLine(d.a.Remember) + ")"
		return "Allow for this session " + what, "This session " + what
	}
	return "Deny", "Deny"
}

func (d *Dialog) hint(width int) string {
	if d.denying {
		return frame.Hint(width, "Enter deny • Esc back", "↵ deny Esc back")
	}
	keys := "y allow • "
	if len(d.choices) == 3 {
		keys += "a session • "
	}
	return frame.Hint(width,
		keys+"n deny • Tab choose • Enter confirm • ↑/↓ PgUp/PgDn scroll • Esc deny",
		keys+"n deny • Tab • ↵ • ↑↓ scroll",
		"y a n Tab ↵ ↑↓ Esc")
}
