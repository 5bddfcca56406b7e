package session

import (
	"cmp"
	"fmt"
	"strings"
)

// HookRun records one run of a user's hook command. It is log-only: the
// transcript shows it when the hook blocked something, failed, or had a
// message for the user.
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
	// Message is the systemMessage of its answer, shown to the user.
	Message string `json:"message,omitempty"`
	// Async says it ran in the background ("async": true): a block it
	// answered came after the action it was about, and blocked nothing.
	Async bool `json:"async,omitempty"`
}

func (HookRun) EventType() string { return "hook/run" }

// Notice is the transcript's line for a run that blocked something,
// failed or had a message for the user, or "" for one that did none of
// these, which the transcript leaves out.
func (d HookRun) Notice() string {
	what := d.Event
	if d.Tool != "" || d.Source != "" {
		what += " " + cmp.Or(d.Tool, d.Source)
	}
	var lines []string
	switch {
	case d.Outcome == "blocked" && d.Async:
		lines = append(lines, fmt.Sprintf("Hook %s (%s) answered in the background, too late to block anything: %s", what, d.Command, d.Reason))
	case d.Outcome == "blocked":
		lines = append(lines, fmt.Sprintf("Hook %s (%s) blocked: %s", what, d.Command, d.Reason))
	case d.Outcome == "failed":
		where := ""
		if d.Origin != "" {
			where = " — " + d.Origin
		}
		lines = append(lines, fmt.Sprintf("Hook %s (%s) failed: %s%s", what, d.Command, d.Reason, where))
	}
	if strings.TrimSpace(d.Message) != "" {
		lines = append(lines, fmt.Sprintf("Hook %s (%s) says: %s", what, d.Command, strings.TrimSpace(d.Message)))
	}
	return strings.Join(lines, "\n")
}
