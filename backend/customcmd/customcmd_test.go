package customcmd

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/commands"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// claudeCodeArguments are command files run with arguments through Claude
// Code 2.1.332, with the prompt it sent (testdata/claudecode/record.py).
const claudeCodeArguments = "../../testdata/claudecode/cc-2.1.332.command-arguments.json"

// TestExpandFillsPlaceholdersAsClaudeCodeDoes loads each recorded command
// file and expands its arguments. Claude Code keeps the file's last line
// break, which tack trims, so its "ARGUMENTS:" follows one more.
func TestExpandFillsPlaceholdersAsClaudeCodeDoes(t *testing.T) {
	var cases []struct{ Name, Frontmatter, Body, Args, Expanded string }
	testkit.ReadJSON(t, claudeCodeArguments, &cases)
	for _, tc := range cases {
		t.Run(tc.Name, func(t *testing.T) {
			dir := t.TempDir()
			front := ""
			if tc.Frontmatter != "" {
				front = "---\n" + tc.Frontmatter + "\n---\n"
			}
			testkit.WriteFile(t, filepath.Join(dir, "cmd.md"), front+tc.Body+"\n")
			cmds, problems := Load([]Dir{{Path: dir, Source: "project"}})
			if len(cmds) != 1 || len(problems) > 0 {
				t.Fatalf("want the command loaded, got %v %q", cmds, problems)
			}
			want := strings.TrimSuffix(strings.Replace(tc.Expanded, "\n\n\nARGUMENTS: ", "\n\nARGUMENTS: ", 1), "\n")
			if got := cmds[0].Expand(tc.Args); got != want {
				t.Errorf("/cmd %s: got %q, want %q", tc.Args, got, want)
			}
		})
	}
}

// A prompt's !`command` runs with the arguments filled in, and what it
// printed goes in as it is: a placeholder in the output stays. Only a
// one-line, closed, non-empty span is a command; without a shell each
// stays as written.
func TestExpandRunsTheCommandsAPromptEmbeds(t *testing.T) {
	c := Command{Body: "Diff: !`git diff $0`\nLog: !`git log -1`\nFix $ARGUMENTS. Not run: !`` !`two\nlines` and !`open"}
	var ran []string
	got, err := c.expand("main.go", func(command string) (string, error) {
		ran = append(ran, command)
		return "output of " + command + " costs $1\n", nil
	})
	want := "Diff: output of git diff main.go costs $1\nLog: output of git log -1 costs $1\nFix main.go. Not run: !`` !`two\nlines` and !`open"
	if err != nil || got != want {
		t.Errorf("got %q (%v)\nwant %q", got, err, want)
	}
	if strings.Join(ran, "|") != "git diff main.go|git log -1" {
		t.Errorf("ran %q", ran)
	}
	if got := c.Expand("main.go"); !strings.HasPrefix(got, "Diff: !`git diff main.go`\nLog: !`git log -1`") {
		t.Errorf("without a shell: %q", got)
	}
}

// A command its prompt embeds that is refused fails the custom command:
// nothing is sent, and the user reads which command, why, and which file
// allows it.
func TestACustomCommandWhosePromptCommandIsRefusedFails(t *testing.T) {
	reg := commands.New(commands.Options{})
	shell := func(_ context.Context, command string, allowed []string) (string, error) {
		if strings.Join(allowed, ",") != "Bash(git status:*)" {
			t.Errorf("shell got allowed-tools %q", allowed)
		}
		return "", errors.New("was refused (permission mode ask)")
	}
	Register(reg, []Command{{Name: "ship", Body: "!`git push`", AllowedTools: []string{"Bash(git status:*)"}, Path: "/p/ship.md"}}, shell)
	s := &sender{}
	exec, _ := reg.Execute(context.Background(), s, "/ship", nil)
	want := "/ship did not run: its prompt runs `git push`, which was refused (permission mode ask); " +
		"a Bash entry that covers it in the allowed-tools of /p/ship.md lets it run without asking"
	if exec.Result.Kind != commands.Error || exec.Result.Text != want || s.text != "" {
		t.Errorf("got %+v, sent %q", exec.Result, s.text)
	}
}

func TestLoadFindsEveryLocationAndNamespaces(t *testing.T) {
	root, tackHome, home, codexHome := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	cwd := filepath.Join(root, "sub")
	testkit.WriteFile(t, filepath.Join(cwd, ".tack/commands/deploy.md"), "---\ndescription: Deploy it\nmodel: deepseek-v4-pro\nallowed-tools: Bash(make deploy:*)\n---\nDeploy $1.")
	testkit.WriteFile(t, filepath.Join(root, ".claude/commands/frontend/Review.md"), "---\nargument-hint: [component]\n---\nReview the $1 component.")
	testkit.WriteFile(t, filepath.Join(tackHome, "commands/notes.md"), "---\nmodel: claude-3-5-haiku-20241022\n---\n# Take notes\n\nWrite notes about $ARGUMENTS.")
	testkit.WriteFile(t, filepath.Join(home, ".claude/commands/explain.md"), "Explain $ARGUMENTS simply.")
	testkit.WriteFile(t, filepath.Join(home, ".claude/commands/broken.md"), "---\ndescription: x\n\tmodel: tab\n---\nbody")
	testkit.WriteFile(t, filepath.Join(home, ".claude/commands/empty.md"), "---\ndescription: nothing\n---\n")
	testkit.WriteFile(t, filepath.Join(home, ".claude/commands/bad name.md"), "x")
	testkit.WriteFile(t, filepath.Join(home, ".claude/commands/README.txt"), "not a command")
	testkit.WriteFile(t, filepath.Join(codexHome, "prompts/draftpr.md"), "---\ndescription: Draft a PR\nargument-hint: FILES=<paths>\n---\nDraft a PR for $ARGUMENTS.")

	cmds, problems := Load(Dirs(tackHome, home, codexHome, cwd))
	byName := map[string]Command{}
	var names []string
	for _, c := range cmds {
		byName[c.Name] = c
		names = append(names, c.Name)
	}
	if strings.Join(names, " ") != "deploy explain frontend:review notes prompts:draftpr" {
		t.Fatalf("commands = %v (problems %q)", names, problems)
	}
	d := byName["deploy"]
	if d.Source != "project" || d.Description != "Deploy it" || d.Model != "deepseek-v4-pro" || d.AllowedTools[0] != "Bash(make deploy:*)" ||
		!strings.HasPrefix(d.Path, cwd) {
		t.Errorf("deploy = %+v", d)
	}
	if r := byName["frontend:review"]; r.ArgumentHint != "[component]" || r.Description != "Review the $1 component." || r.Source != "project" {
		t.Errorf("frontend:review = %+v", r)
	}
	if p := byName["prompts:draftpr"]; p.Source != "user" || p.Description != "Draft a PR" || p.ArgumentHint != "FILES=<paths>" {
		t.Errorf("codex's prompt prompts:draftpr = %+v", p)
	}
	if n := byName["notes"]; n.Source != "user" || n.Description != "Take notes" || n.Model != "" {
		t.Errorf("notes, its Claude model meaning the session's = %+v", n)
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{"broken.md line 3:", "empty.md: the prompt is empty", `"bad name" cannot name a command`} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	if len(problems) != 3 {
		t.Errorf("problems = %q", problems)
	}
}

// Of command files that are one command, the first found runs and the
// user is told of each other one, naming both files: a personal command
// and the project's of its name (the personal one runs, as in Claude
// Code), two files of one folder whose names differ only in case, and
// the same name nearer the working directory and at the repository's
// root. One prompt kept in both .tack/commands and .claude/commands is no
// clash.
func TestCommandFilesOfOneNameRunTheFirstAndTellOfTheRest(t *testing.T) {
	root, home := t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	cwd := filepath.Join(root, "sub")
	files := map[string]string{
		filepath.Join(home, ".claude/commands/review.md"): "Review as I like it.",
		filepath.Join(cwd, ".claude/commands/review.md"):  "Review as the team does.",
		filepath.Join(cwd, ".tack/commands/Deploy.md"):    "Deploy, capitalised.",
		filepath.Join(cwd, ".tack/commands/deploy.md"):    "Deploy, lowercase.",
		filepath.Join(cwd, ".tack/commands/ship.md"):      "Ship it.",
		filepath.Join(cwd, ".claude/commands/ship.md"):    "Ship it.",
		filepath.Join(cwd, ".claude/commands/test.md"):    "Test this package.",
		filepath.Join(root, ".claude/commands/test.md"):   "Test everything.",
	}
	for p, body := range files {
		testkit.WriteFile(t, p, body)
	}
	cmds, problems := Load(Dirs("", home, "", cwd))
	ran := map[string]string{}
	for _, c := range cmds {
		ran[c.Name] = c.Body
	}
	want := map[string]string{"review": "Review as I like it.", "deploy": "Deploy, capitalised.", "ship": "Ship it.", "test": "Test this package."}
	if !maps.Equal(ran, want) {
		t.Errorf("the commands run %q, want %q", ran, want)
	}
	p := func(rel string) string { return filepath.Join(root, rel) }
	wantProblems := []string{
		p("sub/.tack/commands/Deploy.md") + " and " + p("sub/.tack/commands/deploy.md") + " are both /deploy, which runs the first; " +
			"the second is ignored: rename one of them to have both",
		filepath.Join(home, ".claude/commands/review.md") + " and " + p("sub/.claude/commands/review.md") + " are both /review, which runs the first " +
			"(your own commands come before the project's, as in Claude Code); the second is ignored: rename one of them to have both",
		p("sub/.claude/commands/test.md") + " and " + p(".claude/commands/test.md") + " are both /test, which runs the first; " +
			"the second is ignored: rename one of them to have both",
	}
	if !slices.Equal(problems, wantProblems) {
		t.Errorf("got the problems\n%s\nwant\n%s", strings.Join(problems, "\n"), strings.Join(wantProblems, "\n"))
	}
}

// sender records what a command submits.
type sender struct {
	typed, text string
	opts        agent.TurnOptions
}

func (s *sender) SessionID() string                          { return "s" }
func (s *sender) Status() agent.Status                       { return agent.StatusIdle }
func (s *sender) Record(session.Data) (session.Event, error) { return session.Event{}, nil }
func (s *sender) SendExpanded(typed, text string, o agent.TurnOptions) {
	s.typed, s.text, s.opts = typed, text, o
}

func TestRegisteredCommandsSubmitTheirPromptAndNeverShadowBuiltIns(t *testing.T) {
	reg := commands.New(commands.Options{})
	if err := commands.RegisterBuiltins(reg, commands.Deps{}); err != nil {
		t.Fatal(err)
	}
	problems := Register(reg, []Command{
		{Name: "help", Body: "my help", Path: "/p/help.md", Source: "project"},
		{Name: "frontend:review", Description: "Review", ArgumentHint: "[component]", Body: "Review $0.", Model: "m", AllowedTools: []string{"Read"}, Source: "project"},
	}, nil)
	if len(problems) != 1 || !strings.Contains(problems[0], "/p/help.md: /help is a built-in command") {
		t.Errorf("problems = %q", problems)
	}
	s := &sender{}
	exec, ok := reg.Execute(context.Background(), s, "/frontend:review Button", nil)
	if !ok || exec.Result.Kind != commands.Success {
		t.Fatalf("execute: %+v %v", exec, ok)
	}
	if s.text != "Review Button." || s.typed != "/frontend:review Button" || s.opts.Model != "m" || s.opts.AllowedTools[0] != "Read" {
		t.Errorf("submitted %q as %q with %+v", s.text, s.typed, s.opts)
	}
	help, _ := reg.Execute(context.Background(), s, "/help", nil)
	if !strings.Contains(help.Result.Text, "/frontend:review [component] — Review (project)") {
		t.Errorf("/help lacks the custom command with its source:\n%s", help.Result.Text)
	}
	if strings.Contains(help.Result.Text, "my help") {
		t.Error("a custom command shadowed /help")
	}
}
