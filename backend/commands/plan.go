package commands

import (
	"context"
	"strings"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/session"
)

// PlanSwitch is the session's plan-mode state (*permission.Policy).
type PlanSwitch interface {
	Plan() bool
	// SetPlan reports whether the state changed.
	SetPlan(on bool) bool
}

// Submitter is an agent that takes the user's messages (*agent.Agent).
type Submitter interface {
	Send(text string)
	Steer(text string)
}

// Expander is an agent that takes a message a command made of what the
// user typed (*agent.Agent): the model reads text; what the user sees of
// it is typed.
type Expander interface {
	SendExpanded(typed, text string, o agent.TurnOptions)
}

// Deferrer is an agent that takes a message a command makes when its
// turn starts (*agent.Agent): one queued behind a running turn.
type Deferrer interface {
	SendDeferred(typed string, expand func(context.Context) (string, error), o agent.TurnOptions)
}

// Injector is an agent that takes model-visible context (*agent.Agent).
type Injector interface {
	Inject(origin, text string)
}

// Noter is an agent that tells the model of a change of state once, at
// its next request (*agent.Agent): a change undone before then is never
// told.
type Noter interface {
	Note(origin, before, after string)
}

// PlanOrigin names the context notices that tell the model plan mode
// changed.
const PlanOrigin = "plan-mode"

// PlanNotice is the context the model reads when plan mode turns on or off,
// so it plans instead of finding out from refused edits.
func PlanNotice(on bool) string {
	if on {
		return "Plan mode is on. Explore with read-only tools and commands; edits and commands that may change " +
			"things are refused. When the plan is ready, call exit_plan_mode with it for the user's review."
	}
	return "Plan mode is off. Edits and commands run again as the permission mode allows."
}

// PlanCommand is /plan [off|message]: enter plan mode (submitting message,
// when given, as the user's next message), or leave it with /plan off.
// Every change is recorded as a plan/mode event.
func PlanCommand(plans PlanSwitch) Command {
	return Command{
		Name: "plan", Description: "Enter plan mode (read-only until you approve a plan); /plan off leaves it",
		Input: Input{Hint: "[off|message]"}, WhileRunning: true,
		// The message goes to the model as a user message and the switch
		// as plan/mode; command/run repeating it would log the input twice.
		OmitInput: true,
		Handler: func(_ context.Context, inv Invocation) Result {
			msg := strings.TrimSpace(inv.RawInput)
			running := inv.Agent.Status() == agent.StatusRunning
			if msg == "off" {
				return switchPlan(plans, inv, running, false)
			}
			sub, ok := inv.Agent.(Submitter)
			if msg != "" && !ok {
				return Fail("/plan <message> needs an agent that takes messages; use /plan alone.")
			}
			res := switchPlan(plans, inv, running, true)
			if res.Kind == Error || msg == "" {
				return res
			}
			if running {
				sub.Steer(msg)
			} else {
				sub.Send(msg)
			}
			return res
		},
	}
}

// planReplies are what /plan says when plan mode already was as asked,
// when the change applies from the running turn's next step, and when it
// applies at once.
type planReplies struct{ already, nextStep, now string }

var (
	enterReplies = planReplies{"Plan mode is already on.",
		"Entering plan mode (applies from the next step). Use /plan off to leave.", "Plan mode on. Use /plan off to leave."}
	leaveReplies = planReplies{"Plan mode is already inactive.",
		"Leaving plan mode (applies from the next step).", "Plan mode off."}
)

// switchPlan turns plan mode on or off, records the change and says so.
func switchPlan(plans PlanSwitch, inv Invocation, running, on bool) Result {
	say := leaveReplies
	if on {
		say = enterReplies
	}
	if !plans.SetPlan(on) {
		return Succeed(say.already)
	}
	if res, ok := recordPlan(plans, inv, on); !ok {
		return res
	}
	if running {
		return Succeed(say.nextStep)
	}
	return Succeed(say.now)
}

// recordPlan logs the change and tells the model. When the log refuses the
// event the change is undone, so the session and its log agree.
func recordPlan(plans PlanSwitch, inv Invocation, on bool) (Result, bool) {
	if _, err := inv.Agent.Record(session.PlanMode{Active: on}); err != nil {
		plans.SetPlan(!on)
		return Failf("Could not record the plan mode change, so plan mode is unchanged: %v", err), false
	}
	switch a := inv.Agent.(type) {
	case Noter:
		a.Note(PlanOrigin, PlanNotice(!on), PlanNotice(on))
	case Injector:
		a.Inject(PlanOrigin, PlanNotice(on))
	}
	return Result{}, true
}
