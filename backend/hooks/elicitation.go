package hooks

import (
	"context"
	"slices"

	"github.com/tack-agent/tack/backend/elicit"
)

// answers are the actions a hook may answer an MCP server's form with.
var answers = []string{"accept", "decline", "cancel"}

// Elicit runs elicitation before r is put to the user. A hook
// that blocks (exit 2, a decision of block) declines the form; else the
// first whose hookSpecificOutput names an action answers in the user's
// place, with its content when it accepts. answered is false when none
// does, and the user is asked.
func (r *Runner) Elicit(ctx context.Context, req elicit.Request) (action string, content map[string]any, answered bool) {
	if r == nil || !r.has(Elicitation) {
		return "", nil, false
	}
	in := Input{MCPServerName: req.Server, Message: req.Message, Mode: req.Mode(), RequestedSchema: req.Schema,
		URL: req.URL, ElicitationID: req.ElicitationID}
	action, content, answered = decided(r.runAll(ctx, 0, Elicitation, in, ""))
	if answered && action == "" {
		action = "accept"
	}
	if action == "accept" && content == nil {
		content = map[string]any{}
	}
	return action, content, answered
}

// ElicitResult runs elicitation_result after the user answered req with
// action and content: a hook that blocks turns the answer into a decline,
// one whose hookSpecificOutput names an action or content replaces the
// user's.
func (r *Runner) ElicitResult(ctx context.Context, req elicit.Request, action string, content map[string]any) (string, map[string]any) {
	if r == nil || !r.has(ElicitationResult) {
		return action, content
	}
	in := Input{MCPServerName: req.Server, Mode: req.Mode(), ElicitationID: req.ElicitationID, Action: action, Content: content}
	a, c, answered := decided(r.runAll(ctx, 0, ElicitationResult, in, ""))
	switch {
	case !answered:
		return action, content
	case a == "":
		return action, c
	case a == "accept" && c == nil:
		return a, content
	}
	return a, c
}

// decided is the answer of the first hook that blocked, else of the
// first that named an action or content; answered is false when none did.
func decided(results []Result) (action string, content map[string]any, answered bool) {
	for _, res := range results {
		if res.Outcome == OutcomeBlocked {
			return "decline", nil, true
		}
	}
	for _, res := range results {
		a := res.Answer
		if res.Outcome != OutcomeOK || a == nil || a.HookSpecial == nil {
			continue
		}
		h := a.HookSpecial
		switch {
		case h.Action == "" && h.Content == nil, h.Action != "" && !slices.Contains(answers, h.Action):
		case h.Action == "" || h.Action == "accept":
			return h.Action, h.Content, true
		default:
			return h.Action, nil, true
		}
	}
	return "", nil, false
}
