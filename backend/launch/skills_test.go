package launch

import (
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestSkillsAreListedByteStableAndLoadedByToolAndCommand(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	dir := filepath.Join(cwd, ".claude", "skills", "release-notes")
	testkit.WriteTree(t, dir, map[string]string{
		"SKILL.md":    "---\nname: release-notes\ndescription: Write release notes from the git log.\n---\nRead template.md in this folder, then write the notes.",
		"template.md": "## Changes",
	})
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "skill", `{"name":"release-notes"}`, 1)),
		llmtest.ReplyText("Loaded."),
		llmtest.ReplyText("Notes written."),
	)
	s := openMCP(t, home, cwd, "ask", llm)
	runTurn(t, s, "Write the release notes.")
	runCommand(t, s, "/skill:release-notes for v2")
	reqs := requests(t, llm, 3)
	system := reqs[0].Messages[0].Content
	if !strings.Contains(system, "- release-notes: Write release notes from the git log.") || strings.Contains(system, "template.md") {
		t.Errorf("system prompt's skills section:\n%s", system)
	}
	for i, r := range reqs[1:] {
		if r.Messages[0].Content != system {
			t.Errorf("request %d's system prompt differs from the first's", i+2)
		}
		if a, b := toolsJSON(reqs[0]), toolsJSON(r); a != b {
			t.Errorf("request %d's tools differ from the first's", i+2)
		}
	}
	loaded := reqs[1].ToolResult("call_1")
	if !strings.Contains(loaded, "Read template.md in this folder") || !strings.Contains(loaded, "The skill's folder is "+dir) ||
		!strings.Contains(loaded, "Files: template.md") {
		t.Errorf("skill tool result:\n%s", loaded)
	}
	user := lastMessage(reqs[2])
	if !strings.HasPrefix(user.Content, "<skill name=\"release-notes\">\nReferences in this skill are relative to "+dir) ||
		!strings.HasSuffix(user.Content, "</skill>\n\nARGUMENTS: for v2") {
		t.Errorf("/skill: sent %q", user.Content)
	}
	status, _ := s.Commands.Execute(context.Background(), s.Agent, "/status", nil)
	if !strings.Contains(status.Result.Text, "Skills\nloaded: release-notes\navailable: release-notes") {
		t.Errorf("/status:\n%s", status.Result.Text)
	}
}

func toolsJSON(r llmtest.Request) string {
	b, _ := json.Marshal(r.Tools)
	return string(b)
}

// Skill collections name their skills as words joined by '.' (the shape of
// 0h-n0/auto-research's research.paper.draft and its fourteen siblings);
// Claude Code loads them, and here each is listed for the model and is a
// command the user can type.
func TestADottedSkillIsListedAndACommand(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{".claude/skills/research.paper.draft/SKILL.md": "---\nname: research.paper.draft\n" +
		"description: Draft the paper from the lab notebook.\n---\nDraft each section in turn."})
	llm := llmtest.New(t, llmtest.ReplyText("Drafted."))
	s := openMCP(t, home, cwd, "ask", llm)
	runCommand(t, s, "/skill:research.paper.draft on attention")
	req := llm.Requests()[0]
	if system := req.Messages[0].Content; !strings.Contains(system, "- research.paper.draft: Draft the paper from the lab notebook.") {
		t.Errorf("want the skill listed for the model, system prompt:\n%s", system)
	}
	user := lastMessage(req).Content
	if !strings.HasPrefix(user, `<skill name="research.paper.draft">`) || !strings.HasSuffix(user, "on attention") {
		t.Errorf("/skill:research.paper.draft sent %q", user)
	}
}

// As in Claude Code, /NAME invokes a skill, with its placeholders filled;
// where a custom command has the name, /NAME is the command's and the
// skill stays /skill:NAME.
func TestASkillIsItsOwnCommandWhereTheNameIsFree(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{
		".claude/skills/release-notes/SKILL.md": "---\nname: release-notes\ndescription: Notes.\n---\nWrite the notes for $0.",
		".claude/skills/review/SKILL.md":        "---\nname: review\ndescription: Review as a skill.\n---\nThe review skill.",
		".claude/commands/review.md":            "The review command for $ARGUMENTS.",
	})
	llm := llmtest.New(t, llmtest.ReplyText("One."), llmtest.ReplyText("Two."), llmtest.ReplyText("Three."))
	s := openMCP(t, home, cwd, "ask", llm)
	runCommand(t, s, "/release-notes v2")
	runCommand(t, s, "/review main.go")
	runCommand(t, s, "/skill:review main.go")
	reqs := llm.Requests()
	if len(reqs) != 3 {
		t.Fatalf("requests: %d", len(reqs))
	}
	last := func(i int) string { return reqs[i].Messages[len(reqs[i].Messages)-1].Content }
	if !strings.Contains(last(0), "<skill name=\"release-notes\">") || !strings.Contains(last(0), "Write the notes for v2.\n</skill>") {
		t.Errorf("/release-notes sent %q", last(0))
	}
	if last(1) != "The review command for main.go." {
		t.Errorf("/review sent %q, want the custom command's prompt", last(1))
	}
	if !strings.Contains(last(2), "The review skill.\n</skill>\n\nARGUMENTS: main.go") {
		t.Errorf("/skill:review sent %q", last(2))
	}
	// Each skill is listed once: by its name where that is its command.
	var listed []string
	for _, c := range s.Commands.List(s.Agent.SessionID()) {
		if strings.HasSuffix(c.Source, "skill") {
			listed = append(listed, c.Name)
		}
	}
	if strings.Join(listed, " ") != "release-notes skill:review" {
		t.Errorf("listed skills %q, want release-notes and skill:review", listed)
	}
}
