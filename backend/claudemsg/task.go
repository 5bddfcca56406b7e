package claudemsg

import (
	"cmp"
	"encoding/json"

	"github.com/tack-agent/tack/backend/card"
)

// agentOutput is Agent's AgentOutput for a subagent that finished: its
// session as the agent's id, its report as the content, the tool calls
// and tokens it used, and the call's prompt. tack runs a subagent to the
// end of its turn, never in the background, so its status is always
// "completed". tack writes no cache (Usage); Claude Code's usage also
// names a service tier and the cache's writes by lifetime, which tack's
// providers do not report: they are null, as the SDK allows.
func agentOutput(input json.RawMessage, text string, c *card.Card, ms int64) any {
	run := c.Agent
	if run == nil {
		return nil
	}
	var in struct {
		Prompt       string `json:"prompt"`
		SubagentType string `json:"subagent_type"`
	}
	_ = json.Unmarshal(input, &in)
	usage := agentUsage{InputTokens: run.InputTokens, CacheReadInputTokens: run.CachedTokens, OutputTokens: run.OutputTokens}
	if run.ReasoningTokens > 0 {
		usage.OutputTokensDetails = &outputDetails{ThinkingTokens: run.ReasoningTokens}
	}
	return agentDone{AgentID: run.Session, AgentType: in.SubagentType, Content: []Block{Text(text)},
		ResolvedModel: run.Model, TotalToolUseCount: run.ToolCalls, TotalDurationMs: ms,
		TotalTokens: run.InputTokens + run.CachedTokens + run.OutputTokens, Usage: usage,
		Status: "completed", Prompt: in.Prompt}
}

type agentDone struct {
	AgentID           string     `json:"agentId"`
	AgentType         string     `json:"agentType,omitempty"`
	Content           []Block    `json:"content"`
	ResolvedModel     string     `json:"resolvedModel,omitempty"`
	TotalToolUseCount int        `json:"totalToolUseCount"`
	TotalDurationMs   int64      `json:"totalDurationMs"`
	TotalTokens       int        `json:"totalTokens"`
	Usage             agentUsage `json:"usage"`
	Status            string     `json:"status"`
	Prompt            string     `json:"prompt"`
}

// agentUsage is AgentOutput's usage: the Messages API's buckets, with the
// fields tack has no figure for null.
type agentUsage struct {
	InputTokens              int            `json:"input_tokens"`
	OutputTokens             int            `json:"output_tokens"`
	CacheCreationInputTokens int            `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int            `json:"cache_read_input_tokens"`
	ServerToolUse            *struct{}      `json:"server_tool_use"`
	ServiceTier              *string        `json:"service_tier"`
	CacheCreation            *struct{}      `json:"cache_creation"`
	OutputTokensDetails      *outputDetails `json:"output_tokens_details,omitempty"`
}

type outputDetails struct {
	ThinkingTokens int `json:"thinking_tokens"`
}

// taskStopOutput is TaskStop's TaskStopOutput: what the call said of the
// task it stopped, named as the call named it (task_id, or KillShell's
// shell_id). tack's background tasks are commands, which Claude Code
// calls local_bash tasks.
func taskStopOutput(input json.RawMessage, text string) any {
	var in struct {
		TaskID  string `json:"task_id"`
		ShellID string `json:"shell_id"`
	}
	_ = json.Unmarshal(input, &in)
	return taskStopped{Message: text, TaskID: cmp.Or(in.TaskID, in.ShellID), TaskType: "local_bash"}
}

type taskStopped struct {
	Message  string `json:"message"`
	TaskID   string `json:"task_id"`
	TaskType string `json:"task_type"`
}
