package elicit

import (
	"context"
	"errors"

	"github.com/tack-agent/tack/backend/interact"
)

// Asker puts questions to the user: the interact broker.
type Asker interface {
	Ask(ctx context.Context, qs []interact.Question) ([]interact.Answer, error)
}

// Tries is how often a field is asked before an answer that does not fit
// it declines the form: the user is told what was wrong each time.
const Tries = 3

// Ask puts r's form to the user, a field at a time, and returns their
// answer. Esc (the question interrupted), or nobody there to answer (no
// front door, stdin closed), is Cancel, as Claude Code answers when its
// dialog is dismissed or cannot be shown; choosing to decline, or Tries
// answers that do not fit a field, is Decline.
func Ask(ctx context.Context, a Asker, r Request) Result {
	fields, err := Parse(r.Schema)
	if err != nil {
		return Result{Action: Decline}
	}
	if len(fields) == 0 {
		return confirm(ctx, a, r)
	}
	content := map[string]any{}
	for i, f := range fields {
		v, skip, err := askField(ctx, a, r, f, i, len(fields))
		switch {
		case errors.Is(err, errDeclined):
			return Result{Action: Decline}
		case err != nil:
			return Result{Action: Cancel}
		case !skip:
			content[f.Name] = v
		}
	}
	return Result{Action: Accept, Content: content}
}

// askField asks for one field until its answer fits, at most Tries times.
func askField(ctx context.Context, a Asker, r Request, f Field, i, n int) (any, bool, error) {
	problem := ""
	for range Tries {
		answers, err := a.Ask(ctx, []interact.Question{question(r, f, i, n, problem)})
		if err != nil {
			return nil, false, err
		}
		if len(answers) == 0 {
			return nil, false, interact.ErrInterrupted
		}
		v, skip, err := value(f, answers[0])
		if err == nil || errors.Is(err, errDeclined) {
			return v, skip, err
		}
		problem = err.Error()
	}
	return nil, false, errDeclined
}

// confirm asks about a form without fields: the server wants a yes.
func confirm(ctx context.Context, a Asker, r Request) Result {
	q := interact.Question{ID: "confirm", Header: r.Server, Question: r.Message, Server: r.Server,
		Detail:  "MCP server " + r.Server + " asks for your confirmation.",
		Options: []interact.Option{{Label: "Accept"}, {Label: DeclineLabel}}}
	answers, err := a.Ask(ctx, []interact.Question{q})
	switch {
	case err != nil || len(answers) == 0:
		return Result{Action: Cancel}
	case len(answers[0].Selected) == 1 && answers[0].Selected[0] == "Accept":
		return Result{Action: Accept, Content: map[string]any{}}
	}
	return Result{Action: Decline}
}
