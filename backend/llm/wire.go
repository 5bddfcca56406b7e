package llm

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
)

// The OpenAI-compatible chat-completions wire format, with DeepSeek's
// extensions (thinking, reasoning_effort, reasoning_content, cache usage)
// as first-class fields.

type wireRequest struct {
	Model               string            `json:"model"`
	Messages            []wireMessage     `json:"messages"`
	Stream              bool              `json:"stream"`
	StreamOptions       wireStreamOptions `json:"stream_options"`
	MaxTokens           int               `json:"max_tokens,omitempty"`
	MaxCompletionTokens int               `json:"max_completion_tokens,omitempty"`
	Thinking            *wireThinking     `json:"thinking,omitempty"`
	ReasoningEffort     string            `json:"reasoning_effort,omitempty"`
	Tools               []wireTool        `json:"tools,omitempty"`
}

type wireStreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

type wireThinking struct {
	Type string `json:"type"`
}

// wireMessage always carries content: DeepSeek answers 400 to an assistant
// message whose content is null.
type wireMessage struct {
	Role             Role           `json:"role"`
	Content          string         `json:"content"`
	ReasoningContent string         `json:"reasoning_content,omitempty"`
	ToolCalls        []wireToolCall `json:"tool_calls,omitempty"`
	ToolCallID       string         `json:"tool_call_id,omitempty"`
	// Parts replaces Content with an array when the message has images.
	Parts []wirePart `json:"-"`
}

type wireToolCall struct {
	Index    *int         `json:"index,omitempty"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function wireFunction `json:"function"`
	// ExtraContent is a server's own data on a call, sent back as it came
	// (Gemini: {"google":{"thought_signature":…}}).
	ExtraContent json.RawMessage `json:"extra_content,omitempty"`
}

type wireFunction struct {
	Name      string   `json:"name,omitempty"`
	Arguments wireArgs `json:"arguments"`
}

// wireArgs is a call's arguments: the JSON text in a string, as the
// OpenAI format has it, or the object itself, as some gateways send it.
type wireArgs string

func (a *wireArgs) UnmarshalJSON(b []byte) error {
	switch b[0] {
	case '"':
		return json.Unmarshal(b, (*string)(a))
	case 'n':
		*a = ""
	default:
		var buf bytes.Buffer
		if err := json.Compact(&buf, b); err != nil {
			return err
		}
		*a = wireArgs(buf.String())
	}
	return nil
}

type wireTool struct {
	Type     string       `json:"type"`
	Function wireToolSpec `json:"function"`
}

type wireToolSpec struct {
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Parameters  json.RawMessage `json:"parameters"`
}

// encodeRequest builds the wire body of a streamed request shaped as sh
// says. An empty Effort leaves reasoning to the server's default; title
// requests never think.
func encodeRequest(r Request, sh shape) wireRequest {
	w := wireRequest{
		Model:         r.Model,
		Stream:        true,
		StreamOptions: wireStreamOptions{IncludeUsage: true},
	}
	if sh.maxField == "max_completion_tokens" {
		w.MaxCompletionTokens = r.MaxTokens
	} else {
		w.MaxTokens = r.MaxTokens
	}
	effort := r.Effort
	if r.Purpose == PurposeTitle {
		effort = EffortOff
	}
	switch {
	case effort == "":
	case sh.reasoning == ReasoningDeepSeek && effort == EffortOff:
		w.Thinking = &wireThinking{Type: "disabled"}
	case sh.reasoning == ReasoningDeepSeek:
		w.Thinking = &wireThinking{Type: "enabled"}
		w.ReasoningEffort = cmp.Or(sh.efforts[effort], string(effort))
	case sh.reasoning == ReasoningEffort:
		w.ReasoningEffort = sh.efforts[effort]
	}
	reasoning := reasoningOff
	if sh.reasoning == ReasoningDeepSeek {
		reasoning = reasoningPassBack
		if effort != EffortOff { // "" leaves DeepSeek's default: thinking on
			reasoning = reasoningThinking
		}
	}
	w.Messages = encodeMessages(r.Messages, reasoning)
	for _, t := range r.Tools {
		w.Tools = append(w.Tools, wireTool{Type: "function", Function: wireToolSpec(t)})
	}
	return w
}

// reasoningBack is what assistant messages carry of their reasoning.
type reasoningBack uint8

const (
	// reasoningOff sends none: only DeepSeek wants it, and api.openai.com
	// refuses unknown message fields.
	reasoningOff reasoningBack = iota
	// reasoningPassBack sends a message's reasoning when it has some.
	reasoningPassBack
	// reasoningThinking sends reasoning_content on every assistant message,
	// never empty. DeepSeek's thinking mode answers 400 ("The
	// reasoning_content in the thinking mode must be passed back to the
	// API") to a history whose tool-call message has none, which a step
	// run with thinking off leaves behind (pi#8779), and V4-Pro refuses an
	// empty string too. Other agents settled on a one-space placeholder on
	// every assistant message when thinking is on (hermes-agent#17341,
	// merged as #18263); DeepSeek ignores the reasoning of turns that do
	// not need it, so padding them all is harmless and keeps the prefix
	// byte-stable for the prompt cache.
	reasoningThinking
)

// noReasoning stands in for the reasoning of an assistant message that had
// none, when thinking mode needs some.
const noReasoning = " "

// encodeMessages serialises the history with system messages first, in
// their original order, then everything else in order, with every tool
// call paired with its result (see pairing) and assistant reasoning as
// reasoning says.
func encodeMessages(msgs []Message, reasoning reasoningBack) []wireMessage {
	ordered := slices.Concat(
		slices.DeleteFunc(slices.Clone(msgs), func(m Message) bool { return m.Role != RoleSystem }),
		slices.DeleteFunc(slices.Clone(msgs), func(m Message) bool { return m.Role == RoleSystem }),
	)
	p := newPairing(ordered)
	out := make([]wireMessage, 0, len(ordered))
	// Images of tool results follow their results as one user message,
	// since a tool message carries text only.
	var toolImages []Image
	closeResults := func() {
		out = p.close(out)
		if len(toolImages) > 0 {
			out = append(out, toolImagesMessage(toolImages))
			toolImages = nil
		}
	}
	for _, m := range ordered {
		if m.Role == RoleTool {
			if w, ok := p.result(m); ok {
				out = append(out, w)
				toolImages = append(toolImages, m.Images...)
			}
			continue
		}
		closeResults()
		w := wireMessage{Role: m.Role, Content: m.Content}
		switch m.Role {
		case RoleAssistant:
			switch {
			case reasoning == reasoningThinking && m.Reasoning == "":
				w.ReasoningContent = noReasoning
			case reasoning != reasoningOff:
				w.ReasoningContent = m.Reasoning
			}
			for _, tc := range m.ToolCalls {
				w.ToolCalls = append(w.ToolCalls, wireToolCall{
					ID: p.call(tc.ID), Type: "function",
					Function:     wireFunction{Name: tc.Name, Arguments: wireArgs(tc.Arguments)},
					ExtraContent: tc.Extra,
				})
			}
		case RoleUser:
			if len(m.Images) > 0 {
				w.Parts = imageContent(m.Content, m.Images)
			}
		}
		out = append(out, w)
	}
	closeResults()
	return out
}
