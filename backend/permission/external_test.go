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
		{Auto, plain, ask}, {Auto, readOnly, run}, {Auto, trusted, run},
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
	p := newPolicy(Ask, nil)
	if _, err := p.Authorize(context.Background(), mcpTool{tools.Spec{Name: "mcp__a__b", Access: tools.AccessExternal}}, call); err == nil {
		t.Fatal("an untrusted MCP tool ran in ask mode with nobody to answer")
	}
	p.SetPlan(true)
	if _, err := p.Authorize(context.Background(), mcpTool{tools.Spec{Name: "mcp__a__c", Access: tools.AccessExternal, ReadOnlyHint: true}}, call); err != nil {
		t.Fatalf("read-only MCP tool refused while planning: %v", err)
	}
	if _, err := p.Authorize(context.Background(), mcpTool{tools.Spec{Name: "mcp__a__d", Access: tools.AccessExternal, Trusted: true}}, call); err == nil {
		t.Fatal("a trusted MCP tool that may change things ran while planning")
	}
}

func TestAllowedToolsOfATurnSkipTheQuestionForWhatTheyCover(t *testing.T) {
	cases := []struct {
		allowed []string
		tool    string
		command string
		want    bool
	}{
		{[]string{"Read", "Bash(git add:*)"}, "bash", "git add main.go", true},
		{[]string{"Bash(git add:*)"}, "bash", "git add . && rm -rf /", false},
		{[]string{"Bash(git status)"}, "bash", "git status", true},
		{[]string{"Bash(git status)"}, "bash", "git push", false},
		{[]string{"Bash"}, "bash", "make test", true},
		{[]string{"Edit", "Write"}, "write", "", true},
		{[]string{"Edit"}, "bash", "ls", false},
		{[]string{"mcp__docs__search"}, "mcp__docs__search", "", true},
		{nil, "edit", "", false},
	}
	for _, c := range cases {
		if got := allowing(c.allowed, subject{tool: c.tool, command: c.command}) != ""; got != c.want {
			t.Errorf("allowing(%q, %s, %q) = %v, want %v", c.allowed, c.tool, c.command, got, c.want)
		}
	}
}

func TestAllowedToolsRunWithoutAskingButNotPastReadOnlyOrPlan(t *testing.T) {
	var l log
	env := &tools.Env{Record: l.record, Allowed: []string{"Bash(git status:*)", "Edit"}}
	call := func(args string) tools.Call { return tools.Call{ID: "c", Args: json.RawMessage(args), Env: env} }
	p := newPolicy(Ask, nil)
	if _, err := p.Authorize(context.Background(), bashTool, call(`{"command":"git status --short"}`)); err != nil {
		t.Errorf("allowed command asked: %v", err)
	}
	if _, err := p.Authorize(context.Background(), bashTool, call(`{"command":"git push"}`)); err == nil {
		t.Error("a command outside allowed-tools ran without an answer")
	}
	ro := newPolicy(ReadOnly, nil)
	if _, err := ro.Authorize(context.Background(), editTool, call(`{"file_path":"a"}`)); err == nil {
		t.Error("allowed-tools let an edit through read-only mode")
	}
}
