package pty

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/vt"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// skillProject is a working directory with one project skill.
func skillProject(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	sk := filepath.Join(dir, ".tack", "skills", "release-notes")
	if err := os.MkdirAll(sk, 0o755); err != nil {
		t.Fatal(err)
	}
	body := "---\nname: release-notes\ndescription: Write release notes from the git log.\n---\nGroup the changes by area."
	if err := os.WriteFile(filepath.Join(sk, "SKILL.md"), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// wantSkillMessage checks the one request carries the skill and the
// instructions as the user's message.
func wantSkillMessage(t *testing.T, srv *llmtest.Server) {
	t.Helper()
	reqs := srv.Requests()
	if len(reqs) != 1 {
		t.Fatalf("want 1 model request, got %d", len(reqs))
	}
	last := reqs[0].Messages[len(reqs[0].Messages)-1]
	if last.Role != "user" || !strings.HasPrefix(last.Content, `<skill name="release-notes">`) ||
		!strings.Contains(last.Content, "Group the changes by area.") || !strings.HasSuffix(last.Content, "</skill>\n\nARGUMENTS: for v2") {
		t.Errorf("want the skill and the instructions as the user's message, got %+v", last)
	}
}

func TestSkillCommandInTheTUI(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Notes written."))
	r := start(t, setup{srv: srv, dir: skillProject(t)})
	r.waitIdle()
	r.script(
		step{do: typed("/rel")},
		step{want: []string{"/release-notes", "(project skill)"}, do: key(vt.KeyTab)},
		step{want: []string{"> /release-notes"}, do: both(typed("for v2"), key(vt.KeyEnter))},
		step{want: []string{"Notes written."}},
	)
	wantSkillMessage(t, srv)
}

func TestSkillCommandInLineMode(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("Notes written."))
	r := start(t, setup{srv: srv, dir: skillProject(t), args: lineMode})
	r.script(
		step{want: []string{"ready."}, until: atPrompt, do: both(typed("/skill:release-notes for v2"), key(vt.KeyEnter))},
		step{want: []string{"Notes written."}, until: atPrompt, do: ctrl('d')},
	)
	wantSkillMessage(t, srv)
}
