package linemode

import (
	"math"

	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/tools"
)

// The SDKs' getContextUsage() (get_context_usage) reads the breakdown of
// the context window that Claude Code's /context draws. tack answers with
// its own figures: the conversation's size is the one compaction goes by
// (the last response's prompt and output, plus what was added since), the
// window and compaction threshold are the model's, and the system prompt
// and tool descriptions are estimated at a token per 4 bytes. What tack
// does not measure (memory files, agents, the CLI's grid) is an empty
// list rather than an invented figure.

// bytesPerToken is the estimate of a token's size in text.
const bytesPerToken = 4

// contextUsage is the answer to get_context_usage, in the shape of the
// SDKs' ContextUsageResponse (Python) and
// SDKControlGetContextUsageResponse (TypeScript).
type contextUsage struct {
	Categories           []usageCategory `json:"categories"`
	TotalTokens          int             `json:"totalTokens"`
	MaxTokens            int             `json:"maxTokens"`
	RawMaxTokens         int             `json:"rawMaxTokens"`
	Percentage           float64         `json:"percentage"`
	Model                string          `json:"model"`
	IsAutoCompactEnabled bool            `json:"isAutoCompactEnabled"`
	AutoCompactThreshold int             `json:"autoCompactThreshold,omitempty"`
	MemoryFiles          []any           `json:"memoryFiles"`
	MCPTools             []mcpToolUsage  `json:"mcpTools"`
	Agents               []any           `json:"agents"`
	GridRows             [][]any         `json:"gridRows"`
	APIUsage             *apiUsage       `json:"apiUsage"`
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

// contextUsage measures the context window of the session's model.
func (p *printer) contextUsage() contextUsage {
	model, _ := p.ag.Model()
	m, _ := p.ag.Catalog().Lookup(model)
	proj := p.ag.Projection()
	used := proj.ContextTokens()
	system := len(p.ag.System()) / bytesPerToken
	builtin, fromServers := p.toolUsage()
	served := 0
	for _, t := range fromServers {
		served += t.Tokens
	}
	last := proj.Usage().Last
	fixed := system + builtin + served
	messages := max(used-fixed, 0)
	if last == (llm.Usage{}) {
		// Before the first response the size is the conversation's
		// estimate alone.
		messages, used = used, used+fixed
	}
	threshold := p.ag.CompactThreshold(model)
	u := contextUsage{
		Categories: []usageCategory{
			{ID: "system_prompt", Name: "System prompt", Tokens: system, Color: "gray", Kind: "used"},
			{ID: "system_tools", Name: "System tools", Tokens: builtin, Color: "gray", Kind: "used"},
			{ID: "mcp_tools", Name: "MCP tools", Tokens: served, Color: "cyan", Kind: "used"},
			{ID: "messages", Name: "Messages", Tokens: messages, Color: "purple", Kind: "used"},
			{ID: "free_space", Name: "Free space", Tokens: max(m.ContextWindow-used, 0), Color: "gray", Kind: "free"},
		},
		TotalTokens: used, MaxTokens: m.ContextWindow, RawMaxTokens: m.ContextWindow, Model: model,
		IsAutoCompactEnabled: threshold > 0, AutoCompactThreshold: threshold,
		MemoryFiles: []any{}, MCPTools: fromServers, Agents: []any{}, GridRows: [][]any{},
	}
	if m.ContextWindow > 0 {
		u.Percentage = math.Round(float64(used)*1000/float64(m.ContextWindow)) / 10
	}
	if last != (llm.Usage{}) {
		a := usageOf(last)
		u.APIUsage = &a
	}
	return u
}

// toolUsage estimates what the descriptions of the session's tools take:
// the built-in ones in all, the MCP servers' one by one.
func (p *printer) toolUsage() (builtin int, fromServers []mcpToolUsage) {
	fromServers = []mcpToolUsage{}
	for _, t := range p.ag.Tools().Tools() {
		tokens := specTokens(t.Spec())
		if st, ok := t.(*mcp.Tool); ok {
			fromServers = append(fromServers, mcpToolUsage{Name: t.Spec().Name, ServerName: st.Server(), Tokens: tokens, IsLoaded: true})
			continue
		}
		builtin += tokens
	}
	return builtin, fromServers
}

// specTokens estimates the tokens of a tool's description as the model
// reads it: name, description and schema.
func specTokens(s tools.Spec) int {
	return (len(s.Name) + len(s.Description) + len(s.Schema)) / bytesPerToken
}
