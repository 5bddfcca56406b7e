package llm

import (
	"errors"
	"math"
	"strings"
	"testing"
	"time"
)

func TestCatalogKnowsDeepSeekModels(t *testing.T) {
	c := NewCatalog()
	for id, want := range map[string]struct {
		id     string
		images bool
	}{
		DefaultModel: {"deepseek-flash", true}, "deepseek/deepseek-flash": {"deepseek-flash", true},
		"deepseek-v4-flash": {"deepseek-flash", true}, "deepseek-chat": {"deepseek-flash", true}, "deepseek-reasoner": {"deepseek-flash", true},
		"deepseek-v4-pro": {"deepseek-v4-pro", false},
	} {
		m, ok := c.Lookup(id)
		if !ok || m.ID != want.id || m.Provider != "deepseek" || m.ContextWindow != 1_000_000 || m.MaxOutput != 384_000 || m.Price.CacheMiss == 0 || m.Images != want.images {
			t.Errorf("Lookup(%q): want %s (images %v), priced, with a 1M window and 384K output, got %+v %v", id, want.id, want.images, m, ok)
		}
	}
	if DefaultModel != "deepseek-flash" {
		t.Errorf("want the current name deepseek-flash as the default, got %s", DefaultModel)
	}
}

func TestCatalogSplitsRefsOnlyAtKnownProviders(t *testing.T) {
	c := NewCatalog()
	c.AddProvider("openrouter")
	for ref, want := range map[string][2]string{
		"openai/gpt-5.4":                    {"openai", "gpt-5.4"},
		"gpt-5.4":                           {"", "gpt-5.4"},
		"Qwen/Qwen3-8B":                     {"", "Qwen/Qwen3-8B"},
		"openrouter/deepseek/deepseek-chat": {"openrouter", "deepseek/deepseek-chat"},
		"openrouter/":                       {"", "openrouter/"},
	} {
		if p, id := c.Split(ref); p != want[0] || id != want[1] {
			t.Errorf("Split(%q): want %q %q, got %q %q", ref, want[0], want[1], p, id)
		}
	}
	if m, ok := c.Lookup("openai/gpt-9"); ok || m.Provider != "openai" || m.ID != "gpt-9" || m.MaxOutput != 0 {
		t.Errorf("want an unknown OpenAI model generic, at openai, with no output bound, got %+v %v", m, ok)
	}
}

func TestUnknownModelGetsGenericEntry(t *testing.T) {
	m, ok := NewCatalog().Lookup("llama3.1:8b")
	if ok || m.ID != "llama3.1:8b" || m.ContextWindow != 128_000 || m.MaxOutput != 0 || m.Price != (Price{}) || m.Cost(Usage{Input: 1e6, Output: 1e6}, time.Time{}) != 0 {
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
	if m, _ := c.Lookup("deepseek-v4-pro"); m.ContextWindow != 500_000 || m.Provider != "deepseek" {
		t.Errorf("want the configured model to replace the built-in at its provider, got %+v", m)
	}
	if n := len(c.Models()); n != 5 {
		t.Errorf("want 5 models, got %d", n)
	}
}

func TestCostPricesEachBucket(t *testing.T) {
	m := Model{Price: Price{CacheHit: 0.1, CacheMiss: 1, Output: 2}}
	got := m.Cost(Usage{CacheRead: 2_000_000, Input: 500_000, Output: 250_000, Reasoning: 100_000}, time.Now())
	if want := 0.2 + 0.5 + 0.5; math.Abs(got-want) > 1e-9 {
		t.Errorf("want $%.4f, got $%.4f", want, got)
	}
}

func builtin(name string) ProviderConfig {
	p, err := Providers(BuiltinProviders()).Find(name)
	if err != nil {
		panic(err)
	}
	return p
}

func TestResolveProviders(t *testing.T) {
	env := func(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }
	local := ProviderConfig{Name: "local", BaseURL: "http://127.0.0.1:8080/v1/"}
	router := ProviderConfig{Name: "openrouter", BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "OPENROUTER_API_KEY", Profile: ProfileOpenAICompatible}
	tests := []struct {
		name     string
		provider ProviderConfig
		env      map[string]string
		base     string
		key      string
		profile  string
	}{
		{"deepseek from env", builtin("deepseek"), map[string]string{"DEEPSEEK_API_KEY": "sk-env"}, DefaultDeepSeekBaseURL, "sk-env", ProfileDeepSeek},
		{"deepseek base URL from env", builtin("deepseek"), map[string]string{"DEEPSEEK_API_KEY": "sk-env", "DEEPSEEK_BASE_URL": "http://x/"}, "http://x", "sk-env", ProfileDeepSeek},
		{"openai with key", builtin("openai"), map[string]string{"OPENAI_API_KEY": "sk-oa"}, DefaultOpenAIBaseURL, "sk-oa", ProfileOpenAI},
		{"openai local server without key", builtin("openai"), map[string]string{"OPENAI_BASE_URL": "http://localhost:11434/v1"}, "http://localhost:11434/v1", "", ProfileOpenAICompatible},
		{"configured server without key", local, nil, "http://127.0.0.1:8080/v1", "", ProfileOpenAICompatible},
		{"configured gateway", router, map[string]string{"OPENROUTER_API_KEY": "sk-or"}, "https://openrouter.ai/api/v1", "sk-or", ProfileOpenAICompatible},
	}
	for _, tt := range tests {
		e, err := tt.provider.Resolve(env(tt.env))
		if err != nil || e.BaseURL != tt.base || e.APIKey != tt.key || e.Profile.Name != tt.profile {
			t.Errorf("%s: want %q %q %s, got %+v %v", tt.name, tt.base, tt.key, tt.profile, e, err)
		}
	}
}

func TestResolveWithoutKeyNamesEveryWayToAddOne(t *testing.T) {
	for provider, first := range map[string]string{"deepseek": "set DEEPSEEK_API_KEY", "openai": "set OPENAI_API_KEY"} {
		_, err := builtin(provider).Resolve(func(string) string { return "" })
		var e *Error
		if !errors.As(err, &e) || e.Kind != ErrNoCredentials || e.KeyEnv != builtin(provider).KeyEnv {
			t.Fatalf("%s: want a no-credentials error naming %s, got %v (%q)", provider, builtin(provider).KeyEnv, err, e.KeyEnv)
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
	_, err := ProviderConfig{Name: "openrouter", BaseURL: "https://openrouter.ai/api/v1", KeyEnv: "OPENROUTER_API_KEY"}.Resolve(func(string) string { return "" })
	if kindOf(err) != ErrNoCredentials || !strings.Contains(err.Error(), "set OPENROUTER_API_KEY") {
		t.Errorf("want a configured provider's missing key named, got %v", err)
	}
	if _, err := Providers(BuiltinProviders()).Find("anthropic"); err == nil || !strings.Contains(err.Error(), "deepseek, openai") {
		t.Errorf("want an unknown provider rejected with the choices, got %v", err)
	}
}

// TestDeepSeekBillsHalfOffPeak walks the hours of DeepSeek's schedule:
// peak is Beijing-time weekdays 09:00-12:00 and 14:00-18:00 (UTC+8),
// every other hour and the weekend half price.
func TestDeepSeekBillsHalfOffPeak(t *testing.T) {
	m, _ := NewCatalog().Lookup("deepseek-flash")
	u := Usage{CacheRead: 1e6, Input: 1e6, Output: 1e6}
	full := 0.006 + 0.30 + 1.20
	beijing := time.FixedZone("CST", 8*3600)
	tests := []struct {
		at   time.Time
		peak bool
	}{
		{time.Date(2026, 12, 1, 9, 0, 0, 0, beijing), true},    // Tuesday, the first peak minute
		{time.Date(2026, 12, 1, 11, 59, 59, 0, beijing), true}, // the last second of the morning
		{time.Date(2026, 12, 1, 12, 0, 0, 0, beijing), false},  // lunch
		{time.Date(2026, 12, 1, 14, 30, 0, 0, beijing), true},  // afternoon
		{time.Date(2026, 12, 1, 18, 0, 0, 0, beijing), false},  // evening
		{time.Date(2026, 12, 1, 8, 59, 0, 0, beijing), false},  // before work
		{time.Date(2026, 12, 5, 10, 0, 0, 0, beijing), false},  // Saturday
		{time.Date(2026, 12, 1, 1, 30, 0, 0, time.UTC), true},  // 09:30 in Beijing, given in UTC
		{time.Date(2026, 12, 4, 23, 0, 0, 0, time.UTC), false}, // Friday in UTC, Saturday 07:00 in Beijing
	}
	for _, tt := range tests {
		want := full
		if !tt.peak {
			want /= 2
		}
		if got := m.Cost(u, tt.at); math.Abs(got-want) > 1e-9 {
			t.Errorf("%v: want $%.4f (peak %v), got $%.4f", tt.at, want, tt.peak, got)
		}
		if _, off := m.PriceAt(tt.at); off == tt.peak {
			t.Errorf("%v: want off-peak %v, got %v", tt.at, !tt.peak, off)
		}
	}
	if m, _ := NewCatalog().Lookup("gpt-5.4-mini"); m.OffPeak != nil {
		t.Error("want no off-peak rate for OpenAI")
	}
}
