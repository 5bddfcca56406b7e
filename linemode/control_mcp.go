package linemode

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"

	"github.com/tack-agent/tack/backend/mcp"
)

// sdkOrigin names the Agent SDK's servers in messages.
const sdkOrigin = "the Agent SDK"

// addSDKServers starts the in-process MCP servers the SDK names as it
// initializes; their messages go through the SDK channel.
func (p *printer) addSDKServers(names []string) {
	if len(names) == 0 {
		return
	}
	if p.s.MCP == nil {
		fmt.Fprintln(p.o.Stderr, "tack: the Agent SDK's MCP servers cannot be reached in this session; they are skipped")
		return
	}
	var servers []mcp.Server
	for _, name := range names {
		servers = append(servers, mcp.SDKServer(name, sdkOrigin))
	}
	for _, problem := range p.s.MCP.Add(servers) {
		fmt.Fprintln(p.o.Stderr, "tack: "+problem)
	}
}

// reconnect answers mcp_reconnect: the server starts again.
func (p *printer) reconnect(id, name string) {
	p.onServers(id, func(m *mcp.Manager) error { return m.Restart(name) })
}

// toggle answers mcp_toggle: the server is turned off, its tools gone
// from the next step on, or back on.
func (p *printer) toggle(id, name string, enabled *bool) {
	if enabled == nil {
		p.answer(id, nil, "mcp_toggle needs enabled: true or false")
		return
	}
	p.onServers(id, func(m *mcp.Manager) error { return m.SetEnabled(name, *enabled) })
}

// onServers answers a request that change does to the session's MCP
// servers: its error, or an empty success.
func (p *printer) onServers(id string, change func(m *mcp.Manager) error) {
	if p.s.MCP == nil {
		p.answer(id, nil, "this session has no MCP servers")
		return
	}
	if err := change(p.s.MCP); err != nil {
		p.answer(id, nil, err.Error())
		return
	}
	p.answer(id, map[string]any{}, "")
}

// setServersResult is the answer to mcp_set_servers, the SDK's
// McpSetServersResult in Claude Code's order.
type setServersResult struct {
	Added   []string          `json:"added"`
	Removed []string          `json:"removed"`
	Errors  map[string]string `json:"errors"`
}

// setServers answers mcp_set_servers: the program's MCP servers become
// those it names (mcp.Manager.Replace), and the answer, the SDK's
// McpSetServersResult, comes once those it started have connected or
// failed. The wait is on a goroutine of its own, which ends when they
// have or the session's servers close: the SDK's in-process servers
// connect through messages that stdin, read by the caller, brings.
func (p *printer) setServers(id string, raw json.RawMessage) {
	var entries map[string]json.RawMessage
	if err := json.Unmarshal(raw, &entries); err != nil || entries == nil {
		p.answer(id, nil, "mcp_set_servers needs servers: an object of each server's name and its configuration")
		return
	}
	if p.s.MCP == nil {
		p.answer(id, nil, "this session has no MCP servers")
		return
	}
	servers, problems := mcp.ProgramServers(entries, sdkOrigin)
	r := p.s.MCP.Replace(servers)
	maps.Copy(r.Errors, problems)
	go func() {
		r := p.s.MCP.Connected(context.Background(), r)
		p.answer(id, setServersResult{Added: names(r.Added), Removed: names(r.Removed), Errors: r.Errors}, "")
	}()
}

// names is list, or an empty list where there is none: the SDK's result
// types a list, never null.
func names(list []string) []string {
	if list == nil {
		return []string{}
	}
	return list
}
