package privfile

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// A written file is its owner's alone, in a folder made for it, and
// writers racing each other leave one whole content and no temporary
// files behind.
func TestWriteIsPrivateAndWhole(t *testing.T) {
	path := filepath.Join(t.TempDir(), "home", "secrets")
	var wg sync.WaitGroup
	contents := []string{"first=1\n", "second=2\n", "third=3\n"}
	for _, c := range contents {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := Write(path, []byte(c)); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	whole := false
	for _, c := range contents {
		whole = whole || string(got) == c
	}
	if !whole {
		t.Errorf("the file holds %q, none of what was written", got)
	}
	entries, _ := os.ReadDir(filepath.Dir(path))
	if len(entries) != 1 {
		t.Errorf("the folder holds %d entries, want the file alone", len(entries))
	}
	if runtime.GOOS == "windows" {
		return
	}
	fi, _ := os.Stat(path)
	di, _ := os.Stat(filepath.Dir(path))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("file mode %v, folder mode %v; want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
}
