package skills

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// writeSkill writes the SKILL.md of the skill folder dir.
func writeSkill(t *testing.T, dir, text string) {
	t.Helper()
	testkit.WriteFile(t, filepath.Join(dir, FileName), text)
}

func skill(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\n---\n# " + name + "\n\nDo the " + name + " thing.\n"
}

// everyLocation makes one skill in each folder skills are found in, and
// returns the folders.
func everyLocation(t *testing.T) (tackHome, home, cwd string) {
	root, tackHome, home := t.TempDir(), t.TempDir(), t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	cwd = filepath.Join(root, "pkg")
	writeSkill(t, filepath.Join(cwd, ".tack/skills/tack-local"), skill("tack-local", "From .tack."))
	writeSkill(t, filepath.Join(cwd, ".agents/skills/agents-local"), skill("agents-local", "From .agents."))
	writeSkill(t, filepath.Join(root, ".claude/skills/claude-root"), skill("claude-root", "From the repository root's .claude."))
	writeSkill(t, filepath.Join(tackHome, "skills/tack-user"), skill("tack-user", "From $TACK_HOME."))
	writeSkill(t, filepath.Join(home, ".claude/skills/claude-user"), skill("claude-user", "From ~/.claude."))
	writeSkill(t, filepath.Join(home, ".claude/skills/tack-local"), skill("tack-local", "Yours, over the project's."))
	writeSkill(t, filepath.Join(home, ".agents/skills/agents-user"), skill("agents-user", "From ~/.agents."))
	writeSkill(t, filepath.Join(home, ".codex/skills/codex-user"), skill("codex-user", "From ~/.codex."))
	return tackHome, home, cwd
}

// TestSkillsAreFoundInEveryLocationAndTheUsersShadowTheProjects: as in
// Claude Code, a personal skill overrides a project's of its name.
func TestSkillsAreFoundInEveryLocationAndTheUsersShadowTheProjects(t *testing.T) {
	tackHome, home, cwd := everyLocation(t)
	c, problems := Load(Dirs(tackHome, home, filepath.Join(home, ".codex"), cwd))
	if len(problems) != 0 {
		t.Fatalf("problems: %q", problems)
	}
	var got []string
	for _, s := range c.Skills {
		got = append(got, s.Name+"="+s.Source)
	}
	want := "agents-local=project agents-user=user claude-root=project claude-user=user codex-user=user tack-local=user tack-user=user"
	if strings.Join(got, " ") != want {
		t.Errorf("skills = %s\nwant     %s", strings.Join(got, " "), want)
	}
	if s, _ := c.Find("tack-local"); s.Description != "Yours, over the project's." {
		t.Errorf("tack-local = %+v", s)
	}
}

func TestPromptListsNamesAndDescriptionsOnlyAndIsStable(t *testing.T) {
	tackHome, home, cwd := everyLocation(t)
	a, _ := Load(Dirs(tackHome, home, filepath.Join(home, ".codex"), cwd))
	b, _ := Load(Dirs(tackHome, home, filepath.Join(home, ".codex"), cwd))
	if a.Prompt() != b.Prompt() {
		t.Fatal("two loads of the same skills give different prompts")
	}
	p := a.Prompt()
	if !strings.Contains(p, "- claude-root: From the repository root's .claude.") || strings.Contains(p, "Do the") {
		t.Errorf("prompt:\n%s", p)
	}
	if (&Catalog{}).Prompt() != "" {
		t.Error("no skills should add nothing to the prompt")
	}
}

func TestBadSkillFilesAreReportedWithFileAndLineAndSkipped(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, filepath.Join(dir, "tabbed"), "---\nname: tabbed\n\tdescription: x\n---\nbody")
	writeSkill(t, filepath.Join(dir, "nodesc"), "---\nname: nodesc\n---\n# Only a heading\n")
	writeSkill(t, filepath.Join(dir, "Bad Name"), "---\ndescription: has a bad folder name\n---\nbody")
	writeSkill(t, filepath.Join(dir, "good"), skill("good", "Works."))
	os.MkdirAll(filepath.Join(dir, "not-a-skill"), 0o755)
	c, problems := Load([]Dir{{Path: dir, Source: "user"}})
	if len(c.Skills) != 1 || c.Skills[0].Name != "good" {
		t.Errorf("skills = %+v", c.Skills)
	}
	all := strings.Join(problems, "\n")
	for _, want := range []string{"tabbed/SKILL.md line 3:", "nodesc/SKILL.md: no description", `name "Bad Name" is not a skill name`} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
}

// Skills whose front matter has no description are listed in Claude Code
// with the first paragraph of their text; the shape of the templates in
// 001TMF/blatant-why's templates/.claude/skills/*/SKILL.md, whose front
// matter says only short-description.
func TestASkillWithoutADescriptionIsDescribedByItsFirstParagraph(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, filepath.Join(dir, "binder"), "---\nname: \"binder\"\nshort-description: \"Binder design\"\n---\n\n"+
		"# Binder design\n\nDesign protein binders\nagainst a target.\n\nSecond paragraph.\n")
	c, problems := Load([]Dir{{Path: dir, Source: "project"}})
	if len(problems) != 0 {
		t.Fatalf("problems: %q", problems)
	}
	if s, ok := c.Find("binder"); !ok || s.Description != "Design protein binders against a target." {
		t.Errorf("want binder described by its first paragraph, got %+v (found %v)", s, ok)
	}
}

// The skills of Anthropic's plugin-dev plugin (anthropics/claude-code,
// plugins/plugin-dev/skills/*/SKILL.md) name themselves for display,
// "name: Agent Development"; they are used by their folder's name.
func TestASkillWithADisplayNameIsKnownByItsFolder(t *testing.T) {
	dir := t.TempDir()
	writeSkill(t, filepath.Join(dir, "agent-development"), skill("Agent Development", "Use when creating agents."))
	c, problems := Load([]Dir{{Path: dir, Source: "user", Prefix: "plugin-dev:"}})
	if len(problems) != 0 {
		t.Fatalf("problems: %q", problems)
	}
	if s, ok := c.Find("plugin-dev:agent-development"); !ok || s.Description != "Use when creating agents." {
		t.Errorf("want the skill known as plugin-dev:agent-development, got %+v", c.Skills)
	}
}

// One skill written for several agents, in folders named for each, keeps
// one name in its front matter (OpenRouterTeam/spawn's skills/claude,
// skills/codex and skills/openclaw are each "name: spawn"): as in Claude
// Code, each is a skill of its folder's name, none hiding the others.
func TestSkillsOfOneFrontMatterNameAreKnownByTheirFolders(t *testing.T) {
	dir := t.TempDir()
	for _, agent := range []string{"claude", "codex"} {
		writeSkill(t, filepath.Join(dir, agent), skill("spawn", "Spawn work on "+agent+"."))
	}
	c, problems := Load([]Dir{{Path: dir, Source: "project"}})
	if len(problems) != 0 {
		t.Fatalf("problems: %q", problems)
	}
	if s, ok := c.Find("codex"); !ok || s.Description != "Spawn work on codex." || len(c.Skills) != 2 {
		t.Errorf("want the skills claude and codex, got %+v", c.Skills)
	}
}

// Two different skills of one name in the project's folders are a clash
// the user is told of, naming both; a copy of one skill in .agents/skills
// and .claude/skills, as skill installers make, is not.
func TestTwoProjectSkillsOfOneNameAreAClash(t *testing.T) {
	root := t.TempDir()
	os.Mkdir(filepath.Join(root, ".git"), 0o755)
	writeSkill(t, filepath.Join(root, ".agents/skills/deploy"), skill("deploy", "Deploy to staging."))
	writeSkill(t, filepath.Join(root, ".claude/skills/deploy"), skill("deploy", "Deploy to production."))
	writeSkill(t, filepath.Join(root, ".agents/skills/lint"), skill("lint", "Lint."))
	writeSkill(t, filepath.Join(root, ".claude/skills/lint"), skill("lint", "Lint."))
	c, problems := Load(Dirs("", "", "", root))
	if s, _ := c.Find("deploy"); s.Description != "Deploy to staging." {
		t.Errorf("want the first folder's deploy used, got %+v", s)
	}
	if len(problems) != 1 || !strings.Contains(problems[0], filepath.Join(".agents", "skills", "deploy")+" and ") ||
		!strings.Contains(problems[0], filepath.Join(".claude", "skills", "deploy")) || !strings.Contains(problems[0], "rename") {
		t.Errorf("want one problem naming both deploy folders and what to do, got %q", problems)
	}
}

func TestSkillToolReturnsTheBodyAndTheFolder(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "pdf")
	writeSkill(t, dir, skill("pdf", "Fill PDF forms."))
	os.MkdirAll(filepath.Join(dir, "scripts"), 0o755)
	os.WriteFile(filepath.Join(dir, "scripts", "fill.py"), []byte("print()"), 0o644)
	os.WriteFile(filepath.Join(dir, "reference.md"), []byte("ref"), 0o644)
	c, _ := Load([]Dir{{Path: filepath.Dir(dir), Source: "project"}})
	tool := NewTool(c)
	res := tool.Run(context.Background(), tools.Call{Args: json.RawMessage(`{"name":"pdf"}`)})
	for _, want := range []string{"<skill_content name=\"pdf\">\n# pdf\n\nDo the pdf thing.\n</skill_content>",
		"The skill's folder is " + dir, "Files: reference.md, scripts/fill.py"} {
		if !strings.Contains(res.Text, want) {
			t.Errorf("result lacks %q:\n%s", want, res.Text)
		}
	}
	if res := tool.Run(context.Background(), tools.Call{Args: json.RawMessage(`{"name":"nope"}`)}); !res.IsError || !strings.Contains(res.Text, "you may load are: pdf") {
		t.Errorf("unknown skill: %+v", res)
	}
}

func TestSkillCommandAndStatus(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "review")
	writeSkill(t, dir, skill("review", "Review code."))
	writeSkill(t, filepath.Join(filepath.Dir(dir), "hidden"), "---\nname: hidden\ndescription: Model only.\nuser-invocable: false\n---\nx")
	c, _ := Load([]Dir{{Path: filepath.Dir(dir), Source: "project"}})
	cmds := c.Commands()
	if len(cmds) != 1 || cmds[0].Name != "skill:review" || cmds[0].Summary() != "Review code. (project skill)" {
		t.Fatalf("commands = %+v", cmds)
	}
	s, _ := c.Find("review")
	msg, _ := s.Message(" focus on errors ")
	want := "<skill name=\"review\">\nReferences in this skill are relative to " + dir + ".\n\n# review\n\nDo the review thing.\n</skill>\n\nARGUMENTS: focus on errors"
	if msg != want {
		t.Errorf("message:\n%s\nwant:\n%s", msg, want)
	}
	for _, run := range []string{"skill:review", "review"} {
		events := []session.Event{
			{Data: session.ToolCall{Name: ToolName, Arguments: `{"name":"hidden"}`}},
			{Data: session.CommandRun{Name: run}},
			{Data: session.ToolCall{Name: ToolName, Arguments: `{"name":"hidden"}`}},
		}
		if got := c.Status(events); got != "loaded: hidden, review\navailable: hidden, review" {
			t.Errorf("status after /%s = %q", run, got)
		}
	}
}

// A skill's placeholders are filled as Claude Code fills a command's (see
// customcmd's recorded cases): the words from $0, and the names its
// arguments front matter lists.
func TestSkillMessageFillsItsPlaceholders(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "migrate")
	writeSkill(t, dir, "---\nname: migrate\ndescription: Migrate.\narguments: [component]\n---\nMigrate $component from $1 to $2 ($ARGUMENTS).")
	c, _ := Load([]Dir{{Path: filepath.Dir(dir), Source: "project"}})
	s, _ := c.Find("migrate")
	msg, err := s.Message(`"Search Bar" React Vue`)
	want := "<skill name=\"migrate\">\nReferences in this skill are relative to " + dir + ".\n\n" +
		"Migrate Search Bar from React to Vue (\"Search Bar\" React Vue).\n</skill>"
	if err != nil || msg != want {
		t.Errorf("message (%v):\n%s\nwant:\n%s", err, msg, want)
	}
}

// A folder of every skill a collection offers (davila7/claude-code-templates
// has about a thousand under cli-tool/components/skills) goes past the
// limit; that is said once, not once for every skill left out.
func TestSkillsPastTheLimitAreReportedOnce(t *testing.T) {
	dir := t.TempDir()
	for i := range maxSkills + 3 {
		name := fmt.Sprintf("s%03d", i)
		writeSkill(t, filepath.Join(dir, name), skill(name, "Skill "+name+"."))
	}
	c, problems := Load([]Dir{{Path: dir, Source: "project"}})
	if len(c.Skills) != maxSkills {
		t.Errorf("want %d skills, got %d", maxSkills, len(c.Skills))
	}
	if len(problems) != 1 || !strings.Contains(problems[0], "3 are skipped, from "+filepath.Join(dir, "s200")+" on") {
		t.Errorf("want one problem naming the 3 skipped from s200 on, got %q", problems)
	}
}
