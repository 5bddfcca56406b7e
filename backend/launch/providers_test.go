package launch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

func openWith(t *testing.T, home string, env map[string]string, provider, model string) (*Session, error) {
	t.Helper()
	s, err := Open(Options{
		Home: home, Cwd: t.TempDir(), Getenv: func(k string) string { return env[k] },
		Now:      func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Provider: provider, Model: model, PermissionMode: "full-access",
	})
	if err == nil {
		t.Cleanup(s.Close)
	}
	return s, err
}

func TestProvidersFromConfigSitSideBySide(t *testing.T) {
	deepseek, local := llmtest.New(t, llmtest.ReplyText("from deepseek")), llmtest.New(t, llmtest.ReplyText("from local"))
	home := t.TempDir()
	src := "provider = \"local\"\n\n[[providers]]\nname = \"local\"\nbase_url = \"" + local.URL() + "\"\nmodel = \"qwen3\"\n"
	if err := os.WriteFile(config.Path(home), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"DEEPSEEK_API_KEY": "sk-d", "DEEPSEEK_BASE_URL": deepseek.URL()}
	s, err := openWith(t, home, env, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if model, _ := s.Agent.Model(); model != "local/qwen3" {
		t.Fatalf("want the local provider's model as a ref, got %q", model)
	}
	exec, ok := s.Commands.Execute(context.Background(), s.Agent, "/model deepseek/deepseek-v4-pro high", nil)
	if !ok || !strings.Contains(exec.Result.Text, "Model selected: deepseek/deepseek-v4-pro") {
		t.Fatalf("want /model provider/model to switch, got %+v", exec.Result)
	}
	for _, model := range []string{"local/qwen3", "deepseek-v4-pro"} {
		if _, err := llm.Collect(mustStream(t, s.Router, model)); err != nil {
			t.Fatalf("%s: %v", model, err)
		}
	}
	deepseek.AssertConsumed(t)
	local.AssertConsumed(t)
	if got := local.Requests()[0]; got.Model != "qwen3" || got.Thinking != nil || got.Header.Get("Authorization") != "" {
		t.Errorf("want the local server asked for qwen3 without thinking or a key, got %+v", got)
	}
	if got := deepseek.Requests()[0]; got.Model != "deepseek-v4-pro" || got.Header.Get("Authorization") != "Bearer sk-d" {
		t.Errorf("want DeepSeek asked for deepseek-v4-pro with its key, got model %q", got.Model)
	}
}

func mustStream(t *testing.T, r *llm.Router, model string) llm.Stream {
	t.Helper()
	s, err := r.Stream(context.Background(), llm.Request{Model: model, Messages: []llm.Message{{Role: llm.RoleUser, Content: "hi"}}})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestProviderFlagPicksTheProvidersDefaultModel(t *testing.T) {
	s, err := openWith(t, t.TempDir(), map[string]string{"OPENAI_API_KEY": "sk-o"}, "openai", "")
	if err != nil {
		t.Fatal(err)
	}
	if model, _ := s.Agent.Model(); model != "openai/"+llm.DefaultOpenAIModel {
		t.Errorf("want --provider openai to pick %s, got %q", llm.DefaultOpenAIModel, model)
	}
	s, err = openWith(t, t.TempDir(), map[string]string{"DEEPSEEK_API_KEY": "sk-d"}, "", "")
	if err != nil {
		t.Fatal(err)
	}
	if model, _ := s.Agent.Model(); model != llm.DefaultModel {
		t.Errorf("want the DeepSeek default %s, got %q", llm.DefaultModel, model)
	}
}

// TestModelRefPicksItsProvider: --model local/qwen3 (or model =
// "local/qwen3" in config.toml) starts on the local server without asking
// for DeepSeek's key, as /model local/qwen3 switches to it.
func TestModelRefPicksItsProvider(t *testing.T) {
	local := llmtest.New(t, llmtest.ReplyText("from local"), llmtest.ReplyText("again"))
	for _, way := range []string{"flag", "config"} {
		home := t.TempDir()
		src := "[[providers]]\nname = \"local\"\nbase_url = \"" + local.URL() + "\"\n"
		model := "local/qwen3"
		if way == "config" {
			src = "model = \"local/qwen3\"\n\n" + src
			model = ""
		}
		if err := os.WriteFile(config.Path(home), []byte(src), 0o600); err != nil {
			t.Fatal(err)
		}
		s, err := openWith(t, home, nil, "", model)
		if err != nil {
			t.Fatalf("%s: want the session to start on the local server, got %v", way, err)
		}
		if got, _ := s.Agent.Model(); got != "local/qwen3" {
			t.Errorf("%s: want local/qwen3, got %q", way, got)
		}
		if _, err := llm.Collect(mustStream(t, s.Router, "qwen3")); err != nil {
			t.Fatalf("%s: want a bare id sent to the local server, got %v", way, err)
		}
	}
	local.AssertConsumed(t)
}

func TestProviderProblemsAreNamedBeforeAnythingIsWritten(t *testing.T) {
	home := t.TempDir()
	src := "[[providers]]\nname = \"bare\"\nbase_url = \"http://127.0.0.1:1\"\n\n[[providers]]\nname = \"router\"\nbase_url = \"http://127.0.0.1:1\"\nkey_env = \"ROUTER_KEY\"\nmodel = \"m\"\n"
	if err := os.WriteFile(config.Path(home), []byte(src), 0o600); err != nil {
		t.Fatal(err)
	}
	for provider, want := range map[string]string{
		"nowhere": `unknown provider "nowhere": use deepseek, openai, bare, router`,
		"bare":    "provider bare has no default model: pass --model",
		"router":  "no API key for provider router: set ROUTER_KEY",
	} {
		if _, err := openWith(t, home, nil, provider, ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: want %q, got %v", provider, want, err)
		}
	}
	if left, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*")); len(left) != 0 {
		t.Errorf("want no session written, got %v", left)
	}
}

// TestOpenAISessionsAreAcceptedByOpenAI runs a session with reasoning and
// a tool call against the api.openai.com fake (llmtest.OpenAI: no
// DeepSeek field, no unknown message field, max_completion_tokens for
// reasoning models), reached both ways a user points tack at it: a
// [[providers]] entry with the openai profile, and --provider openai with
// OPENAI_BASE_URL set to an OpenAI endpoint (a proxy or gateway in front of
// it). Each request must be one OpenAI accepts.
func TestOpenAISessionsAreAcceptedByOpenAI(t *testing.T) {
	for _, way := range []string{"providers entry", "OPENAI_BASE_URL"} {
		t.Run(way, func(t *testing.T) {
			srv := llmtest.NewServer([]llmtest.Response{
				llmtest.Reply(llmtest.Reasoning("Look first.", 0), llmtest.ToolCall("call_1", "glob", `{"pattern":"*.go"}`, 2)),
				llmtest.ReplyText("No Go files."),
				llmtest.ReplyText("Bye."),
			}, llmtest.WithRules(llmtest.OpenAI))
			t.Cleanup(srv.Close)
			home := t.TempDir()
			env := map[string]string{"OPENAI_API_KEY": "sk-o"}
			provider := "openai"
			if way == "OPENAI_BASE_URL" {
				env["OPENAI_BASE_URL"] = srv.URL()
			} else {
				provider = "oai"
				src := "[[providers]]\nname = \"oai\"\nbase_url = \"" + srv.URL() + "\"\nkey_env = \"OPENAI_API_KEY\"\nprofile = \"openai\"\nmodel = \"gpt-5.4-mini\"\n"
				if err := os.WriteFile(config.Path(home), []byte(src), 0o600); err != nil {
					t.Fatal(err)
				}
			}
			s, err := openWith(t, home, env, provider, "")
			if err != nil {
				t.Fatal(err)
			}
			runTurn(t, s, "find the Go files")
			runTurn(t, s, "thanks")
			srv.AssertConsumed(t)
			// The catalog knows gpt-5.4-mini at the built-in provider, and
			// bounds it; at a provider of its own it is an unknown model.
			if got := srv.Requests()[0]; got.Model != "gpt-5.4-mini" || (got.MaxCompletionTokens != 0) != (way == "OPENAI_BASE_URL") {
				t.Errorf("want gpt-5.4-mini bounded by max_completion_tokens only where the catalog knows it, got %q %d", got.Model, got.MaxCompletionTokens)
			}
		})
	}
}
