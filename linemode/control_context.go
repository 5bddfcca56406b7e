package linemode

import (
	"math"

	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/llm"
)

// The SDKs' getContextUsage() (get_context_usage) reads the breakdown of
// the context window that Claude Code's /context draws. tack answers with
// its own figures, the agent's ContextUse, which /context shows too. What
// tack does not measure (memory files, agents, the CLI's grid) is an
// empty list rather than an invented figure.

// contextUsage is the answer to get_context_usage, in the shape of the
// SDKs' ContextUsageResponse (Python) and
// SDKControlGetContextUsageResponse (TypeScript).
type contextUsage struct {
	Categories           []usageCategory  `json:"categories"`
	TotalTokens          int              `json:"totalTokens"`
	MaxTokens            int              `json:"maxTokens"`
	RawMaxTokens         int              `json:"rawMaxTokens"`
	Percentage           float64          `json:"percentage"`
	Model                string           `json:"model"`
	IsAutoCompactEnabled bool             `json:"isAutoCompactEnabled"`
	AutoCompactThreshold int              `json:"autoCompactThreshold,omitempty"`
	MemoryFiles          []any            `json:"memoryFiles"`
	MCPTools             []mcpToolUsage   `json:"mcpTools"`
	Agents               []any            `json:"agents"`
	GridRows             [][]any          `json:"gridRows"`
	APIUsage             *claudemsg.Usage `json:"apiUsage"`
}

// usageCategory is one row of the breakdown.
type usageCategory struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Tokens int    `json:"tokens"`
	Color  string `json:"color"`
	// Kind is "used" or "free", as the TypeScript SDK classifies rows.
	Kind string `json:"kind"`
}

// mcpToolUsage is what one MCP server's tool costs in the window.
type mcpToolUsage struct {
	Name       string `json:"name"`
	ServerName string `json:"serverName"`
	Tokens     int    `json:"tokens"`
	IsLoaded   bool   `json:"isLoaded"`
}

// contextUsage is the session's context use in the SDKs' shape.
func (p *printer) contextUsage() contextUsage {
	c := p.ag.ContextUse()
	fromServers := []mcpToolUsage{}
	for _, t := range c.Tools {
		if t.Server != "" {
			fromServers = append(fromServers, mcpToolUsage{Name: t.Name, ServerName: t.Server, Tokens: t.Tokens, IsLoaded: true})
		}
	}
	u := contextUsage{
		Categories: []usageCategory{
			{ID: "system_prompt", Name: "System prompt", Tokens: c.System, Color: "gray", Kind: "used"},
			{ID: "system_tools", Name: "System tools", Tokens: c.ToolTokens(false), Color: "gray", Kind: "used"},
			{ID: "mcp_tools", Name: "MCP tools", Tokens: c.ToolTokens(true), Color: "cyan", Kind: "used"},
			{ID: "messages", Name: "Messages", Tokens: c.Messages, Color: "purple", Kind: "used"},
			{ID: "free_space", Name: "Free space", Tokens: c.Free(), Color: "gray", Kind: "free"},
		},
		TotalTokens: c.Used, MaxTokens: c.Window, RawMaxTokens: c.Window, Model: c.Model,
		IsAutoCompactEnabled: c.Threshold > 0, AutoCompactThreshold: c.Threshold,
		MemoryFiles: []any{}, MCPTools: fromServers, Agents: []any{}, GridRows: [][]any{},
	}
	if c.Window > 0 {
		u.Percentage = math.Round(float64(c.Used)*1000/float64(c.Window)) / 10
	}
	if c.Last != (llm.Usage{}) {
		a := claudemsg.UsageOf(c.Last)
		u.APIUsage = &a
	}
	return u
}
