// Package session is the durable record of one conversation: an append-only
// JSONL log of typed events, its crash repair and lock, and the pure
// projections (surface, transcript, todos, usage, title) folded from it.
package session

import (
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// Event is one line of the log after the header.
type Event struct {
	Type string
	Seq  int64
	Time time.Time
	Data Data
}

// Data is the typed payload of an Event.
type Data interface {
	// EventType is the wire name, e.g. "turn/start".
	EventType() string
}

// Header is the first line of a log.
type Header struct {
	Version int       `json:"version"`
	ID      string    `json:"id"`
	Created time.Time `json:"created"`
	Cwd     string    `json:"cwd"`
	Model   string    `json:"model"`
	// Parent is the session whose task tool started this one, and Agent
	// the agent definition it runs; both empty for a user's session.
	Parent string `json:"parent,omitempty"`
	Agent  string `json:"agent,omitempty"`
	// Branch is the git branch checked out in Cwd when the session was
	// created, "" outside a repository: the session picker shows it.
	Branch string `json:"branch,omitempty"`
	// ForkedFrom is the session this one is a copy of (--fork-session).
	ForkedFrom string `json:"forked_from,omitempty"`
}

// Span is an inclusive range of event sequence numbers.
type Span struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// MessageKind distinguishes what a user/message carries.
type MessageKind string

const (
	KindPrompt MessageKind = "prompt" // typed by the user
	// KindContext is model-visible context that no one typed: background
	// task notices, instructions, shell passthrough output.
	KindContext MessageKind = "context"
	// KindSummary is a compaction checkpoint; it always replaces a Span.
	KindSummary MessageKind = "summary"
)

// StopReason says why a turn ended.
type StopReason string

const (
	StopCompleted StopReason = "completed"
	StopAborted   StopReason = "aborted"
	StopError     StopReason = "error"
	StopMaxTokens StopReason = "max-tokens"
	// StopMaxSteps ends a turn that reached its limit of model requests
	// (print mode's --max-turns) with work left to do.
	StopMaxSteps    StopReason = "max-steps"
	StopInterrupted StopReason = "interrupted" // written by crash repair only
)

// Failure describes an error that ended a turn or a step.
type Failure struct {
	Kind    string `json:"kind"`
	Message string `json:"message"`
	Status  int    `json:"status,omitempty"`
}

// Tool result codes for results the tool itself did not produce.
const (
	CodeAbortedBeforeDispatch = "ABORTED_BEFORE_DISPATCH"
	CodeOutcomeUnknown        = "TOOL_OUTCOME_UNKNOWN"
	CodeNotStarted            = "TOOL_NOT_STARTED"
	CodeDenied                = "DENIED"
	CodeInvalidArgs           = "INVALID_ARGS"
	CodeUnknownTool           = "UNKNOWN_TOOL"
)

type (
	TurnStart struct {
		Turn int `json:"turn"`
	}
	// UserMessage is model-visible input. Replace, when set, makes it a
	// surface replacement of the events in the span (compaction); such
	// messages are not part of the human transcript.
	UserMessage struct {
		Turn   int         `json:"turn"`
		Kind   MessageKind `json:"kind"`
		Text   string      `json:"text"`
		Origin string      `json:"origin,omitempty"` // who injected KindContext
		// Typed is what the user typed when a slash command made Text of
		// it ("/commit fix typo"); "" when Text is what they typed.
		Typed   string     `json:"typed,omitempty"`
		Replace *Span      `json:"replace,omitempty"`
		Images  []ImageRef `json:"images,omitempty"`
	}
	// SteeringMessage is input that joined a running turn at a step boundary.
	SteeringMessage struct {
		Turn   int        `json:"turn"`
		Text   string     `json:"text"`
		Images []ImageRef `json:"images,omitempty"`
	}
	StepStart struct {
		Turn   int        `json:"turn"`
		Step   int        `json:"step"`
		Model  string     `json:"model"`
		Effort llm.Effort `json:"effort"`
	}
	AssistantMessage struct {
		Turn      int              `json:"turn"`
		Step      int              `json:"step"`
		Text      string           `json:"text"`
		Reasoning string           `json:"reasoning,omitempty"`
		ToolCalls []llm.ToolCall   `json:"tool_calls,omitempty"`
		Usage     llm.Usage        `json:"usage"`
		Finish    llm.FinishReason `json:"finish"`
		// Notes are what the stream noted about a good answer (an unknown
		// finish reason, unusable token counts).
		Notes []string `json:"notes,omitempty"`
	}
	ToolCall struct {
		Turn      int       `json:"turn"`
		Step      int       `json:"step"`
		CallID    string    `json:"call_id"`
		Name      string    `json:"name"`
		Arguments string    `json:"arguments"`
		Card      card.Card `json:"card"`
	}
	// ToolResult answers one ToolCall. Text is exactly what the model reads.
	ToolResult struct {
		Turn    int        `json:"turn"`
		Step    int        `json:"step"`
		CallID  string     `json:"call_id"`
		Name    string     `json:"name"`
		Text    string     `json:"text"`
		IsError bool       `json:"is_error,omitempty"`
		Code    string     `json:"code,omitempty"`
		Card    *card.Card `json:"card,omitempty"`
		Replace *Span      `json:"replace,omitempty"`
		Images  []ImageRef `json:"images,omitempty"`
		// DurationMs is how long the tool ran, in milliseconds: 0 for a
		// call that never ran, and in logs written before tack timed
		// them.
		DurationMs int64 `json:"duration_ms,omitempty"`
	}
	// StepTiming splits a step's wall time, in milliseconds.
	StepTiming struct {
		ModelWait int64 `json:"model_wait"`
		Thinking  int64 `json:"thinking"`
		Response  int64 `json:"response"`
		Tools     int64 `json:"tools"`
	}
	StepEnd struct {
		Turn   int        `json:"turn"`
		Step   int        `json:"step"`
		Timing StepTiming `json:"timing"`
	}
	TurnEnd struct {
		Turn   int        `json:"turn"`
		Reason StopReason `json:"reason"`
		Error  *Failure   `json:"error,omitempty"`
	}
	TodoWrite struct {
		Turn  int             `json:"turn"`
		Todos []card.TodoItem `json:"todos"`
	}
	// Retry is written before waiting to retry a failed model request.
	Retry struct {
		Turn    int     `json:"turn"`
		Step    int     `json:"step"`
		Attempt int     `json:"attempt"`
		Max     int     `json:"max"`
		DelayMs int64   `json:"delay_ms"`
		Failure Failure `json:"failure"`
	}
	// InboxDiscard records queued or steering input dropped by a cancel.
	InboxDiscard struct {
		Texts []string `json:"texts"`
	}
	Title struct {
		Title  string `json:"title"`
		Source string `json:"source"` // TitlePrompt, TitleModel, TitleTask or TitleUser
	}
	// ModelSelect records a model or effort change for later steps.
	ModelSelect struct {
		Model  string     `json:"model"`
		Effort llm.Effort `json:"effort"`
	}
	CommandRun struct {
		ID    string `json:"id"`
		Name  string `json:"name"`
		Input string `json:"input,omitempty"`
	}
	CommandDone struct {
		ID      string `json:"id"`
		Outcome string `json:"outcome"` // "success" or "error"
		Text    string `json:"text,omitempty"`
		// Cards are shown after the text, as tool cards are (/diff).
		Cards []card.Card `json:"cards,omitempty"`
	}
	ApprovalAsked struct {
		CallID  string `json:"call_id"`
		Tool    string `json:"tool"`
		Summary string `json:"summary"`
	}
	ApprovalDecided struct {
		CallID   string `json:"call_id"`
		Tool     string `json:"tool"`
		Decision string `json:"decision"` // "allow", "allow-session", "deny"
		Reason   string `json:"reason,omitempty"`
		Remember string `json:"remember,omitempty"` // the remembered tool or command prefix
		Policy   string `json:"policy,omitempty"`   // set when decided by the permission mode, not a person
	}
	PermissionMode struct {
		Mode string `json:"mode"`
	}
	PlanMode struct {
		Active bool `json:"active"`
	}
	CompactStart struct {
		Turn int `json:"turn"`
	}
	CompactEnd struct {
		Items  int    `json:"items,omitempty"`
		Tokens int    `json:"tokens,omitempty"`
		Error  string `json:"error,omitempty"`
	}
)

// Input is what the user typed for the message: Typed where a slash
// command made Text of it, else Text.
func (m UserMessage) Input() string {
	if m.Typed != "" {
		return m.Typed
	}
	return m.Text
}

func (TurnStart) EventType() string        { return "turn/start" }
func (UserMessage) EventType() string      { return "user/message" }
func (SteeringMessage) EventType() string  { return "steering/message" }
func (StepStart) EventType() string        { return "step/start" }
func (AssistantMessage) EventType() string { return "assistant/message" }
func (ToolCall) EventType() string         { return "tool/call" }
func (ToolResult) EventType() string       { return "tool/result" }
func (StepEnd) EventType() string          { return "step/end" }
func (TurnEnd) EventType() string          { return "turn/end" }
func (TodoWrite) EventType() string        { return "todo/write" }
func (Retry) EventType() string            { return "llm/retry" }
func (InboxDiscard) EventType() string     { return "inbox/discard" }
func (Title) EventType() string            { return "session/title" }
func (ModelSelect) EventType() string      { return "model/select" }
func (CommandRun) EventType() string       { return "command/run" }
func (CommandDone) EventType() string      { return "command/done" }
func (ApprovalAsked) EventType() string    { return "approval/asked" }
func (ApprovalDecided) EventType() string  { return "approval/decided" }
func (PermissionMode) EventType() string   { return "permission/mode" }
func (PlanMode) EventType() string         { return "plan/mode" }
func (CompactStart) EventType() string     { return "compact/start" }
func (CompactEnd) EventType() string       { return "compact/end" }

// Duration is how long the tool ran (0 where it never ran or was not
// timed).
func (r ToolResult) Duration() time.Duration { return time.Duration(r.DurationMs) * time.Millisecond }

// The sources of a Title: the first prompt, the model's summary of the
// first turn, a background task's description, or the user's /rename. A
// name the user gave is not replaced by the ones tack makes.
const (
	TitlePrompt = "prompt"
	TitleModel  = "model"
	TitleTask   = "task"
	TitleUser   = "user"
)
