package llm

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// TestEffortOfConfiguredModels sends each effort to models of [[providers]]
// servers the built-in catalog does not know, and reads what the fake
// server received: the effort goes out as the profile spells it, or the
// answer carries one note saying why it could not, never silence.
func TestEffortOfConfiguredModels(t *testing.T) {
	tests := []struct {
		name   string
		model  string
		effort Effort
		sent   string // the request's reasoning_effort; "" for none
		note   string // a fragment of the note; "" for none
		// thinking is DeepSeek's switch, sent only for a model whose entry
		// says it takes DeepSeek's fields.
		thinking string
	}{
		{"compatible-unknown-high", "local/llama3.1:8b", EffortHigh, "high", "", ""},
		{"compatible-unknown-low", "local/llama3.1:8b", EffortLow, "low", "", ""},
		{"compatible-unknown-max-mapped", "local/llama3.1:8b", EffortMax, "high", "", ""},
		{"compatible-unknown-off", "local/llama3.1:8b", EffortOff, "", "", ""},
		{"compatible-entry-says-none", "local/plain", EffortHigh, "", `local/plain is set to reasoning = "none"`, ""},
		{"openai-profile-unknown", "lmstudio/llama", EffortHigh, "", `give it a [[models]] entry with reasoning = "effort"`, ""},
		{"openai-profile-unknown-off", "lmstudio/llama", EffortOff, "", "", ""},
		{"openai-profile-entry-says-effort", "lmstudio/qwen3", EffortMax, "high", "", ""},
		{"entry-without-that-effort", "local/two-level", EffortLow, "", "local/two-level takes no such effort", ""},
		{"compatible-entry-says-deepseek", "local/ds-distill", EffortHigh, "high", "", `{"type":"enabled"}`},
		{"compatible-entry-says-deepseek-off", "local/ds-distill", EffortOff, "", "", `{"type":"disabled"}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.ReplyText("one"), llmtest.ReplyText("two"))
			catalog := NewCatalog()
			catalog.Add(Model{ID: "plain", Provider: "local", Reasoning: ReasoningNone})
			catalog.Add(Model{ID: "qwen3", Provider: "lmstudio", Reasoning: ReasoningEffort})
			catalog.Add(Model{ID: "two-level", Provider: "local", EffortNames: map[Effort]string{EffortHigh: "high"}})
			catalog.Add(Model{ID: "ds-distill", Provider: "local", Reasoning: ReasoningDeepSeek})
			r := NewRouter(RouterConfig{
				Providers: Providers{
					{Name: "local", BaseURL: srv.URL(), Profile: ProfileOpenAICompatible},
					{Name: "lmstudio", BaseURL: srv.URL(), Profile: ProfileOpenAI},
				},
				Default: "local", Catalog: catalog, Env: func(string) string { return "" },
			})
			var notes [][]string
			for range 2 {
				acc, err := Collect(must(r.Stream(context.Background(), Request{Model: tt.model, Effort: tt.effort})))
				if err != nil {
					t.Fatal(err)
				}
				notes = append(notes, acc.Notes())
			}
			for i, req := range srv.Requests() {
				var body struct {
					Effort   *string         `json:"reasoning_effort"`
					Thinking json.RawMessage `json:"thinking"`
				}
				if err := json.Unmarshal(req.Body, &body); err != nil {
					t.Fatal(err)
				}
				if got := deref(body.Effort); got != tt.sent || body.Effort != nil && tt.sent == "" || string(body.Thinking) != tt.thinking {
					t.Errorf("request %d: want reasoning_effort %q and thinking %q, got body %s", i+1, tt.sent, tt.thinking, req.Body)
				}
			}
			if tt.note == "" {
				if len(notes[0])+len(notes[1]) != 0 {
					t.Errorf("want no note, got %q", notes)
				}
				return
			}
			if len(notes[0]) != 1 || !strings.Contains(notes[0][0], "reasoning effort "+string(tt.effort)+" is not applied") || !strings.Contains(notes[0][0], tt.note) {
				t.Errorf("want one note saying %q, got %q", tt.note, notes[0])
			}
			if len(notes[1]) != 0 {
				t.Errorf("want the note said once, got it again: %q", notes[1])
			}
		})
	}
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
