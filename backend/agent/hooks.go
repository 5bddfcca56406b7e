package agent

import (
	"context"
	"encoding/json"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
)

// Hooks are the user's commands run at points of a turn (backend/hooks).
// Each method returns promptly when ctx ends and records its own runs.
type Hooks interface {
	// BeforeTool runs before a call is authorized and says what the
	// hooks decided of it.
	BeforeTool(ctx context.Context, turn int, call ToolUse) ToolVerdict
	// AfterTool runs after a call ran, isError saying it failed (an error,
	// or a command that did not succeed); what it returns is added to the
	// result the model reads.
	AfterTool(ctx context.Context, turn int, call ToolUse, result tools.Result) string
	// PromptSubmitted runs before a turn starts: a non-empty block says
	// why the prompt is refused; context is added after the prompt.
	PromptSubmitted(ctx context.Context, turn int, prompt string) (block, context string)
	// Stopping runs when the turn would end: a non-empty reason keeps it
	// going, with the reason for the model. again says a stop hook kept
	// this turn going before.
	Stopping(ctx context.Context, turn int, again bool, last string) string
	// Compacting runs before the history is summarised, trigger saying
	// why ("manual" or "auto") and instructions what the user asked of
	// the summary; what it returns joins those instructions. Compacted
	// runs after, with the summary.
	Compacting(ctx context.Context, turn int, trigger, instructions string) string
	Compacted(ctx context.Context, turn int, trigger, summary string)
	// TurnFailed runs when a turn ended on an error: kind is its
	// session.Failure kind (an llm.ErrorKind for the model's), message
	// what it said.
	TurnFailed(ctx context.Context, turn int, kind, message string)
}

// The triggers of a compaction, as Compacting reads them.
const (
	CompactManual = "manual"
	CompactAuto   = "auto"
)

// ToolVerdict is what the pre_tool_use hooks decided of a call: Block is
// the refusal the model reads, where one refused it; Allow skips the
// permission question; Input, where a hook rewrote the call (Claude
// Code's updatedInput), is the arguments it runs with instead; Stop, where
// a hook answered continue: false, is why the turn ends after the step.
type ToolVerdict struct {
	Block string
	Allow bool
	Input json.RawMessage
	Stop  string
}

// ToolUse is a tool call as hooks see it.
type ToolUse struct {
	ID   string
	Name string
	Args json.RawMessage
}

// HookOrigin marks the context hooks add to the conversation.
const HookOrigin = "hook"

// failureKindHook ends a turn whose prompt a hook blocked.
const failureKindHook = "hook"

// maxStopContinuations bounds how often stop hooks keep one turn going.
const maxStopContinuations = 8

// beforeTool runs the pre_tool_use hooks of a call: a refusal result, or
// whether the hooks approved it. Arguments a hook rewrote replace d's.
func (a *Agent) beforeTool(ctx context.Context, turn int, d *dispatch) (*tools.Result, bool) {
	if a.cfg.Hooks == nil {
		return nil, false
	}
	v := a.cfg.Hooks.BeforeTool(ctx, turn, ToolUse{ID: d.call.ID, Name: d.call.Name, Args: d.args})
	if v.Stop != "" {
		a.mu.Lock()
		a.hookStop = v.Stop
		a.mu.Unlock()
	}
	if v.Block == "" {
		if v.Input != nil {
			d.args = v.Input
		}
		return nil, v.Allow
	}
	r := tools.Errorf("a hook blocked this call: %s", v.Block)
	r.Code = session.CodeDenied
	return &r, false
}

// takeHookStop is the turn's end a pre_tool_use hook asked for, if one
// did, and forgets it.
func (a *Agent) takeHookStop(turn int) (session.TurnEnd, bool) {
	a.mu.Lock()
	reason := a.hookStop
	a.hookStop = ""
	a.mu.Unlock()
	if reason == "" {
		return session.TurnEnd{}, false
	}
	return session.TurnEnd{Turn: turn, Reason: session.StopError, Error: &session.Failure{
		Kind: failureKindHook, Message: "a pre_tool_use hook stopped the turn: " + reason}}, true
}

// afterTool adds what the post_tool_use hooks say to the result.
func (a *Agent) afterTool(ctx context.Context, turn int, d *dispatch, r tools.Result) tools.Result {
	if a.cfg.Hooks == nil || ctx.Err() != nil {
		return r
	}
	if note := a.cfg.Hooks.AfterTool(ctx, turn, ToolUse{ID: d.call.ID, Name: d.call.Name, Args: d.args}, r); note != "" {
		r.Text += "\n\n[hook] " + note
	}
	return r
}

// compactHook runs the pre_compact hooks and returns what they add to the
// summary's instructions.
func (a *Agent) compactHook(ctx context.Context, turn int, trigger, instructions string) string {
	if a.cfg.Hooks == nil {
		return ""
	}
	return a.cfg.Hooks.Compacting(ctx, turn, trigger, instructions)
}

// compactedHook runs the post_compact hooks with the summary.
func (a *Agent) compactedHook(ctx context.Context, turn int, trigger, summary string) {
	if a.cfg.Hooks != nil {
		a.cfg.Hooks.Compacted(ctx, turn, trigger, summary)
	}
}

// failedHook runs the stop_failure hooks of a turn that ended on an
// error.
func (a *Agent) failedHook(ctx context.Context, end session.TurnEnd) {
	if a.cfg.Hooks != nil && end.Reason == session.StopError && end.Error != nil {
		a.cfg.Hooks.TurnFailed(ctx, end.Turn, end.Error.Kind, end.Error.Message)
	}
}

// promptHook runs the user_prompt_submit hooks: the context they add, or
// why the turn must not start.
func (a *Agent) promptHook(ctx context.Context, turn int, prompt string) (context, block string) {
	if a.cfg.Hooks == nil {
		return "", ""
	}
	block, context = a.cfg.Hooks.PromptSubmitted(ctx, turn, prompt)
	return context, block
}

// stopHook runs the stop hooks when the turn would end on the answer
// last and reports whether it goes on; the reason joins the turn as
// context.
func (a *Agent) stopHook(ctx context.Context, ts *turnState, last string) bool {
	if a.cfg.Hooks == nil || ctx.Err() != nil || ts.stopContinued >= maxStopContinuations {
		return false
	}
	a.mu.Lock()
	steering := len(a.steering) > 0
	a.mu.Unlock()
	if steering {
		return false // the turn goes on anyway
	}
	reason := a.cfg.Hooks.Stopping(ctx, ts.turn, ts.stopContinued > 0, last)
	if reason == "" || ctx.Err() != nil {
		return false
	}
	ts.stopContinued++
	a.record(session.UserMessage{Turn: ts.turn, Kind: session.KindContext, Origin: HookOrigin,
		Text: "A stop hook asks you to continue: " + reason})
	return true
}
