package linemode

import (
	"context"
	"encoding/base64"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
)

// Texts for command actions line mode performs differently from the
// full-screen interface.
const (
	switchSessionText = "Line mode cannot switch sessions: exit, then run tack --resume "
	newSessionText    = "Line mode cannot start another session: exit, then run tack again."
	noClipboardText   = "Nothing copied: without a terminal line mode cannot reach the clipboard."
	detailsUsageText  = "Usage: /details [collapsed|expanded|hidden] [reasoning [on|off]]"
)

// HelpKeys is the key list /help shows in line mode.
func HelpKeys(terminal bool) string {
	keys := "Enter   send the line; while a turn runs, steer it into the turn\n" +
		"/name   run a slash command; lines starting with / never reach the model"
	if terminal {
		keys += "\nCtrl+C  cancel the running turn; again, or while idle, exit\n" +
			"Ctrl+D  exit at an empty prompt (after the running turn)\n" +
			"Up/Down input history"
	}
	return keys
}

// command runs a slash command through the registry and shows its result.
// Lines that name no command are rejected, never sent to the model.
func (d *door) command(ctx context.Context, text string) (int, bool) {
	atPrompt := d.s.Agent.Status() != agent.StatusRunning
	exec, ok := d.reg.Execute(ctx, d.s.Agent, text, nil)
	if !ok {
		d.r.Notice(commands.UnknownMessage(text), atPrompt)
		return 0, false
	}
	res := exec.Result
	out := res.Text
	switch act := res.Action.(type) {
	case commands.ActionExit:
		return d.shutdown(0), true
	case commands.ActionHelp:
		out = act.Text
	case commands.ActionResume:
		out = switchSessionText + act.ID
	case commands.ActionNewSession:
		out = newSessionText
	case commands.ActionCopy:
		out = d.copy(act.Text, res.Text)
	case commands.ActionDetails:
		d.r.applyDetails(act)
	case commands.ActionOpenDetails:
		if out == "" {
			out = detailsUsageText
		}
	}
	if out != "" {
		d.r.Notice(out, atPrompt)
	}
	return 0, false
}

// copy puts text on the terminal's clipboard with OSC 52; without a
// terminal there is no clipboard to reach.
func (d *door) copy(text, done string) string {
	if !d.o.Terminal {
		return noClipboardText
	}
	d.r.Write("\x1b]52;c;" + base64.StdEncoding.EncodeToString([]byte(text)) + "\x07")
	return done
}

// applyDetails shows or hides reasoning and tool lines as /details asks.
func (r *Renderer) applyDetails(a commands.ActionDetails) {
	switch a.Reasoning {
	case commands.ReasoningOn:
		r.HideReasoning = false
	case commands.ReasoningOff:
		r.HideReasoning = true
	case commands.ReasoningToggle:
		r.HideReasoning = !r.HideReasoning
	}
	switch a.Cards {
	case commands.CardsHidden:
		r.HideTools = true
	case commands.CardsCollapsed, commands.CardsExpanded:
		r.HideTools = false
	}
}
