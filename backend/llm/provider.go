package llm

import (
	"fmt"
	"slices"
	"strings"
)

// The built-in providers' names.
const (
	ProviderDeepSeek = "deepseek"
	ProviderOpenAI   = "openai"
)

// DefaultDeepSeekBaseURL is DeepSeek's OpenAI-compatible endpoint.
const DefaultDeepSeekBaseURL = "https://api.deepseek.com"

// DefaultOpenAIBaseURL is OpenAI's endpoint, used when OPENAI_BASE_URL is
// not set.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// ProviderConfig is a server tack can send requests to: the built-ins, and
// the [[providers]] entries of config.toml.
type ProviderConfig struct {
	Name    string
	BaseURL string
	// BaseURLEnv names a variable that replaces BaseURL when set.
	BaseURLEnv string
	// ServerProfile, when set, is the profile of a server named by
	// BaseURLEnv, which then needs no key: OPENAI_BASE_URL points at a
	// local server, not at api.openai.com.
	ServerProfile string
	// KeyEnv names the variable holding the API key; "" for a server that
	// takes none. A named variable must be set.
	KeyEnv  string
	Profile string
	// Model is the model used when neither flags nor config name one.
	Model string
}

// BuiltinProviders are the providers every tack knows: DeepSeek, and
// OpenAI or the compatible server OPENAI_BASE_URL names.
func BuiltinProviders() []ProviderConfig {
	return []ProviderConfig{
		{Name: ProviderDeepSeek, BaseURL: DefaultDeepSeekBaseURL, BaseURLEnv: "DEEPSEEK_BASE_URL",
			KeyEnv: "DEEPSEEK_API_KEY", Profile: ProfileDeepSeek, Model: DefaultModel},
		{Name: ProviderOpenAI, BaseURL: DefaultOpenAIBaseURL, BaseURLEnv: "OPENAI_BASE_URL",
			ServerProfile: ProfileOpenAICompatible,
			KeyEnv:        "OPENAI_API_KEY", Profile: ProfileOpenAI, Model: DefaultOpenAIModel},
	}
}

// Endpoint is a provider resolved against the environment: where requests
// go, with which key, shaped by which profile.
type Endpoint struct {
	Name    string
	BaseURL string
	APIKey  string
	KeyEnv  string // where the key comes from, for messages
	Profile Profile
}

// Resolve finds the provider's base URL, key and profile in env (which
// layers $TACK_HOME/credentials under the process environment). A missing
// key is an *Error of kind ErrNoCredentials saying how to add one.
func (p ProviderConfig) Resolve(env func(string) string) (Endpoint, error) {
	e := Endpoint{Name: p.Name, BaseURL: p.BaseURL, KeyEnv: p.KeyEnv}
	profile, keyNeeded := p.Profile, p.KeyEnv != ""
	if p.BaseURLEnv != "" {
		if custom := strings.TrimSpace(env(p.BaseURLEnv)); custom != "" {
			e.BaseURL = custom
			if p.ServerProfile != "" {
				profile, keyNeeded = p.ServerProfile, false
			}
		}
	}
	if profile == "" {
		profile = ProfileOpenAICompatible
	}
	prof, err := ProfileByName(profile)
	if err != nil {
		return Endpoint{}, fmt.Errorf("provider %s: %w", p.Name, err)
	}
	e.Profile = prof
	if e.BaseURL == "" {
		return Endpoint{}, fmt.Errorf("provider %s has no base URL: set base_url in its [[providers]] entry of config.toml", p.Name)
	}
	e.BaseURL = strings.TrimRight(e.BaseURL, "/")
	if p.KeyEnv != "" {
		e.APIKey = strings.TrimSpace(env(p.KeyEnv))
	}
	if e.APIKey == "" && keyNeeded {
		return Endpoint{}, noCredentials(p)
	}
	return e, nil
}

// noCredentials says how to give provider p its key; for the built-ins it
// also names the other ways in.
func noCredentials(p ProviderConfig) *Error {
	var msg string
	switch p.Name {
	case ProviderDeepSeek:
		msg = "no API key: set DEEPSEEK_API_KEY, or put the key in $TACK_HOME/credentials, " +
			"or use --provider openai with OPENAI_API_KEY or a local server in OPENAI_BASE_URL"
	case ProviderOpenAI:
		msg = "no API key for --provider openai: set OPENAI_API_KEY, " +
			"or point OPENAI_BASE_URL at a local server that needs none (Ollama, llama.cpp, vLLM), " +
			"or put the key in $TACK_HOME/credentials; for DeepSeek, drop --provider openai and set DEEPSEEK_API_KEY"
	default:
		msg = fmt.Sprintf("no API key for provider %s: set %s (its key_env in config.toml), "+
			"or put %s=KEY in $TACK_HOME/credentials, or drop key_env from its [[providers]] entry if the server takes none",
			p.Name, p.KeyEnv, p.KeyEnv)
	}
	return &Error{Kind: ErrNoCredentials, Message: msg, KeyEnv: p.KeyEnv}
}

// Providers is the set of configured providers, built-ins first.
type Providers []ProviderConfig

// Find returns the provider called name.
func (ps Providers) Find(name string) (ProviderConfig, error) {
	if i := slices.IndexFunc(ps, func(p ProviderConfig) bool { return p.Name == name }); i >= 0 {
		return ps[i], nil
	}
	return ProviderConfig{}, fmt.Errorf("unknown provider %q: use %s, or add a [[providers]] entry to config.toml", name, strings.Join(ps.Names(), ", "))
}

// Names lists the providers' names.
func (ps Providers) Names() []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Name
	}
	return out
}
