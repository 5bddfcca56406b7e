package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/llm"
)

// t0 is the frozen clock of the tests.
var t0 = time.UnixMilli(1_795_000_000_000)

func at(sec int) time.Time { return t0.Add(time.Duration(sec) * time.Second) }

func testHeader(id string) Header {
	return Header{Version: FormatVersion, ID: id, Created: t0, Cwd: "/work/proj", Model: "deepseek-v4-flash"}
}

// everyType holds one payload of every event type the log knows.
func everyType() []Data {
	exit := 0
	return []Data{
		TurnStart{Turn: 1},
		UserMessage{Turn: 1, Kind: KindPrompt, Text: "list <files> & fix"},
		UserMessage{Turn: 1, Kind: KindSummary, Text: "summary", Replace: &Span{Start: 0, End: 3}},
		SteeringMessage{Turn: 1, Text: "also the tests"},
		StepStart{Turn: 1, Step: 1, Model: "deepseek-v4-pro", Effort: llm.EffortHigh},
		AssistantMessage{Turn: 1, Step: 1, Text: "ok", Reasoning: "think", Finish: llm.FinishToolCalls,
			ToolCalls: []llm.ToolCall{{ID: "c1", Name: "bash", Arguments: `{"command":"ls"}`}},
			Usage:     llm.Usage{Input: 10, CacheRead: 90, Output: 20, Reasoning: 5}},
		ToolCall{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Arguments: `{"command":"ls"}`,
			Card: card.Card{Kind: card.Terminal, Title: "ls", Terminal: &card.TerminalView{Command: "ls"}}},
		ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Text: "a\nb", IsError: true, Code: CodeDenied,
			Card: &card.Card{Kind: card.Terminal, Terminal: &card.TerminalView{Command: "ls", ExitCode: &exit}}, DurationMs: 1250},
		ToolResult{Turn: 1, Step: 1, CallID: "c1", Name: "bash", Text: "[pruned]", Replace: &Span{Start: 7, End: 7}},
		StepEnd{Turn: 1, Step: 1, Timing: StepTiming{ModelWait: 1, Thinking: 2, Response: 3, Tools: 4}},
		TurnEnd{Turn: 1, Reason: StopError, Error: &Failure{Kind: "rate-limit", Message: "slow down", Status: 429}},
		TodoWrite{Turn: 1, Todos: []card.TodoItem{{Content: "a", Status: "pending"}}},
		Retry{Turn: 1, Step: 1, Attempt: 1, Max: 5, DelayMs: 500, Failure: Failure{Kind: "server", Message: "503"}},
		InboxDiscard{Texts: []string{"x", "y"}},
		Title{Title: "Fix files", Source: "model"},
		SideUsage{Purpose: llm.PurposeTitle, Model: "deepseek-v4-flash", Usage: llm.Usage{Input: 300, Output: 7}, Cost: 0.0001},
		ModelSelect{Model: "deepseek-v4-pro", Effort: llm.EffortMax},
		CommandRun{ID: "r1", Name: "compact", Input: "/compact"},
		CommandDone{ID: "r1", Outcome: "success", Text: "done"},
		ApprovalAsked{CallID: "c1", Tool: "bash", Summary: "rm -rf build"},
		ApprovalDecided{CallID: "c1", Tool: "bash", Decision: "allow-session", Remember: "rm", Policy: "ask"},
		PermissionMode{Mode: "auto-edit"},
		PlanMode{Active: true},
		CompactStart{Turn: 2},
		CompactEnd{Items: 4, Tokens: 1200},
		Checkpoint{Turn: 1, Step: 2, Phase: PhaseToolsDone, ID: "3f1c", Store: "git", Changed: []string{"a.txt"},
			Skipped: []SkippedFile{{Path: "big.bin", Size: 1 << 30, Reason: "larger than 10 MiB"}}},
		Checkpoint{Turn: 2, Phase: PhaseTurn, Error: "git failed"},
		Rewind{Turn: 2, Conversation: true, Back: 11, Files: "3f1c", Before: "9a0b"},
		Rewind{Conversation: true, Back: 30, Undo: 30, Files: "9a0b", Before: "77aa"},
	}
}

// writeFile writes a log from raw lines, each given without its newline.
func writeFile(t testing.TB, lines ...string) string {
	t.Helper()
	return writeLog(t, []byte(strings.Join(lines, "\n")+"\n"))
}

// writeLog writes raw as a session log in a temporary directory.
func writeLog(t testing.TB, raw []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	if err := os.WriteFile(path, raw, 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// openLog opens the log at path, to be closed when the test ends.
func openLog(t testing.TB, path string) *Log {
	t.Helper()
	l, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// loggedBytes is the text of a log that createLog makes of data, to be
// written again with writeLog, cut or changed.
func loggedBytes(t testing.TB, data ...Data) []byte {
	t.Helper()
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, data...)
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// createLog makes a log with the given payloads appended one second apart,
// synced and closed.
func createLog(t testing.TB, path string, data ...Data) {
	t.Helper()
	l, err := Create(path, testHeader(idFromPath(path)))
	if err != nil {
		t.Fatal(err)
	}
	for i, d := range data {
		if _, err := l.Append(at(i), d); err != nil {
			t.Fatal(err)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}
}

// types lists the event types of events, for compact comparisons.
func types(events []Event) string {
	var s []string
	for _, e := range events {
		s = append(s, e.Type)
	}
	return strings.Join(s, " ")
}

// completedTurn is a whole turn with one tool call, closed properly.
func completedTurn(turn int, prompt string) []Data {
	return []Data{
		TurnStart{Turn: turn},
		UserMessage{Turn: turn, Kind: KindPrompt, Text: prompt},
		StepStart{Turn: turn, Step: 1, Model: "deepseek-v4-flash", Effort: llm.EffortHigh},
		AssistantMessage{Turn: turn, Step: 1, Reasoning: "look", Finish: llm.FinishToolCalls,
			ToolCalls: []llm.ToolCall{{ID: prompt + "-c1", Name: "bash", Arguments: `{"command":"ls"}`}},
			Usage:     llm.Usage{Input: 100, CacheRead: 0, Output: 10}},
		ToolCall{Turn: turn, Step: 1, CallID: prompt + "-c1", Name: "bash", Arguments: `{"command":"ls"}`},
		ToolResult{Turn: turn, Step: 1, CallID: prompt + "-c1", Name: "bash", Text: "main.go"},
		StepEnd{Turn: turn, Step: 1},
		StepStart{Turn: turn, Step: 2, Model: "deepseek-v4-flash", Effort: llm.EffortHigh},
		AssistantMessage{Turn: turn, Step: 2, Text: "done", Finish: llm.FinishStop,
			Usage: llm.Usage{Input: 20, CacheRead: 100, Output: 5}},
		StepEnd{Turn: turn, Step: 2},
		TurnEnd{Turn: turn, Reason: StopCompleted},
	}
}
