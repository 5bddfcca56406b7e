// Package tackbin builds the tack binary (and the other commands under
// cmd/, such as fakemcp) for tests that run it as a user would (in a pipe
// or a pseudo-terminal): once per test binary, however many tests ask,
// removed when the tests end. A package that uses it runs
// its tests through Main:
//
//	func TestMain(m *testing.M) { os.Exit(tackbin.Main(m)) }
package tackbin

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

var (
	inMain bool
	dir    string
	mu     sync.Mutex
	built  = map[string]result{}
)

// result is one command's build.
type result struct {
	path string
	err  error
}

// Main runs the tests and removes the binary built for them; it returns
// the exit code for os.Exit.
func Main(m *testing.M) int {
	d, mkErr := os.MkdirTemp("", "tackbin-")
	if mkErr != nil {
		fmt.Fprintln(os.Stderr, "tackbin: temp dir:", mkErr)
		return 1
	}
	inMain, dir = true, d
	defer os.RemoveAll(d)
	return m.Run()
}

// Path is the tack binary built from this module's ./cmd/tack, building it
// on the first call. It fails tb when the build fails or when the tests do
// not run through Main.
func Path(tb testing.TB) string {
	tb.Helper()
	return Command(tb, "tack")
}

// Command is the binary of the module's ./cmd/<name>, built on the first
// call for that name.
func Command(tb testing.TB, name string) string {
	tb.Helper()
	if !inMain {
		tb.Fatal("tackbin needs the package's TestMain to run its tests through tackbin.Main")
	}
	mu.Lock()
	defer mu.Unlock()
	r, ok := built[name]
	if !ok {
		r.path, r.err = buildIn(name, dir)
		built[name] = r
	}
	if r.err != nil {
		tb.Fatal(r.err)
	}
	return r.path
}

func buildIn(name, dir string) (string, error) {
	root, err := ModuleRoot()
	if err != nil {
		return "", err
	}
	return Build(root, name, dir)
}

// Build compiles ./cmd/<name> of the module at root into dir and returns
// the binary's path.
func Build(root, name, dir string) (string, error) {
	out := filepath.Join(dir, name)
	cmd := exec.Command("go", "build", "-o", out, "./cmd/"+name)
	cmd.Dir = root
	if b, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("build %s in %s: %w\n%s", name, root, err, b)
	}
	return out, nil
}

// ModuleRoot is the directory of the go.mod that the go command finds from
// the current directory.
func ModuleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	if err != nil {
		return "", fmt.Errorf("find the module root with go env GOMOD: %w", err)
	}
	mod := strings.TrimSpace(string(out))
	if mod == "" || mod == os.DevNull {
		return "", errors.New("find the module root: not inside a Go module")
	}
	return filepath.Dir(mod), nil
}
