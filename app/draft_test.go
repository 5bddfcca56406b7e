package app

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/overlays/complete"
	"github.com/tack-agent/tack/snapshots/testkit/keys"
)

// fifteenLines is a draft long enough that a paste of it shows a marker.
var fifteenLines = strings.TrimSuffix(strings.Repeat("a line of the draft\n", 15), "\n")

func wantPlainDraft(t *testing.T, m *Model, what, want string) {
	t.Helper()
	if got := m.editor.Value(); got != want {
		t.Fatalf("want %s in the editor (%d bytes), got %q", what, len(want), got)
	}
	if s := screen(m); strings.Contains(s, "[paste #") {
		t.Fatalf("want %s as plain text, got a paste marker:\n%s", what, s)
	}
}

func TestExternalEditorResultLandsAsPlainText(t *testing.T) {
	m, _ := newTestModel(nil)
	keys.TypeText(keys.Into(m), "short draft")
	m.Update(draftReadMsg{text: fifteenLines})
	wantPlainDraft(t, m, "the edited draft", fifteenLines)
	keys.TypeText(keys.Into(m), "!")
	if got := m.editor.Value(); got != fifteenLines+"!" {
		t.Fatalf("want typing to continue at the end of the edited draft, got %q", got)
	}
}

func TestHistoryPickLandsAsPlainText(t *testing.T) {
	m, _ := newTestModel(nil)
	m.applyLogged(session.Event{Type: "user/message", Data: session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: fifteenLines}})
	_, cmd := m.Update(keys.Key("ctrl+r"))
	if cmd == nil {
		t.Fatal("want Ctrl+R to return the command that reads the workspace's history, got nil")
	}
	m.Update(cmd())
	if m.ov.history == nil {
		t.Fatal("want the history search open, got it closed")
	}
	m.Update(keys.Key("enter"))
	wantPlainDraft(t, m, "the chosen prompt", fifteenLines)
}

func TestCompletionCompletesTheTokenUnderTheCursor(t *testing.T) {
	m, _ := newTestModel(nil)
	m.Update(filesMsg{files: complete.NewFiles([]string{"main.go", "docs/manual.md"})})
	keys.TypeText(keys.Into(m), "look at @ma then run it")
	for range len(" then run it") {
		m.Update(keys.Key("left"))
	}
	if !m.menu.Open() {
		t.Fatalf("want the file menu open for the @ma under the cursor, got it closed (draft %q, cursor %d)", m.editor.Value(), m.editor.CursorOffset())
	}
	m.Update(keys.Key("tab"))
	keys.TypeText(keys.Into(m), "X")
	if want := "look at @main.go X then run it"; m.editor.Value() != want {
		t.Fatalf("want %q, got %q", want, m.editor.Value())
	}
}

// historyBackend answers PromptHistory with the prompts of the
// workspace's other sessions, newest first.
type historyBackend struct {
	countingBackend
	prompts []string
}

func (h *historyBackend) PromptHistory(context.Context) []string { return h.prompts }

func TestHistorySearchCoversTheWorkspaceSessions(t *testing.T) {
	be := &historyBackend{prompts: []string{"shared prompt", "write the README", "shared prompt", "fix the parser"}}
	m := New(Options{Backend: be, Width: 80, Height: 24})
	m.Update(subscribedMsg{sessionID: "live", sub: be})
	m.applyLogged(session.Event{Type: "user/message", Data: session.UserMessage{Turn: 1, Kind: session.KindPrompt, Text: "this session's prompt"}})

	_, cmd := m.Update(keys.Key("ctrl+r"))
	if m.ov.history == nil || cmd == nil {
		t.Fatalf("want Ctrl+R to open the search at once and read the other sessions in a command, got open %v, command %v", m.ov.history != nil, cmd != nil)
	}
	m.Update(cmd())
	s := screen(m)
	s = s[strings.LastIndex(s, "this session's prompt"):] // the overlay's list, below the transcript
	at := -1
	for _, p := range []string{"this session's prompt", "shared prompt", "write the README", "fix the parser"} {
		i := strings.Index(s, p)
		if i <= at || strings.Count(s, p) != 1 {
			t.Fatalf("want %q once, below the newer prompts, got:\n%s", p, s)
		}
		at = i
	}
}

func TestKeysTypedBeforeTheWorkspaceHistoryArrivesAreKept(t *testing.T) {
	be := &historyBackend{prompts: []string{"write the README", "fix the parser"}}
	m := New(Options{Backend: be, Width: 80, Height: 24})
	m.Update(subscribedMsg{sessionID: "live", sub: be})

	_, cmd := m.Update(keys.Key("ctrl+r"))
	keys.TypeText(keys.Into(m), "fix")
	m.Update(cmd())
	if s := ansi.Strip(screen(m)); !strings.Contains(s, "History search: fix") || !strings.Contains(s, "fix the parser") || strings.Contains(s, "write the README") {
		t.Fatalf("want the query typed while loading kept and applied to the other sessions' prompts, got:\n%s", s)
	}
	m.Update(keys.Key("enter"))
	if got := m.editor.Value(); got != "fix the parser" {
		t.Fatalf("want the match chosen, got %q", got)
	}
}

// A command that joins the registry after the screen started (an MCP
// server's prompt, once the server is ready) reaches the / menu while it
// is open: the backend's WaitCommands returns the new list, and the model
// takes it.
func TestCommandsThatArriveLaterJoinTheOpenMenu(t *testing.T) {
	log, err := session.Create(filepath.Join(t.TempDir(), "s.jsonl"), session.Header{ID: "s-1", Cwd: t.TempDir(), Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	ag := agent.New(agent.Config{Log: log, Provider: llm.NewClient(llm.ClientConfig{BaseURL: "http://127.0.0.1:9", APIKey: "k"}),
		Tools: tools.NewRegistry()})
	t.Cleanup(func() { ag.Close(); log.Close() })
	reg := commands.New(commands.Options{})
	be := AgentBackend{Agent: ag, Commands: reg}
	known := be.SlashCommands()
	got := make(chan []commands.Command, 1)
	go func() { cmds, _ := be.WaitCommands(context.Background(), known); got <- cmds }()
	reg.Register(commands.Command{Name: "mcp__gh__pr_review", Description: "Review a pull request", Source: "MCP",
		Input: commands.Input{Hint: "<pr>"}, Handler: func(context.Context, commands.Invocation) commands.Result { return commands.Result{} }})
	var cmds []commands.Command
	select {
	case cmds = <-got:
	case <-time.After(10 * time.Second):
		t.Fatal("WaitCommands did not return when a command was registered")
	}
	m, _ := newTestModel(nil)
	keys.TypeText(keys.Into(m), "/mcp__")
	if m.menu.Open() {
		t.Fatal("want no menu before the command exists")
	}
	m.Update(commandsMsg{commands: cmds})
	if s := screen(m); !m.menu.Open() || !strings.Contains(s, "/mcp__gh__pr_review") || !strings.Contains(s, "Review a pull request") {
		t.Fatalf("want the menu open on the new command, got:\n%s", s)
	}
}
