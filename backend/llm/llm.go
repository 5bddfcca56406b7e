// Package llm is the model-provider seam: requests, streamed chunks, usage,
// failures and the model catalog. Providers speak the OpenAI-compatible
// chat-completions wire; DeepSeek is the default.
package llm

import (
	"context"
	"encoding/json"
)

// Role is the author of a Message.
type Role string

const (
	RoleSystem    Role = "system"
	RoleUser      Role = "user"
	RoleAssistant Role = "assistant"
	RoleTool      Role = "tool"
)

// ToolCall is one complete function call requested by the model. Arguments
// stay the raw JSON text the model produced.
type ToolCall struct {
	ID        string `json:"id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
	// Extra is what the server attached to the call for the client to
	// send back with it, opaque: Gemini's extra_content, whose thought
	// signature its models refuse a later request without.
	Extra json.RawMessage `json:"extra,omitempty"`
}

// Message is one entry of the conversation sent to the model.
type Message struct {
	Role    Role   `json:"role"`
	Content string `json:"content,omitempty"`
	// Reasoning is DeepSeek's reasoning_content. It is sent back with every
	// assistant message that had one: thinking mode rejects tool-call
	// histories without it.
	Reasoning  string     `json:"reasoning,omitempty"`
	ToolCalls  []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID string     `json:"tool_call_id,omitempty"`
	// Images go to the model with a user message, or after a run of tool
	// results as one user message.
	Images []Image `json:"images,omitempty"`
}

// ToolSpec describes a tool to the model.
type ToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// Effort is the reasoning effort of thinking mode.
type Effort string

const (
	EffortOff  Effort = "off"
	EffortLow  Effort = "low"
	EffortHigh Effort = "high"
	EffortMax  Effort = "max"
)

// Efforts lists the valid efforts, weakest first.
var Efforts = []Effort{EffortOff, EffortLow, EffortHigh, EffortMax}

// effortAliases are Claude Code's effort levels tack has no level of its
// own for.
var effortAliases = map[string]Effort{"medium": EffortHigh, "xhigh": EffortMax}

// ParseEffort validates an effort name; Claude Code's medium and xhigh
// are read as high and max.
func ParseEffort(s string) (Effort, bool) {
	for _, e := range Efforts {
		if string(e) == s {
			return e, true
		}
	}
	e, ok := effortAliases[s]
	return e, ok
}

// Purpose tags a request that is not an ordinary agent step.
type Purpose string

const (
	PurposeStep       Purpose = ""
	PurposeTitle      Purpose = "title"
	PurposeCompaction Purpose = "compaction"
	// PurposeHook is a prompt hook's question: a model judges whether
	// the hook's condition is met.
	PurposeHook Purpose = "hook"
)

// Request is one model call.
type Request struct {
	Model     string
	Effort    Effort
	MaxTokens int
	Messages  []Message
	Tools     []ToolSpec
	Purpose   Purpose
	SessionID string
}

// ChunkKind says which field of a Chunk is set.
type ChunkKind uint8

const (
	ChunkReasoning ChunkKind = iota + 1
	ChunkText
	ChunkToolCall
	ChunkUsage
	ChunkFinish
	// ChunkNote is something the user should know about an answer that is
	// still good: an unknown finish reason, unusable usage numbers.
	ChunkNote
)

// ToolCallDelta is a fragment of a tool call. Each call of a response has
// its own Index, in the order the calls began; its first fragment carries
// its ID (one the stream made up when the server sent none or repeated
// one) and Name, later fragments only Arguments text.
type ToolCallDelta struct {
	Index     int    `json:"index"`
	ID        string `json:"id,omitempty"`
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments,omitempty"`
	// Extra is the call's ToolCall.Extra, on the fragment that brought it.
	Extra json.RawMessage `json:"extra,omitempty"`
}

// Chunk is one streamed piece of a response. Usage always precedes Finish
// and nothing follows Finish. Text holds a note's text too.
type Chunk struct {
	Kind     ChunkKind      `json:"kind"`
	Text     string         `json:"text,omitempty"`
	ToolCall *ToolCallDelta `json:"tool_call,omitempty"`
	Usage    *Usage         `json:"usage,omitempty"`
	Finish   FinishReason   `json:"finish,omitempty"`
}

// FinishReason is why the model stopped.
type FinishReason string

const (
	FinishStop      FinishReason = "stop"
	FinishToolCalls FinishReason = "tool-calls"
	FinishMaxTokens FinishReason = "max-tokens"
	// FinishOther is any other provider reason (content_filter, ...); the
	// stream reports it as an error.
	FinishOther FinishReason = "other"
	// FinishCancelled marks an answer the user cut short: the text is what
	// had arrived when the turn was cancelled.
	FinishCancelled FinishReason = "cancelled"
)

// StopReason is the Anthropic Messages API's name for f (end_turn,
// tool_use, max_tokens), which scripts written for Claude Code read; any
// other reason keeps tack's name.
func (f FinishReason) StopReason() string {
	switch f {
	case FinishStop:
		return "end_turn"
	case FinishToolCalls:
		return "tool_use"
	case FinishMaxTokens:
		return "max_tokens"
	}
	return string(f)
}

// Usage is token accounting in disjoint buckets: Input is uncached prompt
// tokens, CacheRead prompt tokens served from the cache, Output completion
// tokens of which Reasoning were thinking.
type Usage struct {
	Input     int `json:"input"`
	CacheRead int `json:"cache_read"`
	Output    int `json:"output"`
	Reasoning int `json:"reasoning,omitempty"`
}

// Add returns the bucket-wise sum.
func (u Usage) Add(v Usage) Usage {
	return Usage{u.Input + v.Input, u.CacheRead + v.CacheRead, u.Output + v.Output, u.Reasoning + v.Reasoning}
}

// Prompt is the whole prompt size: uncached plus cached input.
func (u Usage) Prompt() int { return u.Input + u.CacheRead }

// Stream yields the chunks of one response. Next returns io.EOF after the
// final chunk; any other error is an *Error. Close releases the connection
// and may be called at any time.
type Stream interface {
	Next() (Chunk, error)
	Close() error
}

// Provider starts streamed model calls.
type Provider interface {
	Stream(ctx context.Context, req Request) (Stream, error)
}
