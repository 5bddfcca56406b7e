package transcript

import (
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

func logged(d session.Data) agent.Event {
	return agent.Logged{Event: session.Event{Type: d.EventType(), Time: time.Unix(0, 0), Data: d}}
}

func text(turn, step int, s string) agent.Event {
	return agent.Delta{Turn: turn, Step: step, Chunk: llm.Chunk{Kind: llm.ChunkText, Text: s}}
}

func thinking(turn, step int, s string) agent.Event {
	return agent.Delta{Turn: turn, Step: step, Chunk: llm.Chunk{Kind: llm.ChunkReasoning, Text: s}}
}

func intp(n int) *int { return &n }

// turnEvents is one whole turn: a prompt, a streamed step with reasoning,
// Markdown and a bash call, the settled message, the card and the timing.
func turnEvents(turn int, prompt, answer string) []agent.Event {
	bash := card.Card{Kind: card.Terminal, Title: "ls", Description: "List files",
		Terminal: &card.TerminalView{Command: "ls", Cwd: "/home/u/proj"}}
	return []agent.Event{
		logged(session.TurnStart{Turn: turn}),
		logged(session.UserMessage{Turn: turn, Kind: session.KindPrompt, Text: prompt}),
		logged(session.StepStart{Turn: turn, Step: 1}),
		thinking(turn, 1, "The user wants "),
		thinking(turn, 1, "a listing."),
		text(turn, 1, answer[:len(answer)/2]),
		text(turn, 1, answer[len(answer)/2:]),
		agent.Delta{Turn: turn, Step: 1, Chunk: llm.Chunk{Kind: llm.ChunkToolCall, ToolCall: &llm.ToolCallDelta{ID: "c1", Name: "bash"}}},
		logged(session.AssistantMessage{Turn: turn, Step: 1, Text: answer, Reasoning: "The user wants a listing.",
			ToolCalls: []llm.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}}}),
		logged(session.ToolCall{Turn: turn, Step: 1, CallID: "c1", Name: "bash", Card: bash}),
		logged(session.ToolResult{Turn: turn, Step: 1, CallID: "c1", Name: "bash", Text: "a\nb\n[exit code: 0]",
			Card: &card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Output: "a.go\nb.go\n", ExitCode: intp(0)}}}),
		logged(session.StepEnd{Turn: turn, Step: 1, Timing: session.StepTiming{ModelWait: 1000, Thinking: 2000, Response: 400, Tools: 3100}}),
		logged(session.TurnEnd{Turn: turn, Reason: session.StopCompleted}),
	}
}
