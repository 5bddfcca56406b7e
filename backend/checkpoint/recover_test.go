package checkpoint

import (
	"bufio"
	"context"
	"fmt"
	"testing"
	"time"
)

// helperEnv makes the test binary a restoring process that the test kills.
const helperEnv = "TACK_CHECKPOINT_HELPER"

// TestKilledRestoreHelper is not a test: run by killedRestore with
// helperEnv set, it restores the plan in the file it names, says
// "started" once its journal is written, and never finishes.
func TestKilledRestoreHelper(t *testing.T) {
	s, h := helperStore(t, helperEnv)
	go func() {
		for !fileExists(s.journalPath()) {
			time.Sleep(time.Millisecond) // a helper's poll, not a test's wait
		}
		fmt.Println("started")
	}()
	if _, err := s.Restore(context.Background(), h.Plan, h.Token); err != nil {
		t.Fatal(err)
	}
	select {} // killed here at the latest
}

// killedRestore runs a restore of plan in another process and kills it
// with SIGKILL as soon as its journal is on disk.
func killedRestore(t *testing.T, s *Store, plan Plan, token string) {
	t.Helper()
	cmd, out := startHelper(t, "TestKilledRestoreHelper", helperEnv, helperSpec{Home: s.opts.Home,
		Workspace: s.opts.Workspace, Session: s.opts.Session, Token: token, Git: s.opts.Git, Plan: plan})
	line, _ := bufio.NewReader(out).ReadString('\n')
	_ = cmd.Process.Kill()
	_ = cmd.Wait()
	if line != "started\n" {
		t.Fatalf("want the helper to start restoring, it said %q", line)
	}
}

// manyFiles is a workspace of n files, all changed between two
// checkpoints: it returns the store, the first checkpoint's ID, the plan
// back to it and both states.
func manyFiles(t *testing.T, n int, mod ...func(*Options)) (*Store, Plan, map[string]string, map[string]string) {
	ws, home := t.TempDir(), t.TempDir()
	old, cur := map[string]string{}, map[string]string{}
	for i := range n {
		p := fmt.Sprintf("d%d/f%d.txt", i%10, i)
		old[p], cur[p] = "old "+p, "new "+p
	}
	writeFiles(t, ws, old)
	s := openStore(t, home, ws, "s1", mod...)
	t1 := take(t, s)
	var paths []string
	for p := range cur {
		paths = append(paths, p)
	}
	if err := s.Preserve(paths); err != nil {
		t.Fatal(err)
	}
	writeFiles(t, ws, cur)
	take(t, s)
	before := take(t, s)
	plan, err := s.Plan(context.Background(), t1.ID, before.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Changes) != n {
		t.Fatalf("want %d changes, got %d", n, len(plan.Changes))
	}
	return s, plan, old, cur
}

func TestAKilledRestoreIsRolledBackWhenTheLogLacksTheRewind(t *testing.T) {
	eachStoreKind(t, func(t *testing.T, kind storeKind) {
		s, plan, _, cur := manyFiles(t, 100, kind.mod...)
		killedRestore(t, s, plan, "tok")
		again := openStore(t, s.opts.Home, s.opts.Workspace, "s2", kind.mod...)
		rec, ok, err := again.Recover(context.Background(), func(session, token string) bool { return false })
		if err != nil || !ok || rec.Completed || rec.Session != "s1" || rec.Paths != 100 {
			t.Fatalf("want the interrupted restore of s1's 100 files rolled back, got %+v ok=%v err=%v", rec, ok, err)
		}
		wantTree(t, s.opts.Workspace, cur)
		if _, ok, _ := again.Recover(context.Background(), nil); ok {
			t.Error("want nothing left to recover after a recovery")
		}
	})
}

func TestAKilledRestoreIsCompletedWhenTheLogHoldsTheRewind(t *testing.T) {
	needGit(t)
	s, plan, old, _ := manyFiles(t, 100)
	killedRestore(t, s, plan, "tok")
	rec, ok, err := s.Recover(context.Background(), func(session, token string) bool { return session == "s1" && token == "tok" })
	if err != nil || !ok || !rec.Completed {
		t.Fatalf("want the interrupted restore completed, got %+v ok=%v err=%v", rec, ok, err)
	}
	wantTree(t, s.opts.Workspace, old)
}
