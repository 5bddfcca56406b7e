package launch

import (
	"os"
	"path/filepath"
	"testing"
)

func TestOpeningASessionWritesOnlyItsLog(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	s := openForTest(t, home, cwd, "")
	defer s.Close()
	if _, err := os.Stat(filepath.Join(home, "spill")); !os.IsNotExist(err) {
		t.Errorf("want no spill directory before a tool spills, got %v", err)
	}
	if _, err := os.Stat(s.Log.Path()); err != nil {
		t.Errorf("want the session log at %s, got %v", s.Log.Path(), err)
	}
}

func TestAnUnusedNewSessionLeavesNoLog(t *testing.T) {
	home := t.TempDir()
	openForTest(t, home, t.TempDir(), "").Close()
	if left, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*")); len(left) != 0 {
		t.Fatalf("want no files left for a session without events, got %v", left)
	}
}

func TestANewSessionRecordsItsBranch(t *testing.T) {
	cwd := t.TempDir()
	if err := os.MkdirAll(filepath.Join(cwd, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(cwd, ".git", "HEAD"), []byte("ref: refs/heads/fix/lexer\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	s := openForTest(t, t.TempDir(), cwd, "")
	defer s.Close()
	if got := s.Agent.Header().Branch; got != "fix/lexer" {
		t.Fatalf("want the header to record branch fix/lexer, got %q", got)
	}
}
