package llm

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// lsHistory is a conversation with reasoning and a tool call, and the
// bash tool it used: what each profile must shape for its server.
func lsHistory() ([]Message, []ToolSpec) {
	params := json.RawMessage(`{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}`)
	history := []Message{
		{Role: RoleSystem, Content: "You are tack."},
		{Role: RoleUser, Content: "list the files"},
		{Role: RoleAssistant, Reasoning: "I should run ls.", ToolCalls: []ToolCall{{ID: "call_1", Name: "bash", Arguments: `{"command":"ls"}`}}},
		{Role: RoleTool, ToolCallID: "call_1", Content: "a.go"},
		{Role: RoleUser, Content: "thanks"},
	}
	return history, []ToolSpec{{Name: "bash", Description: "Run a shell command.", Parameters: params}}
}

// TestRequestGoldensPerProfile sends one history through the Router to
// each kind of server and keeps the body each one receives. Only the
// DeepSeek profile may carry thinking and reasoning_content.
func TestRequestGoldensPerProfile(t *testing.T) {
	history, tools := lsHistory()
	tests := []struct {
		name      string
		model     string
		effort    Effort
		maxTokens int
		deepseek  bool
	}{
		{"deepseek-effort-max", "deepseek-flash", EffortMax, 384_000, true},
		{"deepseek-legacy-alias-thinking-off", "deepseek-v4-flash", EffortOff, 384_000, true},
		{"openai-reasoning-model", "openai/gpt-5.4-mini", EffortMax, 128_000, false},
		{"openai-unknown-model", "openai/gpt-4.1", EffortHigh, 0, false},
		{"compatible-known-model", "local/qwen3", EffortMax, 8192, false},
		{"compatible-unknown-model", "local/llama3.1:8b", EffortHigh, 0, false},
		{"compatible-effort-off", "local/llama3.1:8b", EffortOff, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.ReplyText("ok"))
			catalog := NewCatalog()
			catalog.Add(Model{ID: "qwen3", Provider: "local", ContextWindow: 32_768, MaxOutput: 8192})
			env := map[string]string{"DEEPSEEK_API_KEY": "sk-d", "OPENAI_API_KEY": "sk-o"}
			providers := Providers{
				{Name: ProviderDeepSeek, BaseURL: srv.URL(), KeyEnv: "DEEPSEEK_API_KEY", Profile: ProfileDeepSeek},
				{Name: ProviderOpenAI, BaseURL: srv.URL(), KeyEnv: "OPENAI_API_KEY", Profile: ProfileOpenAI},
				{Name: "local", BaseURL: srv.URL(), Profile: ProfileOpenAICompatible},
			}
			r := NewRouter(RouterConfig{Providers: providers, Default: ProviderDeepSeek, Catalog: catalog, Env: func(k string) string { return env[k] }})
			req := Request{Model: tt.model, Effort: tt.effort, MaxTokens: tt.maxTokens, Messages: history, Tools: tools}
			if _, err := Collect(must(r.Stream(context.Background(), req))); err != nil {
				t.Fatal(err)
			}
			srv.AssertConsumed(t)
			body := srv.Requests()[0].Body
			matchGolden(t, filepath.Join("testdata", "profile-"+tt.name+".json"), body)
			for _, field := range []string{`"thinking"`, `"reasoning_content"`} {
				if strings.Contains(string(body), field) != tt.deepseek {
					t.Errorf("want %s present only for the DeepSeek profile (deepseek %v), got body %s", field, tt.deepseek, body)
				}
			}
		})
	}
}

func TestRouterSendsBareCatalogModelsToTheirProvider(t *testing.T) {
	deepseek, openai := llmtest.New(t, llmtest.ReplyText("d")), llmtest.New(t, llmtest.ReplyText("o"), llmtest.ReplyText("o2"))
	r := NewRouter(RouterConfig{
		Providers: Providers{
			{Name: ProviderDeepSeek, BaseURL: deepseek.URL(), Profile: ProfileDeepSeek},
			{Name: ProviderOpenAI, BaseURL: openai.URL(), Profile: ProfileOpenAI},
		},
		Default: ProviderOpenAI, Env: func(string) string { return "" },
	})
	for _, model := range []string{"deepseek-flash", "gpt-5.4", "some-local-model"} {
		if _, err := Collect(must(r.Stream(context.Background(), Request{Model: model}))); err != nil {
			t.Fatalf("%s: %v", model, err)
		}
	}
	deepseek.AssertConsumed(t)
	openai.AssertConsumed(t)
	if got := openai.Requests()[1].Model; got != "some-local-model" {
		t.Errorf("want an unknown bare model sent to the default provider as named, got %q", got)
	}
}

func TestRouterReportsAProviderWithoutItsKeyWhenUsed(t *testing.T) {
	r := NewRouter(RouterConfig{
		Providers: Providers{{Name: "openrouter", BaseURL: "http://127.0.0.1:1", KeyEnv: "OPENROUTER_API_KEY"}},
		Default:   "openrouter", Env: func(string) string { return "" },
	})
	_, err := r.Stream(context.Background(), Request{Model: "openrouter/x"})
	if kindOf(err) != ErrNoCredentials || !strings.Contains(err.Error(), "OPENROUTER_API_KEY") {
		t.Errorf("want the missing OPENROUTER_API_KEY named, got %v", err)
	}
	if _, err := r.Endpoint("nowhere"); err == nil || !strings.Contains(err.Error(), "openrouter") {
		t.Errorf("want an unknown provider refused with the known ones, got %v", err)
	}
}
