package snapshots

import (
	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// log numbers session events the way the session log does.
type log struct{ seq int64 }

func (l *log) event(d session.Data) session.Event {
	l.seq++
	return session.Event{Type: d.EventType(), Seq: l.seq, Time: frozen, Data: d}
}

// live wraps session data as live logged events.
func (l *log) live(ds ...session.Data) []agent.Event {
	out := make([]agent.Event, len(ds))
	for i, d := range ds {
		out[i] = agent.Logged{Event: l.event(d)}
	}
	return out
}

func events(parts ...[]agent.Event) []agent.Event {
	var out []agent.Event
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

func running() []agent.Event { return []agent.Event{agent.StatusChanged{Status: agent.StatusRunning}} }
func idle() []agent.Event    { return []agent.Event{agent.StatusChanged{Status: agent.StatusIdle}} }

func text(turn, step int, s string) agent.Event {
	return agent.Delta{Turn: turn, Step: step, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: s}}
}

func reasoning(turn, step int, s string) agent.Event {
	return agent.Delta{Turn: turn, Step: step, Chunk: llm.Chunk{Kind: llm.ChunkReasoning, Text: s}}
}

// turnOpening is a prompt and the start of its first step.
func turnOpening(l *log, turn int, prompt string) []agent.Event {
	return l.live(
		session.TurnStart{Turn: turn},
		session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: prompt},
		session.StepStart{Turn: turn, Step: 1, Model: "deepseek-flash", Effort: llm.EffortHigh},
	)
}

func exit(n int) *int { return &n }

// bashCall is a finished bash call with n output lines.
func bashCall(l *log, turn, step int, id, command string, output string, code int) []agent.Event {
	call := card.Card{Kind: card.Terminal, Title: command, Description: "Run the tests",
		Terminal: &card.TerminalView{Command: command, Cwd: "/workspace/project"}}
	res := call
	res.Terminal = &card.TerminalView{Command: command, Cwd: "/workspace/project", Output: output, ExitCode: exit(code)}
	return events(toolStep(l, turn, step, id, "bash", `{"command":"`+command+`"}`, call,
		session.ToolResult{Text: output, Card: &res, IsError: code != 0}),
		l.live(session.StepEnd{Turn: turn, Step: step, Timing: session.StepTiming{ModelWait: 400, Response: 300, Tools: 1200}}))
}

// toolStep is step of turn calling tool name once with args: the model's
// message, the call with its card, and res as its result.
func toolStep(l *log, turn, step int, id, name, args string, call card.Card, res session.ToolResult) []agent.Event {
	res.Turn, res.Step, res.CallID, res.Name = turn, step, id, name
	return l.live(
		session.AssistantMessage{Turn: turn, Step: step, ToolCalls: []llm.ToolCall{{ID: id, Name: name, Arguments: args}}, Finish: llm.FinishToolCalls},
		session.ToolCall{Turn: turn, Step: step, CallID: id, Name: name, Arguments: args, Card: call},
		res,
	)
}
