package llm

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestCatalogKnowsDeepSeekModels(t *testing.T) {
	c := NewCatalog()
	for _, id := range []string{DefaultModel, "deepseek-v4-pro", "deepseek-flash"} {
		m, ok := c.Lookup(id)
		if !ok || m.Provider != "deepseek" || m.ContextWindow != 1_000_000 || m.MaxOutput != 384_000 || m.Price.CacheMiss == 0 {
			t.Errorf("Lookup(%q): want a priced DeepSeek model with a 1M window and 384K output, got %+v %v", id, m, ok)
		}
	}
}

func TestUnknownModelGetsGenericEntry(t *testing.T) {
	m, ok := NewCatalog().Lookup("llama3.1:8b")
	if ok || m.ID != "llama3.1:8b" || m.ContextWindow != 128_000 || m.Price != (Price{}) || m.Cost(Usage{Input: 1e6, Output: 1e6}) != 0 {
		t.Errorf("want a free generic 128K entry named for the id, got %+v %v", m, ok)
	}
}

func TestCatalogAddExtendsAndReplaces(t *testing.T) {
	c := NewCatalog()
	c.Add(Model{ID: "local", ContextWindow: 32_000})
	c.Add(Model{ID: "deepseek-v4-pro", ContextWindow: 500_000})
	if m, ok := c.Lookup("local"); !ok || m.ContextWindow != 32_000 {
		t.Errorf("want the added model, got %+v %v", m, ok)
	}
	if m, _ := c.Lookup("deepseek-v4-pro"); m.ContextWindow != 500_000 {
		t.Errorf("want the configured model to replace the built-in, got %+v", m)
	}
	if n := len(c.Models()); n != 4 {
		t.Errorf("want 4 models, got %d", n)
	}
}

func TestCostPricesEachBucket(t *testing.T) {
	m := Model{Price: Price{CacheHit: 0.1, CacheMiss: 1, Output: 2}}
	got := m.Cost(Usage{CacheRead: 2_000_000, Input: 500_000, Output: 250_000, Reasoning: 100_000})
	if want := 0.2 + 0.5 + 0.5; math.Abs(got-want) > 1e-9 {
		t.Errorf("want $%.4f, got $%.4f", want, got)
	}
}

func TestResolveProviders(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	stored := func() string { return "sk-stored" }
	none := func() string { return "" }
	tests := []struct {
		name, provider string
		env            map[string]string
		creds          func() string
		base, key      string
	}{
		{"deepseek from env", "deepseek", map[string]string{"DEEPSEEK_API_KEY": "sk-env"}, stored, DefaultDeepSeekBaseURL, "sk-env"},
		{"deepseek is the default", "", map[string]string{"DEEPSEEK_API_KEY": "sk-env", "DEEPSEEK_BASE_URL": "http://x/"}, none, "http://x", "sk-env"},
		{"deepseek from credentials", "deepseek", nil, stored, DefaultDeepSeekBaseURL, "sk-stored"},
		{"openai with key", "openai", map[string]string{"OPENAI_API_KEY": "sk-oa"}, none, DefaultOpenAIBaseURL, "sk-oa"},
		{"openai local server without key", "openai", map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}, none, "http://localhost:11434/v1", ""},
	}
	for _, tt := range tests {
		base, key, err := Resolve(tt.provider, env(tt.env), tt.creds)
		if err != nil || base != tt.base || key != tt.key {
			t.Errorf("%s: want %q %q, got %q %q %v", tt.name, tt.base, tt.key, base, key, err)
		}
	}
}

func TestResolveWithoutKeyNamesEveryWayToAddOne(t *testing.T) {
	for provider, first := range map[string]string{"deepseek": "set DEEPSEEK_API_KEY", "openai": "set OPENAI_API_KEY"} {
		_, _, err := Resolve(provider, func(string) string { return "" }, func() string { return "" })
		var e *Error
		if !errors.As(err, &e) || e.Kind != ErrNoCredentials {
			t.Fatalf("%s: want a no-credentials error, got %v", provider, err)
		}
		if i := strings.Index(e.Message, ": "); i < 0 || !strings.HasPrefix(e.Message[i+2:], first) {
			t.Errorf("%s: want the message to start with the provider's own advice %q, got %q", provider, first, e.Message)
		}
		for _, want := range []string{"DEEPSEEK_API_KEY", "OPENAI_BASE_URL", "$TACK_HOME/credentials"} {
			if !strings.Contains(e.Message, want) {
				t.Errorf("%s: want the message to name %s, got %q", provider, want, e.Message)
			}
		}
	}
	if _, _, err := Resolve("anthropic", func(string) string { return "" }, nil); err == nil || !strings.Contains(err.Error(), "deepseek or openai") {
		t.Errorf("want an unknown provider rejected with the choices, got %v", err)
	}
}
