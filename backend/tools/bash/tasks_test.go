//go:build unix

package bash

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/snapshots/testkit"
)

func (f *fixture) startTask(t *testing.T, command, description string) string {
	t.Helper()
	res := f.run(t, "bash", map[string]any{"command": command, "description": description, "run_in_background": true})
	m := taskIDRE.FindStringSubmatch(res.Text)
	if m == nil {
		t.Fatalf("want started background task <id>, got %q", res.Text)
	}
	// The card names no directory the model did not give, as a
	// foreground command's does not: the session's own goes without
	// saying.
	if res.Card == nil || res.Card.Terminal.Background != m[1] || res.Card.Terminal.Cwd != "" {
		t.Fatalf("want a card naming background task %s and no directory, got %+v", m[1], res.Card.Terminal)
	}
	return m[1]
}

func (f *fixture) notice(t *testing.T) string {
	t.Helper()
	select {
	case n := <-f.notices:
		return n
	case <-time.After(time.Minute):
		t.Fatal("want a completion notice within a minute, none came")
		return ""
	}
}

func TestBackgroundTaskLifecycle(t *testing.T) {
	f := newFixture(t, Local{})
	id := f.startTask(t, "echo first; while [ ! -e go ]; do sleep 0.01; done; echo second", "Wait for the go file")

	var first string
	testkit.Eventually(t, "the first line", func() bool {
		first = f.run(t, "bash_output", map[string]any{"task_id": id}).Text
		return first != "(no new output)\n[status: running]"
	})
	matchGolden(t, "output_running", first)

	if err := os.WriteFile(filepath.Join(f.env.Cwd, "go"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	matchGolden(t, "notice_completed", f.notice(t))

	matchGolden(t, "output_completed", f.run(t, "bash_output", map[string]any{"task_id": id}).Text)
	matchGolden(t, "output_drained", f.run(t, "bash_output", map[string]any{"task_id": id}).Text)
	matchGolden(t, "kill_finished", f.run(t, "bash_kill", map[string]any{"task_id": id}).Text)
}

func TestBashKillStopsARunningTaskWithoutANotice(t *testing.T) {
	f := newFixture(t, Local{})
	id := f.startTask(t, "sleep 30", "Sleep a while")
	matchGolden(t, "kill_running", f.run(t, "bash_kill", map[string]any{"task_id": id}).Text)
	matchGolden(t, "output_killed", f.run(t, "bash_output", map[string]any{"task_id": id}).Text)
	select {
	case n := <-f.notices:
		t.Fatalf("want no notice for a task the model killed, got %q", n)
	default:
	}
}

func TestBashKillReportsKilledEvenWhenTheTaskExitsZeroOnSIGTERM(t *testing.T) {
	f := newFixture(t, Local{})
	id := f.startTask(t, `trap "exit 0" TERM; sleep 30 & wait`, "Trap the kill")
	f.run(t, "bash_kill", map[string]any{"task_id": id})
	got := f.run(t, "bash_output", map[string]any{"task_id": id}).Text
	if got != "(no new output)\n[status: killed]" {
		t.Fatalf("want the killed status line, got %q", got)
	}
}

func TestBackgroundTaskSignalDeathShowsInStatusAndNotice(t *testing.T) {
	f := newFixture(t, Local{})
	id := f.startTask(t, "echo bye >&2; kill -SEGV $$", "Crash")
	matchGolden(t, "notice_signal", f.notice(t))
	matchGolden(t, "output_signal", f.run(t, "bash_output", map[string]any{"task_id": id}).Text)
}

func TestUnknownTaskIDIsAnError(t *testing.T) {
	f := newFixture(t, Local{})
	for _, tool := range []string{"bash_output", "bash_kill"} {
		res := f.run(t, tool, map[string]any{"task_id": "bash-99"})
		if !res.IsError || res.Text != `Error: unknown bash task "bash-99"` {
			t.Errorf("%s: want the unknown task error, got %q", tool, res.Text)
		}
		res = f.run(t, tool, map[string]any{"task_id": ""})
		if !res.IsError || res.Text != "Error: invalid task_id: expected a non-empty string" {
			t.Errorf("%s: want the invalid task_id error, got %q", tool, res.Text)
		}
	}
}

func TestBashOutputSaysWhenMemoryDroppedOutput(t *testing.T) {
	f := newFixture(t, Local{TailBytes: 100})
	id := f.startTask(t, "seq 1 200", "Print numbers")
	f.notice(t)
	text := f.normalise(f.run(t, "bash_output", map[string]any{"task_id": id}).Text)
	matchGolden(t, "output_lossy", text)
}

func TestCloseKillsRunningTasksQuietly(t *testing.T) {
	f := newFixture(t, Local{})
	id := f.startTask(t, "sleep 30", "Sleep a while")
	task, err := f.tools.lookup(id)
	if err != nil {
		t.Fatal(err)
	}
	f.tools.Close()
	select {
	case <-task.proc.Done():
	default:
		t.Fatal("want the task ended when Close returns, it is still running")
	}
	if n := len(f.notices); n != 0 {
		t.Fatalf("want no notices after Close, got %d", n)
	}
	res := f.run(t, "bash", map[string]any{"command": "true", "description": "d"})
	if !res.IsError || !strings.Contains(res.Text, "shut down") {
		t.Fatalf("want an error after Close, got %q", res.Text)
	}
}

// TestClaudeCodeTaskIDNamesAreTaken: models trained on Claude Code read a
// background shell with BashOutput(bash_id) and stop it with
// KillShell(shell_id).
func TestClaudeCodeTaskIDNamesAreTaken(t *testing.T) {
	f := newFixture(t, Local{})
	id := f.startTask(t, "sleep 30", "Sleep a while")
	if got := f.run(t, "bash_output", map[string]any{"bash_id": id}).Text; got != "(no new output)\n[status: running]" {
		t.Errorf("want bash_output to take bash_id, got %q", got)
	}
	if res := f.run(t, "bash_kill", map[string]any{"shell_id": id}); res.IsError || !strings.Contains(res.Text, id) {
		t.Errorf("want bash_kill to take shell_id, got %q", res.Text)
	}
	if res := f.run(t, "bash_output", map[string]any{"id": id}); !res.IsError || res.Text != `Error: invalid arguments: unknown argument "id"; the accepted arguments are task_id, bash_id, shell_id` {
		t.Errorf("want an unknown name refused with the accepted ones, got %q", res.Text)
	}
	if c := (outputTool{}).Present(json.RawMessage(`{"bash_id":"bash-1"}`)); c.Title != "Read output from background task bash-1" {
		t.Errorf("want the card to name the task, got %q", c.Title)
	}
}
