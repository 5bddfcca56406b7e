package launch

import (
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/llm"
)

func TestWebToolsFollowTheProviderAndConfig(t *testing.T) {
	tests := []struct {
		name       string
		provider   string
		web        config.Web
		env        map[string]string
		wantSearch bool
		wantErr    string
	}{
		{name: "deepseek searches", provider: "deepseek", env: map[string]string{"DEEPSEEK_API_KEY": "k"}, wantSearch: true},
		{name: "openai has no search", provider: "openai", env: map[string]string{"OPENAI_API_KEY": "k"}},
		{name: "openai with deepseek search", provider: "openai", web: config.Web{Search: "deepseek"},
			env: map[string]string{"OPENAI_API_KEY": "k", "DEEPSEEK_API_KEY": "d"}, wantSearch: true},
		{name: "deepseek search without its key", provider: "openai", web: config.Web{Search: "deepseek"},
			env: map[string]string{"OPENAI_API_KEY": "k"}, wantErr: "need a DeepSeek key: set DEEPSEEK_API_KEY"},
		{name: "search off", provider: "deepseek", web: config.Web{Search: "off"}, env: map[string]string{"DEEPSEEK_API_KEY": "k"}},
		{name: "unknown search", provider: "deepseek", web: config.Web{Search: "google"}, wantErr: `[web] search = "google": use "deepseek" or "off"`},
		{name: "unknown fetch", provider: "deepseek", web: config.Web{Fetch: "curl"}, wantErr: `[web] fetch = "curl": use "deepseek" or "local"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := webConfig(tt.web, tt.provider, llm.BuiltinProviders(), func(k string) string { return tt.env[k] }, nil, "test")
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("want an error containing %q, got %v", tt.wantErr, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := cfg.Search != nil; got != tt.wantSearch {
				t.Fatalf("want search configured %v, got %v", tt.wantSearch, got)
			}
			if cfg.Fetch == nil {
				t.Fatal("want a fetcher in every configuration")
			}
		})
	}
}

func TestASessionOffersTheWebTools(t *testing.T) {
	s := openForTest(t, t.TempDir(), t.TempDir(), "")
	defer s.Close()
	names := s.Agent.ToolNames()
	if !slices.Contains(names, "web_search") || !slices.Contains(names, "web_fetch") {
		t.Fatalf("want web_search and web_fetch in a DeepSeek session, got %v", names)
	}
}
