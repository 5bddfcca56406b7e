package fs

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestReadRefusesCredentialsAndProcessEnvironments(t *testing.T) {
	b := newBench(t)
	creds := filepath.Join(t.TempDir(), "credentials")
	if err := os.WriteFile(creds, []byte("DEEPSEEK_API_KEY=sk-secret\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(b.dir, "innocent.txt")
	if err := os.Symlink(creds, link); err != nil {
		t.Fatal(err)
	}
	b.read = New(NewTracker(), creds)[0]
	for _, path := range []string{creds, link, "/proc/self/environ", "/proc/1/environ", "/proc/self/task/1/environ"} {
		r := b.run(b.read, map[string]any{"file_path": path})
		if !r.IsError || !strings.Contains(r.Text, "read refuses") || strings.Contains(r.Text, "sk-secret") {
			t.Errorf("%s: want a refusal naming why, got error=%v %q", path, r.IsError, r.Text)
		}
	}
	b.file("notes.txt", "fine\n")
	r := b.run(b.read, map[string]any{"file_path": "notes.txt"})
	if r.IsError {
		t.Fatalf("want an ordinary file read, got %q", r.Text)
	}
}
