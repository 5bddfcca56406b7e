// Package hooks runs the user's hook commands at points of a session, in
// the manner of Claude Code's hooks: before and after a tool call, when a
// prompt is submitted, when the agent would stop, and when tack needs the
// user. A hook gets a JSON object on stdin and answers with its exit code
// (0 goes on, 2 blocks with stderr as the reason, anything else is a
// failure that blocks nothing) and optionally a JSON object on stdout.
// Every run is recorded as a hook/run session event.
package hooks

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/tools"
)

// Event is a point of the session hooks run at.
type Event string

const (
	PreToolUse       Event = "pre_tool_use"
	PostToolUse      Event = "post_tool_use"
	UserPromptSubmit Event = "user_prompt_submit"
	Stop             Event = "stop"
	Notification     Event = "notification"
	// SessionStart runs once a session is open, its matcher on why
	// ("startup", "resume"); SessionEnd as it closes, its matcher on
	// why ("other").
	SessionStart Event = "session_start"
	SessionEnd   Event = "session_end"
	// SubagentStop runs when a subagent (the task tool's) would end, its
	// matcher on the agent's type; a block keeps it going, as stop does
	// for the session's agent.
	SubagentStop Event = "subagent_stop"
	// PreCompact runs before the history is summarised, its matcher on
	// why ("manual", "auto"); what it prints joins the summary's
	// instructions. It cannot stop the compaction.
	PreCompact Event = "pre_compact"
	// PostToolUseFailure runs after a call that failed, in place of
	// post_tool_use, which runs after one that succeeded; what it blocks
	// with or adds goes to the model.
	PostToolUseFailure Event = "post_tool_use_failure"
	// SubagentStart runs as a subagent starts, its matcher on the agent's
	// type; what it prints joins the subagent's prompt.
	SubagentStart Event = "subagent_start"
	// PostCompact runs after the history was summarised, with the summary;
	// StopFailure after a turn ended on an error, its matcher on the
	// error's type (Claude Code's names: rate_limit, server_error, …).
	// What they print is not read.
	PostCompact Event = "post_compact"
	StopFailure Event = "stop_failure"
	// PermissionRequest runs when tack would ask the user to approve a
	// call, its matcher on the tool; it may answer in the user's place.
	PermissionRequest Event = "permission_request"
	// Elicitation runs when an MCP server asks the user to fill in a form,
	// before the user is asked, its matcher on the server's name; it may
	// answer in the user's place, or decline. ElicitationResult runs after
	// the user answered, and may change the answer.
	Elicitation       Event = "elicitation"
	ElicitationResult Event = "elicitation_result"
)

// claudeName is the event's name in Claude Code, sent as hook_event_name
// so scripts written for it work, and accepted as a table name.
var claudeName = map[Event]string{
	PreToolUse: "PreToolUse", PostToolUse: "PostToolUse", UserPromptSubmit: "UserPromptSubmit",
	Stop: "Stop", Notification: "Notification", SessionStart: "SessionStart", SessionEnd: "SessionEnd",
	SubagentStop: "SubagentStop", PreCompact: "PreCompact", PostToolUseFailure: "PostToolUseFailure", SubagentStart: "SubagentStart",
	PostCompact: "PostCompact", StopFailure: "StopFailure", PermissionRequest: "PermissionRequest",
	Elicitation: "Elicitation", ElicitationResult: "ElicitationResult",
}

// claudeOnly are Claude Code's hook events tack has no counterpart of, so
// a settings file naming them is told so rather than that they are no
// events at all.
var claudeOnly = []string{
	"Setup", "ConfigChange", "CwdChanged", "InstructionsLoaded", "WorktreeCreate", "WorktreeRemove", "TeammateIdle",
	"TaskCompleted", "UserPromptExpansion"}

// ClaudeName is the name Claude Code gives event ("PreToolUse" for
// pre_tool_use); an unknown one is returned as it is.
func ClaudeName(event string) string { return cmp.Or(claudeName[Event(event)], event) }

func parseEvent(name string) (Event, bool) {
	for e, c := range claudeName {
		if name == string(e) || name == c {
			return e, true
		}
	}
	return "", false
}

// DefaultTimeout bounds a hook that names no timeout, and AsyncTimeout
// one that runs in the background: nothing waits for it, and Claude Code
// gives its background hooks ten minutes.
const (
	DefaultTimeout = 60 * time.Second
	AsyncTimeout   = 10 * time.Minute
)

// Hook is one configured command.
type Hook struct {
	Event   Event
	Command string
	Timeout time.Duration
	// matcher selects tools for the tool events, and the source or
	// reason for session_start and session_end; nil matches all.
	matcher *regexp.Regexp
	// Origin is where it was configured ("config.toml line 3").
	Origin string
	// Project hooks come from the repository and run once approved.
	Project bool
	// Env are variables the hook's command gets beyond the session's
	// ("CLAUDE_PLUGIN_ROOT=…" for a plugin's).
	Env []string
	// Callback, when set, runs in place of Command: it gets what the
	// command would read on stdin and answers what it would print (an
	// Agent SDK's hook, called back over the control protocol).
	Callback func(ctx context.Context, input []byte) ([]byte, error)
	// Request, when set, is an HTTP hook, run in place of Command (which
	// names it in messages).
	Request *Request
	// Prompt, when set, is a prompt hook, asked in place of Command
	// (which names it in messages).
	Prompt *Prompt
	// Async runs the command in the background (Claude Code's "async":
	// true): nothing waits for it; once it ends, the systemMessage and
	// additionalContext it answers reach the model (Options.Inject), and
	// a decision, too late to act on, is only logged.
	Async bool
	// Rewake, an async hook's, wakes the model when the command exits 2
	// (Claude Code's "asyncRewake": true): what it printed on stderr
	// joins the running turn, or starts one (Options.Wake).
	Rewake bool
	// condition, when set, is the handler's "if": it runs only for the
	// tool calls the condition covers, and never at other events.
	condition *permission.Condition
}

// NewCallback is a hook of event (tack's or Claude Code's name) whose
// matcher (a regular expression over tool names; "" matches all) selects
// what callback answers for; named says what it is in messages, and
// timeout of 0 is DefaultTimeout.
func NewCallback(event, matcher, named string, timeout time.Duration, callback func(context.Context, []byte) ([]byte, error)) (Hook, error) {
	e, ok := parseEvent(event)
	if !ok {
		return Hook{}, fmt.Errorf("%s is not a hook event tack has", event)
	}
	hs, err := groupHooks(e, config.HookGroup{Matcher: matcher, Command: named}, named, false)
	if err != nil {
		return Hook{}, err
	}
	h := hs[0]
	h.Callback, h.Timeout = callback, cmp.Or(timeout, DefaultTimeout)
	return h, nil
}

// Matches reports whether the hook runs for the tool: its matcher finds
// the tool's name, or a name Claude Code gives or gave the same tool, so
// "Bash", "Edit|Write" and "Task" as well as "Agent" work as they do
// there.
func (h Hook) Matches(tool string) bool {
	if h.matcher == nil || h.matcher.MatchString(tool) {
		return true
	}
	return slices.ContainsFunc(tools.ClaudeNames(tool), h.matcher.MatchString)
}

// toolEvents are the events about one tool call, the only ones at which
// a handler's "if" is weighed; elsewhere a handler with one never runs,
// as in Claude Code.
var toolEvents = []Event{PreToolUse, PostToolUse, PostToolUseFailure, PermissionRequest}

// runsFor reports whether the hook's "if", if it has one, covers the call
// in is about (tool_input as Claude Code's), with paths anchored at cwd
// and home.
func (h Hook) runsFor(in Input, cwd, home string) bool {
	if h.condition == nil {
		return true
	}
	return slices.Contains(toolEvents, h.Event) && h.condition.Covers(in.ToolName, in.ToolInput, cwd, home)
}

// FromConfig turns [[hooks.EVENT]] tables into hooks, in file order. A
// table for an unknown event, without a command, or with a matcher that is
// not a regular expression is a problem, and is left out.
func FromConfig(tables config.Hooks, path string, project bool) ([]Hook, []string) {
	var out []Hook
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(tables)) {
		event, ok := parseEvent(name)
		for _, g := range tables[name] {
			where := fmt.Sprintf("%s line %d", path, g.Line)
			switch {
			case !ok && slices.Contains(claudeOnly, name):
				problems = append(problems, fmt.Sprintf("%s: hooks.%s is a Claude Code event tack has no counterpart of; the hook is skipped", where, name))
				continue
			case !ok:
				problems = append(problems, fmt.Sprintf("%s: hooks.%s is not a hook event (use pre_tool_use, permission_request, post_tool_use, post_tool_use_failure, user_prompt_submit, stop, stop_failure, subagent_start, subagent_stop, pre_compact, post_compact, notification, elicitation, elicitation_result, session_start or session_end); it is skipped", where, name))
				continue
			}
			hs, err := groupHooks(event, g, where, project)
			if err != nil {
				problems = append(problems, fmt.Sprintf("%s: hooks.%s: %v; the hook is skipped", where, name, err))
				continue
			}
			out = append(out, hs...)
		}
	}
	return out, problems
}

func groupHooks(event Event, g config.HookGroup, where string, project bool) ([]Hook, error) {
	var m *regexp.Regexp
	if pat := strings.TrimSpace(g.Matcher); pat != "" && pat != "*" {
		re, err := regexp.Compile("^(?:" + pat + ")$")
		if err != nil {
			return nil, fmt.Errorf("matcher %q is not a regular expression: %v", pat, err)
		}
		m = re
	}
	handlers := g.Hooks
	if strings.TrimSpace(g.Command) != "" {
		handlers = append([]config.HookHandler{{Command: g.Command, Timeout: g.Timeout}}, handlers...)
	}
	if len(handlers) == 0 {
		return nil, fmt.Errorf("no command")
	}
	var out []Hook
	for _, h := range handlers {
		timeout := DefaultTimeout
		if h.Timeout > 0 {
			timeout = time.Duration(h.Timeout * float64(time.Second))
		}
		hook := Hook{Event: event, Command: h.Command, Timeout: timeout, matcher: m, Origin: where, Project: project}
		if strings.TrimSpace(h.If) != "" {
			c, err := permission.ParseCondition(h.If)
			if err != nil {
				return nil, err
			}
			hook.condition = &c
		}
		switch {
		case h.Type == "http":
			req, err := newRequest(h)
			if err != nil {
				return nil, err
			}
			hook.Command, hook.Request = "POST "+req.URL, req
		case h.Type == "prompt" || h.Type == "agent":
			p, timeout, err := newPrompt(h)
			if err != nil {
				return nil, err
			}
			hook.Command, hook.Prompt = h.Type+": "+clip(h.Prompt, 60), p
			if h.Timeout <= 0 {
				hook.Timeout = timeout
			}
		case h.Type != "" && h.Type != "command":
			return nil, fmt.Errorf("hook type %q is not supported; use command, http, prompt or agent hooks", h.Type)
		case strings.TrimSpace(h.Command) == "":
			return nil, fmt.Errorf("a hook without a command")
		}
		hook.Async = (h.Async || h.AsyncRewake) && hook.Request == nil && hook.Prompt == nil
		hook.Rewake = h.AsyncRewake && hook.Async
		if hook.Async && h.Timeout <= 0 {
			hook.Timeout = AsyncTimeout
		}
		out = append(out, hook)
	}
	return out, nil
}
