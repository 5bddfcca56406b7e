package session

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/llm"
)

// killedDuringTool is turn n, whose writer died while the first of two
// requested tools ran: the second was never dispatched.
func killedDuringTool(n int) []Data {
	return []Data{
		TurnStart{Turn: n},
		UserMessage{Turn: n, Kind: KindPrompt, Text: "build it"},
		StepStart{Turn: n, Step: 1, Model: "m"},
		AssistantMessage{Turn: n, Step: 1, Finish: llm.FinishToolCalls, ToolCalls: []llm.ToolCall{
			{ID: "c1", Name: "bash", Arguments: `{"command":"make"}`},
			{ID: "c2", Name: "read", Arguments: `{"path":"x"}`},
		}},
		ToolCall{Turn: n, Step: 1, CallID: "c1", Name: "bash", Arguments: `{"command":"make"}`},
	}
}

func wantKilledDuringToolRepairs(n int) []Data {
	return []Data{
		ToolResult{Turn: n, Step: 1, CallID: "c1", Name: "bash", Text: OutcomeUnknownText, IsError: true, Code: CodeOutcomeUnknown},
		ToolResult{Turn: n, Step: 1, CallID: "c2", Name: "read", Text: NotStartedText, IsError: true, Code: CodeNotStarted},
		StepEnd{Turn: n, Step: 1},
		TurnEnd{Turn: n, Reason: StopInterrupted},
	}
}

func payloads(events []Event) []Data {
	var out []Data
	for _, e := range events {
		out = append(out, e.Data)
	}
	return out
}

func TestWriterKilledDuringToolIsRepairedOnceOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, killedDuringTool(1)...)
	want := wantKilledDuringToolRepairs(1)

	_, read, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := payloads(read[5:]); !reflect.DeepEqual(got, want) {
		t.Errorf("Read: want repairs %#v, got %#v", want, got)
	}

	l := openLog(t, path)
	if got := payloads(l.Repaired()); !reflect.DeepEqual(got, want) {
		t.Errorf("Open: want repairs %#v, got %#v", want, got)
	}
	if !reflect.DeepEqual(l.Events(), read) {
		t.Errorf("want Open to load what Read did:\n%s\ngot\n%s", types(read), types(l.Events()))
	}
	for i, e := range l.Repaired() {
		if e.Seq != int64(5+i) || !e.Time.Equal(at(4)) {
			t.Errorf("repair %d: want seq %d at the last event's time %v, got seq %d at %v", i, 5+i, at(4), e.Seq, e.Time)
		}
	}
	if err := l.Close(); err != nil {
		t.Fatal(err)
	}

	again := reopenRepairsNothing(t, path)
	if n := len(again.Events()); n != 9 {
		t.Errorf("want the 5 written and 4 repair events durable, got %d: %s", n, types(again.Events()))
	}
}

func TestTornLastLineIsDroppedAndTruncatedOnOpen(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, completedTurn(1, "a")...)
	clean, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for name, tail := range map[string]string{
		"no newline":        `{"type":"turn/start","seq":11,"time":5,"da`,
		"unparsable":        "{\"type\":\"turn/st\x00\n",
		"complete no break": `{"type":"turn/start","seq":11,"time":5,"data":{"turn":2}}`,
	} {
		t.Run(name, func(t *testing.T) {
			if err := os.WriteFile(path, append(append([]byte{}, clean...), tail...), 0o600); err != nil {
				t.Fatal(err)
			}
			_, events, err := Read(path)
			if err != nil {
				t.Fatal(err)
			}
			if len(events) != 11 {
				t.Errorf("Read: want the 11 whole events, got %d: %s", len(events), types(events))
			}
			l := openLog(t, path)
			if err := l.Close(); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			if string(got) != string(clean) {
				t.Errorf("want the torn line truncated away, got tail %q", got[min(len(clean), len(got)):])
			}
		})
	}
}

func TestTornLineAfterAnOpenStepClosesTheStepAndTurn(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path, TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "x"}, StepStart{Turn: 1, Step: 1})
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"type":"assistant/message","seq":3,"time":9,"data":{"turn":1,"st`)
	f.Close()

	_, events, err := Read(path)
	if err != nil {
		t.Fatal(err)
	}
	want := []Data{StepEnd{Turn: 1, Step: 1}, TurnEnd{Turn: 1, Reason: StopInterrupted}}
	if got := payloads(events[3:]); !reflect.DeepEqual(got, want) {
		t.Errorf("want %#v, got %#v", want, got)
	}
}

func TestCleanLogNeedsNoRepair(t *testing.T) {
	events := []Event{}
	for i, d := range completedTurn(1, "a") {
		events = append(events, Event{Type: d.EventType(), Seq: int64(i), Data: d})
	}
	if got := closers(events); len(got) != 0 {
		t.Errorf("want no repairs, got %#v", got)
	}
}

func TestHeaderOnlyLogOpens(t *testing.T) {
	path := filepath.Join(t.TempDir(), "s1.jsonl")
	createLog(t, path)
	l := openLog(t, path)
	if n := len(l.Events()) + len(l.Repaired()); n != 0 {
		t.Errorf("want no events, got %d", n)
	}
}

// reopenRepairsNothing opens the repaired log at path again, closed when
// the test ends: its repairs are durable, so nothing is left to repair.
func reopenRepairsNothing(t *testing.T, path string) *Log {
	t.Helper()
	again := openLog(t, path)
	if n := len(again.Repaired()); n != 0 {
		t.Errorf("want a second Open to repair nothing, got %d events: %s", n, types(again.Repaired()))
	}
	return again
}
