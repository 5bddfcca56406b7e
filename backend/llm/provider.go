package llm

import (
	"fmt"
	"strings"
)

// Providers tack knows how to reach.
const (
	ProviderDeepSeek = "deepseek"
	ProviderOpenAI   = "openai"
)

// DefaultDeepSeekBaseURL is DeepSeek's OpenAI-compatible endpoint.
const DefaultDeepSeekBaseURL = "https://api.deepseek.com"

// DefaultOpenAIBaseURL is OpenAI's endpoint, used when OPENAI_BASE_URL is
// not set.
const DefaultOpenAIBaseURL = "https://api.openai.com/v1"

// KeyEnv names the environment variable that holds provider's API key.
func KeyEnv(provider string) string {
	if provider == ProviderOpenAI {
		return "OPENAI_API_KEY"
	}
	return "DEEPSEEK_API_KEY"
}

// Resolve finds the base URL and API key of a provider ("" means deepseek).
// The environment wins over creds, which reads $TACK_HOME/credentials.
// DeepSeek needs a key; an OpenAI-compatible server needs one only when no
// OPENAI_BASE_URL is set (a local Ollama or llama.cpp server takes none).
// A missing key is an *Error of kind ErrNoCredentials saying how to add one.
func Resolve(provider string, env func(string) string, creds func() string) (base, key string, err error) {
	key = strings.TrimSpace(env(KeyEnv(provider)))
	if key == "" && creds != nil {
		key = strings.TrimSpace(creds())
	}
	switch provider {
	case ProviderDeepSeek, "":
		base = orDefault(env("DEEPSEEK_BASE_URL"), DefaultDeepSeekBaseURL)
		if key == "" {
			return "", "", noCredentials()
		}
	case ProviderOpenAI:
		custom := strings.TrimSpace(env("OPENAI_BASE_URL"))
		base = orDefault(custom, DefaultOpenAIBaseURL)
		if key == "" && custom == "" {
			return "", "", noOpenAICredentials()
		}
	default:
		return "", "", fmt.Errorf("unknown provider %q: use %s or %s", provider, ProviderDeepSeek, ProviderOpenAI)
	}
	return strings.TrimRight(base, "/"), key, nil
}

func noCredentials() *Error {
	return &Error{Kind: ErrNoCredentials, Message: "no API key: set DEEPSEEK_API_KEY, " +
		"or put the key in $TACK_HOME/credentials, " +
		"or use --provider openai with OPENAI_API_KEY or a local server in OPENAI_BASE_URL"}
}

// noOpenAICredentials is noCredentials for a user who chose the openai
// provider: their own variables first.
func noOpenAICredentials() *Error {
	return &Error{Kind: ErrNoCredentials, Message: "no API key for --provider openai: set OPENAI_API_KEY, " +
		"or point OPENAI_BASE_URL at a local server that needs none (Ollama, llama.cpp, vLLM), " +
		"or put the key in $TACK_HOME/credentials; for DeepSeek, drop --provider openai and set DEEPSEEK_API_KEY"}
}

func orDefault(v, def string) string {
	if v = strings.TrimSpace(v); v != "" {
		return v
	}
	return def
}
