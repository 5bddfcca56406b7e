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
