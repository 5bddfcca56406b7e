package agent

import "github.com/tack-agent/tack/backend/llm"

// TurnOptions change one turn: the turn a custom slash command starts with
// its own model and allowed tools.
type TurnOptions struct {
	// Model runs the turn's steps on this model instead of the session's.
	Model string
	// AllowedTools run without asking during the turn (tools.Env.Allowed).
	AllowedTools []string
}

// SendWith submits a message as Send does, for a turn with options. Queued
// behind a running turn, the options apply to the turn the queued
// messages make.
func (a *Agent) SendWith(text string, o TurnOptions) {
	a.mu.Lock()
	a.queuedOpts = o
	a.mu.Unlock()
	a.Send(text)
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

// allowedTools is what the running turn's options allow without asking.
func (a *Agent) allowedTools() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.turnOpts.AllowedTools
}
