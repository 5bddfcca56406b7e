package session

import "github.com/tack-agent/tack/backend/llm"

// A subagent runs in a session of its own, a child: its header names the
// parent session (Header.Parent), and the parent's log names the child in
// a task/start event where the task tool call ran, and adds each of the
// child's model steps to its usage with task/usage.

type (
	// TaskStart links a task tool call to the child session running it.
	TaskStart struct {
		Turn        int    `json:"turn"`
		CallID      string `json:"call_id"`
		Child       string `json:"child"`
		Agent       string `json:"agent"`
		Description string `json:"description"`
	}
	// TaskUsage is one model step of a child, counted in the parent's
	// totals and priced at the child's model.
	TaskUsage struct {
		CallID string    `json:"call_id"`
		Child  string    `json:"child"`
		Model  string    `json:"model"`
		Usage  llm.Usage `json:"usage"`
		// Cost is what the step cost in USD at the child's model, 0 when
		// the catalog has no price for it.
		Cost float64 `json:"cost,omitempty"`
	}
)

// SideUsage is the usage of a request the session made beside its steps:
// a title, a compaction summary, a prompt hook's judgement. It counts in
// the session's totals and cost, not in its context.
type SideUsage struct {
	// Purpose says what the request was for (llm.Purpose: "title",
	// "compaction", "hook").
	Purpose llm.Purpose `json:"purpose"`
	Model   string      `json:"model"`
	Usage   llm.Usage   `json:"usage"`
	// Cost is what the request cost in USD at Model, 0 when the catalog
	// has no price for it.
	Cost float64 `json:"cost,omitempty"`
}

func (TaskStart) EventType() string { return "task/start" }
func (TaskUsage) EventType() string { return "task/usage" }
func (SideUsage) EventType() string { return "usage/side" }
