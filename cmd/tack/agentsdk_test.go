package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

// agentSDKScript runs the TypeScript Agent SDK's query() against tack,
// answering can_use_tool, and prints what it read.
const agentSDKScript = `
import { query } from "@anthropic-ai/claude-agent-sdk";
const asked = [];
const q = query({
  prompt: "say yes",
  options: {
    pathToClaudeCodeExecutable: process.env.TACK_BIN,
    cwd: process.env.TACK_CWD,
    permissionMode: "default",
    canUseTool: async (tool, input) => { asked.push(tool + " " + input.command); return { behavior: "allow", updatedInput: input }; },
  },
});
for await (const m of q) {
  console.log("message", m.type, m.subtype ?? "", m.type === "result" ? m.result : "");
}
console.log("asked", asked.join(";"));
`

// The real TypeScript Agent SDK (@anthropic-ai/claude-agent-sdk) drives
// tack as it drives claude -p: its initialize is answered, a command the
// mode would ask about goes to its canUseTool, and the result it reads is
// the model's answer. It needs node and an installed SDK:
// TACK_AGENT_SDK=DIR, where DIR/node_modules holds it (npm install
// @anthropic-ai/claude-agent-sdk in DIR).
func TestTheTypeScriptAgentSDKDrivesTack(t *testing.T) {
	dir := os.Getenv("TACK_AGENT_SDK")
	if dir == "" {
		t.Skip("set TACK_AGENT_SDK to a folder where npm installed @anthropic-ai/claude-agent-sdk to run the real SDK against tack")
	}
	if _, err := exec.LookPath("node"); err != nil {
		t.Skip("node is not installed: the Agent SDK needs it")
	}
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("c1", "bash", `{"command":"echo yes-from-bash","description":"Say yes"}`, 1)),
		llmtest.ReplyText("All done."))
	home, cwd := t.TempDir(), t.TempDir()
	script := filepath.Join(dir, "tack-agent-sdk-test.mjs")
	if err := os.WriteFile(script, []byte(agentSDKScript), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(script) })
	cmd := exec.Command("node", script)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TACK_BIN="+tackbin.Path(t), "TACK_CWD="+cwd, "HOME="+home, "TACK_HOME="+home,
		"DEEPSEEK_BASE_URL="+srv.URL(), "DEEPSEEK_API_KEY=test", "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the SDK failed: %v\n%s", err, out)
	}
	if got := string(out); !strings.Contains(got, "message system init") || !strings.Contains(got, "message result success All done.") ||
		!strings.Contains(got, "asked Bash echo yes-from-bash") {
		t.Errorf("the SDK read:\n%s", got)
	}
	if got := srv.Requests()[1].ToolResult("c1"); !strings.Contains(got, "yes-from-bash") {
		t.Errorf("the command the SDK allowed gave %q", got)
	}
}
