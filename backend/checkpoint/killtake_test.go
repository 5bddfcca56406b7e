package checkpoint

import (
	"bufio"
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

// takeHelperEnv makes the test binary a process that takes checkpoints
// until the test kills it.
const takeHelperEnv = "TACK_CHECKPOINT_TAKE_HELPER"

// TestKilledTakeHelper is not a test: run by killedTakes with takeHelperEnv
// set, it changes a file and takes a checkpoint, over and over, printing
// each checkpoint's ID, until it is killed.
func TestKilledTakeHelper(t *testing.T) {
	s, h := helperStore(t, takeHelperEnv)
	for i := 0; ; i++ {
		writeFiles(t, h.Workspace, map[string]string{fmt.Sprintf("d%d/f%d.txt", i%10, i): fmt.Sprintf("round %d", i)})
		snap, err := s.Take(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(snap.ID)
	}
}

// killedTakes runs checkpoints of ws in another process, kills it with
// SIGKILL once it has taken n, while it takes the next, and returns the
// IDs it printed.
func killedTakes(t *testing.T, home, ws string, n int) []string {
	t.Helper()
	cmd, out := startHelper(t, "TestKilledTakeHelper", takeHelperEnv, helperSpec{Home: home, Workspace: ws, Session: "s1"})
	var ids []string
	sc := bufio.NewScanner(out)
	for len(ids) < n && sc.Scan() {
		ids = append(ids, strings.TrimSpace(sc.Text()))
	}
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if len(ids) < n {
		t.Fatalf("want the helper to take %d checkpoints, it printed %q", n, ids)
	}
	return ids
}

// A checkpoint cut short by kill -9 (git commands of its own may still
// be running) leaves a store the next process takes checkpoints in and
// restores from.
func TestAKillDuringACheckpointLeavesAStoreThatWorks(t *testing.T) {
	needGit(t)
	ws, home := t.TempDir(), t.TempDir()
	files := map[string]string{}
	for i := range 1000 {
		files[fmt.Sprintf("d%d/base%d.txt", i%10, i)] = "base"
	}
	writeFiles(t, ws, files)
	for round := range 3 {
		ids := killedTakes(t, home, ws, 5+round)
		s := openStore(t, home, ws, "s2")
		late := fmt.Sprintf("after-kill-%d.txt", round)
		writeFiles(t, ws, map[string]string{late: "new"})
		now := take(t, s)
		if now.ID == "" {
			t.Fatalf("round %d: want a checkpoint after the kill, got %+v", round, now)
		}
		first := ids[0]
		want := testkit.ReadTree(t, ws)
		restoreTo(t, s, first)
		if _, ok := testkit.ReadTree(t, ws)[late]; ok {
			t.Fatalf("round %d: want the restore to checkpoint %s to remove %s", round, short(first), late)
		}
		restoreTo(t, s, now.ID)
		wantTree(t, ws, want)
	}
}
