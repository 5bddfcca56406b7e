package llmtest

import (
	"encoding/json"
	"fmt"
	"time"
)

// Parts for the stream shapes of servers other than DeepSeek
// (providers.md §2), so tests can meet them without a recording.

// Data sends payload as one data event, verbatim: any shape at all.
func Data(payload string) Part { return func(r *reply) { r.add(Event{Data: payload}) } }

// ToolCallAt sends a whole call in one delta at the given index, with id
// ("" sends none, as vLLM may): Ollama's shape, and with it the id-less,
// restarted-at-index-0 (a new id at a used index), duplicate-id and
// start-at-index-1 (LiteLLM) shapes.
func ToolCallAt(index int, id, name, args string) Part {
	return func(r *reply) {
		r.calls++
		tc := toolCallJSON{Index: index, ID: id, Type: "function", Function: functionJSON{Name: name, Arguments: args}}
		r.add(Event{Data: encodeChunk(deltaJSON{ToolCalls: []toolCallJSON{tc}}, nil, nil)})
	}
}

// ReasoningBoth streams reasoning as both reasoning and reasoning_content
// with the same text, as some vLLM versions do.
func ReasoningBoth(text string, size int) Part {
	return func(r *reply) {
		for _, piece := range split(text, size) {
			b, _ := json.Marshal(piece)
			r.add(Event{Data: fmt.Sprintf(`{"object":"chat.completion.chunk","choices":[{"index":0,"delta":{"reasoning":%s,"reasoning_content":%s},"finish_reason":null}]}`, b, b)})
		}
	}
}

// ReasoningField streams reasoning in the reasoning field newer Ollama
// uses instead of reasoning_content.
func ReasoningField(text string, size int) Part {
	return func(r *reply) {
		for _, piece := range split(text, size) {
			b, _ := json.Marshal(piece)
			r.add(Event{Data: fmt.Sprintf(`{"choices":[{"index":0,"delta":{"content":"","reasoning":%s}}]}`, b)})
		}
	}
}

// ContentParts sends one delta whose content is an array of typed parts, as
// Mistral does: a thinking part then a text part (either may be empty).
func ContentParts(thinking, text string) Part {
	return func(r *reply) {
		var parts []map[string]any
		if thinking != "" {
			parts = append(parts, map[string]any{"type": "thinking", "thinking": []map[string]string{{"type": "text", "text": thinking}}})
		}
		if text != "" {
			parts = append(parts, map[string]any{"type": "text", "text": text})
		}
		b, _ := json.Marshal(map[string]any{"choices": []any{map[string]any{"index": 0, "delta": map[string]any{"content": parts}}}})
		r.add(Event{Data: string(b)})
	}
}

// ErrorObject sends vLLM's top-level error chunk,
// {"object":"error","message":...}; the stream ends with [DONE] after it.
func ErrorObject(message string) Part {
	return func(r *reply) {
		b, _ := json.Marshal(map[string]any{"object": "error", "message": message, "type": "InternalServerError", "param": nil, "code": 500})
		r.add(Event{Data: string(b)})
		r.add(Event{Data: "[DONE]"})
		r.cut = true
	}
}

// RawUsage reports usage as the JSON object given, for counts of the
// wrong type or size.
func RawUsage(object string) Part {
	return func(r *reply) {
		r.add(Event{Data: `{"choices":[],"usage":` + object + `}`})
	}
}

// Queued sends ": keep-alive" every d until the client gives up, as
// DeepSeek does while a request waits for capacity.
func Queued(every time.Duration) Part {
	return func(r *reply) { r.add(Event{KeepAliveEvery: every}); r.cut = true }
}

// EndWithoutFinish ends the body cleanly before any finish reason or
// [DONE]: a stream closed early.
func EndWithoutFinish() Part { return func(r *reply) { r.cut = true } }

// CRLineEndings returns r with every line ended by a lone CR, which the SSE
// specification allows.
func CRLineEndings(r Response) Response {
	r.CR = true
	return r
}
