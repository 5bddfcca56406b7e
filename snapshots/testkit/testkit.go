// Package testkit holds what tests across tack share and that needs no
// terminal: the bound on waits, Eventually, Settle (an agent's turn to
// end), StartSelf (the test binary as a helper process), WriteTree,
// ReadTree, ReadJSON, OrphanDir and HashTree. Its subpackages hold the rest of the kit: golden
// files (golden), the colour rules (palette), key presses (keys), a
// pseudo-terminal harness (ptyterm), the built binary (tackbin), the
// TestMain of tests that run sandboxed commands (sandboxhelper), the CPU
// time and peak heap benchmarks report (procstat) and the way a program's
// output takes into x/vt (vtfeed).
package testkit

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// WaitLimit bounds every wait for something a test expects. It only bounds
// a failing test, so it is generous: a loaded CI machine may take seconds
// to start a process or draw a first frame.
const WaitLimit = 15 * time.Second

// pollEvery is how often Eventually checks.
const pollEvery = 5 * time.Millisecond

// Eventually checks cond until it holds and fails tb, saying what was
// awaited, when it still does not after WaitLimit; state, when given,
// describes what there was instead (a screen, a list of calls). It is for
// state that announces no event (a screen another goroutine draws, a file
// another process writes); where there is an event or a channel, wait for
// that.
func Eventually(tb testing.TB, what string, cond func() bool, state ...func() string) {
	tb.Helper()
	EventuallyWithin(tb, WaitLimit, what, cond, state...)
}

// EventuallyWithin is Eventually with its own limit.
func EventuallyWithin(tb testing.TB, limit time.Duration, what string, cond func() bool, state ...func() string) {
	tb.Helper()
	if Poll(limit, cond) {
		return
	}
	got := "it did not happen"
	for _, st := range state {
		got += "; got:\n" + st()
	}
	tb.Fatalf("want %s within %v, %s", what, limit, got)
}

// Poll checks cond until it holds or limit has passed, and reports whether
// it held, for a caller that reports the failure itself.
func Poll(limit time.Duration, cond func() bool) bool {
	if cond() {
		return true
	}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	tick := time.NewTicker(pollEvery)
	defer tick.Stop()
	for {
		select {
		case <-tick.C:
			if cond() {
				return true
			}
		case <-deadline.C:
			return cond()
		}
	}
}

// WriteTree writes files (slash-separated path → content) under root,
// making the directories they need.
func WriteTree(tb testing.TB, root string, files map[string]string) {
	tb.Helper()
	for name, body := range files {
		WriteFile(tb, filepath.Join(root, filepath.FromSlash(name)), body)
	}
}

// WriteFile writes text to the file at path, making the directories it
// needs.
func WriteFile(tb testing.TB, path, text string) {
	tb.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		tb.Fatal(err)
	}
}

// ReadFile is the content of the file at path.
func ReadFile(tb testing.TB, path string) []byte {
	tb.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	return b
}

// OrphanDir is a temporary directory for a process the test cannot wait
// for, such as the program a terminal emulator runs when the test kills
// the emulator: it may write to the directory after the test ends, and
// t.TempDir's removal would then find the directory not empty and fail
// the test. OrphanDir's is removed once nothing writes to it any more.
func OrphanDir(tb testing.TB) string {
	tb.Helper()
	dir, err := os.MkdirTemp("", "tack-orphan-")
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() {
		EventuallyWithin(tb, WaitLimit, "the directory "+dir+" removed", func() bool { return os.RemoveAll(dir) == nil })
	})
	return dir
}

// ReadJSON decodes the JSON file at path into v: a recording of another
// program's, which a test holds tack to.
func ReadJSON(tb testing.TB, path string, v any) {
	tb.Helper()
	if err := json.Unmarshal(ReadFile(tb, path), v); err != nil {
		tb.Fatalf("%s: %v", path, err)
	}
}

// ReadTree reads the files under dir back in WriteTree's form (slash-
// separated path → content), a symbolic link as "->" and its target; it
// leaves .git out.
func ReadTree(tb testing.TB, dir string) map[string]string {
	tb.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			return filepath.SkipDir
		}
		if d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(dir, p)
		rel = filepath.ToSlash(rel)
		if d.Type()&fs.ModeSymlink != 0 {
			target, _ := os.Readlink(p)
			out[rel] = "->" + target
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		out[rel] = string(data)
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return out
}

// HashTree is a digest of every entry under dir: names, modes, times,
// contents and link targets. Two equal digests say a test left the tree
// (a git directory, a workspace) untouched.
func HashTree(tb testing.TB, dir string) string {
	tb.Helper()
	h := sha256.New()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		h.Write([]byte(rel + "\x00" + info.Mode().String() + "\x00" + info.ModTime().String() + "\x00"))
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			h.Write([]byte(target))
		case d.Type().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h.Write(data)
		}
		h.Write([]byte{0})
		return nil
	})
	if err != nil {
		tb.Fatal(err)
	}
	return hex.EncodeToString(h.Sum(nil))
}
