package llm

import (
	"context"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestProfilesAreAcceptedByTheServersTheyAreFor sends a history with
// reasoning and a tool call, shaped by each profile, to a fake of the
// server the profile is for, which refuses what that server documents it
// refuses (llmtest.OpenAI, SGLang, VLLM name their sources). The controls
// show each rule bites: DeepSeek's fields at api.openai.com, "max" at
// SGLang, a guessed output bound at a small vLLM window.
func TestProfilesAreAcceptedByTheServersTheyAreFor(t *testing.T) {
	history, tools := lsHistory()
	maxEffort := OpenAICompatibleProfile
	maxEffort.Efforts = map[Effort]string{EffortLow: "low", EffortHigh: "high", EffortMax: "max"}
	tests := []struct {
		name      string
		rules     llmtest.Rules
		profile   Profile
		provider  string
		model     string
		effort    Effort
		maxTokens int
		refusal   string // a fragment of the server's refusal; "" to be accepted
	}{
		{"openai reasoning model at max effort", llmtest.OpenAI, OpenAIProfile, ProviderOpenAI, "gpt-5.4-mini", EffortMax, 128_000, ""},
		{"openai reasoning model with effort off", llmtest.OpenAI, OpenAIProfile, ProviderOpenAI, "gpt-5.4", EffortOff, 128_000, ""},
		{"openai model the catalog does not know", llmtest.OpenAI, OpenAIProfile, ProviderOpenAI, "gpt-4o-mini", EffortHigh, 0, ""},
		{"control: deepseek fields at openai", llmtest.OpenAI, DeepSeekProfile, ProviderOpenAI, "gpt-4o-mini", EffortHigh, 0,
			"Unrecognized request argument supplied: "},
		{"compatible known model at max effort on sglang", llmtest.SGLang, OpenAICompatibleProfile, "local", "qwen3", EffortMax, 8192, ""},
		{"compatible unknown model at max effort on sglang", llmtest.SGLang, OpenAICompatibleProfile, "local", "glm-5", EffortMax, 0, ""},
		{"control: max spelled max on sglang", llmtest.SGLang, maxEffort, "local", "glm-5", EffortMax, 0,
			"Input should be 'low', 'medium' or 'high'"},
		{"compatible known model on vllm", llmtest.VLLM(32_768), OpenAICompatibleProfile, "local", "qwen3", EffortHigh, 8192, ""},
		{"compatible unknown model on a small vllm window", llmtest.VLLM(4096), OpenAICompatibleProfile, "local", "llama3.1:8b", EffortOff, 0, ""},
		{"control: a guessed bound on a small vllm window", llmtest.VLLM(4096), OpenAICompatibleProfile, "local", "llama3.1:8b", EffortOff, 32_000,
			"This model's maximum context length is 4096 tokens"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.NewServer([]llmtest.Response{llmtest.ReplyText("ok")}, llmtest.WithRules(tt.rules))
			t.Cleanup(srv.Close)
			catalog := NewCatalog()
			catalog.Add(Model{ID: "qwen3", Provider: "local", ContextWindow: 32_768, MaxOutput: 8192})
			c := NewClient(ClientConfig{BaseURL: srv.URL(), APIKey: "sk", Profile: tt.profile, Catalog: catalog, Provider: tt.provider})
			req := Request{Model: tt.model, Effort: tt.effort, MaxTokens: tt.maxTokens, Messages: history, Tools: tools}
			s, err := c.Stream(context.Background(), req)
			if err == nil {
				_, err = Collect(s)
			}
			if tt.refusal == "" {
				if err != nil || len(srv.Violations()) > 0 {
					t.Fatalf("want the request accepted, got %v %q", err, srv.Violations())
				}
				return
			}
			if kindOf(err) != ErrInvalidRequest || !strings.Contains(err.Error(), tt.refusal) {
				t.Fatalf("want the server's refusal %q passed on, got %v", tt.refusal, err)
			}
		})
	}
}

// TestVLLMRefusalOfTheBoundSaysWhatFits: the refusal the vLLM fake words
// from its own count is read into the bound that fits.
func TestVLLMRefusalOfTheBoundSaysWhatFits(t *testing.T) {
	srv := llmtest.NewServer([]llmtest.Response{llmtest.ReplyText("ok")}, llmtest.WithRules(llmtest.VLLM(4096)))
	t.Cleanup(srv.Close)
	req := Request{Model: "m", MaxTokens: 32_000, Messages: []Message{{Role: RoleUser, Content: strings.Repeat("word ", 400)}}}
	_, err := NewClient(ClientConfig{BaseURL: srv.URL(), Profile: OpenAICompatibleProfile}).Stream(context.Background(), req)
	var e *Error
	if !asError(err, &e) || e.MaxOutput <= 0 {
		t.Fatalf("want a refusal carrying the bound that fits, got %v", err)
	}
	prompt := srv.Requests()[0].PromptTokens()
	if e.MaxOutput != 4096-prompt {
		t.Errorf("want %d output tokens to fit beside a %d-token prompt, got %d", 4096-prompt, prompt, e.MaxOutput)
	}
}
