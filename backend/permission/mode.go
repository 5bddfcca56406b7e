// Package permission decides whether a tool call may run: the session's
// permission mode, what the user allowed for the rest of the session, and,
// when neither settles it, an approval request through interact.
package permission

import (
	"fmt"
	"strings"
)

// Mode is how much a session may do without asking.
type Mode string

const (
	// ReadOnly refuses edits and asks before running commands.
	ReadOnly Mode = "read-only"
	// Ask, the default, asks before edits and commands.
	Ask Mode = "ask"
	// AutoEdit runs edits and asks before commands.
	AutoEdit Mode = "auto-edit"
	// FullAccess runs everything without asking.
	FullAccess Mode = "full-access"
)

// PlanLabel is how plan mode is named where a mode is shown.
const PlanLabel = "plan"

// Modes lists every mode, from most to least restricted.
func Modes() []Mode { return []Mode{ReadOnly, Ask, AutoEdit, FullAccess} }

// ParseMode reads a mode name as the user types it (--permission-mode,
// /permissions).
func ParseMode(s string) (Mode, error) {
	for _, m := range Modes() {
		if string(m) == strings.TrimSpace(s) {
			return m, nil
		}
	}
	names := make([]string, 0, 4)
	for _, m := range Modes() {
		names = append(names, string(m))
	}
	return "", fmt.Errorf("unknown permission mode %q: use one of %s", s, strings.Join(names, ", "))
}

// Next is the mode after m in Modes, wrapping around; an unknown mode
// steps to Ask.
func (m Mode) Next() Mode {
	all := Modes()
	for i, x := range all {
		if x == m {
			return all[(i+1)%len(all)]
		}
	}
	return Ask
}

// Summary says in a few words what the mode allows, for status lines and
// the /permissions command.
func (m Mode) Summary() string {
	switch m {
	case ReadOnly:
		return "edits are refused; commands ask"
	case Ask:
		return "edits and commands ask"
	case AutoEdit:
		return "edits run; commands ask"
	case FullAccess:
		return "everything runs without asking"
	}
	return "unknown mode"
}

// Cycle is the step Shift+Tab takes through the modes with plan mode
// placed between full-access and read-only: ask, auto-edit, full-access,
// plan, read-only, ask. Entering plan mode keeps mode underneath, so
// leaving it with /plan off returns to full-access; the next step from plan
// mode is read-only.
func Cycle(mode Mode, plan bool) (Mode, bool) {
	switch {
	case plan:
		return ReadOnly, false
	case mode == FullAccess:
		return FullAccess, true
	}
	return mode.Next(), false
}
