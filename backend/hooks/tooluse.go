package hooks

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/tools"
)

// The hooks around a tool call: pre_tool_use before it is authorized,
// permission_request where tack would ask, and post_tool_use or
// post_tool_use_failure after it ran.

// BeforeTool runs pre_tool_use: any block refuses the call (the reasons
// are what the model reads); an approval with no block skips the
// permission question.
func (r *Runner) BeforeTool(ctx context.Context, turn int, call agent.ToolUse) agent.ToolVerdict {
	return r.beforeTool(ctx, caller{}, turn, call)
}

func (r *Runner) beforeTool(ctx context.Context, c caller, turn int, call agent.ToolUse) agent.ToolVerdict {
	results := r.runFor(ctx, c, turn, PreToolUse, Input{ToolName: call.Name, ToolInput: tools.ClaudeInput(call.Args, r.opts.Cwd), ToolUseID: call.ID}, call.ID)
	approved := false
	var blocks []string
	for _, res := range results {
		if res.Outcome == OutcomeBlocked {
			blocks = append(blocks, res.Reason)
		}
		approved = approved || res.approves()
	}
	if len(blocks) > 0 {
		return agent.ToolVerdict{Block: strings.Join(blocks, "\n"), Stop: stopReason(results)}
	}
	return agent.ToolVerdict{Allow: approved, Input: updatedInput(call.Args, results)}
}

// AfterTool runs post_tool_use after a call that succeeded and
// post_tool_use_failure after one that failed (tools.Result.Failed), as
// Claude Code runs PostToolUse and PostToolUseFailure: what hooks block
// with (the tool already ran) or add as context goes to the model with
// the result.
func (r *Runner) AfterTool(ctx context.Context, turn int, call agent.ToolUse, result tools.Result) string {
	return r.afterTool(ctx, caller{}, turn, call, result)
}

func (r *Runner) afterTool(ctx context.Context, c caller, turn int, call agent.ToolUse, result tools.Result) string {
	ms := result.Duration.Milliseconds()
	event, in := PostToolUse, Input{ToolName: call.Name, ToolInput: tools.ClaudeInput(call.Args, r.opts.Cwd), ToolUseID: call.ID,
		DurationMs: &ms}
	if result.Failed() {
		interrupted := ctx.Err() != nil
		event, in.Error, in.IsInterrupt = PostToolUseFailure, result.Text, &interrupted
	} else {
		in.ToolResponse = toolResponse(call.ID, call.Name, in.ToolInput, result)
	}
	results := r.runFor(ctx, c, turn, event, in, call.ID)
	var notes []string
	for _, res := range results {
		switch {
		case res.Outcome == OutcomeBlocked:
			notes = append(notes, res.Reason)
		case res.context() != "":
			notes = append(notes, res.context())
		}
	}
	return strings.Join(notes, "\n")
}

// DecidePermission runs permission_request for a call tack would ask
// the user about: a hook that denies (exit 2, or a decision of
// behavior deny) denies it, else one that allows allows it; decided is
// false when none answers, and the user is asked.
func (r *Runner) DecidePermission(ctx context.Context, call agent.ToolUse) (allow bool, reason string, decided bool) {
	in := Input{ToolName: call.Name, ToolInput: tools.ClaudeInput(call.Args, r.opts.Cwd), ToolUseID: call.ID}
	var denials []string
	for _, res := range r.runAll(ctx, 0, PermissionRequest, in, call.ID) {
		var d *PermissionDecision
		if a := res.Answer; a != nil && a.HookSpecial != nil {
			d = a.HookSpecial.Decision
		}
		switch {
		case res.Outcome == OutcomeBlocked:
			denials = append(denials, res.Reason)
		case res.Outcome != OutcomeOK || d == nil:
		case d.Behavior == "deny":
			denials = append(denials, d.Message)
		case d.Behavior == "allow":
			allow = true
		}
	}
	if len(denials) > 0 {
		return false, strings.Join(slices.DeleteFunc(denials, func(s string) bool { return strings.TrimSpace(s) == "" }), "\n"), true
	}
	return allow, "", allow
}

// toolResponse is the tool_response of call id of tool (tack's name) with
// input (tool_input, its file_path made absolute) that answered result:
// Claude Code's structured answer where claudemsg has its shape (a
// command's stdout, an edit's structuredPatch), beside tack's output, and
// for a file tool the filePath and success Claude Code's hooks document.
func toolResponse(id, tool string, input json.RawMessage, result tools.Result) json.RawMessage {
	fields := map[string]any{}
	call := claudemsg.ToolCall{ID: id, Name: tools.ClaudeName(tool), Input: input, Text: result.Text, Card: result.Card,
		Duration: result.Duration}
	if answer := claudemsg.ToolUseResult(call); answer != nil {
		b, _ := json.Marshal(answer)
		_ = json.Unmarshal(b, &fields)
	}
	fields["output"] = result.Text
	var in struct {
		FilePath string `json:"file_path"`
	}
	if json.Unmarshal(input, &in) == nil && in.FilePath != "" {
		fields["filePath"], fields["success"] = in.FilePath, true
	}
	b, _ := json.Marshal(fields)
	return b
}

// stopReason is why a hook that answered continue: false stops the turn,
// as Claude Code stops after such a hook; "" where none did.
func stopReason(results []Result) string {
	for _, res := range results {
		if a := res.Answer; a != nil && a.Continue != nil && !*a.Continue {
			return res.Reason
		}
	}
	return ""
}
