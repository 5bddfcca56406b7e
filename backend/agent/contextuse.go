package agent

import (
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/tools"
)

// ContextUse is what fills the context window of the next step's model,
// as /context and the Agent SDKs' getContextUsage() show it. Used is the
// size compaction goes by (the last response's prompt and output, plus
// what was added since); System and the tools' shares are estimates, and
// Messages is the rest.
type ContextUse struct {
	Model string
	// Window is the model's context window, 0 when the catalog does not
	// know it; Threshold is where automatic compaction starts, 0 never.
	Window, Threshold int
	Used              int
	System            int
	// Tools are the tools' descriptions, one entry a tool; Server names
	// the MCP server of a served one, "" for tack's own. System and
	// Tools are estimated at charsPerToken.
	Tools    []ToolShare
	Messages int
	// Last is the last response's usage, zero before the first.
	Last llm.Usage
}

// ToolShare is what one tool's description takes of the window.
type ToolShare struct {
	Name, Server string
	Tokens       int
}

// Free is what is left of the window.
func (u ContextUse) Free() int { return max(u.Window-u.Used, 0) }

// ToolTokens sums the descriptions of tack's own tools (served false) or
// of the MCP servers' (served true).
func (u ContextUse) ToolTokens(served bool) int {
	n := 0
	for _, t := range u.Tools {
		if (t.Server != "") == served {
			n += t.Tokens
		}
	}
	return n
}

// ContextUse measures the context window of the next step's model.
func (a *Agent) ContextUse() ContextUse {
	model, _ := a.Model()
	m, _ := a.cfg.Catalog.Lookup(model)
	a.logMu.Lock()
	used, last := a.proj.ContextTokens(), a.proj.Usage().Last
	a.logMu.Unlock()
	u := ContextUse{Model: model, Window: m.ContextWindow, Threshold: a.CompactThreshold(model), Last: last,
		System: len(a.System()) / charsPerToken}
	fixed := u.System
	for _, t := range a.cfg.Tools.Tools() {
		tu := ToolShare{Name: t.Spec().Name, Tokens: specTokens(t.Spec())}
		if s, ok := t.(interface{ Server() string }); ok {
			tu.Server = s.Server()
		}
		u.Tools = append(u.Tools, tu)
		fixed += tu.Tokens
	}
	u.Used, u.Messages = used, max(used-fixed, 0)
	if last == (llm.Usage{}) {
		// Before the first response the size is the conversation's
		// estimate alone.
		u.Used, u.Messages = used+fixed, used
	}
	return u
}

// specTokens estimates the tokens of a tool's description as the model
// reads it: name, description and schema.
func specTokens(s tools.Spec) int {
	return (len(s.Name) + len(s.Description) + len(s.Schema)) / charsPerToken
}
