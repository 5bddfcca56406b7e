package llm

import (
	"errors"
	"io"
	"slices"
	"strings"
)

// Accumulator folds the chunks of one response into the assistant Message
// they make up: text, reasoning, tool calls assembled by index, usage and
// finish reason. The zero value is ready to use.
type Accumulator struct {
	text, reasoning strings.Builder
	calls           []indexedCall
	usage           *Usage
	finish          FinishReason
	notes           []string
}

type indexedCall struct {
	index int
	call  ToolCall
}

// Add folds one chunk in. Tool-call fragments are appended to the call with
// the same Index; the first fragment's ID and Name stick.
func (a *Accumulator) Add(c Chunk) {
	switch c.Kind {
	case ChunkReasoning:
		a.reasoning.WriteString(c.Text)
	case ChunkText:
		a.text.WriteString(c.Text)
	case ChunkToolCall:
		a.addToolCall(*c.ToolCall)
	case ChunkUsage:
		u := *c.Usage
		a.usage = &u
	case ChunkFinish:
		a.finish = c.Finish
	case ChunkNote:
		a.notes = append(a.notes, c.Text)
	}
}

func (a *Accumulator) addToolCall(d ToolCallDelta) {
	i := slices.IndexFunc(a.calls, func(c indexedCall) bool { return c.index == d.Index })
	if i < 0 {
		i = len(a.calls)
		a.calls = append(a.calls, indexedCall{index: d.Index})
	}
	tc := &a.calls[i].call
	if tc.ID == "" {
		tc.ID = d.ID
	}
	if tc.Name == "" {
		tc.Name = d.Name
	}
	tc.Arguments += d.Arguments
	if d.Extra != nil {
		tc.Extra = d.Extra
	}
}

// Message is the assistant message so far, tool calls ordered by index.
func (a *Accumulator) Message() Message {
	m := Message{Role: RoleAssistant, Content: a.text.String(), Reasoning: a.reasoning.String()}
	calls := slices.Clone(a.calls)
	slices.SortStableFunc(calls, func(x, y indexedCall) int { return x.index - y.index })
	for _, c := range calls {
		m.ToolCalls = append(m.ToolCalls, c.call)
	}
	return m
}

// Usage is the reported usage, if any arrived.
func (a *Accumulator) Usage() (Usage, bool) {
	if a.usage == nil {
		return Usage{}, false
	}
	return *a.usage, true
}

// Notes are what the stream noted about the answer, in order.
func (a *Accumulator) Notes() []string { return slices.Clone(a.notes) }

// Finish is the finish reason, empty until the finish chunk arrived.
func (a *Accumulator) Finish() FinishReason { return a.finish }

// Collect reads s to its end, closes it and returns what it carried. On a
// failed stream the Accumulator still holds the chunks (and usage) that
// arrived before the error.
func Collect(s Stream) (*Accumulator, error) {
	defer s.Close()
	var a Accumulator
	for {
		c, err := s.Next()
		if errors.Is(err, io.EOF) {
			return &a, nil
		}
		if err != nil {
			return &a, err
		}
		a.Add(c)
	}
}
