package linemode

import (
	"fmt"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/mcp"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// mcpSession opens a session as streamSession does, with the MCP servers
// of mcpConfig (claude's --mcp-config JSON), where %DOCS% stands for the
// address of a fake HTTP MCP server (mcptest).
func mcpSession(t *testing.T, mcpConfig string, script ...llmtest.Response) (*launch.Session, *llmtest.Server) {
	t.Helper()
	docs := httptest.NewServer(mcptest.NewHTTP(""))
	t.Cleanup(docs.Close)
	s, _, srv := streamSessionWith(t, launch.Options{MCPConfigs: []string{strings.ReplaceAll(mcpConfig, "%DOCS%", docs.URL)}}, nil, script...)
	return s, srv
}

// turn sends a message and waits for its result, the nth of the run.
func (r *sdkRun) turn(t *testing.T, text string, nth int) {
	t.Helper()
	r.send(t, `{"type":"user","message":{"role":"user","content":"`+text+`"},"parent_tool_use_id":null,"session_id":""}`)
	testkit.Eventually(t, "the result of "+text, func() bool { return r.results() == nth })
}

// offered reports whether the model's nth request offered the tool.
func offered(srv *llmtest.Server, nth int, tool string) bool {
	return slices.Contains(srv.Requests()[nth].ToolNames(), tool)
}

// The SDKs' toggleMcpServer() / toggle_mcp_server() turns a server off:
// the model is no longer offered its tools and mcp_status says it is
// disabled; turned on again, its tools come back. The requests are
// written as claude-agent-sdk-python writes them
// (src/claude_agent_sdk/_internal/query.py, toggle_mcp_server:
// {"subtype": "mcp_toggle", "serverName": server_name, "enabled": enabled}),
// as the TypeScript SDK does (sdk.mjs, toggleMcpServer(e,t):
// {subtype:"mcp_toggle",serverName:e,enabled:t}).
func TestSDKTogglesAServerOffAndOn(t *testing.T) {
	s, srv := mcpSession(t, `{"mcpServers":{"docs":{"type":"http","url":"%DOCS%"}}}`,
		llmtest.ReplyText("One."), llmtest.ReplyText("Two."), llmtest.ReplyText("Three."))
	run := startSDKRun(t, s)
	run.turn(t, "one", 1)
	if !offered(srv, 0, "mcp__docs__echo") {
		t.Fatalf("the server's tool was not offered to begin with: %v", srv.Requests()[0].ToolNames())
	}
	off := run.ask(t, "off", `{"type":"control_request","request_id":"off","request":{"subtype":"mcp_toggle","serverName":"docs","enabled":false}}`)
	status := run.ask(t, "st", `{"type":"control_request","request_id":"st","request":{"subtype":"mcp_status"}}`)
	if off.Response.Subtype != "success" || !strings.Contains(fmt.Sprint(status.Response.Response["mcpServers"]), "disabled") {
		t.Fatalf("turning docs off: %+v, then mcp_status %+v", off, status)
	}
	run.turn(t, "two", 2)
	if offered(srv, 1, "mcp__docs__echo") {
		t.Errorf("turned off, the server's tool is still offered: %v", srv.Requests()[1].ToolNames())
	}
	on := run.ask(t, "on", `{"type":"control_request","request_id":"on","request":{"subtype":"mcp_toggle","serverName":"docs","enabled":true}}`)
	run.turn(t, "three", 3)
	if on.Response.Subtype != "success" || !offered(srv, 2, "mcp__docs__echo") {
		t.Errorf("turned on again (%+v), the tool is not offered: %v", on, srv.Requests()[2].ToolNames())
	}
	bad := run.ask(t, "bad", `{"type":"control_request","request_id":"bad","request":{"subtype":"mcp_toggle","serverName":"nope","enabled":false}}`)
	if bad.Response.Subtype != "error" || !strings.Contains(bad.Response.Error, `no MCP server "nope"`) {
		t.Errorf("an unknown server: %+v", bad)
	}
}

func TestAServerAwaitingSignInIsNeedsAuthAsClaudeNamesIt(t *testing.T) {
	if got := initStatus(mcp.StateSignIn); got != "needs-auth" {
		t.Fatalf("a server that needs sign-in is %q to the SDK, want Claude Code's \"needs-auth\"", got)
	}
}
