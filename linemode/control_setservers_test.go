package linemode

import (
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
)

// recordedSetServers are the two mcp_set_servers requests the real
// TypeScript Agent SDK (@anthropic-ai/claude-agent-sdk 0.3.337, run by
// hand with node against tack) wrote for setMcpServers() with a stdio, an
// http, an sse and an in-process server, then for setMcpServers({}).
const recordedSetServers = "testdata/agentsdk-0.3.337-mcp_set_servers.jsonl"

// recordedRequests reads the recorded requests, each as a tree to adjust.
func recordedRequests(t *testing.T) []map[string]any {
	t.Helper()
	src, err := os.ReadFile(recordedSetServers)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, line := range strings.Split(strings.TrimSpace(string(src)), "\n") {
		var req map[string]any
		if err := json.Unmarshal([]byte(line), &req); err != nil {
			t.Fatalf("%s: %v", recordedSetServers, err)
		}
		out = append(out, req)
	}
	return out
}

// servers is the servers object of a recorded request.
func servers(req map[string]any) map[string]map[string]any {
	out := map[string]map[string]any{}
	for name, v := range req["request"].(map[string]any)["servers"].(map[string]any) {
		out[name] = v.(map[string]any)
	}
	return out
}

// line is req as a stdin line.
func line(t *testing.T, req map[string]any) string {
	t.Helper()
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The SDK's setMcpServers() as the real SDK sends it, its stdio and http
// servers pointed at fakes here, the sse one at a closed port and its
// in-process one with no SDK to relay to: the reachable two are added
// and offered to the model, the other two are errors by name, and the
// configured server stays. setMcpServers({}) then removes the program's
// servers and their tools, and the configured one stays still.
func TestSDKSetServersAsTheSDKSendsThem(t *testing.T) {
	s, srv := mcpSession(t, `{"mcpServers":{"conf":{"type":"http","url":"%DOCS%"}}}`,
		llmtest.ReplyText("One."), llmtest.ReplyText("Two."))
	docs := mcptest.NewHTTP("")
	ts := httptest.NewServer(docs)
	t.Cleanup(ts.Close)
	reqs := recordedRequests(t)
	set := servers(reqs[0])
	cmd, args, env := mcptest.Command()
	set["files"]["command"], set["files"]["args"] = cmd, args
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		set["files"]["env"].(map[string]any)[k] = v
	}
	set["docs"]["url"] = ts.URL
	set["feed"]["url"] = "http://127.0.0.1:1/sse"
	run := startSDKRun(t, s)

	first := run.ask(t, reqs[0]["request_id"].(string), line(t, reqs[0]))
	errs, _ := first.Response.Response["errors"].(map[string]any)
	if first.Response.Subtype != "success" || fmt.Sprint(first.Response.Response["added"]) != "[docs files]" ||
		fmt.Sprint(first.Response.Response["removed"]) != "[]" || len(errs) != 2 ||
		!strings.Contains(fmt.Sprint(errs["feed"]), "connection refused") || !strings.Contains(fmt.Sprint(errs["calc"]), "nothing here relays") {
		t.Fatalf("want docs and files added, errors for feed and calc, got %+v", first)
	}
	if h := docs.Headers(); len(h) == 0 || h[0].Get("Authorization") != "Bearer t0ken" {
		t.Errorf("the http server's headers were not sent: %v", h)
	}
	run.turn(t, "one", 1)
	for _, tool := range []string{"mcp__files__echo", "mcp__docs__echo", "mcp__conf__echo"} {
		if !offered(srv, 0, tool) {
			t.Errorf("%s is not offered: %v", tool, srv.Requests()[0].ToolNames())
		}
	}

	second := run.ask(t, reqs[1]["request_id"].(string), line(t, reqs[1]))
	if second.Response.Subtype != "success" || fmt.Sprint(second.Response.Response["added"]) != "[]" ||
		fmt.Sprint(second.Response.Response["removed"]) != "[calc docs feed files]" {
		t.Fatalf("want the program's four removed, got %+v", second)
	}
	run.turn(t, "two", 2)
	if got := srv.Requests()[1].ToolNames(); slices.Contains(got, "mcp__files__echo") || slices.Contains(got, "mcp__docs__echo") ||
		!slices.Contains(got, "mcp__conf__echo") {
		t.Errorf("after setMcpServers({}) want only the configured server's tools, got %v", got)
	}
}

// A request without a servers object is refused, saying what it needs.
func TestSDKSetServersWithoutServersIsRefused(t *testing.T) {
	s, _ := mcpSession(t, `{"mcpServers":{"conf":{"type":"http","url":"%DOCS%"}}}`)
	run := startSDKRun(t, s)
	a := run.ask(t, "set", `{"type":"control_request","request_id":"set","request":{"subtype":"mcp_set_servers","servers":[]}}`)
	if a.Response.Subtype != "error" || !strings.Contains(a.Response.Error, "mcp_set_servers needs servers: an object") {
		t.Errorf("mcp_set_servers with a list: %+v", a)
	}
}
