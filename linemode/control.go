package linemode

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools"
)

// The Agent SDKs (claude-agent-sdk for Python and TypeScript) drive
// claude -p over stream-json with a control protocol beside the user
// messages: they write {"type":"control_request","request_id":…,
// "request":{"subtype":…}} and wait for a control_response carrying the
// same request_id. Print mode answers initialize (taking the program's
// in-process MCP servers, system prompt, agents and hooks), interrupt,
// set_permission_mode, set_model, set_max_thinking_tokens,
// get_context_usage (control_context.go), mcp_status, mcp_reconnect,
// mcp_toggle and mcp_set_servers (control_mcp.go) and rewind_files
// (control_rewind.go), and
// runs the program's hooks by calling them back (hook_callback). Any
// other request gets an error response that says so and what to do
// instead: an SDK waits a minute for an answer that never comes.

// controlRequest is one control_request line.
type controlRequest struct {
	RequestID string `json:"request_id"`
	Request   struct {
		Subtype string          `json:"subtype"`
		Mode    string          `json:"mode"`
		Model   string          `json:"model"`
		Hooks   json.RawMessage `json:"hooks"`
		Agents  json.RawMessage `json:"agents"`
		// SDKMCPServers are the in-process MCP servers the SDK hosts.
		SDKMCPServers []string `json:"sdkMcpServers"`
		// SystemPrompt (a string or a list of parts) and
		// AppendSystemPrompt are the program's, as the SDKs send them.
		SystemPrompt       json.RawMessage `json:"systemPrompt"`
		AppendSystemPrompt string          `json:"appendSystemPrompt"`
		// ServerName is the MCP server of mcp_reconnect and mcp_toggle;
		// Enabled says whether mcp_toggle turns it on or off.
		ServerName string `json:"serverName"`
		Enabled    *bool  `json:"enabled"`
		// Servers of mcp_set_servers are the program's MCP servers by
		// name, each in Claude Code's shape.
		Servers json.RawMessage `json:"servers"`
		// UserMessageID is the message whose files rewind_files returns
		// to; DryRun only measures what it would change.
		UserMessageID string `json:"user_message_id"`
		DryRun        bool   `json:"dry_run"`
		// MaxThinkingTokens of set_max_thinking_tokens: 0 turns
		// thinking off.
		MaxThinkingTokens *int `json:"max_thinking_tokens"`
	} `json:"request"`
}

// controlResponse is the control_response line answering one.
type controlResponse struct {
	Type     string         `json:"type"` // "control_response"
	Response controlOutcome `json:"response"`
}

type controlOutcome struct {
	Subtype   string `json:"subtype"` // "success" or "error"
	RequestID string `json:"request_id"`
	Response  any    `json:"response,omitempty"`
	Error     string `json:"error,omitempty"`
}

// control takes a control message of stdin: it answers a
// control_request, and hands a control_response to the can_use_tool
// request it answers. It runs on the goroutine that reads stdin, so an
// interrupt reaches a running turn.
func (p *printer) control(line []byte) {
	if controlType(line) == "control_response" {
		if p.channel != nil {
			p.channel.deliver(line)
		}
		return
	}
	var req controlRequest
	if err := json.Unmarshal(line, &req); err != nil || req.RequestID == "" {
		p.answer(req.RequestID, nil, "a control_request needs a request_id and a request object")
		return
	}
	switch r := req.Request; r.Subtype {
	case "initialize":
		agents, err := sdkAgents(r.Agents)
		if err == nil {
			err = p.addSDKHooks(r.Hooks)
		}
		switch {
		case err != nil:
			p.answer(req.RequestID, nil, err.Error())
		default:
			p.s.AddAgents(agents)
			p.addSDKServers(r.SDKMCPServers)
			if own := promptText(r.SystemPrompt); own != "" || r.AppendSystemPrompt != "" {
				p.s.SetSystemPrompt(own, r.AppendSystemPrompt)
			}
			p.answer(req.RequestID, p.initialized(), "")
		}
	case "interrupt":
		p.ag.Cancel()
		p.answer(req.RequestID, map[string]any{}, "")
	case "set_permission_mode":
		line := "/permissions " + r.Mode
		if r.Mode == "plan" {
			line = "/plan"
		}
		p.runControl(req.RequestID, line)
	case "set_model":
		p.runControl(req.RequestID, "/model "+r.Model)
	case "set_max_thinking_tokens":
		p.setThinking(req.RequestID, r.MaxThinkingTokens)
	case "get_context_usage":
		p.answer(req.RequestID, p.contextUsage(), "")
	case "mcp_status":
		p.answer(req.RequestID, map[string]any{"mcpServers": p.serverStatuses()}, "")
	case "mcp_reconnect":
		p.reconnect(req.RequestID, r.ServerName)
	case "mcp_toggle":
		p.toggle(req.RequestID, r.ServerName, r.Enabled)
	case "mcp_set_servers":
		p.setServers(req.RequestID, r.Servers)
	case "rewind_files":
		p.rewindFiles(req.RequestID, r.UserMessageID, r.DryRun)
	default:
		p.answer(req.RequestID, nil, unsupported(r.Subtype))
	}
}

// insteads are what a program can do in place of requests the SDKs send
// that tack does not take.
var insteads = map[string]string{
	"stop_task": "tack reports no background tasks to the SDK, so there is no task id to stop; interrupt() stops " +
		"the turn and the commands it runs",
	"apply_flag_settings": "give settings in the settings option (--settings) when the query starts",
	"reload_plugins":      "start a new query to load the plugins anew",
	"get_usage":           "the result message of each turn carries its usage and total_cost_usd",
}

// unsupported is the error answer to a request tack does not take: what
// to do instead, where there is something.
func unsupported(subtype string) string {
	text := "tack does not support the control request " + subtype
	if instead, ok := insteads[subtype]; ok {
		return text + "; " + instead
	}
	return text + "; it answers initialize, interrupt, set_permission_mode, set_model, set_max_thinking_tokens, " +
		"get_context_usage, mcp_status, mcp_reconnect, mcp_toggle, mcp_set_servers and rewind_files"
}

// addSDKHooks runs the hooks an SDK names as it initializes, each a
// hook_callback request to it: {"PreToolUse": [{"matcher": "Bash",
// "hookCallbackIds": ["hook_0"], "timeout": 30}]}. Those of events tack
// does not have are said on stderr and left out.
func (p *printer) addSDKHooks(raw json.RawMessage) error {
	if !present(raw) {
		return nil
	}
	var events map[string][]struct {
		Matcher         string   `json:"matcher"`
		HookCallbackIDs []string `json:"hookCallbackIds"`
		Timeout         float64  `json:"timeout"`
	}
	if err := json.Unmarshal(raw, &events); err != nil {
		return fmt.Errorf("initialize: hooks: %v", err)
	}
	var hs []hooks.Hook
	for _, event := range slices.Sorted(maps.Keys(events)) {
		for _, m := range events[event] {
			for _, id := range m.HookCallbackIDs {
				h, err := hooks.NewCallback(event, m.Matcher, "the Agent SDK's hook "+id,
					time.Duration(m.Timeout*float64(time.Second)), p.hookCallback(id))
				if err != nil {
					fmt.Fprintf(p.o.Stderr, "tack: the Agent SDK's %s hook: %v; it is left out\n", event, err)
					continue
				}
				hs = append(hs, h)
			}
		}
	}
	return p.s.AddHooks(hs)
}

// hookCallback asks the SDK to run its hook callback id with what a hook
// command would read, and returns its answer.
func (p *printer) hookCallback(id string) func(context.Context, []byte) ([]byte, error) {
	return func(ctx context.Context, input []byte) ([]byte, error) {
		var in struct {
			ToolUseID string `json:"tool_use_id"`
		}
		json.Unmarshal(input, &in)
		return p.channel.request(ctx, "hook_callback", map[string]any{
			"callback_id": id, "input": json.RawMessage(input), "tool_use_id": in.ToolUseID,
		})
	}
}

// sdkAgents are the agent definitions an SDK sent, in --agents' shape.
func sdkAgents(raw json.RawMessage) ([]subagent.Definition, error) {
	if !present(raw) {
		return nil, nil
	}
	return subagent.FromJSON(raw)
}

// promptText is a system prompt an SDK sent: a string, or its parts
// joined by blank lines.
func promptText(raw json.RawMessage) string {
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return strings.TrimSpace(one)
	}
	var parts []string
	json.Unmarshal(raw, &parts)
	return strings.TrimSpace(strings.Join(parts, "\n\n"))
}

// setThinking answers set_max_thinking_tokens: tack's models take no
// thinking budget, so 0 turns thinking off and any other budget turns it
// back on at the model's default effort.
func (p *printer) setThinking(id string, tokens *int) {
	model, effort := p.ag.Model()
	switch {
	case tokens != nil && *tokens == 0:
		effort = llm.EffortOff
	case effort == llm.EffortOff:
		m, _ := p.ag.Catalog().Lookup(model)
		effort = cmp.Or(m.DefaultEffort, llm.EffortHigh)
	}
	if err := p.ag.SetModel(model, effort); err != nil {
		p.answer(id, nil, err.Error())
		return
	}
	p.answer(id, map[string]any{}, "")
}

// present reports whether a JSON value is there and not null or empty.
func present(raw json.RawMessage) bool {
	s := strings.TrimSpace(string(raw))
	return s != "" && s != "null" && s != "{}" && s != "[]"
}

// initialized is what initialize answers: the slash commands a task may
// name.
func (p *printer) initialized() map[string]any {
	var cmds []map[string]string
	if p.s.Commands != nil {
		for _, c := range p.s.Commands.List(p.ag.SessionID()) {
			cmds = append(cmds, map[string]string{"name": c.Name, "description": c.Summary(), "argumentHint": c.Input.Hint})
		}
	}
	return map[string]any{"commands": cmds}
}

// runControl answers a control request by running a slash command: its
// failure is the error.
func (p *printer) runControl(id, line string) {
	if p.s.Commands == nil {
		p.answer(id, nil, "this session has no commands")
		return
	}
	exec, found := p.s.Commands.Execute(context.Background(), p.ag, line, nil)
	if !found || exec.Result.Kind == commands.Error {
		p.answer(id, nil, strings.TrimSpace(exec.Result.Text))
		return
	}
	p.answer(id, map[string]any{}, "")
}

// answer writes the control_response to the request id: a success with
// response, or the error.
func (p *printer) answer(id string, response any, errText string) {
	out := controlOutcome{Subtype: "success", RequestID: id, Response: response}
	if errText != "" {
		out = controlOutcome{Subtype: "error", RequestID: id, Error: errText}
	}
	writeJSON(p.o.Stdout, controlResponse{Type: "control_response", Response: out})
}

// With --permission-prompt-tool stdio, the Agent SDK decides the calls
// the permission mode would ask about (its can_use_tool callback): print
// mode writes a can_use_tool control request for each and takes the
// control_response with its id from stdin. What the SDK does not answer
// before the turn ends stays denied.

// sdkAsker puts the session's approvals to the Agent SDK.
type sdkAsker struct {
	p       *printer
	channel *SDKChannel
}

// serve answers the broker's approval requests until ctx ends.
func (a *sdkAsker) serve(ctx context.Context) {
	b := a.p.s.Broker
	unmount := b.Mount()
	defer unmount()
	var last int64 // a settled request stays pending until its asker takes the answer
	for {
		for _, r := range b.Pending() {
			if r.ID > last {
				last = r.ID
				if r.Approval != nil {
					go a.ask(ctx, r)
				}
			}
		}
		select {
		case <-b.Changes():
		case <-ctx.Done():
			return
		}
	}
}

// ask puts one approval to the SDK and settles it with the answer.
func (a *sdkAsker) ask(ctx context.Context, r *interact.Request) {
	input := r.Approval.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	resp, err := a.channel.request(ctx, "can_use_tool", map[string]any{
		"tool_name": tools.ClaudeName(r.Approval.Tool), "input": input,
		"tool_use_id": r.Approval.CallID, "permission_suggestions": []any{},
	})
	var ans struct {
		Behavior string `json:"behavior"`
		Message  string `json:"message"`
	}
	switch {
	case ctx.Err() != nil:
	case err != nil:
		r.Decide(interact.Decision{Verdict: interact.Deny, Reason: err.Error()})
	case json.Unmarshal(resp, &ans) == nil && ans.Behavior == "allow":
		r.Decide(interact.Decision{Verdict: interact.Allow})
	default:
		r.Decide(interact.Decision{Verdict: interact.Deny, Reason: ans.Message})
	}
}
