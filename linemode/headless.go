package linemode

import (
	"crypto/rand"
	"encoding/json"
	"fmt"
	"io"

	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/tools"
)

// The messages of --output-format stream-json, in the shape scripts and
// SDKs written for `claude -p --output-format stream-json` read: one JSON
// object per line, a system/init line first, then assistant and user
// messages whose content blocks are text, thinking, tool_use and
// tool_result, stream_event lines with --include-partial-messages, and a
// result line after every turn. Fields tack has no value for are left out
// rather than invented.

// initMessage is the first line: what the session runs with.
type initMessage struct {
	Type           string      `json:"type"`    // "system"
	Subtype        string      `json:"subtype"` // "init"
	CWD            string      `json:"cwd"`
	SessionID      string      `json:"session_id"`
	Tools          []string    `json:"tools"`
	MCPServers     []mcpServer `json:"mcp_servers"`
	Model          string      `json:"model"`
	PermissionMode string      `json:"permissionMode"`
	SlashCommands  []string    `json:"slash_commands"`
	OutputStyle    string      `json:"output_style"`
	Skills         []string    `json:"skills"`
	Plugins        []plugin    `json:"plugins"`
	Agents         []string    `json:"agents"`
	TackVersion    string      `json:"tack_version,omitempty"`
	UUID           string      `json:"uuid"`
}

// plugin is a Claude Code plugin the session loaded.
type plugin struct {
	Name string `json:"name"`
	Path string `json:"path"`
}

type mcpServer struct {
	Name   string `json:"name"`
	Status string `json:"status"` // "connected", "failed", "pending" or "disabled"
	Error  string `json:"error,omitempty"`
}

// chatMessage is an assistant or user line. As claude -p writes them, a
// reply takes one assistant line for each of its content blocks, all with
// the reply's id and usage, so a script reading .message.content[0] finds
// each text, thinking and tool_use block in turn.
type chatMessage struct {
	Type            string     `json:"type"` // "assistant" or "user"
	Message         apiMessage `json:"message"`
	ParentToolUseID *string    `json:"parent_tool_use_id"`
	SessionID       string     `json:"session_id"`
	UUID            string     `json:"uuid"`
	// ToolUseResult is a tool result's answer in Claude Code's shape
	// (claudemsg.ToolUseResult), on a user line that carries one.
	ToolUseResult any `json:"tool_use_result,omitempty"`
}

// apiMessage is the message inside a chat line, as the Messages API
// shapes it.
type apiMessage struct {
	ID      string            `json:"id,omitempty"`
	Type    string            `json:"type,omitempty"` // "message" for the assistant
	Role    string            `json:"role"`
	Model   string            `json:"model,omitempty"`
	Content []claudemsg.Block `json:"content"`
	// StopReason is the reply's on its last block's line, null on the
	// lines of the blocks before it, absent on a user message.
	StopReason json.RawMessage `json:"stop_reason,omitempty"`
	// StopSequence is null on an assistant message (tack sends no stop
	// sequences), absent on a user one.
	StopSequence json.RawMessage  `json:"stop_sequence,omitempty"`
	Usage        *claudemsg.Usage `json:"usage,omitempty"`
}

// toolInput is a call's arguments as JSON: the object the model wrote as
// Claude Code shows it (tools.ClaudeInput: a path relative to cwd made
// absolute, as Claude Code's models send it and programs open it), or the
// raw text as a string when it is not valid JSON.
func toolInput(args, cwd string) json.RawMessage {
	if json.Valid([]byte(args)) {
		return tools.ClaudeInput(json.RawMessage(args), cwd)
	}
	b, _ := json.Marshal(args)
	return b
}

// streamEvent is a --include-partial-messages line: one event of the
// Messages API's stream.
type streamEvent struct {
	Type            string  `json:"type"` // "stream_event"
	Event           any     `json:"event"`
	ParentToolUseID *string `json:"parent_tool_use_id"`
	SessionID       string  `json:"session_id"`
	UUID            string  `json:"uuid"`
}

// Result subtypes.
const (
	subtypeSuccess  = "success"
	subtypeMaxTurns = "error_max_turns"
	subtypeFailed   = "error_during_execution"
	// subtypeStructuredRetries is claude -p's subtype for a run with
	// --json-schema that never got a structured answer.
	subtypeStructuredRetries = "error_max_structured_output_retries"
	// subtypeMaxBudget is claude -p's subtype for a run stopped by
	// --max-budget-usd.
	subtypeMaxBudget = "error_max_budget_usd"
)

// PrintOutcome is how a print run went: the result of every turn,
// whether any tool call was denied, and the write to Stdout that failed,
// which stopped the run (see OutputFailed).
type PrintOutcome struct {
	Results   []PrintResult
	Denied    bool
	OutputErr error
}

// OK reports whether every turn completed and nothing was denied.
func (o PrintOutcome) OK() bool {
	for _, r := range o.Results {
		if !r.Success() {
			return false
		}
	}
	return !o.Denied
}

// PrintResult is the line that ends every turn in stream-json, and the
// whole output of --output-format json.
type PrintResult struct {
	Type          string          `json:"type"` // "result"
	Subtype       string          `json:"subtype"`
	IsError       bool            `json:"is_error"`
	DurationMs    int64           `json:"duration_ms"`
	DurationAPIMs int64           `json:"duration_api_ms"`
	NumTurns      int             `json:"num_turns"`
	Result        string          `json:"result"`
	SessionID     string          `json:"session_id"`
	TotalCostUSD  float64         `json:"total_cost_usd"`
	Usage         claudemsg.Usage `json:"usage"`
	// ModelUsage splits usage and cost by model (subagents may use
	// others).
	ModelUsage map[string]modelUsage `json:"modelUsage"`
	Denials    []Denial              `json:"permission_denials"`
	Errors     []string              `json:"errors,omitempty"`
	// ModelStop is the last model reply's stop reason (end_turn,
	// tool_use, max_tokens), null when no reply arrived.
	ModelStop  *string `json:"stop_reason"`
	StopReason string  `json:"terminal_reason"` // tack's stop reason: completed, aborted, error, max-tokens, max-steps
	UUID       string  `json:"uuid"`
	// StructuredOutput is the answer structured_output took (--json-schema).
	StructuredOutput json.RawMessage `json:"structured_output,omitempty"`
}

// modelUsage is one model's share of a result.
type modelUsage struct {
	InputTokens              int     `json:"inputTokens"`
	OutputTokens             int     `json:"outputTokens"`
	CacheReadInputTokens     int     `json:"cacheReadInputTokens"`
	CacheCreationInputTokens int     `json:"cacheCreationInputTokens"`
	WebSearchRequests        int     `json:"webSearchRequests"`
	CostUSD                  float64 `json:"costUSD"`
	ContextWindow            int     `json:"contextWindow"`
	MaxOutputTokens          int     `json:"maxOutputTokens"`
}

// modelTally is what one model used in a turn.
type modelTally struct {
	usage llm.Usage
	cost  float64
}

// modelUsages is the result's modelUsage for tallies, with each model's
// limits from the catalog (0 when it does not know the model).
func modelUsages(tallies map[string]*modelTally, catalog *llm.Catalog) map[string]modelUsage {
	out := make(map[string]modelUsage, len(tallies))
	for id, t := range tallies {
		m, _ := catalog.Lookup(id)
		out[id] = modelUsage{
			InputTokens: t.usage.Input, OutputTokens: t.usage.Output, CacheReadInputTokens: t.usage.CacheRead,
			CostUSD: roundCost(t.cost), ContextWindow: m.ContextWindow, MaxOutputTokens: m.MaxOutput,
		}
	}
	return out
}

// Denial is a tool call the permission policy refused.
type Denial struct {
	ToolName  string          `json:"tool_name"`
	ToolUseID string          `json:"tool_use_id"`
	ToolInput json.RawMessage `json:"tool_input"`
}

// Success reports whether the turn completed.
func (r PrintResult) Success() bool { return r.Subtype == subtypeSuccess && !r.IsError }

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:])
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

func writeJSON(w io.Writer, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		b, _ = json.Marshal(map[string]string{"type": "error", "error": err.Error()})
	}
	_, _ = w.Write(append(b, '\n'))
}
