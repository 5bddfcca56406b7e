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
	body := h.body(inner)
	if cw := (inner - gutter) / 2; len(body) > avail && cw >= minColumn {
		body = twoColumns(h.body(cw), cw)
	}
	hint := h.th.Dim.Render(frame.Hint(inner, "↑/↓ PgUp/PgDn scroll • Esc close", "↑↓ Esc"))
	shown, top, page := frame.Scroll(h.th, body, h.scroll, avail)
	h.scroll, h.page = top, page
	return frame.Join(frame.Box(h.th, Title, append(shown, hint), width, height), width, height)
}

// twoColumns flows rows (each at most cw wide) into two columns of about
// equal height, the second never starting on a blank row.
func twoColumns(rows []string, cw int) []string {
	half := (len(rows) + 1) / 2
	left, right := rows[:half], rows[half:]
	if len(right) > 0 && right[0] == "" {
		right = right[1:]
	}
	out := make([]string, len(left))
	for i, l := range left {
		out[i] = l
		if i < len(right) {
			out[i] += strings.Repeat(" ", max(cw-ansi.StringWidth(l), 0)+gutter) + right[i]
		}
	}
	return out
}

func (h *Help) body(width int) []string {
	rows := []string{h.th.Label.Render("Keyboard shortcuts")}
	keyWidth := 0
	for _, b := range h.keys {
		keyWidth = max(keyWidth, len([]rune(b.Keys)))
	}
	keyWidth = min(keyWidth, width/3)
	for _, b := range h.keys {
		k := frame.Truncate(b.Keys, keyWidth)
		pad := strings.Repeat(" ", keyWidth-len([]rune(k))+2)
		for j, line := range frame.Wrap(b.Action, max(1, width-keyWidth-2)) {
			if j == 0 {
				rows = append(rows, h.th.Bold.Render(k)+pad+line)
			} else {
				rows = append(rows, strings.Repeat(" ", keyWidth+2)+line)
			}
		}
	}
	if len(h.commands) > 0 {
		rows = append(rows, "", h.th.Label.Render("Commands"))
	}
	for _, c := range h.commands {
		name := "/" + textfmt.SanitizeLine(c.Name)
		if c.Hint != "" {
			name += " " + textfmt.SanitizeLine(c.Hint)
		}
		text := name + " — " + textfmt.SanitizeLine(c.Description)
		for j, line := range frame.Wrap(text, max(1, width-2)) {
			switch {
			case j > 0:
				line = "  " + line
			case strings.HasPrefix(line, name):
				line = h.th.Code.Render(name) + line[len(name):]
			}
			rows = append(rows, line)
		}
	}
	return rows
}
