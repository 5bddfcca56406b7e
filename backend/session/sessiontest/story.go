// Package sessiontest writes session logs for tests and benchmarks: a long
// session is one realistic turn told again and again, so its size grows
// with the number of messages and nothing else.
package sessiontest

import (
	"fmt"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
)

// LastAnswer is the final answer of a story: it is on the last screen of a
// resumed story and nowhere else.
const LastAnswer = "All the fixes are in."

// MessagesPerTurn is how many model-visible messages a story turn holds: a
// prompt, an assistant message with a bash call, its result and an answer.
const MessagesPerTurn = 4

// Turn is turn n of a story told in workspace dir: a prompt, an assistant
// message with Markdown and a bash call, the bash result with a terminal
// card, and a final Markdown answer with a code block (LastAnswer when last
// is set). It is 11 events and about 3 KB of log.
func Turn(n int, dir, model string, last bool) []session.Data {
	call := fmt.Sprintf("call_%d", n)
	args := `{"command":"go test ./parser/...","description":"Run the parser tests"}`
	code := 1
	term := card.Card{Kind: card.Terminal, Description: "Run the parser tests", Terminal: &card.TerminalView{Command: "go test ./parser/...", Cwd: dir}}
	res := term
	res.Terminal = &card.TerminalView{Command: "go test ./parser/...", Cwd: dir, ExitCode: &code,
		Output: fmt.Sprintf("--- FAIL: TestLexer%d\n    lexer_test.go:42: want 3 tokens, got 2\nFAIL\nFAIL parser 0.01s", n)}
	answer := fmt.Sprintf("## Fix %d\n\nThe lexer dropped the **last token**; it now keeps it:\n\n```go\nreturn append(toks, tok)\n```\n\n- `lexer.go`: keep the tail\n- `lexer_test.go`: a case for it", n)
	if last {
		answer = LastAnswer
	}
	usage := llm.Usage{Input: 200, CacheRead: 12_000, Output: 150}
	return []session.Data{
		session.TurnStart{Turn: n},
		session.UserMessage{Turn: n, Kind: session.KindPrompt, Text: fmt.Sprintf("Fix failing test %d in the parser", n)},
		session.StepStart{Turn: n, Step: 1, Model: model},
		session.AssistantMessage{Turn: n, Step: 1, Text: "Let me run the tests first:\n\n- `go test ./parser/...`",
			ToolCalls: []llm.ToolCall{{ID: call, Name: "bash", Arguments: args}}, Usage: usage, Finish: llm.FinishToolCalls},
		session.ToolCall{Turn: n, Step: 1, CallID: call, Name: "bash", Arguments: args, Card: term},
		session.ToolResult{Turn: n, Step: 1, CallID: call, Name: "bash", Text: res.Terminal.Output + "\n[exit code: 1]", Card: &res},
		session.StepEnd{Turn: n, Step: 1, Timing: session.StepTiming{ModelWait: 300, Response: 400, Tools: 900}},
		session.StepStart{Turn: n, Step: 2, Model: model},
		session.AssistantMessage{Turn: n, Step: 2, Text: answer, Usage: usage, Finish: llm.FinishStop},
		session.StepEnd{Turn: n, Step: 2, Timing: session.StepTiming{ModelWait: 200, Response: 600}},
		session.TurnEnd{Turn: n, Reason: session.StopCompleted},
	}
}

// Write creates a log at path holding a story of messages model messages
// (rounded down to whole turns), every event stamped now, and closes it.
func Write(path string, h session.Header, messages int, now time.Time) error {
	log, err := session.Create(path, h)
	if err != nil {
		return err
	}
	turns := messages / MessagesPerTurn
	for n := 1; n <= turns; n++ {
		for _, d := range Turn(n, h.Cwd, h.Model, n == turns) {
			if _, err := log.Append(now, d); err != nil {
				log.Close()
				return err
			}
		}
	}
	return log.Close()
}
