// Package permission decides whether a tool call may run and in which
// sandbox: the session's permission mode, what the user allowed for the
// rest of the session, and, when neither settles it, an approval request
// through interact. The sandbox (backend/sandbox) is what keeps commands
// safe; a question to the user is about leaving it.
package permission

import (
	"fmt"
	"strings"
)

// Mode is how much a session may do without asking.
type Mode string

const (
	// ReadOnly runs commands in a sandbox that writes nothing and refuses
	// edits.
	ReadOnly Mode = "read-only"
	// Ask runs commands in the sandbox, and asks before every command and
	// edit.
	Ask Mode = "ask"
	// Auto, the default, runs commands in the sandbox and edits inside the
	// workspace without asking; anything that leaves them asks.
	Auto Mode = "auto"
	// FullAccess runs everything without a sandbox and without asking.
	FullAccess Mode = "full-access"
)

// DefaultMode is the mode of a session nobody chose one for.
const DefaultMode = Auto

// PlanLabel is how plan mode is named where a mode is shown.
const PlanLabel = "plan"

// aliases are other names accepted for the modes: auto-edit, from config
// files and scripts written before the modes were founded on the sandbox,
// and Claude Code's --permission-mode names, so `claude -p` scripts run
// unchanged (acceptEdits runs workspace edits unasked, as auto does).
var aliases = map[string]Mode{
	"auto-edit":         Auto,
	"default":           Ask,
	"acceptEdits":       Auto,
	"bypassPermissions": FullAccess,
}

// claudeNames are the modes as Claude Code names them: its aliases, and
// for read-only dontAsk, its mode that asks nothing and refuses what no
// rule allows. dontAsk is not read back as read-only: Claude Code's runs
// the edits its rules allow, which read-only refuses.
var claudeNames = map[Mode]string{Ask: "default", Auto: "acceptEdits", FullAccess: "bypassPermissions", ReadOnly: "dontAsk"}

// Modes lists every mode, from most to least restricted.
func Modes() []Mode { return []Mode{ReadOnly, Ask, Auto, FullAccess} }

// ParseMode reads a mode name as the user types it (--permission-mode,
// /permissions, config.toml).
func ParseMode(s string) (Mode, error) {
	s = strings.TrimSpace(s)
	for _, m := range Modes() {
		if string(m) == s {
			return m, nil
		}
	}
	if m, ok := aliases[s]; ok {
		return m, nil
	}
	return "", fmt.Errorf("unknown permission mode %q: use one of %s", s, ModeNames())
}

// ModeNames lists the modes' names for messages.
func ModeNames() string {
	names := make([]string, 0, 4)
	for _, m := range Modes() {
		names = append(names, string(m))
	}
	return strings.Join(names, ", ")
}

// Summary says in a few words what the mode allows, for status lines and
// the /permissions command.
func (m Mode) Summary() string {
	switch m {
	case ReadOnly:
		return "commands run in a sandbox that writes nothing; edits are refused"
	case Ask:
		return "commands run in the sandbox; every command and edit asks first"
	case Auto:
		return "commands run in the sandbox and workspace edits run; leaving them asks"
	case FullAccess:
		return "no sandbox: everything runs without asking"
	}
	return "unknown mode"
}

// Warning is the line shown when a session enters m, or "" when m needs
// none.
func (m Mode) Warning() string {
	if m == FullAccess {
		return "Warning: full-access runs every command without the sandbox and never asks; " +
			"anything the model runs can change or read anything you can."
	}
	return ""
}

// Cycle is the step Shift+Tab takes: auto, plan (over auto), read-only,
// ask, auto. It never reaches full-access, which only the flag, the config
// file or /permissions select; from full-access it steps back to auto.
// Entering plan mode keeps the mode underneath, so /plan off returns to it.
func Cycle(mode Mode, plan bool) (Mode, bool) {
	switch {
	case plan:
		return ReadOnly, false
	case mode == ReadOnly:
		return Ask, false
	case mode == Ask || mode == FullAccess:
		return Auto, false
	}
	return Auto, true
}
