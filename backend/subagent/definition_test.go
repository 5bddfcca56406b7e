package subagent

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestLoadReadsClaudeCodeAgentFilesWithProjectFirst(t *testing.T) {
	cwd, home := t.TempDir(), t.TempDir()
	testkit.WriteFile(t, filepath.Join(cwd, ".claude", "agents", "reviewer.md"),
		"---\nname: reviewer\ndescription: Reviews diffs. Use when: a change is ready\ntools: Read, Grep, Glob, Bash(git diff:*), Task\nmodel: opus\n---\nReview carefully.\n")
	testkit.WriteFile(t, filepath.Join(cwd, ".tack", "agents", "explore.md"), "---\ndescription: Explores\ntools: [read, glob]\nmodel: deepseek-v4-pro\n---\nLook around.\n")
	testkit.WriteFile(t, filepath.Join(home, "agents", "explore.md"), "---\ndescription: The user's explorer\n---\n")
	testkit.WriteFile(t, filepath.Join(home, "agents", "broken.md"), "---\nname: x\n\tdescription: tabs are not YAML\n---\n")
	user := t.TempDir()
	testkit.WriteFile(t, filepath.Join(user, ".claude", "agents", "planner.md"), "---\ndescription: Plans, from ~/.claude/agents\n---\nPlan.\n")
	testkit.WriteFile(t, filepath.Join(user, ".claude", "agents", "reviewer.md"), "---\ndescription: The user's reviewer\n---\n")
	defs, problems := Load(Dirs(cwd, home, user))
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	if !slices.Equal(names, []string{"explore", "general", "planner", "reviewer"}) {
		t.Fatalf("want explore, general, planner and reviewer, got %v", names)
	}
	if len(problems) != 1 || !strings.Contains(problems[0].Error(), "broken.md:") {
		t.Errorf("want the broken file reported with its path, got %v", problems)
	}
	explore, _ := Find(defs, "explore")
	if explore.Description != "Explores" || explore.Model != "deepseek-v4-pro" || explore.Prompt != "Look around." {
		t.Errorf("want the project's explore to win, got %+v", explore)
	}
	rev, _ := Find(defs, "reviewer")
	if rev.Model != "" || rev.ClaudeModel != "opus" || rev.Description != "Reviews diffs. Use when: a change is ready" {
		t.Errorf("want Claude's model alias to mean the parent's model, and kept to tell the user, got %+v", rev)
	}
	for tool, want := range map[string]bool{"read": true, "grep": true, "glob": true, "bash": true, "write": false, "task": false} {
		if got := rev.Allowed(tool); got != want {
			t.Errorf("reviewer, %s: want allowed %v, got %v", tool, want, got)
		}
	}
}

// Agent files name Claude Code's models in every way it reads them, and by
// the display names other tools write ("Claude Sonnet 4.5", seen in
// public agent collections): none is a model tack's providers serve.
// "inherit" asks for the parent's model, and is nothing to tell.
func TestClaudeCodesModelsMeanTheParentsModel(t *testing.T) {
	dir := t.TempDir()
	for model, want := range map[string][2]string{
		"sonnet": {"", "sonnet"}, "Claude Sonnet 4.5": {"", "Claude Sonnet 4.5"}, "claude-opus-4-1": {"", "claude-opus-4-1"},
		"inherit": {"", ""}, "deepseek-v4-pro": {"deepseek-v4-pro", ""},
	} {
		testkit.WriteFile(t, filepath.Join(dir, "a.md"), "---\nname: a\ndescription: A\nmodel: "+model+"\n---\nDo.\n")
		defs, problems := Load([]string{dir})
		a, _ := Find(defs, "a")
		if len(problems) > 0 || a.Model != want[0] || a.ClaudeModel != want[1] {
			t.Errorf("model: %s: want model %q, Claude's %q; got %q, %q (problems %v)", model, want[0], want[1], a.Model, a.ClaudeModel, problems)
		}
	}
}

func TestTheGeneralAgentGetsReadOnlyToolsAndBash(t *testing.T) {
	g := General()
	for tool, want := range map[string]bool{"read": true, "grep": true, "bash": true, "web_fetch": true,
		"write": false, "edit": false, "task": false, "ask_user_question": false} {
		if got := g.Allowed(tool); got != want {
			t.Errorf("%s: want allowed %v, got %v", tool, want, got)
		}
	}
}

// Collections installed into .claude/agents keep their agents in category
// folders, each with its own name and a README beside them (the shape of
// davila7/claude-code-templates' cli-tool/components/agents/<category>/).
func TestLoadReadsAgentsInSubfoldersByTheirName(t *testing.T) {
	cwd := t.TempDir()
	agents := filepath.Join(cwd, ".claude", "agents")
	testkit.WriteFile(t, filepath.Join(agents, "security", "auditor.md"),
		"---\nname: security-auditor\ndescription: Audits code for vulnerabilities\ntools: Read, Grep\n---\nAudit.\n")
	testkit.WriteFile(t, filepath.Join(agents, "languages", "go", "gopher.md"), "---\ndescription: Writes Go\n---\nGo.\n")
	testkit.WriteFile(t, filepath.Join(agents, "languages", "README.md"), "# Language agents\n\nOne file per language.\n")
	testkit.WriteFile(t, filepath.Join(agents, "notes.md"), "---\ndescription: Takes notes\n---\nAn agent named for its file.\n")
	defs, problems := Load([]string{agents})
	names := make([]string, len(defs))
	for i, d := range defs {
		names[i] = d.Name
	}
	if !slices.Equal(names, []string{"general", "gopher", "notes", "security-auditor"}) || len(problems) != 0 {
		t.Fatalf("want general, gopher, notes and security-auditor and no problems, got %v and %v", names, problems)
	}
	if a, _ := Find(defs, "security-auditor"); a.Prompt != "Audit." || !a.Allowed("grep") || a.Allowed("bash") {
		t.Errorf("want the nested auditor read with its tools, got %+v", a)
	}
}

// A README.md kept beside the agents (the shape of
// diet103/claude-code-infrastructure-showcase's .claude/agents/README.md)
// has no front matter; Claude Code takes no agent from it.
func TestLoadTakesNoAgentFromAFileWithoutFrontMatter(t *testing.T) {
	agents := filepath.Join(t.TempDir(), ".claude", "agents")
	testkit.WriteFile(t, filepath.Join(agents, "README.md"), "# Agents\n\nWhat each agent here is for.\n")
	testkit.WriteFile(t, filepath.Join(agents, "planner.md"), "---\nname: planner\ndescription: Plans\n---\nPlan.\n")
	defs, problems := Load([]string{agents})
	if _, ok := Find(defs, "README"); ok || len(defs) != 2 || len(problems) != 0 {
		t.Errorf("want planner and general only, got %+v and %v", defs, problems)
	}
}

// A plugin's agent file without front matter still loads in Claude Code,
// named for its file (the shape of the agents/*.md that begin at an H1 in
// alirezarezvani/claude-skills' plugins).
func TestLoadPluginTakesAnAgentFileWithoutFrontMatter(t *testing.T) {
	agents := filepath.Join(t.TempDir(), "agents")
	testkit.WriteFile(t, filepath.Join(agents, "devils-advocate.md"), "# Devil's Advocate\n\nArgue the other side.\n")
	defs, problems := LoadPlugin([]string{agents})
	if a, ok := Find(defs, "devils-advocate"); !ok || len(problems) != 0 || !strings.Contains(a.Prompt, "Argue the other side.") {
		t.Errorf("want devils-advocate from the plugin's file, got %+v and %v", defs, problems)
	}
}

// "tools: *" (davila7/claude-code-templates' data-ai/monday-bug-fixer.md)
// asks for every tool, as leaving the list out does: the default set, not
// none.
func TestAnAgentWithEveryToolGetsTheDefaultSet(t *testing.T) {
	agents := filepath.Join(t.TempDir(), "agents")
	testkit.WriteFile(t, filepath.Join(agents, "fixer.md"), "---\nname: fixer\ndescription: Fixes bugs\ntools: *\n---\nFix.\n")
	defs, problems := Load([]string{agents})
	fixer, ok := Find(defs, "fixer")
	if !ok || len(problems) != 0 || fixer.Tools != nil || !fixer.Allowed("read") || !fixer.Allowed("bash") {
		t.Errorf("want fixer with the default tools, got %+v and %v", fixer, problems)
	}
}

// Agents name an MCP server's tools by the server, and keep tools from an
// agent with disallowedTools, as 001TMF/blatant-why's research agents
// keep the tool that submits paid jobs from themselves.
func TestAgentsNameServersAndDisallowTools(t *testing.T) {
	agents := filepath.Join(t.TempDir(), "agents")
	testkit.WriteFile(t, filepath.Join(agents, "epitope.md"), "---\nname: epitope\ndescription: Maps epitopes\n"+
		"tools: Read, Bash, mcp__pdb__*, mcp__cloud\ndisallowedTools: Bash, mcp__cloud__submit_job\n---\nMap.\n")
	testkit.WriteFile(t, filepath.Join(agents, "reviewer.md"), "---\nname: reviewer\ndescription: Reviews\n"+
		"disallowedTools: [Bash, WebFetch]\n---\nReview.\n")
	defs, problems := Load([]string{agents})
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	for name, want := range map[string]map[string]bool{
		"epitope": {"read": true, "bash": false, "write": false, "mcp__pdb__fetch": true, "mcp__pdbx__fetch": false,
			"mcp__cloud__list_jobs": true, "mcp__cloud__submit_job": false},
		"reviewer": {"read": true, "grep": true, "bash": false, "web_fetch": false, "write": false},
	} {
		a, _ := Find(defs, name)
		for tool, allowed := range want {
			if got := a.Allowed(tool); got != allowed {
				t.Errorf("%s, %s: want allowed %v, got %v", name, tool, allowed, got)
			}
		}
	}
	// Run as the session, an agent that lists no tools has every one.
	if reviewer, _ := Find(defs, "reviewer"); !reviewer.Offers("write") || reviewer.Offers("bash") {
		t.Error("want the reviewer run as the session offered write, and bash, which it disallows, not")
	}
	flag, err := FromJSON([]byte(`{"scout": {"description": "Looks", "prompt": "Look.", "disallowedTools": ["Bash"]}}`))
	if err != nil || flag[0].Allowed("bash") || !flag[0].Allowed("read") {
		t.Errorf("want --agents' disallowedTools kept, got %+v, %v", flag, err)
	}
}

// An orchestrator's tools name the agents it may start, run as the
// session, in the shapes public agent files write: Agent(worker,
// researcher) beside the other tools, Task(...), Claude Code's older
// name, a YAML list, and --agents' JSON. Agent alone limits nothing.
func TestAnOrchestratorsToolsNameTheAgentsItStarts(t *testing.T) {
	agents := filepath.Join(t.TempDir(), "agents")
	testkit.WriteFile(t, filepath.Join(agents, "lead.md"), "---\nname: lead\ndescription: Leads\n"+
		"tools: Agent(data-collector, etf-analyst), Read, Bash, Glob, Grep\n---\nDelegate.\n")
	testkit.WriteFile(t, filepath.Join(agents, "old.md"), "---\nname: old\ndescription: Leads\ntools: [Read, \"Task(advisor)\"]\n---\nAsk.\n")
	testkit.WriteFile(t, filepath.Join(agents, "any.md"), "---\nname: any\ndescription: Leads\ntools: Agent, Read\n---\nAsk.\n")
	defs, problems := Load([]string{agents})
	if len(problems) != 0 {
		t.Fatal(problems)
	}
	flag, err := FromJSON([]byte(`{"coordinator": {"description": "C", "prompt": "P", "tools": ["Agent(worker, researcher)", "Read"]}}`))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		def    Definition
		spawns []string
	}{
		{find(t, defs, "lead"), []string{"data-collector", "etf-analyst"}},
		{find(t, defs, "old"), []string{"advisor"}},
		{find(t, defs, "any"), nil},
		{flag[0], []string{"worker", "researcher"}},
	} {
		if !slices.Equal(c.def.Spawns, c.spawns) || !c.def.Offers("task") || !c.def.Offers("read") || c.def.Offers("write") {
			t.Errorf("%s: want the task tool and read, starting %q, got %+v", c.def.Name, c.spawns, c.def)
		}
	}
}

// find is the definition of defs named name.
func find(t *testing.T, defs []Definition, name string) Definition {
	t.Helper()
	d, ok := Find(defs, name)
	if !ok {
		t.Fatalf("no agent %s", name)
	}
	return d
}

// Claude Code's maxTurns and skills are read; its permissionMode and
// hooks are kept as fields tack does not apply, for the note. A maxTurns
// that is no number, or a mode that is the default, asks nothing.
func TestClaudeCodesFieldsAreReadOrKeptForTheNote(t *testing.T) {
	dir := t.TempDir()
	testkit.WriteFile(t, filepath.Join(dir, "a.md"), "---\nname: a\ndescription: A\nmaxTurns: 25\nskills: go-style, api\n"+
		"permissionMode: plan\nhooks:\n  Stop: []\n---\nDo.\n")
	testkit.WriteFile(t, filepath.Join(dir, "b.md"), "---\nname: b\ndescription: B\nmaxTurns: many\npermissionMode: default\n---\nDo.\n")
	defs, problems := Load([]string{dir})
	a, _ := Find(defs, "a")
	b, _ := Find(defs, "b")
	if len(problems) > 0 || a.MaxTurns != 25 || !slices.Equal(a.Skills, []string{"go-style", "api"}) ||
		!slices.Equal(a.Unapplied, []string{"permissionMode", "hooks"}) {
		t.Errorf("a: got %+v (problems %v)", a, problems)
	}
	if b.MaxTurns != 0 || b.Unapplied != nil {
		t.Errorf("b: want no limit and nothing unapplied, got %+v", b)
	}
}
