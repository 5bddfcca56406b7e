package commands

import (
	"context"
	"fmt"
	"strings"
)

// MCPServers is the session's MCP servers (*mcp.Manager through launch):
// their status as /mcp shows it, restarting one, and signing in to a
// remote one and out again.
type MCPServers interface {
	StatusText() string
	Restart(name string) error
	// Login begins signing in to a server in the browser and returns the
	// address the user signs in at and whether a browser opened; the
	// rest goes on in the background, its outcome a notice.
	Login(ctx context.Context, name string) (url string, opened bool, err error)
	// Logout forgets the sign-in to a server and reports whether its
	// authorization server revoked the tokens too.
	Logout(name string) (revoked bool, err error)
}

const mcpUsage = "Usage: /mcp (list the servers), /mcp restart NAME, /mcp login NAME or /mcp logout NAME"

// MCPCommand is /mcp: the MCP servers with their status, tools and
// errors; /mcp restart NAME stops a server and starts it again; /mcp
// login NAME signs in to a remote server that asks for it, /mcp logout
// NAME forgets that sign-in.
func MCPCommand(servers MCPServers) Command {
	return Command{
		Name: "mcp", Description: "List MCP servers, their tools and errors; /mcp restart|login|logout NAME",
		Input: Input{Hint: "[restart|login|logout NAME]"}, WhileRunning: true,
		Handler: func(ctx context.Context, inv Invocation) Result {
			// A server's name is the rest of the line: a .mcp.json may
			// name one "My Docs".
			verb, name, _ := strings.Cut(strings.TrimSpace(inv.RawInput), " ")
			name = strings.TrimSpace(name)
			switch {
			case verb == "":
				return Succeed(servers.StatusText())
			case name == "":
			case verb == "restart":
				if err := servers.Restart(name); err != nil {
					return Fail(err.Error())
				}
				return Succeed("Restarting MCP server " + name + "; its tools return at the next step once it is ready (/mcp shows its status).")
			case verb == "login":
				return mcpLogin(ctx, servers, name)
			case verb == "logout":
				return mcpLogout(servers, name)
			}
			return Fail(mcpUsage)
		},
	}
}

func mcpLogout(servers MCPServers, name string) Result {
	revoked, err := servers.Logout(name)
	if err != nil {
		return Fail(err.Error())
	}
	done := "tack forgot its tokens"
	if revoked {
		done = "its authorization server revoked tack's tokens and tack forgot them"
	}
	return Succeed("Signed out of MCP server " + name + "; " + done + ". /mcp login " + name + " signs in again.")
}

func mcpLogin(ctx context.Context, servers MCPServers, name string) Result {
	url, opened, err := servers.Login(ctx, name)
	if err != nil {
		return Fail("Cannot sign in: " + err.Error())
	}
	// The address stands alone at the start of its line: wrapped, its
	// rows carry no indent, so a copy of it from the terminal (over SSH,
	// where no browser opens) pastes whole into a browser's address bar,
	// which drops the line breaks.
	how := "Open this address in your browser to sign in to MCP server %s:\n%s\n"
	if opened {
		how = "Sign in to MCP server %s in your browser. If it did not open, open this address:\n%s\n"
	}
	return Succeed(fmt.Sprintf(how, name, url) + "tack waits for you to finish there; /mcp login " + name + " starts over.")
}
