//go:build unix

package fs

import (
	"fmt"
	"path/filepath"
	"syscall"
	"testing"
)

func TestReadRefusesAFIFOWithoutBlocking(t *testing.T) {
	b := newBench(t)
	p := filepath.Join(b.dir, "pipe")
	if err := syscall.Mkfifo(p, 0o644); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	wantError(t, b.run(b.read, map[string]any{"file_path": "pipe"}), fmt.Sprintf("cannot read %q: not a regular file", p))
}
