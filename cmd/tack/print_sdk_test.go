package main

import (
	"bufio"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// sessionFiles lists the files of every session under home.
func sessionFiles(t *testing.T, home string) []string {
	t.Helper()
	var out []string
	filepath.WalkDir(filepath.Join(home, "sessions"), func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(home, path)
			out = append(out, rel)
		}
		return nil
	})
	return out
}

// --no-session-persistence (the Agent SDKs' persistSession: false) keeps
// nothing of the session once the run ends; with --resume the session
// goes on in a copy, and the original stays as it was.
func TestPrintWithoutSessionPersistenceLeavesNoSession(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("First."), llmtest.ReplyText("Second."), llmtest.ReplyText("Third."))
	home, dir := t.TempDir(), t.TempDir()
	r := startTackIn(t, srv, home, dir, "-p", "one", "--no-session-persistence")
	r.closeStdin()
	r.wantExit(0)
	if got := sessionFiles(t, home); len(got) != 0 {
		t.Errorf("want no session kept, found %q", got)
	}
	const id = "123e4567-e89b-42d3-a456-426614174000"
	r = startTackIn(t, srv, home, dir, "-p", "two", "--session-id", id)
	r.closeStdin()
	r.wantExit(0)
	kept := sessionFiles(t, home)
	before, _ := os.ReadFile(filepath.Join(home, kept[0]))
	r = startTackIn(t, srv, home, dir, "-p", "three", "--resume", id, "--no-session-persistence")
	r.closeStdin()
	r.wantExit(0)
	if msgs := srv.Requests()[2].Messages; !strings.Contains(msgs[len(msgs)-3].Content, "two") {
		t.Errorf("want the resumed run to continue the conversation, sent %+v", msgs)
	}
	after, _ := os.ReadFile(filepath.Join(home, kept[0]))
	if got := sessionFiles(t, home); strings.Join(got, " ") != strings.Join(kept, " ") || string(after) != string(before) {
		t.Errorf("want only the original, unchanged, left: %q (was %q)", got, kept)
	}
}

// --debug writes every event of the session's log to stderr as a JSON
// line, --debug=TYPES those of the types named, --debug-file to a file;
// stdout stays the answer alone.
func TestPrintDebugWritesTheSessionEvents(t *testing.T) {
	srv := llmtest.New(t, llmtest.ReplyText("First."), llmtest.ReplyText("Second."))
	home, dir := t.TempDir(), t.TempDir()
	types := func(text string) []string {
		var out []string
		sc := bufio.NewScanner(strings.NewReader(text))
		for sc.Scan() {
			var l struct {
				Type  string
				Event struct{ Type string }
			}
			if json.Unmarshal(sc.Bytes(), &l) == nil && l.Type == "session_event" {
				out = append(out, l.Event.Type)
			}
		}
		return out
	}
	r := startTackIn(t, srv, home, dir, "-p", "one", "--debug")
	r.closeStdin()
	r.wantExit(0)
	got := types(r.stderr.String())
	if r.stdout.String() != "First.\n" || len(got) < 4 || got[0] != "turn/start" || got[len(got)-1] != "turn/end" {
		t.Errorf("stdout %q, events on stderr %q", r.stdout.String(), got)
	}
	file := filepath.Join(t.TempDir(), "debug.jsonl")
	r = startTackIn(t, srv, home, dir, "-p", "two", "--debug=turn", "--debug-file", file)
	r.closeStdin()
	r.wantExit(0)
	b, _ := os.ReadFile(file)
	if got := types(string(b)); strings.Join(got, " ") != "turn/start turn/end" || r.stderr.String() != "" {
		t.Errorf("want the turn events alone in the file, got %q (stderr %q)", got, r.stderr.String())
	}
}
