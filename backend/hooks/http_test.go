package hooks

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/session"
)

// An HTTP hook (Claude Code's "type": "http") gets the input as a JSON
// POST, with the headers filled from the variables it may name (and no
// others); a 2xx answer is read as a command's stdout, so it may deny;
// any other status fails without blocking.
func TestHTTPHooksPostTheInputAndReadTheAnswer(t *testing.T) {
	var mu sync.Mutex
	var got []*http.Request
	var bodies []map[string]any
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		var in map[string]any
		json.Unmarshal(b, &in)
		mu.Lock()
		got, bodies = append(got, r), append(bodies, in)
		mu.Unlock()
		if r.URL.Path == "/broken" {
			http.Error(w, "the policy server is down", http.StatusInternalServerError)
			return
		}
		w.Write([]byte(`{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny", "permissionDecisionReason": "pushes go through review"}}`))
	}))
	defer srv.Close()
	settings := `{"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
  {"type": "http", "url": "` + srv.URL + `/policy", "headers": {"Authorization": "Bearer $HOOK_TOKEN", "X-Other": "${SECRET}"}, "allowedEnvVars": ["HOOK_TOKEN"]},
  {"type": "http", "url": "` + srv.URL + `/broken"}]}]}}`
	s, err := config.ParseClaudeSettings("settings.json", []byte(settings))
	if err != nil {
		t.Fatal(err)
	}
	hs, problems := FromConfig(s.Hooks, "settings.json", false)
	if len(problems) > 0 || len(hs) != 2 {
		t.Fatalf("hooks %+v, problems %q", hs, problems)
	}
	var recorded []string
	r := NewRunner(Options{Hooks: hs, Cwd: t.TempDir(), Environ: []string{"HOOK_TOKEN=t0k3n", "SECRET=hunter2"},
		Record: func(d session.Data) error {
			recorded = append(recorded, d.(session.HookRun).Outcome+" "+d.(session.HookRun).Reason)
			return nil
		}})
	block := r.BeforeTool(context.Background(), 1, agent.ToolUse{ID: "c1", Name: "bash", Args: json.RawMessage(`{"command":"git push"}`)}).Block
	if block != "pushes go through review" {
		t.Errorf("block %q", block)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 2 {
		t.Fatalf("%d requests", len(got))
	}
	for i, req := range got {
		if req.Method != http.MethodPost || req.Header.Get("Content-Type") != "application/json" || bodies[i]["tool_name"] != "Bash" {
			t.Errorf("request %s %s %v", req.Method, req.Header.Get("Content-Type"), bodies[i])
		}
		if strings.HasSuffix(req.URL.Path, "/policy") && (req.Header.Get("Authorization") != "Bearer t0k3n" || req.Header.Get("X-Other") != "") {
			t.Errorf("headers %v", req.Header)
		}
	}
	if !strings.Contains(strings.Join(recorded, "|"), "failed HTTP 500 Internal Server Error: the policy server is down") {
		t.Errorf("recorded %q", recorded)
	}
}

func TestHTTPHookNeedsAnHTTPURL(t *testing.T) {
	_, problems := FromConfig(config.Hooks{"Stop": {{Hooks: []config.HookHandler{{Type: "http", URL: "file:///etc/passwd"}}}}}, "settings.json", false)
	if len(problems) != 1 || !strings.Contains(problems[0], `an http hook needs a url of http or https, not "file:///etc/passwd"`) {
		t.Errorf("problems %q", problems)
	}
}
