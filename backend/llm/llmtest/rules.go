package llmtest

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Rules are what one kind of server refuses of a request beyond the
// conversation rules every server enforces: a DeepSeek field sent to
// api.openai.com, an effort a server does not spell, an output bound that
// does not fit a window. Each rule is documented server behaviour, named
// with its source; a refused request is answered with HTTP 400 in the
// server's own words and error shape, and recorded as a violation.
type Rules struct {
	Name  string
	check func(r *Request) []string
	// body wraps a refusal as the server's error body.
	body func(msg string) string
}

// Enforce makes the server refuse what rs refuse, from the next request on.
func (s *Server) Enforce(rs ...Rules) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rules = append(s.rules, rs...)
}

// WithRules enforces rs from the first request.
func WithRules(rs ...Rules) Option { return func(c *config) { c.rules = append(c.rules, rs...) } }

// refusedLocked is the answer of the first of the server's rules that
// refuses req, with its refusals, each prefixed with the rules' name.
func (s *Server) refusedLocked(req *Request) (Response, []string) {
	for _, r := range s.rules {
		if msgs := r.check(req); len(msgs) > 0 {
			body := r.body(msgs[0])
			for i := range msgs {
				msgs[i] = r.Name + ": " + msgs[i]
			}
			return Response{Status: http.StatusBadRequest, Body: body}, msgs
		}
	}
	return Response{}, nil
}

// openAIError is api.openai.com's error body.
func openAIError(msg string) string {
	b, _ := json.Marshal(map[string]any{"error": map[string]any{"message": msg, "type": "invalid_request_error", "param": nil, "code": nil}})
	return string(b)
}

// objectError is the top-level error body of vLLM and SGLang.
func objectError(msg string) string {
	b, _ := json.Marshal(map[string]any{"object": "error", "message": msg, "type": "BadRequestError", "param": nil, "code": 400})
	return string(b)
}

// openAIFields are the chat-completions request fields api.openai.com
// takes (its API reference).
var openAIFields = []string{
	"model", "messages", "stream", "stream_options", "max_tokens", "max_completion_tokens", "reasoning_effort",
	"tools", "tool_choice", "parallel_tool_calls", "temperature", "top_p", "n", "stop", "presence_penalty",
	"frequency_penalty", "logit_bias", "logprobs", "top_logprobs", "user", "seed", "response_format", "metadata",
	"store", "modalities", "audio", "prediction", "service_tier", "verbosity", "prompt_cache_key",
	"safety_identifier", "web_search_options",
}

// openAIMessageFields are the fields of a chat message api.openai.com
// takes.
var openAIMessageFields = []string{"role", "content", "name", "tool_calls", "tool_call_id", "refusal", "audio", "function_call"}

// reasoningModel reports whether an OpenAI model takes reasoning_effort
// and refuses max_tokens: the o-series and GPT-5 families.
func reasoningModel(model string) bool {
	for _, p := range []string{"o1", "o3", "o4", "gpt-5"} {
		if strings.HasPrefix(model, p) {
			return true
		}
	}
	return false
}

// gpt5Efforts are the reasoning_effort values of the GPT-5.4 family.
var gpt5Efforts = []string{"none", "low", "medium", "high", "xhigh"}

// OpenAI is api.openai.com:
//   - a field it does not know is refused: "Unrecognized request argument
//     supplied: thinking" (nashsu/llm_wiki#336), and so is
//     reasoning_effort to a model that does not reason, such as
//     gpt-4o-mini (yaroslavyaroslav/OpenAI-sublime-text#146);
//   - so is a message field it does not know: "Additional properties are
//     not allowed ('id' was unexpected) - 'messages.0'"
//     (transitive-bullshit/agentic#531, openai/openai-node#1161), which
//     DeepSeek's reasoning_content is;
//   - a reasoning model refuses max_tokens: "Unsupported parameter:
//     'max_tokens' is not supported with this model. Use
//     'max_completion_tokens' instead.", and an effort it does not spell.
var OpenAI = Rules{Name: "api.openai.com", check: checkOpenAI, body: openAIError}

func checkOpenAI(r *Request) []string {
	var out []string
	fields, messages := r.shape()
	for _, f := range fields {
		if !slices.Contains(openAIFields, f) || f == "reasoning_effort" && !reasoningModel(r.Model) {
			out = append(out, "Unrecognized request argument supplied: "+f)
		}
	}
	for i, m := range messages {
		for _, f := range m {
			if !slices.Contains(openAIMessageFields, f) {
				out = append(out, fmt.Sprintf("Additional properties are not allowed ('%s' was unexpected) - 'messages.%d'", f, i))
			}
		}
	}
	if reasoningModel(r.Model) && slices.Contains(fields, "max_tokens") {
		out = append(out, "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.")
	}
	if e := r.ReasoningEffort; e != "" && reasoningModel(r.Model) && !slices.Contains(gpt5Efforts, e) {
		out = append(out, fmt.Sprintf("Unsupported value: 'reasoning_effort' does not support '%s' with this model. Supported values are: '%s'.", e, strings.Join(gpt5Efforts, "', '")))
	}
	return out
}

// SGLang is a server that validates reasoning_effort against low, medium
// and high; its refusal of any other value, word for word, is quoted in
// router-for-me/CLIProxyAPI#1572.
var SGLang = Rules{Name: "SGLang", check: checkSGLang, body: objectError}

func checkSGLang(r *Request) []string {
	e := r.ReasoningEffort
	if e == "" || slices.Contains([]string{"low", "medium", "high"}, e) {
		return nil
	}
	detail := fmt.Sprintf(`{'type': 'literal_error', 'loc': ('body', 'reasoning_effort'), 'msg': "Input should be 'low', 'medium' or 'high'", 'input': '%s', 'ctx': {'expected': "'low', 'medium' or 'high'"}}`, e)
	return []string{"1 validation error:\n  " + detail + "\n\n  POST /v1/chat/completions [" + detail + "]"}
}

// VLLM is vLLM serving a model with a context window of window tokens: it
// refuses a request whose prompt and output bound together exceed the
// window, in the words of vllm-project/vllm#20409. The prompt is counted
// as PromptTokens estimates it; without a bound the output takes what the
// window leaves, as vLLM does.
func VLLM(window int) Rules {
	return Rules{Name: "vLLM", body: objectError, check: func(r *Request) []string {
		prompt, bound := r.PromptTokens(), max(r.MaxTokens, r.MaxCompletionTokens)
		switch {
		case prompt >= window:
			return []string{fmt.Sprintf("This model's maximum context length is %d tokens. However, your request has %d input tokens. Please reduce the length of the input messages.", window, prompt)}
		case prompt+bound > window:
			return []string{fmt.Sprintf("This model's maximum context length is %d tokens. However, you requested %d tokens (%d in the messages, %d in the completion). Please reduce the length of the messages or completion.", window, prompt+bound, prompt, bound)}
		}
		return nil
	}}
}

// PromptTokens estimates the request's prompt size the way a tokenizer
// roughly would: four characters a token, plus four a message for the
// chat template.
func (r Request) PromptTokens() int {
	chars := 0
	for _, m := range r.Messages {
		chars += utf8.RuneCountInString(m.Content) + utf8.RuneCountInString(m.ReasoningContent) + 16
		for _, c := range m.ToolCalls {
			chars += utf8.RuneCountInString(c.Function.Name + c.Function.Arguments)
		}
	}
	for _, t := range r.Tools {
		chars += utf8.RuneCountInString(t.Function.Name+t.Function.Description) + len(t.Function.Parameters)
	}
	return (chars + 3) / 4
}

// shape lists the request's top-level fields and each message's, sorted.
func (r Request) shape() (fields []string, messages [][]string) {
	var top map[string]json.RawMessage
	_ = json.Unmarshal(r.Body, &top)
	fields = slices.Sorted(maps.Keys(top))
	var msgs []map[string]json.RawMessage
	_ = json.Unmarshal(top["messages"], &msgs)
	for _, m := range msgs {
		messages = append(messages, slices.Sorted(maps.Keys(m)))
	}
	return fields, messages
}

// ParseRules reads a rules name as cmd/fakellm takes it: openai, sglang,
// or vllm:WINDOW.
func ParseRules(s string) (Rules, error) {
	switch name, arg, _ := strings.Cut(s, ":"); name {
	case "openai":
		return OpenAI, nil
	case "sglang":
		return SGLang, nil
	case "vllm":
		window, err := strconv.Atoi(arg)
		if err != nil || window <= 0 {
			return Rules{}, fmt.Errorf("rules %q: vllm needs its context window, as vllm:32768", s)
		}
		return VLLM(window), nil
	}
	return Rules{}, fmt.Errorf("unknown rules %q: use openai, sglang or vllm:WINDOW", s)
}
