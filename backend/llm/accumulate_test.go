package llm

import (
	"reflect"
	"testing"
)

func TestAccumulatorAssemblesToolCallsByIndex(t *testing.T) {
	var a Accumulator
	for _, c := range []Chunk{
		{Kind: ChunkReasoning, Text: "think "}, {Kind: ChunkReasoning, Text: "more"},
		{Kind: ChunkText, Text: "Running both."},
		{Kind: ChunkToolCall, ToolCall: &ToolCallDelta{Index: 1, ID: "b", Name: "grep"}},
		{Kind: ChunkToolCall, ToolCall: &ToolCallDelta{Index: 0, ID: "a", Name: "read", Arguments: `{"pa`}},
		{Kind: ChunkToolCall, ToolCall: &ToolCallDelta{Index: 1, Arguments: `{}`}},
		{Kind: ChunkToolCall, ToolCall: &ToolCallDelta{Index: 0, Arguments: `th":"x"}`}},
		{Kind: ChunkUsage, Usage: &Usage{Input: 3, Output: 4}},
		{Kind: ChunkFinish, Finish: FinishToolCalls},
	} {
		a.Add(c)
	}
	want := Message{Role: RoleAssistant, Content: "Running both.", Reasoning: "think more", ToolCalls: []ToolCall{
		{ID: "a", Name: "read", Arguments: `{"path":"x"}`}, {ID: "b", Name: "grep", Arguments: `{}`},
	}}
	if got := a.Message(); !reflect.DeepEqual(got, want) {
		t.Errorf("\nwant %+v\ngot  %+v", want, got)
	}
	if u, ok := a.Usage(); !ok || u != (Usage{Input: 3, Output: 4}) {
		t.Errorf("want usage {3 0 4 0}, got %+v %v", u, ok)
	}
	if a.Finish() != FinishToolCalls {
		t.Errorf("want finish %q, got %q", FinishToolCalls, a.Finish())
	}
}

func TestEmptyAccumulatorHasNoUsage(t *testing.T) {
	var a Accumulator
	if _, ok := a.Usage(); ok || a.Finish() != "" || a.Message().ToolCalls != nil {
		t.Errorf("want nothing from an empty accumulator, got %+v", a.Message())
	}
}
