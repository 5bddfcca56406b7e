package commands

import (
	"context"
	"strings"
)

// MCPServers is the session's MCP servers (*mcp.Manager through launch):
// their status as /mcp shows it, and restarting one.
type MCPServers interface {
	StatusText() string
	Restart(name string) error
}

const mcpUsage = "Usage: /mcp (list the servers) or /mcp restart NAME"

// MCPCommand is /mcp: the MCP servers with their status, tools and
// errors; /mcp restart NAME stops a server and starts it again.
func MCPCommand(servers MCPServers) Command {
	return Command{
		Name: "mcp", Description: "List MCP servers, their tools and errors; /mcp restart NAME restarts one",
		Input: Input{Hint: "[restart NAME]"}, WhileRunning: true,
		Handler: func(_ context.Context, inv Invocation) Result {
			args := strings.Fields(inv.RawInput)
			switch {
			case len(args) == 0:
				return Succeed(servers.StatusText())
			case args[0] == "restart" && len(args) == 2:
				if err := servers.Restart(args[1]); err != nil {
					return Fail(err.Error())
				}
				return Succeed("Restarting MCP server " + args[1] + "; its tools return at the next step once it is ready (/mcp shows its status).")
			}
			return Fail(mcpUsage)
		},
	}
}
