// Package claudemsg holds messages' parts as Claude Code writes them, in
// the Anthropic Messages API's shape: the content blocks and token usage
// that scripts written for Claude Code read in its stream-json output and
// its transcripts.
package claudemsg

import (
	"encoding/json"

	"github.com/tack-agent/tack/backend/llm"
)

// Block is one block of a message: text, thinking, tool_use or
// tool_result; only its kind's fields are set.
type Block struct {
	Type      string          `json:"type"`
	Text      *string         `json:"text,omitempty"`
	Thinking  *string         `json:"thinking,omitempty"`
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	ToolUseID string          `json:"tool_use_id,omitempty"`
	Content   *string         `json:"content,omitempty"`
	IsError   *bool           `json:"is_error,omitempty"`
}

// Text is a text block.
func Text(s string) Block { return Block{Type: "text", Text: &s} }

// Thinking is a thinking block.
func Thinking(s string) Block { return Block{Type: "thinking", Thinking: &s} }

// ToolUse is a tool_use block: the call id, the tool's name and its input
// object.
func ToolUse(id, name string, input json.RawMessage) Block {
	return Block{Type: "tool_use", ID: id, Name: name, Input: input}
}

// ToolResult is a tool_result block answering the call callID.
func ToolResult(callID, text string, isError bool) Block {
	return Block{Type: "tool_result", ToolUseID: callID, Content: &text, IsError: &isError}
}

// Usage is token usage in the Messages API's buckets: input_tokens are
// those the cache did not hold. tack writes no cache, so
// cache_creation_input_tokens is 0; its reasoning tokens, part of the
// output, are named on their own as well.
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	ReasoningOutputTokens    int `json:"reasoning_output_tokens,omitempty"`
}

// UsageOf is u in the Messages API's buckets.
func UsageOf(u llm.Usage) Usage {
	return Usage{InputTokens: u.Input, CacheReadInputTokens: u.CacheRead, OutputTokens: u.Output, ReasoningOutputTokens: u.Reasoning}
}
