package testkit

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestEventuallyReturnsOnceTheConditionHolds(t *testing.T) {
	n := 0
	Eventually(t, "the third check", func() bool { n++; return n == 3 })
	if n != 3 {
		t.Fatalf("want 3 checks, got %d", n)
	}
}

// fatalTB records Fatalf and ends the goroutine, as testing.T does.
type fatalTB struct {
	testing.TB
	msg string
}

func (f *fatalTB) Helper() {}
func (f *fatalTB) Fatalf(format string, args ...any) {
	f.msg = fmt.Sprintf(format, args...)
	runtime.Goexit()
}

func TestEventuallyFailsSayingWhatItAwaited(t *testing.T) {
	tb := &fatalTB{TB: t}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		EventuallyWithin(tb, 20*time.Millisecond, "the moon", func() bool { return false }, func() string { return "cheese" })
	}()
	wg.Wait()
	if !strings.Contains(tb.msg, "want the moon within 20ms, it did not happen; got:\ncheese") {
		t.Fatalf("want a failure naming what was awaited, got %q", tb.msg)
	}
}

func TestHashTreeChangesWithAnyEntry(t *testing.T) {
	dir := t.TempDir()
	WriteTree(t, dir, map[string]string{"a.txt": "one", "sub/b.txt": "two"})
	before := HashTree(t, dir)
	if again := HashTree(t, dir); again != before {
		t.Fatalf("want the same digest for an untouched tree, got %s then %s", before, again)
	}
	for name, change := range map[string]func(){
		"content": func() { WriteFile(t, filepath.Join(dir, "sub", "b.txt"), "TWO") },
		"new":     func() { WriteFile(t, filepath.Join(dir, "c.txt"), "") },
		"mode":    func() { os.Chmod(filepath.Join(dir, "a.txt"), 0o600) },
	} {
		change()
		now := HashTree(t, dir)
		if now == before {
			t.Errorf("%s: want the digest to change", name)
		}
		before = now
	}
}

func TestReadTreeReadsBackWhatWriteTreeWrote(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{"a.txt": "one", "sub/deep/b.txt": "two", ".git/HEAD": "ref: x"}
	WriteTree(t, dir, files)
	if err := os.Symlink("a.txt", filepath.Join(dir, "link")); err != nil {
		t.Skipf("no symbolic links here: %v", err)
	}
	got := ReadTree(t, dir)
	want := map[string]string{"a.txt": "one", "sub/deep/b.txt": "two", "link": "->a.txt"}
	if !maps.Equal(got, want) {
		t.Errorf("want %v (.git left out), got %v", want, got)
	}
}
