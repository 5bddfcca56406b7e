package llm

import "strings"

// Accumulator folds a response's chunks into the settled assistant message.
// The zero value is ready to use.
type Accumulator struct {
	text, reasoning strings.Builder
	calls           []ToolCall
	index           map[int]int // chunk tool-call index → position in calls
	usage           Usage
	finish          FinishReason
}

// Add folds one chunk in.
func (a *Accumulator) Add(c Chunk) {
	switch c.Kind {
	case ChunkText:
		a.text.WriteString(c.Text)
	case ChunkReasoning:
		a.reasoning.WriteString(c.Text)
	case ChunkToolCall:
		a.addToolCall(*c.ToolCall)
	case ChunkUsage:
		a.usage = *c.Usage
	case ChunkFinish:
		a.finish = c.Finish
	}
}

func (a *Accumulator) addToolCall(d ToolCallDelta) {
	if a.index == nil {
		a.index = map[int]int{}
	}
	i, ok := a.index[d.Index]
	if !ok {
		i = len(a.calls)
		a.index[d.Index] = i
		a.calls = append(a.calls, ToolCall{})
	}
	tc := &a.calls[i]
	if d.ID != "" {
		tc.ID = d.ID
	}
	if d.Name != "" {
		tc.Name = d.Name
	}
	tc.Arguments += d.Arguments
}

// Message is the assistant message so far.
func (a *Accumulator) Message() Message {
	return Message{
		Role:      RoleAssistant,
		Content:   a.text.String(),
		Reasoning: a.reasoning.String(),
		ToolCalls: append([]ToolCall(nil), a.calls...),
	}
}

// Usage is the response's token usage (zero until the usage chunk).
func (a *Accumulator) Usage() Usage { return a.usage }

// Finish is why the response ended (empty until the finish chunk).
func (a *Accumulator) Finish() FinishReason { return a.finish }

// Empty reports whether the response carried no reasoning, text or tool
// call.
func (a *Accumulator) Empty() bool {
	return a.text.Len() == 0 && a.reasoning.Len() == 0 && len(a.calls) == 0
}
