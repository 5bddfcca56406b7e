package hooks

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/config"
	"github.com/tack-agent/tack/backend/elicit"
)

// elicitRunner runs the hooks of one table of Claude Code's settings,
// event name and all, as FromConfig reads them.
func elicitRunner(t *testing.T, event, matcher, command string) *Runner {
	t.Helper()
	hs, problems := FromConfig(config.Hooks{event: {{Matcher: matcher, Command: command, Line: 1}}}, "settings.json", false)
	if len(problems) > 0 {
		t.Fatalf("hooks.%s: %v", event, problems)
	}
	return NewRunner(Options{Hooks: hs, SessionID: "s1", Cwd: t.TempDir(), Environ: os.Environ()})
}

var form = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}}

// TestElicitationHookAnswersForTheUser pins the Elicitation event as the
// Agent SDK declares it: the hook reads mcp_server_name, message, mode and
// requested_schema, matches on the server's name, and answers with
// hookSpecificOutput's action and content, or declines by blocking.
func TestElicitationHookAnswersForTheUser(t *testing.T) {
	in := filepath.Join(t.TempDir(), "in.json")
	r := elicitRunner(t, "Elicitation", "every.*", `cat > `+in+`; echo '{"hookSpecificOutput":{"hookEventName":"Elicitation","action":"accept","content":{"name":"Ada"}}}'`)
	action, content, answered := r.Elicit(context.Background(), elicit.Request{Server: "everything", Message: "Who are you?", Schema: form})
	if !answered || action != "accept" || !reflect.DeepEqual(content, map[string]any{"name": "Ada"}) {
		t.Errorf("Elicit = %q %v %v, want the hook's accept with name Ada", action, content, answered)
	}
	var got map[string]any
	b, _ := os.ReadFile(in)
	if err := json.Unmarshal(b, &got); err != nil {
		t.Fatalf("the hook read %q: %v", b, err)
	}
	for k, want := range map[string]any{"hook_event_name": "Elicitation", "mcp_server_name": "everything", "message": "Who are you?",
		"mode": "form", "requested_schema": form, "session_id": "s1"} {
		if !reflect.DeepEqual(got[k], want) {
			t.Errorf("the hook read %s = %v, want %v", k, got[k], want)
		}
	}
	if _, _, answered := r.Elicit(context.Background(), elicit.Request{Server: "other", Message: "?", Schema: form}); answered {
		t.Error("a hook matching everything answered the form of server other")
	}
	blocked := elicitRunner(t, "Elicitation", "", "echo not this one >&2; exit 2")
	if action, content, answered := blocked.Elicit(context.Background(), elicit.Request{Server: "everything", Message: "?", Schema: form}); !answered || action != "decline" || content != nil {
		t.Errorf("a hook that exits 2: %q %v %v, want decline", action, content, answered)
	}
	silent := elicitRunner(t, "Elicitation", "", "true")
	if _, _, answered := silent.Elicit(context.Background(), elicit.Request{Server: "everything", Message: "?", Schema: form}); answered {
		t.Error("a hook that printed nothing answered the form; the user must be asked")
	}
}

// TestElicitationResultHookChangesTheAnswer pins ElicitationResult: the
// hook reads the user's action and content and may replace either, or
// turn the answer into a decline by blocking.
func TestElicitationResultHookChangesTheAnswer(t *testing.T) {
	user := map[string]any{"name": "Ada"}
	for _, c := range []struct {
		name, command string
		action        string
		content       map[string]any
	}{
		{"silent", `true`, "accept", user},
		{"content replaced", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","content":{"name":"Grace"}}}'`, "accept", map[string]any{"name": "Grace"}},
		{"declined", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"decline"}}'`, "decline", nil},
		{"blocked", `exit 2`, "decline", nil},
		{"unknown action ignored", `echo '{"hookSpecificOutput":{"hookEventName":"ElicitationResult","action":"maybe"}}'`, "accept", user},
		{"reads the answer", `grep -q '"action":"accept","content":{"name":"Ada"}' || exit 2`, "accept", user},
	} {
		t.Run(c.name, func(t *testing.T) {
			r := elicitRunner(t, "ElicitationResult", "everything", c.command)
			action, content := r.ElicitResult(context.Background(), elicit.Request{Server: "everything", Schema: form}, "accept", user)
			if action != c.action || !reflect.DeepEqual(content, c.content) {
				t.Errorf("ElicitResult = %q %v, want %q %v", action, content, c.action, c.content)
			}
		})
	}
}

// TestElicitationHooksReadAWebPagesAddress pins the fields the Agent SDK
// declares for a request to open a web page (URL mode): the hook reads
// mode "url", the url and the elicitation_id, and no requested_schema;
// elicitation_result reads the mode and the elicitation_id beside the
// answer.
func TestElicitationHooksReadAWebPagesAddress(t *testing.T) {
	page := elicit.Request{Server: "payments", Message: "Confirm the payment", URL: "https://pay.example.com/c/42?s=abc", ElicitationID: "el-42"}
	for _, c := range []struct {
		event string
		run   func(r *Runner)
		want  map[string]any
	}{
		{"Elicitation", func(r *Runner) { r.Elicit(context.Background(), page) }, map[string]any{
			"mcp_server_name": "payments", "message": "Confirm the payment", "mode": "url",
			"url": "https://pay.example.com/c/42?s=abc", "elicitation_id": "el-42"}},
		{"ElicitationResult", func(r *Runner) { r.ElicitResult(context.Background(), page, "accept", nil) }, map[string]any{
			"mcp_server_name": "payments", "mode": "url", "elicitation_id": "el-42", "action": "accept"}},
	} {
		t.Run(c.event, func(t *testing.T) {
			in := filepath.Join(t.TempDir(), "in.json")
			c.run(elicitRunner(t, c.event, "payments", "cat > "+in))
			var got map[string]any
			b, _ := os.ReadFile(in)
			if err := json.Unmarshal(b, &got); err != nil {
				t.Fatalf("the hook read %q: %v", b, err)
			}
			for k, want := range c.want {
				if got[k] != want {
					t.Errorf("the hook read %s = %v, want %v", k, got[k], want)
				}
			}
			if _, ok := got["requested_schema"]; ok {
				t.Errorf("the hook read a requested_schema for a web page: %s", b)
			}
		})
	}
}
