//go:build unix

package fs

import (
	"bufio"
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/tack-agent/tack/snapshots/testkit"
)

func TestAWriteKilledMidwayLeavesTheOldFileOrTheNew(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big.txt")
	c := contents()
	if err := os.WriteFile(path, c[1], 0o640); err != nil {
		t.Fatal(err)
	}
	for round := range 4 {
		w, out := testkit.StartSelf(t, "^$", writerEnv+"="+path)
		lines := bufio.NewScanner(out)
		// Kill it after a few whole writes, in the middle of the next one
		// (writing is most of what it does).
		for range round + 1 {
			if !lines.Scan() || lines.Text() != "wrote" {
				w.Process.Kill()
				w.Wait()
				t.Fatalf("want the writer to report whole writes, got %q", lines.Text())
			}
		}
		if err := w.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatal(err)
		}
		w.Wait()
		got, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("round %d: want the file still there, got %v", round, err)
		}
		if !bytes.Equal(got, c[0]) && !bytes.Equal(got, c[1]) {
			t.Fatalf("round %d: want the old or the new content, got a torn file of %d bytes", round, len(got))
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
			t.Fatalf("round %d: want the mode kept (0640), got %v", round, fi.Mode())
		}
	}
}

func TestAtomicWriteKeepsTheModeAndFollowsASymlink(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "run.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.sh")
	if err := os.Symlink("run.sh", link); err != nil {
		t.Fatal(err)
	}
	if err := writeAtomic(link, []byte("#!/bin/sh\necho hi\n")); err != nil {
		t.Fatal(err)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Fatalf("want the symlink kept, got %v %v", fi, err)
	}
	fi, err := os.Stat(script)
	if err != nil || fi.Mode().Perm() != 0o755 {
		t.Fatalf("want the target's mode kept (0755), got %v %v", fi, err)
	}
	if b, _ := os.ReadFile(script); string(b) != "#!/bin/sh\necho hi\n" {
		t.Fatalf("want the target written through the link, got %q", b)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 2 {
		t.Fatalf("want no temporary file left, got %v", entries)
	}
}
