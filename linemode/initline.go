package linemode

import (
	"cmp"
	"context"
	"slices"

	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/outputstyle"
	"github.com/tack-agent/tack/backend/tools"
)

// writeInit writes the system/init line. claude -p's says whether each
// MCP server connected or failed, and lists its tools; scripts check it
// before they trust a run, so the servers settle first (the first step
// would wait for them anyway). An Agent SDK's own servers start only once
// it talks over stdin, so with stream input the line is written at once
// and the SDK asks mcp_status.
func (p *printer) writeInit(ctx context.Context) {
	if !p.o.StreamInput {
		p.ag.Tools().Refresh(ctx)
	}
	writeJSON(p.o.Stdout, p.initMessage())
}

// initMessage is the system/init line.
func (p *printer) initMessage() initMessage {
	model, _ := p.ag.Model()
	m := initMessage{
		Type: "system", Subtype: "init", CWD: p.s.Cwd, SessionID: p.ag.SessionID(), Tools: claudeNames(p.ag.ToolNames()),
		Model: model, OutputStyle: cmp.Or(p.s.OutputStyle, outputstyle.Default), TackVersion: p.o.Version, UUID: newUUID(),
		SlashCommands: []string{}, Skills: []string{}, Plugins: []plugin{}, Agents: []string{},
	}
	m.MCPServers = p.serverStatuses()
	for _, pl := range p.s.Plugins() {
		m.Plugins = append(m.Plugins, plugin{Name: pl.Name, Path: pl.Dir})
	}
	m.Agents = append(m.Agents, p.s.AgentNames()...)
	if p.s.Skills != nil {
		for _, sk := range p.s.Skills.Skills {
			m.Skills = append(m.Skills, sk.Name)
		}
	}
	if p.s.Policy != nil {
		m.PermissionMode = p.s.Policy.ClaudeName()
	}
	if p.s.Commands != nil {
		for _, c := range p.s.Commands.List(p.ag.SessionID()) {
			m.SlashCommands = append(m.SlashCommands, c.Name)
		}
	}
	return m
}

// serverStatuses are the session's MCP servers as the init line and
// mcp_status list them.
func (p *printer) serverStatuses() []mcpServer {
	out := []mcpServer{}
	if p.s.MCP != nil {
		for _, st := range p.s.MCP.Status() {
			out = append(out, mcpServer{Name: st.Name, Status: initStatus(st.State), Error: st.Error})
		}
	}
	return out
}

// initStatus is a server's state as claude's init line names it.
func initStatus(s mcp.State) string {
	switch s {
	case mcp.StateReady:
		return "connected"
	case mcp.StateFailed:
		return "failed"
	case mcp.StateDenied, mcp.StateDisabled:
		return "disabled"
	case mcp.StateSignIn:
		return "needs-auth"
	}
	return "pending"
}

// claudeNames are the tools named as Claude Code names them, as the
// system/init line of claude -p lists them; two of tack's tools that
// Claude Code names alike are listed once.
func claudeNames(names []string) []string {
	out := make([]string, 0, len(names))
	for _, n := range names {
		if c := tools.ClaudeName(n); !slices.Contains(out, c) {
			out = append(out, c)
		}
	}
	return out
}
