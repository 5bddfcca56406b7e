package llm

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// The response side of the wire: one streamed chunk as the servers tack
// meets send it. Each type decodes with encoding/json exactly as
// decodeChunk's scanner does; FuzzDecodeChunk holds them to it.

// wireChunk is one decoded SSE data payload of a streamed response. Object
// and Message carry the top-level error vLLM and SGLang send
// ({"object":"error","message":...}); Error the {"error":{...}} of others.
type wireChunk struct {
	Choices []wireChoice `json:"choices"`
	Usage   *wireUsage   `json:"usage"`
	Error   *wireError   `json:"error"`
	Object  errorObject  `json:"object"`
	Message string       `json:"message"`
}

// errorObject is the chunk's "object": only whether it says "error"
// matters, and every other chunk says "chat.completion.chunk", which the
// scanner then need not copy.
type errorObject bool

func (o *errorObject) UnmarshalJSON(b []byte) error {
	var s string
	*o = json.Unmarshal(b, &s) == nil && s == "error"
	return nil
}

// failure is the error the chunk carries, if it is one.
func (w *wireChunk) failure() *wireError {
	switch {
	case w.Error != nil:
		return w.Error
	case bool(w.Object):
		return &wireError{Message: w.Message}
	}
	return nil
}

type wireChoice struct {
	Delta        wireDelta `json:"delta"`
	FinishReason string    `json:"finish_reason"`
}

// wireDelta accepts reasoning as DeepSeek's reasoning_content or as the
// reasoning field some other compatible servers use (vLLM may send both
// with the same text).
type wireDelta struct {
	Content          wireContent    `json:"content"`
	ReasoningContent string         `json:"reasoning_content"`
	Reasoning        string         `json:"reasoning"`
	ToolCalls        []wireToolCall `json:"tool_calls"`
}

// wireContent is a delta's content: a string, or an array of typed parts
// (Mistral) whose text parts are text and whose thinking parts are
// reasoning. Other parts are skipped.
type wireContent struct {
	Text     string
	Thinking string
}

func (c *wireContent) UnmarshalJSON(b []byte) error {
	*c = wireContent{}
	switch b[0] {
	case 'n':
		return nil
	case '"':
		return json.Unmarshal(b, &c.Text)
	case '[':
	default:
		return fmt.Errorf("content is neither a string nor an array of parts: %.40s", b)
	}
	var parts []struct {
		Type     string          `json:"type"`
		Text     string          `json:"text"`
		Thinking json.RawMessage `json:"thinking"`
	}
	if err := json.Unmarshal(b, &parts); err != nil {
		return err
	}
	for _, p := range parts {
		switch p.Type {
		case "text":
			c.Text += p.Text
		case "thinking":
			t, err := thinkingText(p.Thinking)
			if err != nil {
				return err
			}
			c.Thinking += t
		}
	}
	return nil
}

// thinkingText reads a thinking part's thinking: a string, or an array of
// text parts.
func thinkingText(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if raw[0] == '"' {
		var s string
		err := json.Unmarshal(raw, &s)
		return s, err
	}
	var parts []struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(raw, &parts); err != nil {
		return "", err
	}
	var out string
	for _, p := range parts {
		out += p.Text
	}
	return out, nil
}

// maxReportedTokens bounds a believable token count: ten times the largest
// context window of any model.
const maxReportedTokens = 100_000_000

// tokenCount is one usage number. A value that is not a whole number in
// [0, maxReportedTokens] is marked bad instead of failing the chunk: a
// server's odd accounting must not turn a finished answer into an error.
type tokenCount struct {
	n   int
	set bool
	bad string // the value as sent, when it is unusable
}

func (c *tokenCount) UnmarshalJSON(b []byte) error {
	*c = tokenCount{}
	if string(b) == "null" {
		return nil
	}
	f, err := strconv.ParseFloat(string(b), 64) // a JSON number is valid Go float syntax
	if err != nil || f < 0 || f > maxReportedTokens || f != math.Trunc(f) {
		c.bad = string(b)
		if len(c.bad) > 40 {
			c.bad = c.bad[:40] + "…"
		}
		return nil
	}
	c.n, c.set = int(f), true
	return nil
}

type wireUsage struct {
	PromptTokens          tokenCount `json:"prompt_tokens"`
	CompletionTokens      tokenCount `json:"completion_tokens"`
	PromptCacheHitTokens  tokenCount `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens tokenCount `json:"prompt_cache_miss_tokens"`
	PromptTokensDetails   struct {
		CachedTokens tokenCount `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens tokenCount `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	// shape is set when usage was not an object of the expected shape.
	shape string
}

func (u *wireUsage) UnmarshalJSON(b []byte) error {
	type plain wireUsage
	var p plain
	if err := json.Unmarshal(b, &p); err != nil {
		*u = wireUsage{shape: "usage is not an object of token counts"}
		return nil
	}
	*u = wireUsage(p)
	return nil
}

// usage maps the wire counts into disjoint buckets. DeepSeek reports cache
// hits and misses directly; other servers report cached_tokens, and the
// uncached input is what remains of the prompt. It says what is wrong when
// the counts cannot be used.
func (u *wireUsage) usage() (Usage, string) {
	if u.shape != "" {
		return Usage{}, u.shape
	}
	for _, c := range []struct {
		name  string
		count tokenCount
	}{
		{"prompt_tokens", u.PromptTokens}, {"completion_tokens", u.CompletionTokens},
		{"prompt_cache_hit_tokens", u.PromptCacheHitTokens}, {"prompt_cache_miss_tokens", u.PromptCacheMissTokens},
		{"cached_tokens", u.PromptTokensDetails.CachedTokens}, {"reasoning_tokens", u.CompletionTokensDetails.ReasoningTokens},
	} {
		if c.count.bad != "" {
			return Usage{}, fmt.Sprintf("%s is %s", c.name, c.count.bad)
		}
	}
	out := Usage{
		CacheRead: u.PromptTokensDetails.CachedTokens.n,
		Output:    u.CompletionTokens.n,
		Reasoning: u.CompletionTokensDetails.ReasoningTokens.n,
	}
	if u.PromptCacheHitTokens.set {
		out.CacheRead = u.PromptCacheHitTokens.n
	}
	out.Input = u.PromptTokens.n - out.CacheRead
	if u.PromptCacheMissTokens.set {
		out.Input = u.PromptCacheMissTokens.n
	}
	if out.Input < 0 {
		return Usage{}, fmt.Sprintf("the cached tokens (%d) exceed the prompt (%d)", out.CacheRead, u.PromptTokens.n)
	}
	return out, ""
}
