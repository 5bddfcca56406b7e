package linemode

import (
	"fmt"

	"github.com/tack-agent/tack/backend/mcp"
)

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
		servers = append(servers, mcp.SDKServer(name, "the Agent SDK"))
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
