//go:build unix

package search

import (
	"path/filepath"
	"syscall"
	"testing"
)

func TestGrepRefusesAFIFOWithoutBlocking(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	r := run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "a", "path": "pipe"})
	if want := `Error: cannot search "` + p + `": not a regular file or directory`; r.Text != want {
		t.Errorf("want %q, got %q", want, r.Text)
	}
	r = run(t, NewGrep(noUserConfig), dir, map[string]any{"pattern": "a"})
	if r.Text != "No matches found" {
		t.Errorf("want the walk to skip the FIFO, got %q", r.Text)
	}
}
