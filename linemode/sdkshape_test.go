package linemode

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// sdkRequired are the fields the Claude Agent SDK's published types mark
// required (sdk.d.ts of @anthropic-ai/claude-agent-sdk 0.3.328:
// SDKSystemMessage, SDKAssistantMessage and its Messages API BetaMessage,
// SDKUserMessage, SDKResultSuccess and SDKResultError), by line type and
// subtype. A consumer typed against them reads each of these. Left out:
// the ones tack has no true value for (apiKeySource and
// claude_code_version of init; container, context_management, diagnostics
// and stop_details of a message, all null-able).
var sdkRequired = map[string][]string{
	"system/init": {"type", "subtype", "cwd", "session_id", "tools", "mcp_servers", "model", "permissionMode",
		"slash_commands", "output_style", "skills", "plugins", "uuid"},
	"assistant":         {"type", "message", "parent_tool_use_id", "uuid", "session_id"},
	"assistant/message": {"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"},
	"user":              {"type", "message", "parent_tool_use_id", "session_id"},
	"user/message":      {"role", "content"},
	"result/success": {"type", "subtype", "duration_ms", "duration_api_ms", "is_error", "num_turns", "result",
		"stop_reason", "total_cost_usd", "usage", "modelUsage", "permission_denials", "uuid", "session_id"},
	"result/error": {"type", "subtype", "duration_ms", "duration_api_ms", "is_error", "num_turns", "stop_reason",
		"total_cost_usd", "usage", "modelUsage", "permission_denials", "errors", "uuid", "session_id"},
	"modelUsage": {"inputTokens", "outputTokens", "cacheReadInputTokens", "cacheCreationInputTokens",
		"webSearchRequests", "costUSD", "contextWindow", "maxOutputTokens"},
}

// TestStreamJSONHasEveryFieldTheAgentSDKRequires runs a turn with a tool
// call and a turn the model fails, and checks every line against
// sdkRequired.
func TestStreamJSONHasEveryFieldTheAgentSDKRequires(t *testing.T) {
	s, _, _ := streamSession(t, append(toolTurn(), llmtest.HTTPError(400, "the request is malformed"))...)
	in := `{"type":"user","message":{"role":"user","content":"what do the notes say?"}}` + "\n" +
		`{"type":"user","message":{"role":"user","content":"and now?"}}` + "\n"
	var stdout, stderr bytes.Buffer
	Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true, In: strings.NewReader(in),
		Stdout: &stdout, Stderr: &stderr})
	seen := map[string]bool{}
	for i, raw := range strings.Split(strings.TrimSuffix(stdout.String(), "\n"), "\n") {
		var line map[string]any
		if err := json.Unmarshal([]byte(raw), &line); err != nil {
			t.Fatalf("line %d is not JSON: %v", i+1, err)
		}
		kind, _ := line["type"].(string)
		switch kind {
		case "system":
			kind += "/" + fmt.Sprint(line["subtype"])
		case "result":
			kind += "/success"
			if line["subtype"] != "success" {
				kind = "result/error"
			}
			models, _ := line["modelUsage"].(map[string]any)
			for model, u := range models {
				requireFields(t, "modelUsage of "+model, u, sdkRequired["modelUsage"])
			}
		case "assistant", "user":
			requireFields(t, kind+" message", line["message"], sdkRequired[kind+"/message"])
		}
		seen[kind] = true
		requireFields(t, kind, line, sdkRequired[kind])
	}
	for _, kind := range []string{"system/init", "assistant", "user", "result/success", "result/error"} {
		if !seen[kind] {
			t.Errorf("want a %s line, got:\n%s", kind, stdout.String())
		}
	}
}

// requireFields checks that v is an object holding every field of want.
func requireFields(t *testing.T, what string, v any, want []string) {
	t.Helper()
	obj, ok := v.(map[string]any)
	if !ok {
		t.Errorf("%s: want an object, got %v", what, v)
		return
	}
	for _, f := range want {
		if _, ok := obj[f]; !ok {
			t.Errorf("%s: want field %q (the Agent SDK's types require it), got %v", what, f, obj)
		}
	}
}
