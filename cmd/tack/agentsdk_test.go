package main

import (
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/snapshots/testkit"
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

// agentSDKInterruptScript streams two messages through the SDK, setting
// the permission mode and interrupting the first turn on the way.
const agentSDKInterruptScript = `
import { query } from "@anthropic-ai/claude-agent-sdk";
let release;
const gate = new Promise(r => (release = r));
async function* prompts() {
  yield { type: "user", message: { role: "user", content: "write a lot" }, parent_tool_use_id: null, session_id: "" };
  await gate;
  yield { type: "user", message: { role: "user", content: "now briefly" }, parent_tool_use_id: null, session_id: "" };
}
const q = query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: process.env.TACK_BIN, cwd: process.env.TACK_CWD,
  includePartialMessages: true } });
let results = 0, interrupted = false;
for await (const m of q) {
  if (m.type === "stream_event" && !interrupted) {
    interrupted = true;
    await q.setPermissionMode("acceptEdits");
    await q.interrupt();
    console.log("interrupted");
    release();
  }
  if (m.type === "result") { console.log("result", m.subtype, m.terminal_reason); if (++results === 2) break; }
}
`

// The real TypeScript Agent SDK (@anthropic-ai/claude-agent-sdk) drives
// tack as it drives claude -p: its initialize is answered, a command the
// mode would ask about goes to its canUseTool, and the result it reads is
// the model's answer. It needs node and an installed SDK:
// TACK_AGENT_SDK=DIR, where DIR/node_modules holds it (npm install
// @anthropic-ai/claude-agent-sdk zod in DIR; make agentsdk does).
func TestTheTypeScriptAgentSDKDrivesTack(t *testing.T) {
	dir := agentSDKDir(t)
	srv := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("c1", "bash", `{"command":"echo yes-from-bash","description":"Say yes"}`, 1)),
		llmtest.ReplyText("All done."))
	out := runAgentSDK(t, dir, agentSDKScript, srv, nil)
	if got := out; !strings.Contains(got, "message system init") || !strings.Contains(got, "message result success All done.") ||
		!strings.Contains(got, "asked Bash echo yes-from-bash") {
		t.Errorf("the SDK read:\n%s", got)
	}
	if got := srv.Requests()[1].ToolResult("c1"); !strings.Contains(got, "yes-from-bash") {
		t.Errorf("the command the SDK allowed gave %q", got)
	}
}

// The SDK's streaming input, setPermissionMode and interrupt reach tack:
// the first turn stops, the second runs. Needs what the test above needs.
func TestTheTypeScriptAgentSDKInterruptsATurn(t *testing.T) {
	dir := agentSDKDir(t)
	srv := llmtest.New(t, llmtest.Reply(llmtest.Text(strings.Repeat("word ", 300), 5), llmtest.Pace(30*time.Millisecond)),
		llmtest.ReplyText("Second."))
	out := runAgentSDK(t, dir, agentSDKInterruptScript, srv, nil)
	if !strings.Contains(out, "interrupted") || !strings.Contains(out, "result error_during_execution aborted") ||
		!strings.Contains(out, "result success completed") {
		t.Errorf("the SDK read:\n%s", out)
	}
}

// agentSDKHooksScript asks the SDK for hook events and prints those it
// reads.
const agentSDKHooksScript = `
import { query } from "@anthropic-ai/claude-agent-sdk";
const q = query({ prompt: "list", options: { pathToClaudeCodeExecutable: process.env.TACK_BIN, cwd: process.env.TACK_CWD,
  includeHookEvents: true, permissionMode: "bypassPermissions" } });
for await (const m of q) {
  if (m.type === "system" && m.subtype.startsWith("hook_")) console.log(m.subtype, m.hook_name, m.hook_event, m.outcome ?? "", (m.stdout ?? "").trim());
  if (m.type === "result") console.log("result", m.subtype);
}
`

// The SDK's includeHookEvents reaches tack as --include-hook-events, and
// the SDK reads the hook lines tack writes. Needs what the tests above
// need.
func TestTheTypeScriptAgentSDKReadsHookEvents(t *testing.T) {
	dir := agentSDKDir(t)
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "bash", `{"command":"ls","description":"List"}`, 1)), llmtest.ReplyText("Listed."))
	out := runAgentSDK(t, dir, agentSDKHooksScript, srv, map[string]string{".claude/settings.json": `{"hooks": {
  "SessionStart": [{"hooks": [{"type": "command", "command": "echo notes"}]}],
  "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "echo checked"}]}]}}`})
	for _, want := range []string{"hook_started SessionStart:startup SessionStart", "hook_response SessionStart:startup SessionStart success notes",
		"hook_started PostToolUse:Bash PostToolUse", "hook_response PostToolUse:Bash PostToolUse success checked", "result success"} {
		if !strings.Contains(out, want) {
			t.Errorf("the SDK did not read %q:\n%s", want, out)
		}
	}
}

// agentSDKToolsScript gives the model a tool of the program's own, in an
// in-process MCP server of the SDK's, and prints what the turn ended
// with.
const agentSDKToolsScript = `
import { query, createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
const calc = createSdkMcpServer({ name: "calc", version: "1.0.0", tools: [
  tool("add", "Adds two numbers", { a: z.number(), b: z.number() },
    async ({ a, b }) => ({ content: [{ type: "text", text: "sum=" + (a + b) }] })),
] });
async function* prompts() {
  yield { type: "user", message: { role: "user", content: "add 2 and 3" }, parent_tool_use_id: null, session_id: "" };
}
const q = query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: process.env.TACK_BIN, cwd: process.env.TACK_CWD,
  mcpServers: { calc }, allowedTools: ["mcp__calc__add"], systemPrompt: "You are a careful calculator.",
  agents: { auditor: { description: "Audits sums", prompt: "Check the sum.", tools: ["Read"] } } } });
let asked = false;
for await (const m of q) {
  if (m.type === "system" && m.subtype === "init") console.log("servers", JSON.stringify(m.mcp_servers));
  if (m.type === "assistant" && !asked) { asked = true; console.log("status", JSON.stringify(await q.mcpServerStatus())); }
  if (m.type === "result") { console.log("result", m.subtype, m.result); break; }
}
`

// A tool of the SDK program's own, in an in-process MCP server
// (createSdkMcpServer), reaches the model, and its calls run in the
// program: tack relays the server's messages over the control protocol
// (mcp_message). The program's systemPrompt, which the SDK sends in its
// initialize, opens the system prompt, and its agents are offered;
// mcpServerStatus() finds the server connected. Needs what the tests
// above need.
func TestTheTypeScriptAgentSDKServesItsOwnTools(t *testing.T) {
	dir := agentSDKDir(t)
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "mcp__calc__add", `{"a":2,"b":3}`, 1)), llmtest.ReplyText("It is 5."))
	out := runAgentSDK(t, dir, agentSDKToolsScript, srv, nil)
	if !strings.Contains(out, "result success It is 5.") || !strings.Contains(out, `status [{"name":"calc","status":"connected"}]`) {
		t.Errorf("the SDK read:\n%s", out)
	}
	if got := srv.Requests()[1].ToolResult("c1"); got != "sum=5" {
		t.Errorf("the SDK's tool answered %q; the SDK read:\n%s", got, out)
	}
	if system := srv.Requests()[0].Messages[0].Content; !strings.HasPrefix(system, "You are a careful calculator.") {
		t.Errorf("the program's system prompt did not open the request's: %.80q", system)
	}
	if !slices.ContainsFunc(srv.Requests()[0].Tools, func(tool llmtest.Tool) bool {
		return tool.Function.Name == "task" && strings.Contains(tool.Function.Description, "- auditor: Audits sums")
	}) {
		t.Error("the task tool does not offer the program's agent")
	}
}

// agentSDKSetServersScript sets the program's MCP servers while the
// query runs: its in-process calc and an http server, then none, with a
// turn after each, and prints what each setMcpServers() answered.
const agentSDKSetServersScript = `
import { query, createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
const calc = createSdkMcpServer({ name: "calc", version: "1.0.0", tools: [
  tool("add", "Adds two numbers", { a: z.number(), b: z.number() },
    async ({ a, b }) => ({ content: [{ type: "text", text: "sum=" + (a + b) }] })),
] });
let next;
const turns = [];
async function* prompts() {
  for (const text of ["add 2 and 3", "and now?"]) {
    await new Promise(r => (next = r));
    yield { type: "user", message: { role: "user", content: text }, parent_tool_use_id: null, session_id: "" };
  }
}
const q = query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: process.env.TACK_BIN, cwd: process.env.TACK_CWD,
  allowedTools: ["mcp__calc__add"] } });
console.log("set", JSON.stringify(await q.setMcpServers({ calc, docs: { type: "http", url: "%DOCS%" } })));
next();
let results = 0;
for await (const m of q) {
  if (m.type !== "result") continue;
  console.log("result", m.subtype, m.result);
  if (++results === 2) break;
  console.log("set", JSON.stringify(await q.setMcpServers({})));
  next();
}
`

// The real SDK's setMcpServers() adds the program's in-process server
// and an http server to a running session, whose tools the model is then
// offered and whose calls run in the program; setMcpServers({}) removes
// them, and the next request offers neither. Needs what the tests above
// need.
func TestTheTypeScriptAgentSDKSetsItsServers(t *testing.T) {
	dir := agentSDKDir(t)
	docs := httptest.NewServer(mcptest.NewHTTP(""))
	t.Cleanup(docs.Close)
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "mcp__calc__add", `{"a":2,"b":3}`, 1)), llmtest.ReplyText("It is 5."),
		llmtest.ReplyText("Nothing more."))
	out := runAgentSDK(t, dir, strings.ReplaceAll(agentSDKSetServersScript, "%DOCS%", docs.URL), srv, nil)
	for _, want := range []string{`set {"added":["calc","docs"],"removed":[],"errors":{}}`, "result success It is 5.",
		`set {"added":[],"removed":["calc","docs"],"errors":{}}`, "result success Nothing more."} {
		if !strings.Contains(out, want) {
			t.Errorf("the SDK did not read %q:\n%s", want, out)
		}
	}
	if got := srv.Requests()[1].ToolResult("c1"); got != "sum=5" {
		t.Errorf("the program's tool answered %q", got)
	}
	if first, last := srv.Requests()[0].ToolNames(), srv.Requests()[2].ToolNames(); !slices.Contains(first, "mcp__docs__echo") ||
		slices.ContainsFunc(last, func(n string) bool { return strings.HasPrefix(n, "mcp__") }) {
		t.Errorf("want the servers' tools offered first and none last, got %v then %v", first, last)
	}
}

// agentSDKStartServersScript starts the query with the program's
// in-process calc, then sets it again, then none.
const agentSDKStartServersScript = `
import { query, createSdkMcpServer, tool } from "@anthropic-ai/claude-agent-sdk";
import { z } from "zod";
const calc = createSdkMcpServer({ name: "calc", version: "1.0.0", tools: [
  tool("add", "Adds two numbers", { a: z.number(), b: z.number() }, async ({ a, b }) => ({ content: [{ type: "text", text: "" + (a + b) }] })),
] });
let release;
const gate = new Promise(r => (release = r));
async function* prompts() { await gate; }
const q = query({ prompt: prompts(), options: { pathToClaudeCodeExecutable: process.env.TACK_BIN, cwd: process.env.TACK_CWD,
  mcpServers: { calc } } });
console.log("again", JSON.stringify(await q.setMcpServers({ calc })));
console.log("none", JSON.stringify(await q.setMcpServers({})));
console.log("status", JSON.stringify(await q.mcpServerStatus()));
release();
`

// The in-process server a query starts with is the program's: named
// again by setMcpServers() it is left be, left out it is removed, as the
// SDK drops its side of it. Needs what the tests above need.
func TestTheTypeScriptAgentSDKsStartingServerIsItsOwn(t *testing.T) {
	dir := agentSDKDir(t)
	out := runAgentSDK(t, dir, agentSDKStartServersScript, llmtest.New(t), nil)
	for _, want := range []string{`again {"added":[],"removed":[],"errors":{}}`, `none {"added":[],"removed":["calc"],"errors":{}}`,
		"status []"} {
		if !strings.Contains(out, want) {
			t.Errorf("the SDK did not read %q:\n%s", want, out)
		}
	}
}

// agentSDKHookCallbackScript gives a PreToolUse hook of the program's
// own, as the SDK's examples do, which denies deleting.
const agentSDKHookCallbackScript = `
import { query } from "@anthropic-ai/claude-agent-sdk";
const guard = async (input) => {
  console.log("hook", input.hook_event_name, input.tool_name, input.tool_input.command);
  return { hookSpecificOutput: { hookEventName: "PreToolUse", permissionDecision: "deny", permissionDecisionReason: "No deleting here" } };
};
const q = query({ prompt: "clean up", options: { pathToClaudeCodeExecutable: process.env.TACK_BIN, cwd: process.env.TACK_CWD,
  permissionMode: "bypassPermissions", allowDangerouslySkipPermissions: true,
  hooks: { PreToolUse: [{ matcher: "Bash", hooks: [guard] }] } } });
for await (const m of q) {
  if (m.type === "result") console.log("result", m.subtype);
}
`

// A hook callback of the program's own (the SDK's hooks option) runs when
// tack calls it back, sees Claude Code's tool names, and its denial
// stops the call. Needs what the tests above need.
func TestTheTypeScriptAgentSDKsHooksAreCalledBack(t *testing.T) {
	dir := agentSDKDir(t)
	srv := llmtest.New(t, llmtest.Reply(llmtest.ToolCall("c1", "bash", `{"command":"rm -rf build","description":"Clean"}`, 1)),
		llmtest.ReplyText("I will not."))
	out := runAgentSDK(t, dir, agentSDKHookCallbackScript, srv, nil)
	if !strings.Contains(out, "hook PreToolUse Bash rm -rf build") || !strings.Contains(out, "result success") {
		t.Errorf("the SDK read:\n%s", out)
	}
	if got := srv.Requests()[1].ToolResult("c1"); !strings.Contains(got, "No deleting here") {
		t.Errorf("the model read %q; the SDK read:\n%s", got, out)
	}
}

// agentSDKDir is where TACK_AGENT_SDK says the SDK is installed; the test
// skips without it or without node.
func agentSDKDir(t *testing.T) string {
	t.Helper()
	return testkit.NPMDir(t, "TACK_AGENT_SDK", "@anthropic-ai/claude-agent-sdk and zod", "agentsdk")
}

// runAgentSDK runs script with node in dir, tack as the SDK's executable
// against srv, with home's files (HOME and TACK_HOME) from homeFiles, and
// returns what it printed.
func runAgentSDK(t *testing.T, dir, script string, srv *llmtest.Server, homeFiles map[string]string) string {
	t.Helper()
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, home, homeFiles)
	path := filepath.Join(dir, "tack-agent-sdk-test.mjs")
	if err := os.WriteFile(path, []byte(script), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Remove(path) })
	cmd := exec.Command("node", path)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "TACK_BIN="+tackbin.Path(t), "TACK_CWD="+cwd, "HOME="+home, "TACK_HOME="+home,
		"DEEPSEEK_BASE_URL="+srv.URL(), "DEEPSEEK_API_KEY=test", "CLAUDE_AGENT_SDK_SKIP_VERSION_CHECK=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("the SDK failed: %v\n%s", err, out)
	}
	return string(out)
}
