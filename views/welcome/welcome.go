// Package welcome draws the first screen's line under the banner: where the
// session runs, which model, which permission mode, and the four keys that
// open everything else.
package welcome

import (
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/views/textfmt"
	"github.com/tack-agent/tack/views/theme"
)

// Keys names the keys a newcomer needs first, in the order they are tried.
const Keys = "? shortcuts · / commands · @ files · ! shell"

// Facts are what the line says about the session; an empty one is left out.
type Facts struct {
	Cwd, Home string
	Model     string
	// Mode is the permission mode's name (read-only, ask, auto,
	// full-access, plan).
	Mode string
	// Sandbox is what confines commands in that mode, as the status row
	// says it ("sandboxed", "no sandbox").
	Sandbox string
}

// Line is `~/proj · model · auto mode (sandboxed) · ? shortcuts · / commands
// · @ files · ! shell`, dim, at most width columns. The keys matter most to a newcomer
// and the status row repeats the directory and the model, so where room is
// short the directory goes first, then the model, then the mode, then the
// keys from the last, each whole.
func Line(f Facts, width int, th theme.Theme) string {
	var facts []string
	if f.Cwd != "" {
		facts = append(facts, textfmt.SanitizeLine(textfmt.HomeRel(f.Cwd, f.Home)))
	}
	if f.Model != "" {
		facts = append(facts, textfmt.SanitizeLine(f.Model))
	}
	if f.Mode != "" {
		mode := textfmt.SanitizeLine(f.Mode) + " mode"
		if f.Sandbox != "" {
			mode += " (" + textfmt.SanitizeLine(f.Sandbox) + ")"
		}
		facts = append(facts, mode)
	}
	parts := append(facts, strings.Split(Keys, " · ")...)
	keys := len(parts) - len(facts)
	for {
		text := strings.Join(parts, " · ")
		if ansi.StringWidth(text) <= width || len(parts) == 1 {
			return th.Dim.Render(ansi.Truncate(text, max(width, 0), "…"))
		}
		if len(parts) > keys {
			parts = parts[1:]
			continue
		}
		// Out of facts to drop, the last keys go whole, not cut to "! …".
		parts = parts[:len(parts)-1]
	}
}
