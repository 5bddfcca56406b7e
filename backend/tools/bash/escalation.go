package bash

import (
	"context"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/tack-agent/tack/backend/sandbox"
	"github.com/tack-agent/tack/backend/tools"
)

// A command runs in the sandbox the permission gate granted. It leaves it
// in two ways, both through the user: the model asks up front (the
// "sandbox" argument, with a "justification"), or the command fails on a
// refusal the sandbox made and tack offers the user to run it again with
// what it lacked. A refusal nobody lets out is reported to the model with
// the way to ask, and shown on the card with the ways to allow it.

// RefusalReader reads a sandbox's refusals from a failed command's output;
// *sandbox.Sandbox is one.
type RefusalReader interface {
	Refusal(c sandbox.Confinement, workdir, output string) sandbox.Refusal
}

// Escalator asks the user to let a refused command run again outside what
// its sandbox allowed; *permission.Policy is one.
type Escalator interface {
	Escalate(ctx context.Context, t tools.Tool, call tools.Call, e tools.Escalation) (tools.Sandbox, error)
}

// parseEscalation reads the sandbox and justification arguments, and
// checks Claude Code's dangerouslyDisableSandbox, which the gate reads
// (Escalation).
func parseEscalation(m map[string]json.RawMessage) (tools.Escalation, error) {
	var e tools.Escalation
	if v, ok := m["sandbox"]; ok && !isNull(v) {
		if json.Unmarshal(v, &e.Kind) != nil || e.Kind != tools.EscalateNetwork && e.Kind != tools.EscalateOutside && e.Kind != "" {
			return e, errors.New(`invalid sandbox: expected "network" or "outside"`)
		}
	}
	if v, ok := m["justification"]; ok && !isNull(v) {
		if json.Unmarshal(v, &e.Justification) != nil {
			return e, errors.New("invalid justification: expected a string")
		}
	}
	if v, ok := m["dangerouslyDisableSandbox"]; ok && !isNull(v) {
		if json.Unmarshal(v, new(bool)) != nil {
			return e, errors.New("invalid dangerouslyDisableSandbox: expected a boolean")
		}
	}
	if e.Kind != "" && strings.TrimSpace(e.Justification) == "" {
		return e, errors.New("invalid justification: with sandbox, say in one line why the command needs it; the user reads it")
	}
	return e, nil
}

// Escalation is what a call asks for beyond the sandbox, read leniently:
// the gate asks about what the arguments say even if they are otherwise
// invalid (Run then refuses them). Claude Code's dangerouslyDisableSandbox
// asks to run outside it, with no justification of its own: the dialog
// says which argument asked, beside the command's description.
func (bashTool) Escalation(args json.RawMessage) tools.Escalation {
	var a struct {
		Sandbox       string `json:"sandbox"`
		Justification string `json:"justification"`
		Off           bool   `json:"dangerouslyDisableSandbox"`
	}
	_ = json.Unmarshal(args, &a)
	if a.Off && a.Sandbox == "" {
		return tools.Escalation{Kind: tools.EscalateOutside, Justification: "the model set dangerouslyDisableSandbox"}
	}
	return tools.Escalation{Kind: a.Sandbox, Justification: a.Justification}
}

// refusal is what the sandbox refused a finished foreground run, if it
// ran in one. A run that succeeded may still have been refused: a pipe
// hides the exit status of all but its last command.
func (ts *Tools) refusal(spec Spec, r result) sandbox.Refusal {
	if spec.Sandbox.Off || ts.opts.Sandbox == nil {
		return sandbox.Refusal{}
	}
	c := sandbox.Confinement{ReadOnly: spec.Sandbox.ReadOnly, Network: spec.Sandbox.Network}
	return ts.opts.Sandbox.Refusal(c, spec.Workdir, r.stderr.Text+"\n"+r.stdout.Text)
}

// escalation is what would get a refused command past its refusal.
func escalation(ref sandbox.Refusal) string {
	switch ref.Kind {
	case sandbox.RefusedNetwork:
		return tools.EscalateNetwork
	case sandbox.RefusedOutside:
		return tools.EscalateOutside
	}
	return ""
}

// refusalMarker is the line the model reads after a refused run: what was
// refused, and how to ask for it (or why asking is pointless).
func refusalMarker(ref sandbox.Refusal, declined error) string {
	kind := escalation(ref)
	if kind == "" {
		return "[sandbox: refused " + ref.Detail + "; this session's mode (read-only or plan) allows no writes]"
	}
	m := "[sandbox: refused " + ref.Detail + "; "
	if declined != nil {
		return m + "the user was asked to let it run again and did not: " + declined.Error() + "]"
	}
	return m + `to run it with that, call bash again with "sandbox": "` + kind + `" and a one-line "justification"; the user is asked]`
}

// cardRefusal is the card's line: what was refused, that the user did
// not let it run again when they were asked (why, in declined's words),
// and the ways to allow it; a rerun is one only when nobody was asked.
func cardRefusal(ref sandbox.Refusal, declined error) string {
	said := "The sandbox refused " + ref.Detail
	if declined != nil {
		said += "; it was not run again (" + declined.Error() + ")"
	}
	var ways []string
	if declined == nil {
		ways = append(ways, "approve a rerun")
	}
	switch ref.Kind {
	case sandbox.RefusedNetwork:
		ways = append(ways, "set [sandbox] network = true")
	case sandbox.RefusedOutside:
		if ref.Writable != "" {
			ways = append(ways, "type /add-dir "+ref.Writable+" for this session",
				"add "+strconv.Quote(ref.Writable)+" to [sandbox] writable in config.toml")
		}
	default:
		return said + " (no writes in this mode). To allow it: switch to auto (Shift+Tab or /permissions auto)."
	}
	ways = append(ways, "use full-access")
	if n := len(ways); n > 1 {
		ways[n-1] = "or " + ways[n-1]
	}
	return said + ". To allow it: " + strings.Join(ways, ", ") + "."
}

// sandboxLabel names a grant on the card, when it is not the default
// sandbox.
func sandboxLabel(g tools.Sandbox) string {
	switch {
	case g.Off:
		return "no sandbox"
	case g.ReadOnly && g.Network:
		return "read-only sandbox with network"
	case g.ReadOnly:
		return "read-only sandbox"
	case g.Network:
		return "sandbox with network"
	}
	return ""
}

// rerunNote is the line the model reads above the output of a run the
// user let out of the sandbox.
func rerunNote(ref sandbox.Refusal, g tools.Sandbox) string {
	how := "with network"
	if g.Off {
		how = "outside the sandbox"
	}
	return "[the sandbox refused " + ref.Detail + "; the user let it run again " + how + ". Output of that run:]\n"
}
