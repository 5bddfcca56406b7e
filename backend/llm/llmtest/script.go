package llmtest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"
)

// Response is one scripted answer to one request: an HTTP error when Status
// is set to anything but 200, otherwise an SSE stream of Events.
type Response struct {
	Status int
	Header http.Header
	Body   string // the body of an HTTP error
	Events []Event
	CR     bool // end lines with a lone CR (see CRLineEndings)
}

// Event is one step of a streamed body. Exactly one of Data, Comment, Raw,
// Disconnect, Stall or KeepAliveEvery is set; Delay is waited before it.
type Event struct {
	Delay      time.Duration
	Data       string // written as "data: <Data>\n\n"
	Comment    string // written as ": <Comment>\n\n"
	Raw        string // written verbatim
	Disconnect bool   // drop the connection mid-stream
	Stall      bool   // send nothing more until the client goes away
	// KeepAliveEvery sends ": keep-alive" at this interval until the
	// client goes away.
	KeepAliveEvery time.Duration
}

// EchoAuthorization and EchoKey, anywhere in an error Body or an event's
// Data, are replaced by the request's Authorization header and by the key
// it carries: servers quote a rejected key back, and a proxy may dump the
// whole request into its error page, so a test can check that no key
// reaches the user.
const (
	EchoAuthorization = "{{authorization}}"
	EchoKey           = "{{key}}"
)

// echo is r with the echo placeholders filled from the request's header.
func (r Response) echo(h http.Header) Response {
	auth := h.Get("Authorization")
	fill := strings.NewReplacer(EchoAuthorization, auth, EchoKey, strings.TrimPrefix(auth, "Bearer "))
	r.Body = fill.Replace(r.Body)
	events := make([]Event, len(r.Events))
	for i, e := range r.Events {
		e.Data = fill.Replace(e.Data)
		events[i] = e
	}
	r.Events = events
	return r
}

// WithHeader returns r with a response header added.
func (r Response) WithHeader(key, value string) Response {
	r.Header = withHeader(r.Header, key, value)
	return r
}

// withHeader is a copy of h with a header added.
func withHeader(h http.Header, key, value string) http.Header {
	h = h.Clone()
	if h == nil {
		h = http.Header{}
	}
	h.Add(key, value)
	return h
}

// HTTPError answers with status and an OpenAI-style error body carrying
// message.
func HTTPError(status int, message string) Response {
	typ := "invalid_request_error"
	switch {
	case status == http.StatusUnauthorized:
		typ = "authentication_error"
	case status == http.StatusTooManyRequests:
		typ = "rate_limit_error"
	case status >= 500:
		typ = "server_error"
	}
	body, _ := json.Marshal(map[string]any{"error": map[string]any{"message": message, "type": typ, "param": nil, "code": typ}})
	return Response{Status: status, Body: string(body)}
}

// RateLimited answers 429, with a Retry-After header unless retryAfter is
// empty.
func RateLimited(retryAfter string) Response {
	r := HTTPError(http.StatusTooManyRequests, "Rate Limit Reached")
	if retryAfter != "" {
		r = r.WithHeader("Retry-After", retryAfter)
	}
	return r
}

// ReplyText is a stream that says text in one delta and stops.
func ReplyText(text string) Response { return Reply(Text(text, 0)) }

// Part is one piece of a Reply.
type Part func(*reply)

type reply struct {
	events []Event
	pace   time.Duration
	calls  int
	finish string
	usage  *usageJSON
	noDone bool
	cut    bool // the stream was disconnected or stalled: nothing follows
}

// Reply builds a DeepSeek-shaped stream from parts: a role chunk, the parts
// in order, a final chunk with the finish reason and usage, and [DONE].
// Without a Finish part the reason is tool_calls when the reply made tool
// calls and stop otherwise. A Reply with no content stops empty.
func Reply(parts ...Part) Response {
	r := &reply{}
	r.add(Event{Data: encodeChunk(deltaJSON{Role: "assistant", Content: ptr("")}, nil, nil)})
	for _, p := range parts {
		if !r.cut {
			p(r)
		}
	}
	if !r.cut {
		finish := r.finish
		if finish == "" {
			finish = "stop"
			if r.calls > 0 {
				finish = "tool_calls"
			}
		}
		r.add(Event{Data: encodeChunk(deltaJSON{Content: ptr("")}, &finish, r.usage)})
		if !r.noDone {
			r.add(Event{Data: "[DONE]"})
		}
	}
	return Response{Events: r.events}
}

func (r *reply) add(e Event) {
	if len(r.events) > 0 {
		e.Delay = r.pace
	}
	r.events = append(r.events, e)
}

// Text streams text as content deltas of size runes each (all at once when
// size is 0).
func Text(text string, size int) Part {
	return func(r *reply) {
		for _, piece := range split(text, size) {
			r.add(Event{Data: encodeChunk(deltaJSON{Content: ptr(piece)}, nil, nil)})
		}
	}
}

// Reasoning streams reasoning_content deltas of size runes each.
func Reasoning(text string, size int) Part {
	return func(r *reply) {
		for _, piece := range split(text, size) {
			r.add(Event{Data: encodeChunk(deltaJSON{ReasoningContent: ptr(piece)}, nil, nil)})
		}
	}
}

// ToolCall streams one tool call: id and name with empty arguments first,
// as DeepSeek does, then args in fragments pieces. Calls are indexed in the
// order they appear in the reply.
func ToolCall(id, name, args string, fragments int) Part {
	return func(r *reply) {
		index := r.calls
		r.calls++
		first := toolCallJSON{Index: index, ID: id, Type: "function", Function: functionJSON{Name: name}}
		r.add(Event{Data: encodeChunk(deltaJSON{ToolCalls: []toolCallJSON{first}}, nil, nil)})
		size := (len([]rune(args)) + max(fragments, 1) - 1) / max(fragments, 1)
		for _, piece := range split(args, size) {
			frag := toolCallJSON{Index: index, Function: functionJSON{Arguments: piece}}
			r.add(Event{Data: encodeChunk(deltaJSON{ToolCalls: []toolCallJSON{frag}}, nil, nil)})
		}
	}
}

// Usage reports token usage on the final chunk: cache-hit and cache-miss
// prompt tokens, completion tokens and the reasoning among them.
func Usage(hit, miss, output, reasoning int) Part {
	return func(r *reply) {
		u := usageJSON{PromptTokens: hit + miss, CompletionTokens: output, TotalTokens: hit + miss + output,
			PromptCacheHitTokens: hit, PromptCacheMissTokens: miss}
		u.PromptTokensDetails.CachedTokens = hit
		u.CompletionTokensDetails.ReasoningTokens = reasoning
		r.usage = &u
	}
}

// Finish sets the wire finish reason: stop, tool_calls, length,
// content_filter, ...
func Finish(reason string) Part { return func(r *reply) { r.finish = reason } }

// Pace delays every later event of the reply by d.
func Pace(d time.Duration) Part { return func(r *reply) { r.pace = d } }

// KeepAlive sends the ": keep-alive" comment DeepSeek sends under load.
func KeepAlive() Part { return func(r *reply) { r.add(Event{Comment: "keep-alive"}) } }

// Malformed sends a data event that is not valid JSON.
func Malformed() Part {
	return func(r *reply) { r.add(Event{Data: `{"choices":[{"delta":{"content":"cut`}) }
}

// Disconnect drops the connection at this point of the reply.
func Disconnect() Part { return func(r *reply) { r.add(Event{Disconnect: true}); r.cut = true } }

// Stall stops sending at this point until the client cancels; Server.Stalled
// reports when it begins.
func Stall() Part { return func(r *reply) { r.add(Event{Stall: true}); r.cut = true } }

// NoDone ends the stream cleanly without the [DONE] sentinel.
func NoDone() Part { return func(r *reply) { r.noDone = true } }

// split cuts s into pieces of size runes; size <= 0 keeps it whole. An
// empty s yields no pieces.
func split(s string, size int) []string {
	runes := []rune(s)
	if size <= 0 {
		size = max(len(runes), 1)
	}
	var out []string
	for len(runes) > 0 {
		n := min(size, len(runes))
		out = append(out, string(runes[:n]))
		runes = runes[n:]
	}
	return out
}

func ptr(s string) *string { return &s }

// The chunk shapes the fake server sends and reads back from recordings.
type chunkJSON struct {
	ID      string       `json:"id"`
	Object  string       `json:"object"`
	Model   string       `json:"model"`
	Choices []choiceJSON `json:"choices"`
	Usage   *usageJSON   `json:"usage"`
}

type choiceJSON struct {
	Index        int       `json:"index"`
	Delta        deltaJSON `json:"delta"`
	FinishReason *string   `json:"finish_reason"`
}

type deltaJSON struct {
	Role             string         `json:"role,omitempty"`
	Content          *string        `json:"content"`
	ReasoningContent *string        `json:"reasoning_content,omitempty"`
	ToolCalls        []toolCallJSON `json:"tool_calls,omitempty"`
}

type toolCallJSON struct {
	Index    int          `json:"index"`
	ID       string       `json:"id,omitempty"`
	Type     string       `json:"type,omitempty"`
	Function functionJSON `json:"function"`
}

type functionJSON struct {
	Name      string `json:"name,omitempty"`
	Arguments string `json:"arguments"`
}

type usageJSON struct {
	PromptTokens        int `json:"prompt_tokens"`
	CompletionTokens    int `json:"completion_tokens"`
	TotalTokens         int `json:"total_tokens"`
	PromptTokensDetails struct {
		CachedTokens int `json:"cached_tokens"`
	} `json:"prompt_tokens_details"`
	CompletionTokensDetails struct {
		ReasoningTokens int `json:"reasoning_tokens"`
	} `json:"completion_tokens_details"`
	PromptCacheHitTokens  int `json:"prompt_cache_hit_tokens"`
	PromptCacheMissTokens int `json:"prompt_cache_miss_tokens"`
}

func encodeChunk(d deltaJSON, finish *string, u *usageJSON) string {
	b, err := json.Marshal(chunkJSON{
		ID: "llmtest", Object: "chat.completion.chunk", Model: "llmtest",
		Choices: []choiceJSON{{Delta: d, FinishReason: finish}}, Usage: u,
	})
	if err != nil {
		panic(fmt.Sprintf("llmtest: encode chunk: %v", err))
	}
	return string(b)
}
