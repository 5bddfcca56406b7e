package llm

import "testing"

// TestDecodeChunkReplacesInvalidUTF8 pins a fuzz finding: the scanner's
// fast path copied a string without escapes verbatim, so text with invalid
// UTF-8 reached the screen as raw bytes while encoding/json, and with it the
// session log, held U+FFFD in their place.
func TestDecodeChunkReplacesInvalidUTF8(t *testing.T) {
	var got wireChunk
	if err := decodeChunk([]byte("{\"choices\":[{\"delta\":{\"content\":\"a\xffb\",\"reasoning_content\":\"\xc3\"}}]}"), &got); err != nil {
		t.Fatal(err)
	}
	if d := got.Choices[0].Delta; d.Content.Text != "a\uFFFDb" || d.ReasoningContent != "\uFFFD" {
		t.Errorf("want %q and %q, got %q and %q", "a\uFFFDb", "\uFFFD", d.Content.Text, d.ReasoningContent)
	}
}

// TestDecodeChunkIntoAReusedChunkKeepsNothingOfTheLast: a stream decodes
// every payload into one wireChunk, whose choices keep their room.
func TestDecodeChunkIntoAReusedChunkKeepsNothingOfTheLast(t *testing.T) {
	var w wireChunk
	if err := decodeChunk([]byte(`{"choices":[{"delta":{"content":"a","tool_calls":[{"index":0,"id":"c","function":{"name":"n","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`), &w); err != nil {
		t.Fatal(err)
	}
	if err := decodeChunk([]byte(`{"choices":[{"delta":{"reasoning":"r"}}],"usage":null}`), &w); err != nil {
		t.Fatal(err)
	}
	if len(w.Choices) != 1 || w.Choices[0].Delta.Content.Text != "" || w.Choices[0].Delta.ToolCalls != nil || w.Choices[0].FinishReason != "" || w.Choices[0].Delta.Reasoning != "r" {
		t.Fatalf("want only the second chunk's choice, got %+v", w.Choices)
	}
	if err := decodeChunk([]byte(`{"choices":[]}`), &w); err != nil || len(w.Choices) != 0 {
		t.Fatalf("want no choices, got %+v %v", w.Choices, err)
	}
}
