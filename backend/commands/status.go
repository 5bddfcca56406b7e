package commands

import (
	"context"
	"fmt"
	"strings"

	"github.com/tack-agent/tack/backend/session"
)

func statusCommand(models Models, skills Skills, sandbox, checkpoints Status) Command {
	return Command{
		Name: "status", Description: "Show the session, model, usage, context and tools", WhileRunning: true,
		Handler: withSession(func(_ context.Context, inv Invocation, sa SessionAgent) Result {
			text := statusCard(sa, models)
			if sandbox != nil {
				text += "\n\nPermissions and sandbox\n" + sandbox.Status()
			}
			if skills != nil {
				text += "\n\nSkills\n" + skillsStatus(sa, skills)
			}
			if checkpoints != nil {
				text += "\n\nCheckpoints\n" + checkpoints.Status()
			}
			return Succeed(text)
		}),
	}
}

// statusCard is the /status text: labelled rows in groups, then the tools.
func statusCard(sa SessionAgent, models Models) string {
	header, proj := sa.Header(), sa.Projection()
	totals := proj.Usage()
	model, effort := sa.Model()
	title := proj.Title()
	if title == "" {
		title = "untitled"
	}
	if effort == "" {
		effort = "default"
	}
	cost, unpriced := sessionCost(models, proj.UsageByModel())
	groups := [][][2]string{
		{
			{"Session", header.ID},
			{"Title", title},
			{"Directory", header.Cwd},
			{"Model", fmt.Sprintf("%s (effort %s)", displayModel(models, model), effort)},
		},
		{
			{"Agent", fmt.Sprintf("%s · %s · %s · %s · %s", sa.Status(), plural(proj.Len(), "event"),
				plural(totals.Turns, "turn"), plural(totals.Steps, "step"), plural(totals.ToolCalls, "tool call"))},
			{"Tokens", tokensText(totals.Sum)},
			{"KV cache", cacheText(totals.Sum)},
			{"Context", contextText(models, model, proj.ContextTokens())},
			{"Cost", costText(cost, unpriced)},
		},
		{
			{"Created", clock(proj.Created())},
			{"Active", clock(proj.LastActive())},
		},
	}
	var b strings.Builder
	b.WriteString("Session status\n")
	for _, group := range groups {
		b.WriteString("\n")
		for _, row := range group {
			fmt.Fprintf(&b, "%-11s%s\n", row[0], row[1])
		}
	}
	tools := strings.Join(sa.ToolNames(), ", ")
	if tools == "" {
		tools = "none"
	}
	b.WriteString("\nRegistered tools\n" + tools)
	return b.String()
}

// contextText is how full the model's context window is, with a meter.
func contextText(models Models, model string, used int) string {
	m, ok := findModel(models, model)
	if !ok || m.ContextWindow <= 0 {
		return fmt.Sprintf("%s used · capacity unknown", grouped(used))
	}
	ratio := float64(used) / float64(m.ContextWindow)
	return fmt.Sprintf("%s %d%% used (%s / %s)", meter(ratio), percent(ratio), grouped(used), grouped(m.ContextWindow))
}

// skillsStatus is the skills section of /status, from the session's events
// that load skills: a long session's log is read, not decoded.
func skillsStatus(sa SessionAgent, skills Skills) string {
	var events []session.Event
	if types := skills.LoadTypes(); len(types) > 0 {
		err := sa.Scan(0, types, func(e session.Event) bool {
			events = append(events, e)
			return true
		})
		if err != nil {
			return "could not read which skills the session loaded: " + err.Error()
		}
	}
	return skills.Status(events)
}
