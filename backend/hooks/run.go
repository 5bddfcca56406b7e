package hooks

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"os/exec"
	"slices"
	"strings"
	"time"
)

// maxOutput bounds what is kept of a hook's stdout and of its stderr.
const maxOutput = 64 << 10

// Input is the JSON object a hook reads on stdin. The field names are
// Claude Code's, so scripts written for it read the same fields.
type Input struct {
	SessionID string `json:"session_id"`
	// PromptID names the user's input the hook runs for, as the promptId
	// of its lines in the transcript: the latest, or the one being
	// submitted for user_prompt_submit; absent before the first.
	PromptID       string `json:"prompt_id,omitempty"`
	TranscriptPath string `json:"transcript_path"`
	Cwd            string `json:"cwd"`
	Event          string `json:"hook_event_name"`
	PermissionMode string `json:"permission_mode,omitempty"`
	// Effort is the reasoning effort of the turn the hook runs in, as the
	// status line's; Claude Code sends it since 2.1.133, not to the
	// session's start and end, and not where the model has no level.
	Effort       *StatusEffort   `json:"effort,omitempty"`
	ToolName     string          `json:"tool_name,omitempty"`
	ToolInput    json.RawMessage `json:"tool_input,omitempty"`
	ToolUseID    string          `json:"tool_use_id,omitempty"`
	ToolResponse json.RawMessage `json:"tool_response,omitempty"`
	// DurationMs is how long the tool ran, for post_tool_use and
	// post_tool_use_failure.
	DurationMs     *int64 `json:"duration_ms,omitempty"`
	Prompt         string `json:"prompt,omitempty"`
	StopHookActive *bool  `json:"stop_hook_active,omitempty"`
	// LastAssistantMessage is the answer a turn would end on, for stop
	// and subagent_stop.
	LastAssistantMessage string `json:"last_assistant_message,omitempty"`
	Message              string `json:"message,omitempty"`
	// NotificationType is what a notification is about, by Claude Code's
	// names: NotifyPermission or NotifyIdle.
	NotificationType string `json:"notification_type,omitempty"`
	// Source is why a session started, Reason why it ended; Model is the
	// session's model, for session_start.
	Source string `json:"source,omitempty"`
	Model  string `json:"model,omitempty"`
	Reason string `json:"reason,omitempty"`
	// Trigger is why the history is being compacted ("manual", "auto"),
	// CustomInstructions what the user asked of the summary.
	Trigger            string  `json:"trigger,omitempty"`
	CustomInstructions *string `json:"custom_instructions,omitempty"`
	// Error is what a failed call answered, for post_tool_use_failure
	// (IsInterrupt says the user stopped it), or the type of the error a
	// turn ended on, for stop_failure (ErrorDetails says more).
	Error        string `json:"error,omitempty"`
	IsInterrupt  *bool  `json:"is_interrupt,omitempty"`
	ErrorDetails string `json:"error_details,omitempty"`
	// CompactSummary is the summary a compaction made, for post_compact.
	CompactSummary string `json:"compact_summary,omitempty"`
	// AgentID and AgentType name the subagent a hook runs for (its child
	// session and its definition), AgentTranscriptPath is its Claude Code
	// transcript; empty for the session's own agent.
	AgentID             string `json:"agent_id,omitempty"`
	AgentType           string `json:"agent_type,omitempty"`
	AgentTranscriptPath string `json:"agent_transcript_path,omitempty"`
	// MCPServerName is the server whose request elicitation and
	// elicitation_result are about (Message is its message); Mode is
	// "form", with RequestedSchema the form, or "url", with URL the web
	// page the user is asked to open and ElicitationID the server's name
	// for it; Action and Content the user's answer, for
	// elicitation_result.
	MCPServerName   string         `json:"mcp_server_name,omitempty"`
	Mode            string         `json:"mode,omitempty"`
	RequestedSchema map[string]any `json:"requested_schema,omitempty"`
	URL             string         `json:"url,omitempty"`
	ElicitationID   string         `json:"elicitation_id,omitempty"`
	Action          string         `json:"action,omitempty"`
	Content         map[string]any `json:"content,omitempty"`
}

// Answer is the JSON object a hook may print on stdout (exit 0), in
// Claude Code's shape.
type Answer struct {
	Continue    *bool  `json:"continue"`
	StopReason  string `json:"stopReason"`
	Decision    string `json:"decision"` // "block", or pre_tool_use's legacy "approve"
	Reason      string `json:"reason"`
	SystemMsg   string `json:"systemMessage"`
	HookSpecial *struct {
		PermissionDecision       string `json:"permissionDecision"` // "allow", "deny", "ask"
		PermissionDecisionReason string `json:"permissionDecisionReason"`
		AdditionalContext        string `json:"additionalContext"`
		// UpdatedInput is the arguments a pre_tool_use hook rewrote the
		// call's to, field by field.
		UpdatedInput map[string]json.RawMessage `json:"updatedInput"`
		Decision     *PermissionDecision        `json:"decision"`
		// Action and Content answer an MCP server's form (elicitation,
		// elicitation_result).
		Action  string         `json:"action"`
		Content map[string]any `json:"content"`
	} `json:"hookSpecificOutput"`
}

// PermissionDecision is a permission_request hook's answer to the
// approval: Behavior "allow" or "deny", Message the denial's reason.
type PermissionDecision struct {
	Behavior string `json:"behavior"`
	Message  string `json:"message"`
}

// Outcome is how one run ended.
type Outcome string

const (
	OutcomeOK      Outcome = "ok"
	OutcomeBlocked Outcome = "blocked"
	// OutcomeFailed covers a non-zero exit other than 2, a timeout, a
	// command that would not start and an answer that is not JSON.
	OutcomeFailed Outcome = "failed"
)

// Result is one hook run.
type Result struct {
	Hook     Hook
	Outcome  Outcome
	ExitCode int
	Duration time.Duration
	// Reason is why it blocked (stderr, or the answer's reason), or why it
	// failed.
	Reason string
	// Stdout is its output when it printed no JSON answer.
	Stdout string
	Answer *Answer
	// stderr is what a command that exited 2 printed on stderr.
	stderr string
	// later, set when the command said on its first line that it goes on
	// in the background, waits under ctx for it to end and is its result
	// then, as an async hook's.
	later func(ctx context.Context) Result
}

// run runs one hook with in on stdin, bounded by its timeout and ctx; j
// answers a prompt or agent hook.
func run(ctx context.Context, h Hook, in Input, dir string, environ []string, j judges) Result {
	start := time.Now()
	res := Result{Hook: h}
	body, _ := json.Marshal(in)
	if in.Effort != nil {
		// Claude Code's hook commands read the level in CLAUDE_EFFORT too.
		environ = append(slices.Clip(environ), "CLAUDE_EFFORT="+in.Effort.Level)
	}
	ctx, cancel := context.WithTimeout(ctx, h.Timeout)
	defer cancel()
	if h.Callback != nil {
		return called(ctx, h, h.Callback, body, res, start)
	}
	if h.Prompt != nil {
		return called(ctx, h, h.Prompt.caller(h.Event, j), body, res, start)
	}
	if h.Request != nil {
		return called(ctx, h, h.Request.poster(slices.Concat(environ, h.Env)), body, res, start)
	}
	p, err := startShell(h.Command, dir, slices.Concat(environ, h.Env), body)
	if err != nil {
		res.Outcome, res.ExitCode, res.Reason = OutcomeFailed, -1, "could not run: "+err.Error()
		return res
	}
	head, err := p.await(ctx)
	if head != nil {
		return wentAsync(res, h, p, *head, start)
	}
	return p.result(ctx, res, h.Timeout, start, err)
}

// wentAsync is the result of a command that said on its first line that
// it goes on in the background: nothing to act on yet; later waits for
// it, and is its result as an async hook's.
func wentAsync(res Result, h Hook, p *proc, head asyncHead, start time.Time) Result {
	res.Outcome, res.Duration = OutcomeOK, time.Since(start)
	res.later = func(bg context.Context) Result {
		ctx, cancel := context.WithTimeout(bg, head.timeout())
		defer cancel()
		_, err := p.await(ctx)
		h.Async = true
		return p.result(ctx, Result{Hook: h}, head.timeout(), start, err)
	}
	return res
}

// result is the result of p, which ended with err under ctx, bounded by
// timeout.
func (p *proc) result(ctx context.Context, res Result, timeout time.Duration, start time.Time, err error) Result {
	res.Duration = time.Since(start)
	var exit *exec.ExitError
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Outcome, res.ExitCode = OutcomeFailed, -1
		res.Reason = fmt.Sprintf("timed out after %s", timeout)
		return res
	case ctx.Err() != nil:
		res.Outcome, res.ExitCode, res.Reason = OutcomeFailed, -1, "cancelled"
		return res
	case errors.As(err, &exit):
		res.ExitCode = exit.ExitCode()
	case err != nil:
		res.Outcome, res.ExitCode, res.Reason = OutcomeFailed, -1, "could not run: "+err.Error()
		return res
	}
	switch res.ExitCode {
	case 0:
		return answered(res, p.stdout.String())
	case 2:
		res.Outcome = OutcomeBlocked
		res.stderr, res.Stdout = strings.TrimSpace(p.stderr.String()), strings.TrimSpace(p.stdout.String())
		res.Reason = res.stderr
		if res.Reason == "" {
			res.Reason = "blocked by a hook (" + res.Hook.Command + ")"
		}
	default:
		res.Outcome = OutcomeFailed
		res.Reason = fmt.Sprintf("exit status %d", res.ExitCode)
		if tail := lastLines(p.stderr.String(), 5); tail != "" {
			res.Reason += ": " + tail
		}
	}
	return res
}

// called runs a hook that answers by call (an SDK's callback, an HTTP
// hook's request): its answer is read as a command's stdout would be,
// and a call that fails or runs out of time fails.
func called(ctx context.Context, h Hook, call func(context.Context, []byte) ([]byte, error), body []byte, res Result, start time.Time) Result {
	out, err := call(ctx, body)
	res.Duration = time.Since(start)
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		res.Outcome, res.ExitCode, res.Reason = OutcomeFailed, -1, fmt.Sprintf("timed out after %s", h.Timeout)
		return res
	case err != nil:
		res.Outcome, res.ExitCode, res.Reason = OutcomeFailed, -1, err.Error()
		return res
	}
	return answered(res, string(out))
}

// answered reads the stdout of a hook that exited 0: a JSON answer when it
// looks like one (a malformed one is a failure), else plain text.
func answered(res Result, out string) Result {
	res.Outcome = OutcomeOK
	trimmed := strings.TrimSpace(pastAsync(out))
	if !strings.HasPrefix(trimmed, "{") {
		res.Stdout = trimmed
		return res
	}
	var a Answer
	if err := json.Unmarshal([]byte(trimmed), &a); err != nil {
		res.Outcome = OutcomeFailed
		res.Reason = "its answer on stdout is not valid JSON (" + err.Error() + "); it was ignored"
		return res
	}
	res.Answer = &a
	switch {
	case a.Continue != nil && !*a.Continue:
		res.Outcome, res.Reason = OutcomeBlocked, a.StopReason
	case a.Decision == "block":
		res.Outcome, res.Reason = OutcomeBlocked, a.Reason
	case a.HookSpecial != nil && a.HookSpecial.PermissionDecision == "deny":
		res.Outcome, res.Reason = OutcomeBlocked, a.HookSpecial.PermissionDecisionReason
	}
	if res.Outcome == OutcomeBlocked && strings.TrimSpace(res.Reason) == "" {
		res.Reason = "blocked by a hook (" + res.Hook.Command + ")"
	}
	return res
}

// pastAsync is a hook's stdout past a first line {"async": true}, with
// which Claude Code's hooks say they go on in the background and answer
// later (Anthropic's security-guidance plugin starts so): the answer is
// the first JSON object after that line, or else the text after it.
func pastAsync(out string) string {
	first, rest, _ := strings.Cut(strings.TrimLeft(out, " \t\r\n"), "\n")
	var head struct {
		Async bool `json:"async"`
	}
	if json.Unmarshal([]byte(first), &head) != nil || !head.Async {
		return out
	}
	for _, line := range strings.Split(rest, "\n") {
		if line = strings.TrimSpace(line); strings.HasPrefix(line, "{") && json.Valid([]byte(line)) {
			return line
		}
	}
	return rest
}

// updatedInput is args with the fields of each updatedInput the results
// answered put in, later hooks' over earlier ones', as Claude Code's
// PreToolUse hooks rewrite a call (a command given a flag, a path moved);
// nil where no hook rewrote it, or args is no JSON object.
func updatedInput(args json.RawMessage, results []Result) json.RawMessage {
	var fields map[string]json.RawMessage
	for _, res := range results {
		a := res.Answer
		if res.Outcome != OutcomeOK || a == nil || a.HookSpecial == nil || len(a.HookSpecial.UpdatedInput) == 0 {
			continue
		}
		if fields == nil && json.Unmarshal(args, &fields) != nil {
			return nil
		}
		if fields == nil {
			fields = map[string]json.RawMessage{}
		}
		maps.Copy(fields, a.HookSpecial.UpdatedInput)
	}
	if fields == nil {
		return nil
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return nil
	}
	return out
}

// approves reports whether the answer approves a tool call outright.
func (r Result) approves() bool {
	a := r.Answer
	if r.Outcome != OutcomeOK || a == nil {
		return false
	}
	return a.Decision == "approve" || a.HookSpecial != nil && a.HookSpecial.PermissionDecision == "allow"
}

// context is what the hook adds to the model's context: its
// additionalContext, or, for user_prompt_submit and session_start, its
// plain stdout.
func (r Result) context() string {
	if r.Outcome != OutcomeOK {
		return ""
	}
	if r.Answer != nil && r.Answer.HookSpecial != nil && r.Answer.HookSpecial.AdditionalContext != "" {
		return r.Answer.HookSpecial.AdditionalContext
	}
	switch r.Hook.Event {
	case UserPromptSubmit, SessionStart, SubagentStart, PreCompact:
		return r.Stdout
	}
	return ""
}

// message is the systemMessage of the hook's answer, for the user.
func (r Result) message() string {
	if r.Answer == nil {
		return ""
	}
	return strings.TrimSpace(r.Answer.SystemMsg)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.TrimSpace(strings.Join(lines, "\n"))
}
