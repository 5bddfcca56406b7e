package launch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// A session forked with --fork-session takes the original's checkpoints
// along: /rewind in the copy restores the files of turns taken before the
// fork, with git's store (even once the original's checkpoints are pruned)
// and with the store that keeps files.
func TestForkedSessionRewindsFilesOfTurnsBeforeTheFork(t *testing.T) {
	for _, kind := range []string{"git", "files"} {
		t.Run(kind, func(t *testing.T) {
			home, cwd := t.TempDir(), t.TempDir()
			os.WriteFile(filepath.Join(cwd, "notes.txt"), []byte("before\n"), 0o600)
			llm := llmtest.New(t,
				llmtest.Reply(llmtest.ToolCall("call_0", "read", `{"file_path":"notes.txt"}`, 1)),
				llmtest.Reply(llmtest.ToolCall("call_1", "write", `{"file_path":"notes.txt","content":"after\n"}`, 1)),
				llmtest.ReplyText("Written."))
			env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}
			if kind == "git" {
				if _, err := exec.LookPath("git"); err != nil {
					t.Skip("git is not installed: apt-get install git")
				}
				env["PATH"] = os.Getenv("PATH")
			}
			open := func(o Options) *Session {
				o.Home, o.Cwd, o.Version, o.PermissionMode = home, cwd, "test", "full-access"
				o.Getenv = func(k string) string { return env[k] }
				s, err := Open(o)
				if err != nil {
					t.Fatal(err)
				}
				return s
			}
			s := open(Options{})
			runTurn(t, s, "Update the notes.")
			if got := s.Checkpoints.Kind(); string(got) != kind {
				t.Fatalf("the store keeps %s, want %s", got, kind)
			}
			if b, _ := os.ReadFile(filepath.Join(cwd, "notes.txt")); string(b) != "after\n" {
				t.Fatalf("the turn left notes.txt holding %q", b)
			}
			id := s.Log.Header().ID
			s.Close()
			fork := open(Options{Resume: id, ForkSession: true})
			defer fork.Close()
			if fork.Log.Header().ID == id {
				t.Fatal("the fork kept the original's id")
			}
			if kind == "git" {
				dropSessionCheckpoints(t, checkpoint.Dir(home, cwd), id)
			}
			if _, err := fork.Agent.Rewind(context.Background(), agent.RewindRequest{Turn: 1, Files: true, Conversation: true}); err != nil {
				t.Fatal(err)
			}
			if b, _ := os.ReadFile(filepath.Join(cwd, "notes.txt")); string(b) != "before\n" {
				t.Errorf("after the fork's rewind notes.txt holds %q", b)
			}
		})
	}
}

// dropSessionCheckpoints deletes session id's refs in the git store under
// dir and prunes what nothing else refers to, as pruning its checkpoints
// would.
func dropSessionCheckpoints(t *testing.T, dir, id string) {
	t.Helper()
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"--git-dir", filepath.Join(dir, "git")}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	for _, ref := range strings.Fields(git("for-each-ref", "--format=%(refname)", "refs/tack/"+id+"/")) {
		git("update-ref", "-d", ref)
	}
	git("reflog", "expire", "--expire=now", "--all")
	git("gc", "--quiet", "--prune=now")
}
