package linemode

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// rewindDoor runs line mode over a workspace with git on PATH, so the
// checkpoints are a shadow repository, and with every tool call allowed.
func rewindDoor(t *testing.T, files map[string]string, script ...llmtest.Response) *doorRun {
	t.Helper()
	for _, bin := range []string{"git", "bash"} {
		if _, err := exec.LookPath(bin); err != nil {
			t.Skipf("%s is not installed; line-mode rewinds are tested with it", bin)
		}
	}
	return startDoor(t, doorConfig{mode: "full-access", env: map[string]string{"PATH": os.Getenv("PATH")}, files: files}, script...)
}

func rewindToolTurn(id, name, args, answer string) []llmtest.Response {
	return []llmtest.Response{
		llmtest.Reply(llmtest.ToolCall(id, name, args, 1), llmtest.Finish("tool_calls")),
		llmtest.ReplyText(answer),
	}
}

// twoFileTurns is the script of two turns: the write tool makes a.txt,
// then bash makes b.txt.
func twoFileTurns() []llmtest.Response {
	script := rewindToolTurn("c1", "write", `{"file_path":"a.txt","content":"one\n"}`, "Wrote a.txt.")
	return append(script, rewindToolTurn("c2", "bash", `{"command":"echo x > b.txt","description":"Make b.txt"}`, "Made b.txt.")...)
}

// runTwoFileTurns asks for the turns of twoFileTurns and waits for each.
func (d *doorRun) runTwoFileTurns(t *testing.T) {
	t.Helper()
	d.feed("write a.txt")
	d.out.waitFor(t, "Wrote a.txt.\n> ")
	d.feed("make b.txt")
	d.out.waitFor(t, "Made b.txt.\n> ")
}

func (d *doorRun) file(t *testing.T, name string) (string, bool) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(d.cwd, name))
	if os.IsNotExist(err) {
		return "", false
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(data), true
}

func TestLineModeRewindRestoresFilesAndConversationWithoutAQuestion(t *testing.T) {
	script := twoFileTurns()
	script = append(script, llmtest.ReplyText("Fresh start."))
	d := rewindDoor(t, map[string]string{"keep.txt": "kept\n"}, script...)
	d.runTwoFileTurns(t)
	d.feed("/diff")
	d.out.waitFor(t, "Changes since the session's first checkpoint: 2 files, +2 −0.")
	for _, want := range []string{"a.txt (new)\n+ one\n", "b.txt (new)\n+ x\n", "└ +2 -0 · 2 files"} {
		if !strings.Contains(d.out.String(), want) {
			t.Errorf("want %q in /diff's cards, got %q", want, d.out.String())
		}
	}
	d.feed("/diff 2")
	d.out.waitFor(t, "Changes since turn 2 began: 1 file, +1 −0.")

	d.feed("/rewind 1")
	d.out.waitFor(t, "Rewound to before turn 1.")
	for _, want := range []string{"Took back turns 1–2; they stay in the log, and /redo brings them back.", "Restored 2 files:", "a.txt (deleted)", "b.txt (deleted)",
		"The prompt of that turn, to edit and send again:\n  write a.txt"} {
		if !strings.Contains(d.out.String(), want) {
			t.Errorf("want %q in the rewind's report, got %q", want, d.out.String())
		}
	}
	for _, name := range []string{"a.txt", "b.txt"} {
		if _, ok := d.file(t, name); ok {
			t.Errorf("want %s, made after the checkpoint, gone after the rewind", name)
		}
	}
	if got, _ := d.file(t, "keep.txt"); got != "kept\n" {
		t.Errorf("want keep.txt as it was, got %q", got)
	}
	d.feed("start over")
	d.out.waitFor(t, "Fresh start.")
	if got := d.userTexts(t); len(got) != 1 || got[0] != "start over" {
		t.Errorf("want the next request to hold only the new prompt, got %q", got)
	}
	d.eof()
	if code := d.exitCode(t); code != 0 {
		t.Errorf("want exit code 0, got %d", code)
	}
}

func TestLineModeRewindRefusesToLoseOutsideChangesUntilForced(t *testing.T) {
	script := rewindToolTurn("c1", "write", `{"file_path":"a.txt","content":"one\n"}`, "Wrote a.txt.")
	d := rewindDoor(t, map[string]string{"notes.md": "mine\n"}, script...)
	d.feed("write a.txt")
	d.out.waitFor(t, "Wrote a.txt.\n> ")
	if err := os.WriteFile(filepath.Join(d.cwd, "notes.md"), []byte("edited outside\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	d.feed("/rewind 1 --files")
	d.out.waitFor(t, "Not rewound: 1 file changed outside tack")
	if !strings.Contains(d.out.String(), "  notes.md\n") || !strings.Contains(d.out.String(), "Run /rewind 1 --files --force") {
		t.Errorf("want the refusal to list notes.md and say how to go ahead, got %q", d.out.String())
	}
	if got, _ := d.file(t, "notes.md"); got != "edited outside\n" {
		t.Errorf("want the outside change kept after the refusal, got %q", got)
	}
	d.feed("/rewind 1 --files --force")
	d.out.waitFor(t, "Rewound to before turn 1.")
	if got, _ := d.file(t, "notes.md"); got != "mine\n" {
		t.Errorf("want notes.md restored once forced, got %q", got)
	}
	d.feed("/redo")
	d.out.waitFor(t, "Undid the last rewind.")
	if got, _ := d.file(t, "notes.md"); got != "edited outside\n" {
		t.Errorf("want /redo to bring the outside change back, got %q", got)
	}
	d.eof()
	d.exitCode(t)
}

func TestLineModeWithoutGitOnPATHRewindsToolEditsAndSaysShellChangesStay(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed; the shell change is made through it")
	}
	script := twoFileTurns()
	// A PATH that holds no git: the checkpoints fall back to the files
	// store.
	noGit := t.TempDir()
	d := startDoor(t, doorConfig{mode: "full-access", env: map[string]string{"PATH": noGit}}, script...)
	d.runTwoFileTurns(t)
	d.feed("/status")
	d.out.waitFor(t, "git is not installed: shell changes are not covered")
	d.feed("/rewind 1")
	d.out.waitFor(t, "changes made by shell commands were not undone.")
	if !strings.Contains(d.out.String(), "a.txt (deleted)") {
		t.Errorf("want the rewind to delete a.txt, which the write tool made, got %q", d.out.String())
	}
	if _, ok := d.file(t, "a.txt"); ok {
		t.Error("want a.txt, made by the write tool, gone after the rewind")
	}
	if got, _ := d.file(t, "b.txt"); got != "x\n" {
		t.Errorf("want b.txt, made through bash, left as it was without git, got %q", got)
	}
	d.eof()
	d.exitCode(t)
}
