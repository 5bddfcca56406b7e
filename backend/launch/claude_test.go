package launch

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// A project's .claude/settings.json denies reading .env, as Claude Code's
// documentation shows: the read tool is refused with the rule and its file
// named, a command that reads it finds nothing there, since the sandbox
// hides it, and grep and glob over the workspace pass it by; other files
// read as usual. A file an Edit deny rule names is read-only to commands.
func TestClaudeCodeDenyRulesBindTheToolsAndTheSandbox(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/settings.json": `{"permissions": {"deny": ["Read(./.env)", "Read(./secrets/**)", "Edit(./go.mod)"]}}`,
		"go.mod":                "module x\n",
		".env":                  "API_KEY=sk-live-1234\n",
		"secrets/prod.pem":      "-----BEGIN KEY-----\n",
		"main.go":               "package main\n",
	})
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "read", `{"file_path":".env"}`, 1)),
		llmtest.Reply(llmtest.ToolCall("call_2", "read", `{"file_path":"main.go"}`, 1)),
		bashCall("call_3", "cat .env secrets/prod.pem main.go"),
		llmtest.Reply(llmtest.ToolCall("call_4", "grep", `{"pattern":"sk-live|BEGIN|package"}`, 1)),
		llmtest.Reply(llmtest.ToolCall("call_5", "glob", `{"pattern":"**/*"}`, 1)),
		bashCall("call_6", "echo replace >> go.mod"),
		llmtest.ReplyText("done"))
	s := openMCP(t, home, cwd, "auto", llm)
	requireSandbox(t, s)
	runTurn(t, s, "Look at the config.")
	reqs := llm.Requests()
	if got := reqs[1].ToolResult("call_1"); !strings.Contains(got, "deny rule Read(./.env) in .claude/settings.json") {
		t.Errorf("the model read %q for .env", got)
	}
	if got := reqs[2].ToolResult("call_2"); !strings.Contains(got, "package main") {
		t.Errorf("the model read %q for main.go", got)
	}
	got := reqs[3].ToolResult("call_3")
	if strings.Contains(got, "sk-live") || strings.Contains(got, "BEGIN KEY") || !strings.Contains(got, "package main") {
		t.Errorf("cat in the sandbox printed %q", got)
	}
	if got := reqs[4].ToolResult("call_4"); strings.Contains(got, ".env") || strings.Contains(got, "prod.pem") || !strings.Contains(got, "main.go") {
		t.Errorf("grep over the workspace found %q", got)
	}
	if got := reqs[5].ToolResult("call_5"); strings.Contains(got, ".env") || strings.Contains(got, "secrets") || !strings.Contains(got, "main.go") {
		t.Errorf("glob over the workspace listed %q", got)
	}
	if b, _ := os.ReadFile(filepath.Join(cwd, "go.mod")); string(b) != "module x\n" {
		t.Errorf("a command changed go.mod, which an Edit deny rule names: %q", b)
	}
}

// A prompt's @mentions are read through the same gate: what a deny rule
// names stays text, and so does a folder (its listing would name the
// files the rule hides); what it does not name comes read into the
// prompt.
func TestMentionsOfDeniedFilesStayText(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/settings.json": `{"permissions": {"deny": ["Read(./.env)", "Read(./secrets/**)"]}}`,
		".env":                  "API_KEY=sk-live-1234\n",
		"secrets/prod.pem":      "-----BEGIN KEY-----\n",
		"main.go":               "package main\n",
	})
	llm := llmtest.New(t, llmtest.ReplyText("done"))
	s := openMCP(t, home, cwd, "auto", llm)
	runTurn(t, s, "Look at @.env, @secrets/prod.pem, @secrets/ and @main.go.")
	got := lastMessage(requests(t, llm, 1)[0]).Content
	if !strings.HasPrefix(got, "Mentioned with @ and read here, so there is no need to read again: main.go\n") || !strings.Contains(got, "package main") ||
		strings.Contains(got, "sk-live") || strings.Contains(got, "BEGIN KEY") || strings.Contains(got, "prod.pem") {
		t.Errorf("want main.go alone read into the prompt, got %q", got)
	}
}

// The user's ~/.claude/settings.json allow rules let calls run unasked in
// ask mode; a project's wait for the user's approval, asked once.
func TestClaudeCodeAllowRulesOfTheProjectWaitForApproval(t *testing.T) {
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, userHome, map[string]string{".claude/settings.json": `{"permissions": {"allow": ["Bash(echo user *)"]}}`})
	testkit.WriteTree(t, cwd, map[string]string{".claude/settings.local.json": `{"permissions": {"allow": ["Bash(echo project *)"]}}`})
	llm := llmtest.New(t,
		bashCall("call_1", "echo user ok"),
		bashCall("call_2", "echo project ok"),
		bashCall("call_3", "echo project again"),
		llmtest.ReplyText("done"))
	s := openEnv(t, home, cwd, "ask", llm, map[string]string{"HOME": userHome})
	var questions []string
	interacttest.Serve(t, s.Broker, func(r *interact.Request) {
		if r.Approval != nil {
			questions = append(questions, "approval: "+r.Approval.Summary)
			r.Decide(interact.Decision{Verdict: interact.Deny})
			return
		}
		questions = append(questions, r.Questions[0].Question, r.Questions[0].Detail)
		r.Answer([]interact.Answer{{ID: r.Questions[0].ID, Selected: []string{approveSession}}})
	})
	runTurn(t, s, "Echo.")
	reqs := llm.Requests()
	for i, id := range []string{"call_1", "call_2", "call_3"} {
		if got := reqs[i+1].ToolResult(id); strings.HasPrefix(got, "Error") {
			t.Errorf("%s did not run: %q", id, got)
		}
	}
	if len(questions) != 2 || !strings.Contains(questions[0], ".claude/settings.local.json lets 1 kind(s) of call run without asking") ||
		questions[1] != "```\nBash(echo project *)  (.claude/settings.local.json)\n```" {
		t.Errorf("want one question about the project's rules, each rule a line of its detail, got %q", questions)
	}
}

// --setting-sources picks which of Claude Code's settings files are read.
func TestSettingSourcesPickTheClaudeCodeFilesRead(t *testing.T) {
	cwd, userHome := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, userHome, map[string]string{".claude/settings.json": `{"permissions": {"deny": ["Bash(a *)"]}}`})
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/settings.json":       `{"permissions": {"deny": ["Bash(b *)"]}}`,
		".claude/settings.local.json": `{"permissions": {"deny": ["Bash(c *)"]}}`,
	})
	getenv := func(k string) string { return map[string]string{"HOME": userHome}[k] }
	for sources, want := range map[string]string{"": "a b c", "project": "b", "user,local": "a c"} {
		o := Options{Getenv: getenv}
		if sources != "" {
			o.SettingSources = strings.Split(sources, ",")
		}
		files, problems := readClaudeFiles(o, cwd)
		var got []string
		for _, f := range files {
			got = append(got, strings.TrimSuffix(strings.TrimPrefix(f.settings.Permissions.Deny[0], "Bash("), " *)"))
		}
		if strings.Join(got, " ") != want || problems != nil {
			t.Errorf("sources %q: read %q (%v), want %q", sources, got, problems, want)
		}
	}
}

// The user's own settings add directories to work in, as --add-dir does,
// a relative one taken from the working directory (Claude Code's settings
// reference writes "additionalDirectories": ["../docs/"], as do settings
// in davila7/claude-code-templates' cli-tool/components/settings); a
// project's may not widen what the session writes.
func TestUserSettingsAddDirectoriesAndTheProjectsDoNot(t *testing.T) {
	home, root, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	cwd, docs := filepath.Join(root, "app"), filepath.Join(root, "docs")
	os.MkdirAll(cwd, 0o755)
	os.MkdirAll(docs, 0o755)
	mine, theirs := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, userHome, map[string]string{".claude/settings.json": `{"permissions": {"additionalDirectories": ["` + mine + `", "../docs/", "/no/such/dir"]}}`})
	testkit.WriteTree(t, cwd, map[string]string{".claude/settings.json": `{"permissions": {"additionalDirectories": ["` + theirs + `"]}}`})
	llm := llmtest.New(t, llmtest.ReplyText("ok"))
	s := openEnv(t, home, cwd, "", llm, map[string]string{"HOME": userHome})
	runTurn(t, s, "Hi.")
	system := llm.Requests()[0].Messages[0].Content
	if !strings.Contains(system, mine) || !strings.Contains(system, docs) || strings.Contains(system, theirs) {
		t.Errorf("want the user's directories, ../docs/ among them, in the system prompt and not the project's, got %q", system)
	}
	missing := false
	for _, n := range notices(t, s) {
		missing = missing || strings.Contains(n, `additionalDirectories "/no/such/dir" is not a directory`)
	}
	if !missing {
		t.Errorf("want a notice of the missing directory, got %q", notices(t, s))
	}
}

// The env of the user's own settings files (~/.claude/settings.json,
// --settings) reaches commands over the shell's values, as Claude Code
// sets it for every session; a project's does not, and a notice says how
// to take it.
func TestUserSettingsEnvReachesCommandsAndTheProjectsDoesNot(t *testing.T) {
	home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
	testkit.WriteTree(t, userHome, map[string]string{".claude/settings.json": `{"env": {"GREETING": "from settings", "COUNT": 3}}`})
	testkit.WriteTree(t, cwd, map[string]string{".claude/settings.json": `{"env": {"PROJECT_VAR": "set", "BASH_ENV": "/tmp/evil.sh"}}`})
	llm := llmtest.New(t, bashCall("call_1", "echo $GREETING/$FROM_FLAG/$KEPT/$PROJECT_VAR/$COUNT"), llmtest.ReplyText("done"))
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": userHome}
	s, err := Open(Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test", PermissionMode: "full-access",
		Environ:  []string{"PATH=" + os.Getenv("PATH"), "GREETING=from the shell", "KEPT=kept"},
		Settings: []string{`{"env": {"FROM_FLAG": "flag"}}`}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Close)
	runTurn(t, s, "Greet.")
	if got := llm.Requests()[1].ToolResult("call_1"); !strings.Contains(got, "from settings/flag/kept//3") {
		t.Errorf("the command printed %q", got)
	}
	want := ".claude/settings.json: its env is not applied, as a project's variables would reach commands outside the sandbox; " +
		"set them in your shell, or pass --settings .claude/settings.json to take the file as your own"
	if got := notices(t, s); !slices.Contains(got, want) {
		t.Errorf("want the notice %q, got %q", want, got)
	}
}

// permissions.defaultMode starts the session in a mode, by Claude Code's
// order of the files, unless the command line or config.toml chose one;
// a project may not turn the sandbox off, and a mode tack does not have
// is named and passed over.
func TestSettingsDefaultModeStartsTheSession(t *testing.T) {
	mode := func(m string) string { return `{"permissions": {"defaultMode": "` + m + `"}}` }
	cases := []struct {
		name                        string
		user, project, local, flag  string
		config, flagMode, wantLabel string
		wantProblem                 string
	}{
		{name: "the user's", user: mode("default"), wantLabel: "ask"},
		{name: "plan", user: mode("plan"), wantLabel: "plan"},
		{name: "the project's over the user's", user: mode("bypassPermissions"), project: mode("acceptEdits"), wantLabel: "auto"},
		{name: "local over project", project: mode("default"), local: mode("plan"), wantLabel: "plan"},
		{name: "--settings over all", user: mode("plan"), local: mode("default"), flag: mode("bypassPermissions"), wantLabel: "full-access"},
		{name: "config.toml over settings", user: mode("default"), config: "full-access", wantLabel: "full-access"},
		{name: "flag over settings", user: mode("plan"), flagMode: "auto", wantLabel: "auto"},
		{name: "a project may not drop the sandbox", user: mode("default"), project: mode("bypassPermissions"), wantLabel: "ask",
			wantProblem: ".claude/settings.json: defaultMode bypassPermissions is not taken from a project, as it would turn the sandbox off; " +
				"pass --permission-mode bypassPermissions to run so"},
		{name: "unknown", user: mode("dontAsk"), wantLabel: "auto",
			wantProblem: `~/.claude/settings.json: defaultMode: unknown permission mode "dontAsk": use one of read-only, ask, auto, full-access; it is left out`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, cwd, userHome := t.TempDir(), t.TempDir(), t.TempDir()
			files := map[string]string{}
			for path, text := range map[string]string{filepath.Join(userHome, ".claude", "settings.json"): c.user,
				filepath.Join(cwd, ".claude", "settings.json"): c.project, filepath.Join(cwd, ".claude", "settings.local.json"): c.local} {
				if text != "" {
					files[path] = text
				}
			}
			if c.config != "" {
				files[filepath.Join(home, "config.toml")] = `permission_mode = "` + c.config + `"` + "\n"
			}
			testkit.WriteTree(t, "/", files)
			llm := llmtest.New(t)
			env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": userHome}
			o := Options{Home: home, Cwd: cwd, Getenv: func(k string) string { return env[k] }, Version: "test", PermissionMode: c.flagMode}
			if c.flag != "" {
				o.Settings = []string{c.flag}
			}
			s, err := Open(o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(s.Close)
			if got := s.Policy.Label(); got != c.wantLabel {
				t.Errorf("the session started in %s, want %s", got, c.wantLabel)
			}
			if got := notices(t, s); c.wantProblem != "" && !slices.Contains(got, c.wantProblem) {
				t.Errorf("want the notice %q, got %q", c.wantProblem, got)
			}
		})
	}
}

// The settings' outputStyle ends the system prompt with the style's text,
// as Claude Code's does: the brief then asks for no length of answers,
// and a custom style without keep-coding-instructions drops the coding
// work's instructions too. A style that is not there is a notice, and
// the session keeps tack's own prompt.
func TestSettingsOutputStyleEndsTheSystemPrompt(t *testing.T) {
	const coding, concise = "verify your work by running the code", "Keep answers brief"
	cases := []struct {
		name, setting, style string
		want, gone           []string
		wantName, problem    string
	}{
		{name: "none", want: []string{coding, concise}, wantName: "default"},
		{name: "custom", setting: "Teacher", style: "---\nname: Teacher\n---\nExplain every step.\n",
			want: []string{"# Output style: Teacher\n\nExplain every step.\n"}, gone: []string{coding, concise}, wantName: "Teacher"},
		{name: "custom keeping the coding instructions", setting: "teacher",
			style: "---\nname: Teacher\nkeep-coding-instructions: true\n---\nExplain every step.\n",
			want:  []string{coding, "Explain every step."}, gone: []string{concise}, wantName: "Teacher"},
		{name: "built-in", setting: "Learning", want: []string{coding, "TODO(human)"}, gone: []string{concise}, wantName: "Learning"},
		{name: "missing", setting: "Pirate", want: []string{coding, concise}, wantName: "default",
			problem: `.claude/settings.json: output style "Pirate" is neither a built-in style`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			home, cwd := t.TempDir(), t.TempDir()
			if c.setting != "" {
				testkit.WriteTree(t, cwd, map[string]string{".claude/settings.json": `{"outputStyle": "` + c.setting + `"}`})
			}
			if c.style != "" {
				testkit.WriteTree(t, cwd, map[string]string{".claude/output-styles/teacher.md": c.style})
			}
			s := openMCP(t, home, cwd, "auto", llmtest.New(t))
			sys := s.Agent.System()
			for _, w := range c.want {
				if !strings.Contains(sys, w) {
					t.Errorf("want %q in the system prompt, got:\n%s", w, sys)
				}
			}
			for _, g := range c.gone {
				if strings.Contains(sys, g) {
					t.Errorf("want no %q in the system prompt, got:\n%s", g, sys)
				}
			}
			if c.style != "" && !strings.HasSuffix(sys, "Explain every step.\n") {
				t.Errorf("want the style to end the system prompt, got:\n%s", sys)
			}
			if s.OutputStyle != c.wantName {
				t.Errorf("OutputStyle = %q, want %q", s.OutputStyle, c.wantName)
			}
			if got := strings.Join(notices(t, s), "\n"); !strings.Contains(got, c.problem) {
				t.Errorf("want a notice %q, got %q", c.problem, got)
			}
		})
	}
}
