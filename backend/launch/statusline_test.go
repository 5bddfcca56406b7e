package launch

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session/claudelog"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func openWithClaudeFiles(t *testing.T, files map[string]string, flag ...string) (*Session, string) {
	t.Helper()
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	tree := map[string]string{}
	for rel, text := range files {
		root := cwd
		if strings.HasPrefix(rel, "~/") {
			root, rel = userHome, strings.TrimPrefix(rel, "~/")
		}
		tree[filepath.Join(root, rel)] = text
	}
	testkit.WriteTree(t, "/", tree)
	llm := llmtest.New(t)
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": userHome}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "9.9.9",
		Environ: []string{"PATH=" + os.Getenv("PATH"), "DEEPSEEK_API_KEY=test-key", "GREETING=hi"}, Settings: flag})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	return s, cwd
}

// The user's statusLine runs with the front door's figures and the
// session's own fields on stdin, without the provider's key in its
// environment; a project's is refused, with what to do, and the next
// file's runs instead.
func TestStatusLineOfTheUsersSettingsRuns(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the status line here is sh")
	}
	got := filepath.Join(t.TempDir(), "stdin.json")
	pwned := filepath.Join(t.TempDir(), "pwned")
	user, _ := json.Marshal(map[string]any{"statusLine": map[string]any{"type": "command", "padding": 2, "refreshInterval": 7,
		"command": "cat > " + got + `; echo "$GREETING ${DEEPSEEK_API_KEY:-no key} $CLAUDE_PROJECT_DIR"`}})
	project, _ := json.Marshal(map[string]any{"statusLine": map[string]any{"type": "command", "command": "touch " + pwned}})
	s, cwd := openWithClaudeFiles(t, map[string]string{"~/.claude/settings.json": string(user), ".claude/settings.json": string(project)})
	run, err := s.StatusLine(context.Background(), hooks.StatusInput{Model: hooks.StatusModel{ID: "deepseek-v4-pro", DisplayName: "DeepSeek V4 Pro"}})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"  hi no key " + cwd}; !slices.Equal(run.Rows, want) || run.Every != 7*time.Second {
		t.Errorf("run %+v, want rows %q every 7s", run, want)
	}
	if _, err := os.Stat(pwned); err == nil {
		t.Error("the project's statusLine ran")
	}
	var in map[string]any
	raw, _ := os.ReadFile(got)
	if err := json.Unmarshal(raw, &in); err != nil {
		t.Fatalf("stdin %q: %v", raw, err)
	}
	for path, want := range map[string]any{"hook_event_name": "Status", "session_id": s.Log.Header().ID, "transcript_path": claudelog.Path(s.Log.Path(), s.Log.Header()),
		"cwd": cwd, "version": "9.9.9", "workspace.project_dir": cwd, "workspace.current_dir": cwd, "model.display_name": "DeepSeek V4 Pro"} {
		var v any = in
		for _, k := range strings.Split(path, ".") {
			v = v.(map[string]any)[k]
		}
		if v != want {
			t.Errorf("%s = %v, want %v", path, v, want)
		}
	}
	want := ".claude/settings.json: its statusLine is not run, as a project's command would run outside the sandbox at every turn; " +
		"copy it to ~/.claude/settings.json to run it"
	if n := notices(t, s); !slices.Contains(n, want) {
		t.Errorf("want the notice %q, got %q", want, n)
	}
}

// --settings' statusLine comes before the user's; one that is not a
// command is named and passed over; without any there is nothing to run.
func TestStatusLinePrecedenceAndProblems(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the status line here is sh")
	}
	s, _ := openWithClaudeFiles(t, map[string]string{"~/.claude/settings.json": `{"statusLine": {"type": "command", "command": "echo user"}}`},
		`{"statusLine": {"type": "command", "command": "echo flag"}}`)
	if run, err := s.StatusLine(context.Background(), hooks.StatusInput{}); err != nil || !slices.Equal(run.Rows, []string{"flag"}) {
		t.Errorf("run %+v (%v), want the flag's", run, err)
	}
	s, _ = openWithClaudeFiles(t, map[string]string{"~/.claude/settings.json": `{"statusLine": {"type": "command", "command": "echo user"}}`},
		`{"statusLine": {"type": "static", "text": "hi"}}`)
	if run, err := s.StatusLine(context.Background(), hooks.StatusInput{}); err != nil || !slices.Equal(run.Rows, []string{"user"}) {
		t.Errorf("run %+v (%v), want the user's", run, err)
	}
	if want := `--settings: statusLine of type "static" is not one tack runs; give "type": "command"`; !slices.Contains(notices(t, s), want) {
		t.Errorf("want the notice %q, got %q", want, notices(t, s))
	}
	s, _ = openWithClaudeFiles(t, map[string]string{"~/.claude/settings.json": `{"permissions": {}}`})
	if _, err := s.StatusLine(context.Background(), hooks.StatusInput{}); !errors.Is(err, ErrNoStatusLine) {
		t.Errorf("without a statusLine: %v", err)
	}
}

// A session run as an agent tells the status line its name as Claude
// Code's agent.name, though the settings that choose the agent are read
// after the status line is made; a session run as tack has no agent. So
// with the output style the settings choose, as output_style.name.
func TestStatusLineNamesTheSessionsAgent(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the status line here is sh")
	}
	line := `{"statusLine": {"type": "command", "command": "cat"}%s}`
	for _, c := range []struct{ agent, want, style string }{
		{"", "null", "default"},
		{`, "agent": "reviewer"`, `{"name":"reviewer"}`, "default"},
		{`, "outputStyle": "Concise"`, "null", "Concise"},
	} {
		s, _ := openWithClaudeFiles(t, map[string]string{
			"~/.claude/settings.json":    fmt.Sprintf(line, c.agent),
			".claude/agents/reviewer.md": "---\nname: reviewer\ndescription: Reviews\n---\nYou review code.",
		})
		run, err := s.StatusLine(context.Background(), hooks.StatusInput{})
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			Agent       json.RawMessage
			OutputStyle struct{ Name string } `json:"output_style"`
		}
		if err := json.Unmarshal([]byte(strings.Join(run.Rows, "\n")), &in); err != nil {
			t.Fatalf("stdin %q: %v", run.Rows, err)
		}
		if got := cmp.Or(string(in.Agent), "null"); got != c.want || in.OutputStyle.Name != c.style {
			t.Errorf("settings%s: agent %s, output style %q, want %s and %q", c.agent, got, in.OutputStyle.Name, c.want, c.style)
		}
	}
}

// A session in a linked git worktree of a repository with an origin
// tells the status line the worktree's name and the repository's
// identity, as Claude Code's workspace.git_worktree and workspace.repo;
// outside a repository neither is there.
func TestStatusLineNamesTheWorktreeAndRepository(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the status line here is sh")
	}
	main := t.TempDir()
	testkit.WriteTree(t, main, map[string]string{
		".git/config":                          "[core]\n\tbare = false\n[remote \"origin\"]\n\turl = git@github.com:anthropics/claude-code.git\n",
		".git/worktrees/feature-xyz/HEAD":      "ref: refs/heads/side\n",
		".git/worktrees/feature-xyz/commondir": "../..\n",
	})
	settings := `{"statusLine": {"type": "command", "command": "cat"}}`
	for _, c := range []struct {
		files map[string]string
		want  string
	}{
		{map[string]string{".git": "gitdir: " + filepath.Join(main, ".git", "worktrees", "feature-xyz") + "\n"},
			`"feature-xyz" {"host":"github.com","owner":"anthropics","name":"claude-code"}`},
		{map[string]string{}, "null null"},
	} {
		c.files["~/.claude/settings.json"] = settings
		s, _ := openWithClaudeFiles(t, c.files)
		run, err := s.StatusLine(context.Background(), hooks.StatusInput{})
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			Workspace struct {
				GitWorktree json.RawMessage `json:"git_worktree"`
				Repo        json.RawMessage
			}
		}
		if err := json.Unmarshal([]byte(strings.Join(run.Rows, "\n")), &in); err != nil {
			t.Fatalf("stdin %q: %v", run.Rows, err)
		}
		if got := cmp.Or(string(in.Workspace.GitWorktree), "null") + " " + cmp.Or(string(in.Workspace.Repo), "null"); got != c.want {
			t.Errorf("workspace's git_worktree and repo %s, want %s", got, c.want)
		}
	}
}

// The status line's prompt_id names the latest prompt, as the promptId
// of its lines in the transcript at transcript_path does; there is none
// before the first, in a new session or a resumed one.
func TestStatusLinePromptIDIsTheTranscripts(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the status line here is sh")
	}
	home, cwd, user := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": `{"statusLine": {"type": "command", "command": "cat"}}`})
	llm := llmtest.New(t, llmtest.ReplyText("Ok."), llmtest.ReplyText("Ok."))
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": user}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test",
		Environ: []string{"PATH=" + os.Getenv("PATH")}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	promptID := func() (string, string) {
		run, err := s.StatusLine(context.Background(), hooks.StatusInput{})
		if err != nil {
			t.Fatal(err)
		}
		var in struct {
			PromptID       string `json:"prompt_id"`
			TranscriptPath string `json:"transcript_path"`
		}
		if err := json.Unmarshal([]byte(strings.Join(run.Rows, "\n")), &in); err != nil {
			t.Fatalf("stdin %q: %v", run.Rows, err)
		}
		return in.PromptID, in.TranscriptPath
	}
	if id, _ := promptID(); id != "" {
		t.Errorf("prompt_id %q before the first prompt", id)
	}
	var ids []string
	for _, prompt := range []string{"First.", "Second."} {
		runTurn(t, s, prompt)
		id, path := promptID()
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var want string
		for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
			var line struct {
				PromptID string
				Message  struct{ Content any }
			}
			if json.Unmarshal([]byte(l), &line) == nil && line.Message.Content == prompt {
				want = line.PromptID
			}
		}
		if id == "" || id != want || slices.Contains(ids, id) {
			t.Errorf("after %q: prompt_id %q, want the transcript's promptId of the prompt, %q, new (earlier %q)", prompt, id, want, ids)
		}
		ids = append(ids, id)
	}
	// A resumed session names no input before its first, as Claude
	// Code's names none of an earlier process.
	s.Close()
	s, err = Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test",
		Environ: []string{"PATH=" + os.Getenv("PATH")}, Resume: s.Log.Header().ID})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	if id, _ := promptID(); id != "" {
		t.Errorf("prompt_id %q in a resumed session before its first prompt", id)
	}
}
