// Command fakemcp is a small MCP server on stdio for trying tack's MCP
// client by hand and for the PTY measurements: the tools of
// backend/mcp/mcptest (echo, crash, hang, image, big, change, fail).
// MCPTEST_DELAY_MS delays its answer to initialize; MCPTEST_PREFIX names
// its tools apart.
package main

import "github.com/tack-agent/tack/backend/mcp/mcptest"

func main() { mcptest.Serve() }
