package linemode

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// replayedUUID is the uuid tack echoed the user message text with
// (--replay-user-messages).
func replayedUUID(t *testing.T, out, text string) string {
	t.Helper()
	for _, line := range strings.Split(out, "\n") {
		var m chatMessage
		if json.Unmarshal([]byte(line), &m) == nil && m.Type == "user" && len(m.Message.Content) == 1 &&
			m.Message.Content[0].Text != nil && *m.Message.Content[0].Text == text {
			return m.UUID
		}
	}
	t.Fatalf("no user message %q was replayed:\n%s", text, out)
	return ""
}

// rewindRequest is a rewind_files request as the TypeScript SDK writes it
// (sdk.mjs, rewindFiles(e,t): {subtype:"rewind_files",user_message_id:e,
// dry_run:t?.dryRun}); claude-agent-sdk-python writes it without dry_run
// (src/claude_agent_sdk/_internal/query.py, rewind_files: {"subtype":
// "rewind_files", "user_message_id": user_message_id}).
func rewindRequest(id, uuid string, dryRun bool) string {
	return fmt.Sprintf(`{"type":"control_request","request_id":%q,"request":{"subtype":"rewind_files","user_message_id":%q,"dry_run":%t}}`,
		id, uuid, dryRun)
}

// The SDKs' rewindFiles() returns the files to how they were when a user
// message was read, by the program's own uuid of the message or the one
// tack replayed it with; a dry run measures the rewind and changes
// nothing; a message tack never read cannot be rewound to. Both stores
// serve it: the shadow git repository, and the files store where git is
// not on PATH, whose rewind must not take the diff that measures it for
// changes made outside tack.
func TestSDKRewindsFilesToAUserMessage(t *testing.T) {
	for _, kind := range []struct {
		store checkpoint.Kind
		path  func(t *testing.T) string
	}{
		{checkpoint.KindGit, func(t *testing.T) string {
			if _, err := exec.LookPath("git"); err != nil {
				t.Skip("git is not installed; the files store's run covers rewind_files")
			}
			return os.Getenv("PATH")
		}},
		{checkpoint.KindFiles, func(t *testing.T) string { return t.TempDir() }},
	} {
		t.Run(string(kind.store), func(t *testing.T) { sdkRewindsFiles(t, kind.store, kind.path(t)) })
	}
}

func sdkRewindsFiles(t *testing.T, store checkpoint.Kind, path string) {
	script := rewindToolTurn("c1", "write", `{"file_path":"a.txt","content":"one\n"}`, "Wrote a.txt.")
	script = append(script, rewindToolTurn("c2", "write", `{"file_path":"b.txt","content":"x\ny\n"}`, "Wrote b.txt.")...)
	s, cwd, _ := streamSessionWith(t, launch.Options{}, map[string]string{"PATH": path}, script...)
	if s.Checkpoints == nil {
		t.Fatal("want the session to keep checkpoints, it keeps none")
	}
	if got := s.Checkpoints.Kind(); got != store {
		t.Fatalf("want checkpoints kept by the %s store with PATH=%s, got the %s store", store, path, got)
	}
	run := startSDKRun(t, s)
	first := "6f1c2a9e-4b0d-4c3e-9a57-1d2e3f405162"
	run.send(t, `{"type":"user","message":{"role":"user","content":"write a"},"parent_tool_use_id":null,"session_id":"","uuid":"`+first+`"}`)
	run.turn(t, "write b", 2)
	// The result line comes when the turn's end is logged; the agent is
	// idle, and takes a rewind, once it has also synced the log.
	testkit.Settle(t, s.Agent)
	second := replayedUUID(t, run.stdout.String(), "write b")
	if got := replayedUUID(t, run.stdout.String(), "write a"); got != first {
		t.Errorf("the program's uuid was replayed as %q", got)
	}
	exists := func(name string) bool { _, err := os.Stat(filepath.Join(cwd, name)); return err == nil }

	dry := run.ask(t, "dry", rewindRequest("dry", second, true))
	r := dry.Response.Response
	if dry.Response.Subtype != "success" || r["canRewind"] != true || fmt.Sprint(r["filesChanged"]) != "["+filepath.Join(cwd, "b.txt")+"]" ||
		r["insertions"] != 2.0 || r["deletions"] != 0.0 || !exists("b.txt") {
		t.Errorf("a dry run to before b.txt: %+v (b.txt still there: %v)", dry, exists("b.txt"))
	}
	back := run.ask(t, "back", rewindRequest("back", first, false))
	if back.Response.Subtype != "success" || back.Response.Response["canRewind"] != true || exists("a.txt") || exists("b.txt") {
		t.Errorf("the rewind to before a.txt: %+v; a.txt there: %v, b.txt there: %v", back, exists("a.txt"), exists("b.txt"))
	}
	if n := len(s.Agent.Turns()); n != 2 {
		t.Errorf("rewinding files took back the conversation too: %d turns stand", n)
	}
	unknown := run.ask(t, "unknown", rewindRequest("unknown", "no-such-message", false))
	unknownDry := run.ask(t, "unknown-dry", rewindRequest("unknown-dry", "no-such-message", true))
	if unknown.Response.Subtype != "error" || !strings.Contains(unknown.Response.Error, "/rewind N --files") ||
		unknownDry.Response.Subtype != "success" || unknownDry.Response.Response["canRewind"] != false || unknownDry.Response.Response["error"] == nil {
		t.Errorf("a message tack never read: %+v; as a dry run: %+v", unknown, unknownDry)
	}
}
