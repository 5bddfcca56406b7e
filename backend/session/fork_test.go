package session

import (
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// A fork has the original's events and images under a header of its own,
// is a log Open continues, and leaves the original byte for byte as it was.
func TestForkCopiesTheSessionUnderANewID(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "s1.jsonl")
	createLog(t, path, TurnStart{Turn: 1}, UserMessage{Turn: 1, Kind: KindPrompt, Text: "hello"}, TurnEnd{Turn: 1, Reason: StopCompleted})
	if err := os.MkdirAll(ImageDir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(ImageDir(path), "a.png"), []byte("png"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.ReadFile(path)
	now := time.UnixMilli(1_800_000_000_000)
	forked, err := Fork(path, "s2", now)
	if err != nil {
		t.Fatal(err)
	}
	if forked != filepath.Join(dir, "s2.jsonl") {
		t.Errorf("fork at %s", forked)
	}
	after, _ := os.ReadFile(path)
	if string(before) != string(after) {
		t.Error("the original changed")
	}
	h, evs, err := Read(forked)
	if err != nil {
		t.Fatal(err)
	}
	_, orig, _ := Read(path)
	if h.ID != "s2" || !h.Created.Equal(now) || h.ForkedFrom != "s1" || !reflect.DeepEqual(evs, orig) {
		t.Errorf("want the original's events under header s2, forked from s1, got %+v and %d events", h, len(evs))
	}
	if b, err := os.ReadFile(filepath.Join(ImageDir(forked), "a.png")); err != nil || string(b) != "png" {
		t.Errorf("image not copied: %q %v", b, err)
	}
	l := openLog(t, forked)
	if _, err := l.Append(now, TurnStart{Turn: 2}); err != nil {
		t.Errorf("the fork does not continue: %v", err)
	}
	if _, err := Fork(path, "s2", now); err == nil {
		t.Error("a fork over an existing session was made")
	}
}

// Removing a session leaves nothing of it behind: what lives in the
// directory named after its log (images, the Claude Code transcript that
// hooks read) goes with it, and the other sessions stay.
func TestRemoveTakesTheSessionsDirectory(t *testing.T) {
	dir := t.TempDir()
	path, other := filepath.Join(dir, "s1.jsonl"), filepath.Join(dir, "s2.jsonl")
	createLog(t, path, TurnStart{Turn: 1})
	createLog(t, other, TurnStart{Turn: 1})
	for _, f := range []string{filepath.Join(ImageDir(path), "a.png"), filepath.Join(dir, "s1", "claude", "s1.jsonl")} {
		if err := os.MkdirAll(filepath.Dir(f), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	Remove(path)
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if len(names) == 0 || slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, "s1") }) {
		t.Fatalf("after Remove the directory holds %q; want s2's files alone", names)
	}
}
