package linemode

import (
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/commands"
)

// Texts for command actions line mode performs differently from the
// full-screen interface.
const (
	switchSessionText = "Line mode cannot switch sessions: exit, then run tack --resume "
	newSessionText    = "Line mode cannot start another session: exit, then run tack again."
	noClipboardText   = "Nothing copied: without a terminal line mode cannot reach the clipboard."
	noViewText        = "Nothing cleared: without a terminal line mode has no view to clear; the session history is unchanged."
	detailsUsageText  = "Usage: /details [collapsed|expanded|hidden] [reasoning [on|off]]"
)

// binding is one line of line mode's key list. A terminal binding works
// only at a terminal (line editing, Ctrl+C read as a key); a piped one only
// when stdin is not a terminal.
type binding struct {
	keys, action string
	terminal     bool
	piped        bool
}

// bindings are line mode's keys and inputs, the one list /help shows.
func bindings() []binding {
	return []binding{
		{keys: "Enter", action: "send the line; while a turn runs, steer it into the turn"},
		{keys: "/name", action: "run a slash command; lines starting with / never reach the model (start with a space to send one)"},
		{keys: "!command", action: "run a shell command at once; it and its output become context for the model"},
		{keys: "1 2 3", action: "answer a question by number (Enter alone: the recommended option), or type an answer"},
		{keys: "y a n", action: "answer an approval: yes, always for this session, no (a reason may follow n)"},
		{keys: "Ctrl+C", action: "cancel the running turn; again, or at an idle prompt, exit", terminal: true},
		{keys: "Ctrl+D", action: "exit at an empty prompt, once the running turn has ended", terminal: true},
		{keys: "Up/Down", action: "input history; Ctrl+R searches it", terminal: true},
		{keys: "EOF", action: "the end of input, or /exit, exits once the submitted work has run", piped: true},
	}
}

// HelpKeys is the key list /help shows in line mode: the keys of a
// terminal when terminal is set, else those of piped input.
func HelpKeys(terminal bool) string {
	var rows []binding
	width := 0
	for _, b := range bindings() {
		if (b.terminal && !terminal) || (b.piped && terminal) {
			continue
		}
		rows = append(rows, b)
		width = max(width, len(b.keys))
	}
	var out strings.Builder
	for i, b := range rows {
		if i > 0 {
			out.WriteByte('\n')
		}
		fmt.Fprintf(&out, "%-*s  %s", width, b.keys, b.action)
	}
	return out.String()
}

// commandSettled shows the result of the command that ran and performs
// its action. A line that names no command is rejected, never sent to the
// model.
func (d *door) commandSettled(res commandResult) (int, bool) {
	atPrompt := d.cmd.atPrompt
	d.cmd.cancel()
	d.cmd = nil
	if !d.busy {
		d.interrupted = false
	}
	if !res.found {
		var known []commands.Command
		if d.reg != nil && d.s != nil {
			known = d.reg.List(d.s.Agent.SessionID())
		}
		d.r.Notice(commands.UnknownMessage(strings.TrimSpace(res.line), known), atPrompt)
		return 0, false
	}
	if run := res.shell; run != nil {
		d.r.Notice("$ "+shellCommand(res.line)+"\n"+strings.TrimRight(run.Output, "\n"), atPrompt)
		return 0, false
	}
	out := res.exec.Result.Text
	switch act := res.exec.Result.Action.(type) {
	case commands.ActionExit:
		if !d.terminal {
			// a script that ends in /exit wants its work done first
			d.leaving = true
			d.queue = nil
			return 0, false
		}
		return d.shutdown(0), true
	case commands.ActionHelp:
		out = act.Text
	case commands.ActionResume:
		if d.o.Reopen != nil {
			return d.switchTo(act.ID)
		}
		out = switchSessionText + act.ID
	case commands.ActionNewSession:
		if d.o.Reopen != nil {
			return d.switchTo("")
		}
		out = newSessionText
	case commands.ActionClear:
		out = d.clear(out)
	case commands.ActionCopy:
		out = d.copy(act.Text, res.exec.Result.Text)
	case commands.ActionDetails:
		d.r.applyDetails(act)
	case commands.ActionOpenDetails:
		if out == "" {
			out = detailsUsageText
		}
	case commands.ActionRewound:
		if act.Prompt != "" {
			out += "\nThe prompt of that turn, to edit and send again:\n  " + strings.ReplaceAll(act.Prompt, "\n", "\n  ")
		}
	}
	for _, c := range res.exec.Result.Cards {
		out += "\n" + strings.Join(cardLines(c, ""), "\n")
	}
	if out != "" {
		d.r.Notice(out, atPrompt)
	}
	return 0, false
}

// clear clears a terminal screen and its scrollback; piped output has no
// view to clear.
func (d *door) clear(done string) string {
	if !d.terminal {
		return noViewText
	}
	d.r.Write("\x1b[H\x1b[2J\x1b[3J")
	return done
}

// copy puts text on the terminal's clipboard with OSC 52; without a
// terminal there is no clipboard to reach.
func (d *door) copy(text, done string) string {
	if !d.terminal {
		return noClipboardText
	}
	d.r.Write("\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07")
	return done
}

// applyDetails shows or hides reasoning and tool lines as /details asks.
func (r *Renderer) applyDetails(a commands.ActionDetails) {
	r.HideReasoning = !a.ShowReasoning(!r.HideReasoning)
	switch a.Cards {
	case commands.CardsHidden:
		r.HideTools = true
	case commands.CardsCollapsed, commands.CardsExpanded:
		r.HideTools = false
	}
}
