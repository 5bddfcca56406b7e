package permission

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// mcpTool is an external tool as backend/mcp makes them.
type mcpTool struct{ spec tools.Spec }

func (m mcpTool) Spec() tools.Spec { return m.spec }
func (m mcpTool) Present(json.RawMessage) card.Card {
	return card.Card{Kind: card.Generic, Title: "MCP docs · search"}
}
func (mcpTool) Run(context.Context, tools.Call) tools.Result { return tools.Result{} }

func TestExternalToolsAskUnlessTrustedOrReadOnlyWhereTheModeTakesHints(t *testing.T) {
	plain := tools.Spec{Name: "mcp__docs__write", Access: tools.AccessExternal}
	readOnly := tools.Spec{Name: "mcp__docs__search", Access: tools.AccessExternal, ReadOnlyHint: true}
	trusted := tools.Spec{Name: "mcp__docs__push", Access: tools.AccessExternal, Trusted: true}
	cases := []struct {
		mode Mode
		spec tools.Spec
		want verdict
	}{
		{Ask, plain, ask}, {Ask, readOnly, ask}, {Ask, trusted, run},
		{AutoEdit, plain, ask}, {AutoEdit, readOnly, run}, {AutoEdit, trusted, run},
		{ReadOnly, plain, ask}, {ReadOnly, readOnly, run}, {ReadOnly, trusted, ask},
		{FullAccess, plain, run}, {FullAccess, readOnly, run}, {FullAccess, trusted, run},
	}
	for _, c := range cases {
		if got := externalRule(c.mode, c.spec); got != c.want {
			t.Errorf("%s, %s: verdict %d, want %d", c.mode, c.spec.Name, got, c.want)
		}
	}
}

func TestExternalToolWithoutAnswererIsDeniedAndReadOnlyOneRunsWhilePlanning(t *testing.T) {
	var l log
	call := tools.Call{ID: "c1", Args: json.RawMessage(`{}`), Env: &tools.Env{Record: l.record}}
	p := NewPolicy(Ask, nil)
	if err := p.Authorize(context.Background(), mcpTool{tools.Spec{Name: "mcp__a__b", Access: tools.AccessExternal}}, call); err == nil {
		t.Fatal("an untrusted MCP tool ran in ask mode with nobody to answer")
	}
	p.SetPlan(true)
	if err := p.Authorize(context.Background(), mcpTool{tools.Spec{Name: "mcp__a__c", Access: tools.AccessExternal, ReadOnlyHint: true}}, call); err != nil {
		t.Fatalf("read-only MCP tool refused while planning: %v", err)
	}
	if err := p.Authorize(context.Background(), mcpTool{tools.Spec{Name: "mcp__a__d", Access: tools.AccessExternal, Trusted: true}}, call); err == nil {
		t.Fatal("a trusted MCP tool that may change things ran while planning")
	}
}
