package agent

import (
	"context"
	"errors"

	"github.com/tack-agent/tack/backend/llm"
)

// TurnOptions change one turn: the turn a custom slash command starts with
// its own model and allowed tools, or a print-mode turn with the tools its
// flags allow and refuse and a limit on its steps.
type TurnOptions struct {
	// Model runs the turn's steps on this model instead of the session's.
	Model string
	// AllowedTools run without asking during the turn (tools.Env.Allowed).
	AllowedTools []string
	// DisallowedTools are refused during the turn whatever the mode
	// (tools.Env.Disallowed).
	DisallowedTools []string
	// MaxSteps ends the turn with StopMaxSteps instead of starting a model
	// request beyond it; zero means no limit.
	MaxSteps int
	// FallbackModel takes over the rest of the turn when its model stays
	// overloaded (rate-limited, or failing on the server's side) after the
	// retries (claude -p's --fallback-model).
	FallbackModel string
}

// SendWith submits a message as Send does, for a turn with options. Queued
// behind a running turn, the options apply to the turn the queued
// messages make.
func (a *Agent) SendWith(text string, o TurnOptions) {
	a.SendExpanded("", text, o)
}

// SendExpanded submits text, which a slash command made of what the user
// typed, for a turn with options, as SendWith does. The model reads text;
// the queue, the transcript, prompt history and a cancelled turn's
// returned input show typed. An empty typed is text itself.
func (a *Agent) SendExpanded(typed, text string, o TurnOptions) {
	a.follow(message{text: text, typed: typed}, o)
}

// SendDeferred submits a message as SendExpanded does, whose text expand
// makes when its turn starts: a custom command queued behind a running
// turn runs the shell commands of its prompt then, on the workspace as
// that turn left it. An expand that fails is told as a notice, and its
// message is left out.
func (a *Agent) SendDeferred(typed string, expand func(context.Context) (string, error), o TurnOptions) {
	a.follow(message{typed: typed, expand: expand}, o)
}

// follow queues m as a follow-up for a turn with options o.
func (a *Agent) follow(m message, o TurnOptions) {
	a.mu.Lock()
	a.queuedOpts = o
	a.followUps = append(a.followUps, m)
	a.mu.Unlock()
	a.publishInbox()
	a.poke()
}

// message is a queued follow-up: its text for the model, and what the
// user typed when a slash command made the text of it. expand, when set,
// makes text as the turn starts. A turn's input taken from several keeps
// them in parts until settle joins them.
type message struct {
	text, typed string
	expand      func(context.Context) (string, error)
	parts       []message
}

// input is what the user typed for m.
func (m message) input() string {
	if m.typed != "" {
		return m.typed
	}
	return m.text
}

// inputs are what the user typed for each of ms.
func inputs(ms []message) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.input()
	}
	return out
}

// stepModel is the model and effort of the next step: the turn's model,
// when its options name one, at the session's effort.
func (a *Agent) stepModel() (string, llm.Effort) {
	model, effort := a.Model()
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.turnOpts.Model != "" {
		model = a.turnOpts.Model
	}
	return model, effort
}

// fallBack moves the rest of the turn to its fallback model when err says
// model stayed overloaded after the retries, says so, and reports whether
// it did: the failed step is then followed by another on the fallback.
func (a *Agent) fallBack(model string, err error) bool {
	var le *llm.Error
	if !errors.As(err, &le) || le.Kind != llm.ErrRateLimit && le.Kind != llm.ErrServer {
		return false
	}
	a.mu.Lock()
	fallback := a.turnOpts.FallbackModel
	ok := fallback != "" && fallback != model
	if ok {
		a.turnOpts.Model = fallback
	}
	a.mu.Unlock()
	if ok {
		a.Notify(Notice{Tone: NoticeWarning, Text: model + " stayed unavailable (" + le.Error() + "); the turn goes on with the fallback model " + fallback + "."})
	}
	return ok
}

// allowedTools is what the running turn's options allow without asking,
// and what they refuse.
func (a *Agent) allowedTools() (allowed, disallowed []string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.turnOpts.AllowedTools, a.turnOpts.DisallowedTools
}

// overSteps reports whether step would exceed the running turn's limit.
func (a *Agent) overSteps(step int) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.turnOpts.MaxSteps > 0 && step > a.turnOpts.MaxSteps
}
