package llm

import (
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
}

type wireFunction struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
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

// noToolOutput replaces an empty tool result, which some servers reject.
const noToolOutput = "(no output)"

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
	w.Messages = encodeMessages(r.Messages, sh.reasoning == ReasoningDeepSeek)
	for _, t := range r.Tools {
		w.Tools = append(w.Tools, wireTool{Type: "function", Function: wireToolSpec(t)})
	}
	return w
}

// encodeMessages serialises the history with system messages first, in
// their original order, then everything else in order. passBack sends
// assistant reasoning back as reasoning_content, which only DeepSeek's
// thinking mode wants (api.openai.com refuses unknown message fields).
func encodeMessages(msgs []Message, passBack bool) []wireMessage {
	ordered := slices.Concat(
		slices.DeleteFunc(slices.Clone(msgs), func(m Message) bool { return m.Role != RoleSystem }),
		slices.DeleteFunc(slices.Clone(msgs), func(m Message) bool { return m.Role == RoleSystem }),
	)
	out := make([]wireMessage, 0, len(ordered))
	var toolImages []Image
	for i, m := range ordered {
		w := wireMessage{Role: m.Role, Content: m.Content, ToolCallID: m.ToolCallID}
		switch m.Role {
		case RoleAssistant:
			if passBack {
				w.ReasoningContent = m.Reasoning
			}
			for _, tc := range m.ToolCalls {
				w.ToolCalls = append(w.ToolCalls, wireToolCall{
					ID: tc.ID, Type: "function",
					Function: wireFunction{Name: tc.Name, Arguments: tc.Arguments},
				})
			}
		case RoleTool:
			if w.Content == "" {
				w.Content = noToolOutput
			}
			toolImages = append(toolImages, m.Images...)
		case RoleUser:
			if len(m.Images) > 0 {
				w.Parts = imageContent(m.Content, m.Images)
			}
		}
		out = append(out, w)
		if len(toolImages) > 0 && (i+1 == len(ordered) || ordered[i+1].Role != RoleTool) {
			out = append(out, toolImagesMessage(toolImages))
			toolImages = nil
		}
	}
	return out
}

// wireChunk is one decoded SSE data payload of a streamed response.
type wireChunk struct {
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
	Error   *wireError   `json:"error"`
}

type wireChoice struct {
	Delta        wireDelta `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

// wireDelta accepts reasoning as DeepSeek's reasoning_content or as the
// reasoning field some other compatible servers use.
type wireDelta struct {
	Content          string         `json:"content"`
	ReasoningContent string         `json:"reasoning_content"`
	Reasoning        string         `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
}

type wireUsage struct {
	PromptTokens          int  `json:"prompt_tokens"`
	CompletionTokens      int  `json:"completion_tokens"`
	PromptCacheHitTokens  *int `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens *int `json:"prompt_cache_miss_tokens"`
	PromptTokensDetails   struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
}

// usage maps the wire counts into disjoint buckets. DeepSeek reports cache
// hits and misses directly; other servers report cached_tokens, and the
// uncached input is what remains of the prompt.
func (u *wireUsage) usage() Usage {
	out := Usage{
		CacheRead: u.PromptTokensDetails.CachedTokens,
		Output:    u.CompletionTokens,
		Reasoning: u.CompletionTokensDetails.ReasoningTokens,
	}
	if u.PromptCacheHitTokens != nil {
		out.CacheRead = *u.PromptCacheHitTokens
	}
	out.Input = u.PromptTokens - out.CacheRead
	if u.PromptCacheMissTokens != nil {
		out.Input = *u.PromptCacheMissTokens
	}
	return out
}
