package linemode

import (
	"cmp"

	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// hookMessage is a system line of stream-json about a hook run, as claude
// -p writes them: hook_started, then hook_response with what the hook
// printed and how it ended. claude writes them for SessionStart hooks
// always, and for every hook with --include-hook-events.
type hookMessage struct {
	Type      string `json:"type"`    // "system"
	Subtype   string `json:"subtype"` // "hook_started" or "hook_response"
	HookID    string `json:"hook_id"`
	HookName  string `json:"hook_name"`  // "PreToolUse:Bash", "SessionStart:startup"
	HookEvent string `json:"hook_event"` // "PreToolUse"
	// The response's fields; absent from hook_started.
	Output    *string `json:"output,omitempty"`
	Stdout    *string `json:"stdout,omitempty"`
	Stderr    *string `json:"stderr,omitempty"`
	ExitCode  *int    `json:"exit_code,omitempty"`
	Outcome   string  `json:"outcome,omitempty"` // "success", "error" or "cancelled"
	UUID      string  `json:"uuid"`
	SessionID string  `json:"session_id"`
}

// hookMessages are the two lines of a hook run. The run is logged once it
// has ended, so both are written then.
func hookMessages(d session.HookRun, sessionID string) [2]hookMessage {
	event := hooks.ClaudeName(d.Event)
	name := event
	if d.Tool != "" || d.Source != "" {
		name += ":" + cmp.Or(tools.ClaudeName(d.Tool), d.Source)
	}
	started := hookMessage{Type: "system", Subtype: "hook_started", HookID: newUUID(), HookName: name, HookEvent: event,
		UUID: newUUID(), SessionID: sessionID}
	resp := started
	resp.Subtype, resp.UUID = "hook_response", newUUID()
	stdout, stderr, code := d.Output, "", d.ExitCode
	resp.Outcome = "success"
	if d.Outcome != "ok" {
		stderr, resp.Outcome = d.Reason, "error"
		if d.Reason == "cancelled" {
			resp.Outcome = "cancelled"
		}
	}
	output := stdout + stderr
	resp.Output, resp.Stdout, resp.Stderr, resp.ExitCode = &output, &stdout, &stderr, &code
	return [2]hookMessage{started, resp}
}
