package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
)

// Request is a chat-completions request as the server received it.
type Request struct {
	Model           string    `json:"model"`
	Messages        []Message `json:"messages"`
	Tools           []Tool    `json:"tools"`
	Thinking        *Thinking `json:"thinking"`
	ReasoningEffort string    `json:"reasoning_effort"`
	MaxTokens       int       `json:"max_tokens"`
	// MaxCompletionTokens is the bound OpenAI's reasoning models take.
	MaxCompletionTokens int            `json:"max_completion_tokens"`
	Stream              bool           `json:"stream"`
	StreamOptions       *StreamOptions `json:"stream_options"`

	Header http.Header     `json:"-"`
	Body   json.RawMessage `json:"-"` // the body exactly as sent
}

// ToolResult is the content of the tool message answering callID, or ""
// when the request holds none.
func (r Request) ToolResult(callID string) string {
	for _, m := range r.Messages {
		if m.Role == "tool" && m.ToolCallID == callID {
			return m.Content
		}
	}
	return ""
}

// ToolNames are the names of the tools the request offered, in order.
func (r Request) ToolNames() []string {
	var out []string
	for _, t := range r.Tools {
		out = append(out, t.Function.Name)
	}
	return out
}

// Message is one message of a request. Content is the text, joined from
// content parts when the client sent an array.
type Message struct {
	Role             string `json:"role"`
	Content          string `json:"-"`
	ReasoningContent string `json:"reasoning_content"`
	ToolCalls        []Call `json:"tool_calls"`
	ToolCallID       string `json:"tool_call_id"`
	// Images are the data URLs of the message's image_url parts.
	Images []string `json:"-"`

	nullContent bool
}

// Call is an assistant tool call replayed in the history.
type Call struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Tool is a tool offered to the model.
type Tool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// Thinking is DeepSeek's thinking switch.
type Thinking struct {
	Type string `json:"type"`
}

// StreamOptions are the OpenAI stream options.
type StreamOptions struct {
	IncludeUsage bool `json:"include_usage"`
}

// UnmarshalJSON accepts content as a string, an array of text parts, or
// null (which validation then reports on assistant messages).
func (m *Message) UnmarshalJSON(b []byte) error {
	type plain Message
	var aux struct {
		*plain
		Content json.RawMessage `json:"content"`
	}
	aux.plain = (*plain)(m)
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	switch c := aux.Content; {
	case len(c) == 0 || string(c) == "null":
		m.nullContent = true
	case c[0] == '"':
		return json.Unmarshal(c, &m.Content)
	default:
		var parts []struct {
			Type     string `json:"type"`
			Text     string `json:"text"`
			ImageURL struct {
				URL string `json:"url"`
			} `json:"image_url"`
		}
		if err := json.Unmarshal(c, &parts); err != nil {
			return fmt.Errorf("content: %w", err)
		}
		for _, p := range parts {
			m.Content += p.Text
			if p.Type == "image_url" {
				m.Images = append(m.Images, p.ImageURL.URL)
			}
		}
	}
	return nil
}

func decodeRequest(raw []byte, h http.Header) (*Request, []string) {
	var req Request
	if err := json.Unmarshal(raw, &req); err != nil {
		return nil, []string{fmt.Sprintf("the body is not a chat-completions request: %v", err)}
	}
	req.Header = h.Clone()
	req.Body = append(json.RawMessage(nil), raw...)
	return &req, nil
}

// ReasoningContentRefusal is DeepSeek's own wording of its 400 to a
// thinking-mode history whose tool-call message lacks its reasoning.
const ReasoningContentRefusal = "The `reasoning_content` in the thinking mode must be passed back to the API."

// validate checks what DeepSeek and OpenAI reject with HTTP 400: tool
// results that answer no pending call, calls left unanswered before the
// next user or assistant message, calls with an empty or repeated id,
// reasoning not passed back on an assistant message whose tool calls were
// sent with reasoning, an assistant message with tool calls and no
// non-empty reasoning_content while thinking is on (a request with
// "thinking":{"type":"enabled"}; V4-Pro refuses an empty string,
// hermes-agent#17341), and null assistant content.
func validate(req *Request, reasoned map[string]string) []string {
	thinking := req.Thinking != nil && req.Thinking.Type == "enabled"
	var problems []string
	var open []string // tool-call ids awaiting an answer, in call order
	seen := map[string]bool{}
	unanswered := func(i int, m Message) {
		if len(open) > 0 {
			problems = append(problems, fmt.Sprintf("message %d (%s) comes before tool calls %s are answered", i, m.Role, strings.Join(open, ", ")))
			open = nil
		}
	}
	for i, m := range req.Messages {
		switch m.Role {
		case "user", "system":
			unanswered(i, m)
		case "assistant":
			unanswered(i, m)
			if m.nullContent && len(m.ToolCalls) == 0 {
				problems = append(problems, fmt.Sprintf("message %d: assistant content is null", i))
			}
			if thinking && len(m.ToolCalls) > 0 && m.ReasoningContent == "" {
				problems = append(problems, fmt.Sprintf("message %d: %s (an assistant message with tool calls has no reasoning_content, or an empty one, while thinking is on)", i, ReasoningContentRefusal))
			}
			for _, tc := range m.ToolCalls {
				switch {
				case tc.ID == "":
					problems = append(problems, fmt.Sprintf("message %d: a tool call has an empty id", i))
				case seen[tc.ID]:
					problems = append(problems, fmt.Sprintf("message %d: tool call id %s is used twice", i, tc.ID))
				}
				open, seen[tc.ID] = append(open, tc.ID), true
				if want := reasoned[tc.ID]; want != "" && m.ReasoningContent != want {
					problems = append(problems, fmt.Sprintf("message %d: tool call %s came with reasoning, want it passed back as reasoning_content, got %q", i, tc.ID, clip(m.ReasoningContent)))
				}
			}
		case "tool":
			j := slices.Index(open, m.ToolCallID)
			switch {
			case j >= 0:
				open = slices.Delete(open, j, j+1)
			case seen[m.ToolCallID]:
				problems = append(problems, fmt.Sprintf("message %d: tool result for %s answers an already answered call", i, m.ToolCallID))
			default:
				problems = append(problems, fmt.Sprintf("message %d: orphan tool result: %q answers no earlier tool call", i, m.ToolCallID))
			}
		}
	}
	if len(open) > 0 {
		problems = append(problems, fmt.Sprintf("tool calls %s are never answered", strings.Join(open, ", ")))
	}
	return problems
}

func clip(s string) string {
	if r := []rune(s); len(r) > 40 {
		return string(r[:40]) + "…"
	}
	return s
}
