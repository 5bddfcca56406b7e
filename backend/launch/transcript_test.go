//go:build unix

package launch

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/hooks"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session/claudelog"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// needs skips the test unless the programs are installed.
func needs(t *testing.T, programs ...string) {
	t.Helper()
	for _, p := range programs {
		if _, err := exec.LookPath(p); err != nil {
			t.Skipf("%s is not installed (.ci/run installs jq with apt-get; node comes with the CI image)", p)
		}
	}
}

// Hooks read the session's Claude Code transcript at transcript_path,
// up to date when they run: a PreToolUse hook finds the Bash call it is
// asked about in it, and a Stop hook written for Claude Code (the
// thopter-swarm one of claudelog's tests) the answer just given.
func TestHooksReadAClaudeCodeTranscriptUpToDate(t *testing.T) {
	needs(t, "jq", "node")
	home, cwd := t.TempDir(), t.TempDir()
	out := t.TempDir()
	script, err := filepath.Abs("../session/claudelog/testdata/scripts/thopter-last-message.mjs")
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(`[[hooks.pre_tool_use]]
matcher = "Bash"
command = "jq -r .transcript_path | xargs jq -r 'select(.type == \"assistant\") | .message.content[]? | select(.type == \"tool_use\" and .name == \"Bash\") | .input.command' | tail -n 1 > `+out+`/bash"

[[hooks.stop]]
command = "T=$(jq -r .transcript_path); echo \"$T\" > `+out+`/path; node `+script+` \"$T\" > `+out+`/answer"
`), 0o600)
	llm := llmtest.New(t, bashCall("call_1", "ls -la"), llmtest.ReplyText("The directory is empty."))
	s := openMCP(t, home, cwd, "full-access", llm)
	runTurn(t, s, "What is here?")
	for file, want := range map[string]string{
		"bash": "ls -la", "answer": "The directory is empty.", "path": claudelog.Path(s.Log.Path(), s.Log.Header()),
	} {
		if b, _ := os.ReadFile(filepath.Join(out, file)); strings.TrimSpace(string(b)) != want {
			t.Errorf("the hook wrote %s %q, want %q", file, b, want)
		}
	}
	// Each reply says what it cost at the session's catalog's price, for
	// usage counters such as ccusage.
	b, _ := os.ReadFile(claudelog.Path(s.Log.Path(), s.Log.Header()))
	if n, priced := strings.Count(string(b), `"type":"assistant"`), strings.Count(string(b), `"costUSD":`); n != 2 || priced != n {
		t.Errorf("%d of the transcript's %d replies say their costUSD, want both:\n%s", priced, n, b)
	}
}

// A transcript that cannot be written stops no hook: it runs, reading
// the path, and the user hears of the failure once, with what to check.
func TestHooksRunWhenTheTranscriptCannotBeWritten(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	ran := filepath.Join(t.TempDir(), "ran")
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(`[[hooks.user_prompt_submit]]
command = "cat >> `+ran+`"
`), 0o600)
	llm := llmtest.New(t, llmtest.ReplyText("One."), llmtest.ReplyText("Two."))
	s := openMCP(t, home, cwd, "full-access", llm)
	// A file where the session's directory would be.
	if err := os.WriteFile(strings.TrimSuffix(s.Log.Path(), ".jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	runTurn(t, s, "first")
	runTurn(t, s, "second")
	if b, _ := os.ReadFile(ran); strings.Count(string(b), `"transcript_path":"`+claudelog.Path(s.Log.Path(), s.Log.Header())) != 2 {
		t.Errorf("want both prompts' hooks run with the transcript's path, got %s", b)
	}
	var warned []string
	for _, n := range notices(t, s) {
		if strings.Contains(n, "Claude Code transcript") {
			warned = append(warned, n)
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "check that the directory is writable") {
		t.Errorf("want one notice of the failure, saying what to check; got %q", warned)
	}
}

// The status line reads the transcript up to date too: ccstatusline's
// token widgets (re-created in claudelog's tests) count the turn just
// ended.
func TestStatusLineReadsTheTranscriptUpToDate(t *testing.T) {
	needs(t, "python3")
	// The status line's environment has no PATH of the test's; name the
	// interpreter itself, not a shim that needs one.
	python, err := exec.Command("python3", "-c", "import sys; print(sys.executable)").Output()
	if err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("../session/claudelog/testdata/scripts/ccstatusline_tokens.py")
	if err != nil {
		t.Fatal(err)
	}
	home, cwd, user := t.TempDir(), t.TempDir(), t.TempDir()
	settings, _ := json.Marshal(map[string]any{"statusLine": map[string]any{"type": "command",
		"command": strings.TrimSpace(string(python)) + " " + script}})
	testkit.WriteTree(t, user, map[string]string{".claude/settings.json": string(settings)})
	llm := llmtest.New(t, llmtest.Reply(llmtest.Text("Hi.", 0), llmtest.Usage(100, 40, 8, 0)))
	s := openEnv(t, home, cwd, "full-access", llm, map[string]string{"HOME": user})
	runTurn(t, s, "Hello")
	run, err := s.StatusLine(context.Background(), hooks.StatusInput{})
	if err != nil {
		t.Fatal(err)
	}
	// 40 uncached and 100 cached input tokens, 8 output tokens.
	if want := []string{"40 8 100 0 148 140 0"}; !slices.Equal(run.Rows, want) {
		t.Errorf("the status line showed %q, want %q", run.Rows, want)
	}
}

// tack restarted with --resume goes on in the same transcript: a Stop
// hook listing the prompts with jq finds each once.
func TestResumedSessionGoesOnInTheSameTranscript(t *testing.T) {
	needs(t, "jq")
	home, cwd := t.TempDir(), t.TempDir()
	prompts := filepath.Join(t.TempDir(), "prompts")
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(`[[hooks.stop]]
command = "jq -r .transcript_path | xargs jq -r 'select(.type == \"user\" and (.message.content | type) == \"string\") | .message.content' > `+prompts+`"
`), 0o600)
	llm := llmtest.New(t, llmtest.ReplyText("one"), llmtest.ReplyText("two"), llmtest.ReplyText("three"))
	s := openMCP(t, home, cwd, "full-access", llm)
	runTurn(t, s, "First.")
	runTurn(t, s, "Second.")
	id := s.Log.Header().ID
	s.Close()
	resumed, err := Open(Options{Home: home, Cwd: cwd, Resume: id, Version: "test", PermissionMode: "full-access",
		Getenv: func(k string) string {
			return map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL()}[k]
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(resumed.Close)
	runTurn(t, resumed, "Third.")
	if b, _ := os.ReadFile(prompts); string(b) != "First.\nSecond.\nThird.\n" {
		t.Errorf("the Stop hook found the prompts %q, want each once", b)
	}
}

// Hooks are told the user's input they run for as prompt_id, as Claude
// Code tells them: the promptId the transcript's lines of that input
// carry. UserPromptSubmit, which runs before the prompt is logged, hears
// the id its lines then get; a steering message is an input of its own
// for the calls after it, while the context the prompt's hook adds is
// not (as Claude Code's hook_additional_context is none); and
// SessionStart, before any prompt, hears none, nor does a resumed
// session's hook before its first prompt. jq reads what each hook is
// told.
func TestHooksPromptIDIsTheTranscriptsPromptID(t *testing.T) {
	needs(t, "jq")
	home, cwd := t.TempDir(), t.TempDir()
	seen, release := filepath.Join(t.TempDir(), "seen"), filepath.Join(t.TempDir(), "go")
	record := `command = "jq -c '[.hook_event_name, .prompt_id, .tool_use_id]' >> ` + seen + `"` + "\n"
	// The prompt's hook adds context, which belongs to the prompt.
	config := "[[hooks.user_prompt_submit]]\n" + strings.Replace(record, "\"\n", "; echo 'The branch is main.'\"\n", 1)
	for _, event := range []string{"session_start", "pre_tool_use", "post_tool_use", "stop", "session_end"} {
		config += "[[hooks." + event + "]]\n" + record
	}
	os.WriteFile(filepath.Join(home, "config.toml"), []byte(config), 0o600)
	llm := llmtest.New(t, bashCall("call_1", waitFor(release)), bashCall("call_2", "echo two"), llmtest.ReplyText("Done."),
		bashCall("call_3", "echo three"), llmtest.ReplyText("Done again."))
	s := openMCP(t, home, cwd, "full-access", llm)
	s.Agent.Send("First.")
	testkit.Eventually(t, "the first call's PreToolUse hook runs", func() bool {
		b, _ := os.ReadFile(seen)
		return strings.Contains(string(b), `"call_1"`)
	})
	if !s.Agent.SteerTurn("Also the lexer") {
		t.Fatal("the steering message did not join the turn")
	}
	testkit.WriteFile(t, release, "")
	testkit.Settle(t, s.Agent)
	runTurn(t, s, "Second.")
	s.Close()

	inputs, results := transcriptPromptIDs(t, claudelog.Path(s.Log.Path(), s.Log.Header()))
	heard := func() []string {
		var got []string
		for _, l := range strings.Split(strings.TrimSpace(string(testkit.ReadFile(t, seen))), "\n") {
			var run [3]*string
			if err := json.Unmarshal([]byte(l), &run); err != nil || run[0] == nil {
				t.Fatalf("a hook read %q: %v", l, err)
			}
			input := "-"
			if run[1] != nil {
				input = inputs[*run[1]]
			}
			got = append(got, *run[0]+" "+input)
			if run[2] != nil && run[1] != nil && results[*run[2]] != *run[1] {
				t.Errorf("%s of %s heard prompt_id %s, the transcript's result of the call carries %q", *run[0], *run[2], *run[1], results[*run[2]])
			}
		}
		return got
	}
	want := []string{"SessionStart -", "UserPromptSubmit First.", "PreToolUse First.", "PostToolUse First.",
		"PreToolUse Also the lexer", "PostToolUse Also the lexer", "Stop Also the lexer",
		"UserPromptSubmit Second.", "PreToolUse Second.", "PostToolUse Second.", "Stop Second.", "SessionEnd Second."}
	if got := heard(); !slices.Equal(got, want) {
		t.Errorf("hooks heard of the inputs (by the transcript's promptIds)\n%q, want\n%q", got, want)
	}
	resumed, err := Open(Options{Home: home, Cwd: cwd, Resume: s.Log.Header().ID, Version: "test", PermissionMode: "full-access",
		Getenv: func(k string) string {
			return map[string]string{"DEEPSEEK_API_KEY": "k", "DEEPSEEK_BASE_URL": llm.URL()}[k]
		}})
	if err != nil {
		t.Fatal(err)
	}
	resumed.Close()
	if got := heard()[len(want):]; !slices.Contains(got, "SessionEnd -") || slices.ContainsFunc(got, func(h string) bool { return !strings.HasSuffix(h, " -") }) {
		t.Errorf("a resumed session's hooks before its first prompt heard %q, want no prompt_id", got)
	}
}

// transcriptPromptIDs reads the transcript at path: the text of each
// input (its first line) by its lines' promptId, and the promptId of each tool result by
// its call's id.
func transcriptPromptIDs(t *testing.T, path string) (inputs, results map[string]string) {
	t.Helper()
	inputs, results = map[string]string{}, map[string]string{}
	for _, l := range strings.Split(strings.TrimSpace(string(testkit.ReadFile(t, path))), "\n") {
		var line struct {
			Type, PromptID string
			Message        struct{ Content json.RawMessage }
		}
		if json.Unmarshal([]byte(l), &line) != nil || line.Type != "user" || line.PromptID == "" {
			continue
		}
		var text string
		var blocks []struct {
			ToolUseID string `json:"tool_use_id"`
		}
		switch {
		case json.Unmarshal(line.Message.Content, &text) == nil:
			if _, ok := inputs[line.PromptID]; !ok { // the input's own line, not what a hook added after it
				inputs[line.PromptID] = text
			}
		case json.Unmarshal(line.Message.Content, &blocks) == nil:
			for _, b := range blocks {
				results[b.ToolUseID] = line.PromptID
			}
		}
	}
	return inputs, results
}
