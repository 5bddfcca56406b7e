package fs

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/tools"
)

func TestWriteResultFormat(t *testing.T) {
	t.Run("created", func(t *testing.T) {
		b := newBench(t)
		r := b.run(b.write, map[string]any{"file_path": "new/dir/f.txt", "content": "hello\n"})
		wantOK(t, r)
		matchGolden(t, b.dir, r.Text)
		if got := b.content("new/dir/f.txt"); got != "hello\n" {
			t.Errorf("want file content %q, got %q", "hello\n", got)
		}
	})
	t.Run("updated", func(t *testing.T) {
		b := newBench(t)
		b.file("f.txt", "old\n")
		wantOK(t, b.run(b.read, map[string]any{"file_path": "f.txt"}))
		r := b.run(b.write, map[string]any{"file_path": "f.txt", "content": "new\n"})
		wantOK(t, r)
		matchGolden(t, b.dir, r.Text)
	})
}

func TestWriteWithoutReadIsRefused(t *testing.T) {
	b := newBench(t)
	p := b.file("f.txt", "keep\n")
	r := b.run(b.write, map[string]any{"file_path": "f.txt", "content": "lost\n"})
	wantError(t, r, p+" has not been read in this session — read the file, then retry")
	if r.Code != CodeNotObserved {
		t.Errorf("want code %s, got %q", CodeNotObserved, r.Code)
	}
	if got := b.content("f.txt"); got != "keep\n" {
		t.Errorf("want the file untouched, got %q", got)
	}
}

func TestWriteOfFileChangedSinceReadIsRefused(t *testing.T) {
	b := newBench(t)
	p := b.file("f.txt", "v1\n")
	wantOK(t, b.run(b.read, map[string]any{"file_path": "f.txt"}))
	b.file("f.txt", "v2 by someone else\n")
	r := b.run(b.write, map[string]any{"file_path": "f.txt", "content": "mine\n"})
	wantError(t, r, p+" changed on disk since it was read — re-read the file, then retry")
	if r.Code != CodeStaleVersion {
		t.Errorf("want code %s, got %q", CodeStaleVersion, r.Code)
	}
}

func TestWriteAfterTouchWithSameContentIsAllowed(t *testing.T) {
	b := newBench(t)
	p := b.file("f.txt", "v1\n")
	wantOK(t, b.run(b.read, map[string]any{"file_path": "f.txt"}))
	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	wantOK(t, b.run(b.write, map[string]any{"file_path": "f.txt", "content": "v2\n"}))
}

func TestWriteThenWriteAgainNeedsNoRead(t *testing.T) {
	b := newBench(t)
	wantOK(t, b.run(b.write, map[string]any{"file_path": "f.txt", "content": "a\n"}))
	wantOK(t, b.run(b.write, map[string]any{"file_path": "f.txt", "content": "b\n"}))
	wantOK(t, b.run(b.edit, map[string]any{"file_path": "f.txt", "old_string": "b", "new_string": "c"}))
	if got := b.content("f.txt"); got != "c\n" {
		t.Errorf("want %q, got %q", "c\n", got)
	}
}

func TestWriteCardIsALineDiff(t *testing.T) {
	b := newBench(t)
	b.file("f.txt", "one\ntwo\nthree\n")
	wantOK(t, b.run(b.read, map[string]any{"file_path": "f.txt"}))
	r := b.run(b.write, map[string]any{"file_path": "f.txt", "content": "one\n2\nthree\nfour\n"})
	wantOK(t, r)
	want := []card.FileDiff{{Path: "f.txt", Added: 2, Removed: 1, Lines: []card.DiffLine{
		{Op: card.OpContext, Text: "one", Old: 1, New: 1}, {Op: card.OpDelete, Text: "two", Old: 2},
		{Op: card.OpAdd, Text: "2", New: 2}, {Op: card.OpContext, Text: "three", Old: 3, New: 3},
		{Op: card.OpAdd, Text: "four", New: 4},
	}}}
	if r.Card == nil || r.Card.Kind != card.Diff || r.Card.Title != "Write f.txt" || !reflect.DeepEqual(r.Card.Diffs, want) {
		t.Errorf("want diff card %+v, got %+v", want, r.Card)
	}
}

func TestWriteErrors(t *testing.T) {
	b := newBench(t)
	if err := os.Mkdir(filepath.Join(b.dir, "d"), 0o755); err != nil {
		t.Fatal(err)
	}
	wantError(t, b.run(b.write, map[string]any{"file_path": "d", "content": "x"}),
		fmt.Sprintf("cannot write %q: not a regular file", filepath.Join(b.dir, "d")))
	wantError(t, b.run(b.write, map[string]any{"content": "x"}), "invalid file_path: expected a non-empty string")
	wantError(t, b.run(b.write, map[string]any{"file_path": "f"}), "invalid content: expected a string")
	r := b.run(b.write, map[string]any{"file_path": "f", "content": "x", "mode": 1})
	if !r.IsError || r.Text != `Error: invalid arguments: unknown argument "mode"; the accepted arguments are file_path, content` {
		t.Errorf("want unknown argument refused, got %q", r.Text)
	}
}

// An overwrite's approval shows the lines that change, not the whole new
// content as added.
func TestWritePreviewShowsWhatAnOverwriteChanges(t *testing.T) {
	b := newBench(t)
	b.file("notes.txt", "one\ntwo\nthree\n")
	b.readFirst("notes.txt")
	raw, _ := json.Marshal(map[string]any{"file_path": "notes.txt", "content": "one\n2\nthree\n"})
	c, ok := b.write.(tools.Previewer).Preview(tools.Call{ID: "c1", Args: raw, Env: &tools.Env{Cwd: b.dir}})
	if !ok || len(c.Diffs) != 1 || c.Diffs[0].Added != 1 || c.Diffs[0].Removed != 1 || c.Diffs[0].Created {
		t.Fatalf("want a one-line change of an existing file, got %v %+v", ok, c)
	}
}

// An edit's and a write's cards keep the file's text before the change,
// byte for byte (CRLF and an empty file included), and their answers in
// Claude Code's terms give it as originalFile; but none of a file the
// write created (originalFile null, as Claude Code's), and none of one
// over card.OriginalTextLimit, which would grow the session log by its
// size on every change.
func TestChangesKeepTheFileBeforeWhileItIsSmall(t *testing.T) {
	// An image written over (read as one, by a model that takes images)
	// is no text to answer as a string.
	for _, binary := range []string{"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR", "caf\xe9"} {
		if got := original(binary); got != nil {
			t.Errorf("want no text kept of %q, got %q", binary, *got)
		}
	}
	big := strings.Repeat("x\n", card.OriginalTextLimit/2) + "y\n"
	for _, tc := range []struct {
		name, before string
		args         map[string]any
		keep         bool
	}{
		{"edit", "one\r\ntwo\r\n", map[string]any{"old_string": "two", "new_string": "2"}, true},
		{"edit of a large file", big, map[string]any{"old_string": "y", "new_string": "z"}, false},
		{"write over a file", "old\n", map[string]any{"content": "new\n"}, true},
		{"write over an empty file", "", map[string]any{"content": "new\n"}, true},
		{"write over a large file", big, map[string]any{"content": "new\n"}, false},
		{"write of a new file", "", map[string]any{"content": "new\n"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newBench(t)
			tool, name := b.write, "Write"
			if _, ok := tc.args["old_string"]; ok {
				tool, name = b.edit, "Edit"
			}
			if tc.name != "write of a new file" {
				b.file("f.txt", tc.before)
				b.readFirst("f.txt")
			}
			tc.args["file_path"] = "f.txt"
			r := b.run(tool, tc.args)
			wantOK(t, r)
			want := "null"
			if tc.keep {
				quoted, _ := json.Marshal(tc.before)
				want = string(quoted)
			}
			var answer struct{ OriginalFile json.RawMessage }
			if err := json.Unmarshal([]byte(claudeAnswer(t, name, tc.args, r)), &answer); err != nil {
				t.Fatal(err)
			}
			if got, _ := json.Marshal(r.Card.Original); string(got) != want || string(answer.OriginalFile) != want {
				t.Errorf("want the text before as %.40s…, kept and answered; got %.40s… and %.40s…", want, got, answer.OriginalFile)
			}
		})
	}
}

// claudeAnswer is the tool_use_result of r, the result of Claude Code's
// tool named tool called with args, as JSON.
func claudeAnswer(t *testing.T, tool string, args map[string]any, r tools.Result) string {
	t.Helper()
	raw, _ := json.Marshal(args)
	out, err := json.Marshal(claudemsg.ToolUseResult(claudemsg.ToolCall{Name: tool, Input: raw, Text: r.Text, Card: r.Card}))
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}
