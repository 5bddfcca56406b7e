// Package plan is the exit_plan_mode tool: in plan mode the model presents
// its plan to the user as a question, and leaves plan mode only when the
// user approves it.
package plan

import (
	"bytes"
	"context"
	"embed"
	"encoding/json"
	"strings"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/ask"
)

// specFiles hold what the model is told about the tool: its prose
// (tools.ProseFile) and the schema of its arguments (tools.SchemaFile).
//
//go:embed plan.md plan.schema.json
var specFiles embed.FS

// Switch is the session's plan-mode state (*permission.Policy).
type Switch interface {
	Plan() bool
	// SetPlan reports whether the state changed.
	SetPlan(on bool) bool
}

// Exit is the exit_plan_mode tool.
type Exit struct{ plans Switch }

// New makes exit_plan_mode over the session's plan-mode state.
func New(plans Switch) *Exit { return &Exit{plans: plans} }

// The review question and its answers.
const (
	Header       = "Plan review"
	Prompt       = "Approve this plan and leave plan mode?"
	Approve      = "Approve"
	KeepPlanning = "Keep planning"
	reviewID     = "plan_review"
)

// Approved is what the model reads when the user approves the plan.
const Approved = "Plan approved — plan mode exited; carry out the plan starting with your next step."

type args struct {
	Plan string `json:"plan"`
}

// schema is the JSON schema of exit_plan_mode's arguments, from plan.schema.json.
var schema = tools.SchemaFile(specFiles, "plan.schema.json")

// planProse is what the model is told about the tool, from plan.md.
var planProse = tools.ProseFile(specFiles, "plan.md")

// Spec describes exit_plan_mode to the model.
func (*Exit) Spec() tools.Spec {
	return tools.Spec{
		Name:        "exit_plan_mode",
		Description: planProse().Description,
		Schema:      schema(),
		Guidance:    planProse().Guidance,
		Access:      tools.AccessInteract,
	}
}

// Present is the review card: the plan as its body.
func (*Exit) Present(raw json.RawMessage) card.Card {
	var a args
	_ = json.Unmarshal(raw, &a)
	return card.Card{Kind: card.Question, Title: Header, Label: Header, Body: a.Plan, Markdown: true}
}

// Run asks the user to review the plan, and leaves plan mode when they
// approve it.
func (e *Exit) Run(ctx context.Context, call tools.Call) tools.Result {
	plan, res, ok := decode(call.Args)
	if !ok {
		return res
	}
	if !e.plans.Plan() {
		return tools.Errorf("exit_plan_mode is only available in plan mode")
	}
	answers, res, ok := ask.Put(ctx, call.Env, "exit_plan_mode", []interact.Question{review(plan)})
	if !ok {
		return res
	}
	var a interact.Answer
	if len(answers) > 0 {
		a = answers[0]
	}
	feedback := strings.TrimSpace(a.Custom)
	switch {
	case chose(a, Approve):
		return e.approve(call, plan, feedback)
	case !chose(a, KeepPlanning) && feedback == "":
		return withCard(tools.Errorf("The user dismissed the plan review to speak instead; "+
			"stay in plan mode and wait for their message."), plan, "Dismissed")
	}
	shown := feedback
	if shown == "" {
		shown = "none"
	}
	return withCard(tools.Errorf("The user chose to keep planning; their feedback: %s", shown), plan, "Keep planning: "+shown)
}

// approve leaves plan mode and records the change. When the user left plan
// mode some other way while the question was open (/plan off), the change
// is already recorded. A failed write does not undo the user's decision:
// the agent reports a log it cannot write at its own next write.
func (e *Exit) approve(call tools.Call, plan, note string) tools.Result {
	if e.plans.SetPlan(false) && call.Env.Record != nil {
		_ = call.Env.Record(session.PlanMode{Active: false})
	}
	text := Approved
	outcome := "Approved"
	if note != "" {
		text += "\nThe user's note: " + note
		outcome += ": " + note
	}
	return withCard(tools.Result{Text: text}, plan, outcome)
}

func review(plan string) interact.Question {
	return interact.Question{
		ID: reviewID, Header: Header, Question: Prompt, Detail: plan,
		Options: []interact.Option{
			{Label: Approve, Description: "Leave plan mode and carry out the plan", Recommended: true},
			{Label: KeepPlanning, Description: "Stay in plan mode; type feedback to revise the plan"},
		},
		AllowCustom: true,
	}
}

func chose(a interact.Answer, label string) bool {
	for _, s := range a.Selected {
		if s == label {
			return true
		}
	}
	return false
}

// withCard attaches the result card: the plan, then the user's decision.
func withCard(r tools.Result, plan, outcome string) tools.Result {
	c := card.Card{Kind: card.Question, Title: Header, Label: Header, Summary: outcome,
		Body: plan + "\n\n" + outcome, Markdown: true}
	r.Card = &c
	return r
}

// decode parses the arguments; the plan must not be blank.
func decode(raw json.RawMessage) (string, tools.Result, bool) {
	var a args
	// Any other member is let pass, as Claude Code's ExitPlanMode lets
	// it (its allowedPrompts, deprecated there, among them).
	if err := json.Unmarshal(raw, &a); err != nil && len(bytes.TrimSpace(raw)) > 0 {
		return "", tools.InvalidArgs("invalid arguments: %v", err), false
	}
	if strings.TrimSpace(a.Plan) == "" {
		return "", tools.InvalidArgs("invalid plan: `plan` must be a non-empty Markdown string"), false
	}
	return a.Plan, tools.Result{}, true
}
