// Package help is the help overlay: the keys, then every slash command as
// "/<name> <hint> — <description>", scrollable.
package help

import (
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/overlays/complete"
	"github.com/tack-agent/tack/overlays/internal/frame"
	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Title heads the overlay.
const Title = "Help"

// Binding is one line of the keys list: the keys and what they do.
type Binding struct {
	Keys   string
	Action string
}

// Outcome is what Update reports: Closed when the overlay is done.
type Outcome struct{ Closed bool }

// Help is the help overlay. Create it with New.
type Help struct {
	th       theme.Theme
	keys     []Binding
	commands []complete.Command
	scroll   int
	page     int
}

// New builds the overlay from the key list (the front door's key table
// makes it) and the commands, each listed in the order given.
func New(keys []Binding, commands []complete.Command, th theme.Theme) *Help {
	return &Help{th: th, keys: keys, commands: commands}
}

// Update handles a key: ↑/↓ and PgUp/PgDn scroll, Esc, Enter, q, ? and
// Ctrl+C close.
func (h *Help) Update(msg tea.Msg) Outcome {
	k, _ := msg.(tea.KeyPressMsg)
	switch k.String() {
	case "esc", "enter", "q", "?", "ctrl+c":
		return Outcome{Closed: true}
	case "up":
		h.scroll--
	case "down":
		h.scroll++
	case "pgup":
		h.scroll -= max(1, h.page)
	case "pgdown", "space":
		h.scroll += max(1, h.page)
	case "home":
		h.scroll = 0
	}
	return Outcome{}
}

// Column layout: two columns when one would scroll and each can be at
// least minColumn cells wide, gutter cells apart.
const (
	minColumn = 50
	gutter    = 3
)

// View draws the overlay as a box of at most width×height, as tall as its
// text needs; it remembers the page height PgUp and PgDn step by. When the
// text would scroll in one column and the box is wide enough, it flows
// into two, so a roomy screen shows everything at once.
func (h *Help) View(width, height int) string {
	if width <= 0 || height <= 0 {
		return ""
	}
	inner := max(1, width-4)
	avail := max(0, height-3)
	body := flatten(h.entries(inner))
	if cw := (inner - gutter) / 2; len(body) > avail && cw >= minColumn {
		body = twoColumns(h.entries(cw), cw, avail)
	}
	hint := h.th.Dim.Render(frame.Hint(inner, "↑/↓ PgUp/PgDn scroll • Esc close", "↑↓ Esc"))
	shown, top, page := frame.Scroll(h.th, body, h.scroll, avail)
	h.scroll, h.page = top, page
	return frame.Join(frame.Box(h.th, Title, append(shown, hint), width, height), width, height)
}

// entry is the rows of one key or command (the first of a section with
// the section's heading): they stay together in one column.
type entry struct {
	rows []string
	// section says the entry opens a section after the first.
	section bool
}

func flatten(es []entry) []string {
	var rows []string
	for _, e := range es {
		rows = append(rows, e.rows...)
	}
	return rows
}

// twoColumns lays the entries (each row at most cw wide) out in two
// columns, never parting an entry's rows: the keys on the left and the
// commands on the right when each fits in avail rows, else flowed at the
// entry boundary nearest to half. The second column never starts on a
// blank row.
func twoColumns(es []entry, cw, avail int) []string {
	total := len(flatten(es))
	split, rows := len(es), 0
	for i, e := range es {
		if e.section && rows <= avail && total-rows-1 <= avail {
			split = i
			break
		}
		rows += len(e.rows)
	}
	if split == len(es) {
		rows = 0
		for i, e := range es {
			if rows >= (total+1)/2 {
				split = i
				break
			}
			rows += len(e.rows)
		}
	}
	left, right := flatten(es[:split]), flatten(es[split:])
	if len(right) > 0 && right[0] == "" {
		right = right[1:]
	}
	out := make([]string, max(len(left), len(right)))
	for i := range out {
		l := ""
		if i < len(left) {
			l = left[i]
		}
		out[i] = l
		if i < len(right) {
			out[i] += strings.Repeat(" ", max(cw-ansi.StringWidth(l), 0)+gutter) + right[i]
		}
	}
	return out
}

// entries are the keys under their heading, then the commands under
// theirs, each wrapped at width.
func (h *Help) entries(width int) []entry {
	heading := []string{h.th.Label.Render("Keyboard shortcuts")}
	var es []entry
	keyWidth := 0
	for _, b := range h.keys {
		keyWidth = max(keyWidth, len([]rune(b.Keys)))
	}
	keyWidth = min(keyWidth, width/3)
	for _, b := range h.keys {
		k := frame.Truncate(b.Keys, keyWidth)
		pad := strings.Repeat(" ", keyWidth-len([]rune(k))+2)
		rows := heading
		heading = nil
		for j, line := range frame.Wrap(b.Action, max(1, width-keyWidth-2)) {
			if j == 0 {
				rows = append(rows, h.th.Bold.Render(k)+pad+line)
			} else {
				rows = append(rows, strings.Repeat(" ", keyWidth+2)+line)
			}
		}
		es = append(es, entry{rows: rows})
	}
	heading = []string{"", h.th.Label.Render("Commands")}
	for _, c := range h.commands {
		name := "/" + textfmt.SanitizeLine(c.Name)
		if c.Hint != "" {
			name += " " + textfmt.SanitizeLine(c.Hint)
		}
		text := name + " — " + textfmt.SanitizeLine(c.Description)
		e := entry{rows: heading, section: heading != nil}
		heading = nil
		for j, line := range frame.Wrap(text, max(1, width-2)) {
			switch {
			case j > 0:
				line = "  " + line
			case strings.HasPrefix(line, name):
				line = h.th.Code.Render(name) + line[len(name):]
			}
			e.rows = append(e.rows, line)
		}
		es = append(es, e)
	}
	return es
}
