package launch

import (
	"context"
	"reflect"
	"testing"

	"github.com/tack-agent/tack/backend/elicit"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// TestServersFormsGoThroughHooksThenTheUser pins the order Claude Code
// answers an MCP server's form in: an Elicitation hook that answers
// spares the user; else the user answers, and ElicitationResult hooks may
// change what they said.
func TestServersFormsGoThroughHooksThenTheUser(t *testing.T) {
	home, user, cwd := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"hooks": {
  "Elicitation": [{"matcher": "docs", "hooks": [{"type": "command",
    "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"Elicitation\",\"action\":\"accept\",\"content\":{\"token\":\"from the hook\"}}}'"}]}],
  "ElicitationResult": [{"matcher": "tracker", "hooks": [{"type": "command",
    "command": "echo '{\"hookSpecificOutput\":{\"hookEventName\":\"ElicitationResult\",\"content\":{\"title\":\"checked\"}}}'"}]}]
}}`})
	llm := llmtest.New(t)
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": user}
	o := Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	asked := 0
	interacttest.Serve(t, s.Broker, func(r *interact.Request) {
		asked++
		r.Answer([]interact.Answer{{ID: r.Questions[0].ID, Custom: "typed by the user"}})
	})
	form := map[string]any{"type": "object", "properties": map[string]any{"title": map[string]any{"type": "string"}}}
	ask := s.elicit(o, nil)
	got := ask(context.Background(), elicit.Request{Server: "docs", Message: "Your token?", Schema: form})
	if want := (elicit.Result{Action: elicit.Accept, Content: map[string]any{"token": "from the hook"}}); !reflect.DeepEqual(got, want) || asked != 0 {
		t.Errorf("with an Elicitation hook answering: %v after %d questions, want %v and no question", got, asked, want)
	}
	got = ask(context.Background(), elicit.Request{Server: "notes", Message: "Title?", Schema: form})
	if want := (elicit.Result{Action: elicit.Accept, Content: map[string]any{"title": "typed by the user"}}); !reflect.DeepEqual(got, want) || asked != 1 {
		t.Errorf("without hooks: %v after %d questions, want the user's answer %v", got, asked, want)
	}
	got = ask(context.Background(), elicit.Request{Server: "tracker", Message: "Title?", Schema: form})
	if want := (elicit.Result{Action: elicit.Accept, Content: map[string]any{"title": "checked"}}); !reflect.DeepEqual(got, want) {
		t.Errorf("with an ElicitationResult hook: %v, want the hook's content %v", got, want)
	}
	o.Unattended = true
	if got := s.elicit(o, nil)(context.Background(), elicit.Request{Server: "notes", Schema: form}); got.Action != elicit.Cancel || asked != 2 {
		t.Errorf("in print mode: %v after %d questions, want cancel without asking", got, asked)
	}
	o.Elicit = func(context.Context, elicit.Request) elicit.Result { return elicit.Result{Action: elicit.Decline} }
	if got := s.elicit(o, nil)(context.Background(), elicit.Request{Server: "notes", Schema: form}); got.Action != elicit.Decline || asked != 2 {
		t.Errorf("in print mode driven by an Agent SDK: %v after %d questions, want the SDK's decline", got, asked)
	}
}

// TestServersPagesOpenAtTheUsersWord pins a server's web page (URL
// mode): the user is asked, through the broker, and the page opens in
// the browser only when they choose it; where nobody answers (print mode
// without an Agent SDK), it is cancelled at once, unasked and unopened.
func TestServersPagesOpenAtTheUsersWord(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	llm := llmtest.New(t)
	env := map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": t.TempDir()}
	o := Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }}
	s, err := Open(o)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var asked []interact.Question
	interacttest.Serve(t, s.Broker, func(r *interact.Request) {
		asked = append(asked, r.Questions...)
		r.Answer([]interact.Answer{{ID: r.Questions[0].ID, Selected: []string{elicit.OpenLabel}}})
	})
	var opened []string
	browser := func(url string) error { opened = append(opened, url); return nil }
	page := elicit.Request{Server: "bank", Message: "Sign in", URL: "https://bank.example.com/consent", ElicitationID: "el-1"}
	got := s.elicit(o, browser)(context.Background(), page)
	if got.Action != elicit.Accept || len(asked) != 1 || len(opened) != 1 || opened[0] != page.URL {
		t.Errorf("with the user choosing to open it: %+v after %d questions, opened %q; want accept and %s opened", got, len(asked), opened, page.URL)
	}
	o.Unattended = true
	got = s.elicit(o, browser)(context.Background(), page)
	if got.Action != elicit.Cancel || len(asked) != 1 || len(opened) != 1 {
		t.Errorf("in print mode: %+v after %d questions, opened %q; want cancel, unasked and unopened", got, len(asked), opened)
	}
}
