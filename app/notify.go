package app

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	tty "github.com/tack-agent/tack/app/screen"
	"github.com/tack-agent/tack/views/textfmt"
)

// Notify is how the end of a turn is announced while the terminal is not
// focused: the terminal bell, an OSC 9 desktop notification (iTerm2,
// WezTerm, kitty, Windows Terminal, foot), or not at all.
type Notify string

const (
	NotifyBell Notify = "bell"
	NotifyOSC9 Notify = "osc9"
	NotifyOff  Notify = "off"
)

// ParseNotify reads the `notify` setting; empty is the bell.
func ParseNotify(s string) (Notify, error) {
	switch n := Notify(s); n {
	case "":
		return NotifyBell, nil
	case NotifyBell, NotifyOSC9, NotifyOff:
		return n, nil
	}
	return "", fmt.Errorf("notify = %q: want bell, osc9 or off", s)
}

// focus follows the terminal's focus reports. A terminal that sends none
// counts as focused, so it is never rung at.
type focus struct{ away bool }

// turnEnded is the notice for a turn that just stopped, when the user is
// looking elsewhere; nil otherwise.
func (m *Model) turnEnded(title string) tea.Cmd {
	if !m.focus.away {
		return nil
	}
	switch m.opts.Notify {
	case NotifyOff:
		return nil
	case NotifyOSC9:
		text := "tack: the turn has ended"
		if t := textfmt.SanitizeLine(title); t != "" {
			text = "tack: " + t + " — done"
		}
		return tty.Send("\x1b]9;" + text + "\x07")
	}
	return tty.Send("\a")
}
