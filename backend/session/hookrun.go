package session

import (
	"cmp"
	"fmt"
)

// HookRun records one run of a user's hook command. It is log-only: the
// transcript shows it when the hook blocked something or failed.
type HookRun struct {
	Turn    int    `json:"turn,omitempty"`
	Event   string `json:"event"` // "pre_tool_use", "stop", …
	Command string `json:"command"`
	// Origin is where the hook is configured ("config.toml line 3").
	Origin string `json:"origin,omitempty"`
	Tool   string `json:"tool,omitempty"`
	// Source is why the session started or ended, for session_start
	// and session_end ("startup", "resume", "other").
	Source string `json:"source,omitempty"`
	CallID string `json:"call_id,omitempty"`
	// Outcome is "ok", "blocked" or "failed".
	Outcome    string `json:"outcome"`
	ExitCode   int    `json:"exit_code"`
	DurationMs int64  `json:"duration_ms"`
	// Reason is why it blocked or failed.
	Reason string `json:"reason,omitempty"`
	// Output is what it printed on stdout, when that was not a JSON
	// answer.
	Output string `json:"output,omitempty"`
}

func (HookRun) EventType() string { return "hook/run" }

// Notice is the transcript's line for a run that blocked something or
// failed, or "" for one that did neither, which the transcript leaves out.
func (d HookRun) Notice() string {
	what := d.Event
	if d.Tool != "" || d.Source != "" {
		what += " " + cmp.Or(d.Tool, d.Source)
	}
	switch d.Outcome {
	case "blocked":
		return fmt.Sprintf("Hook %s (%s) blocked: %s", what, d.Command, d.Reason)
	case "failed":
		where := ""
		if d.Origin != "" {
			where = " — " + d.Origin
		}
		return fmt.Sprintf("Hook %s (%s) failed: %s%s", what, d.Command, d.Reason, where)
	}
	return ""
}
