package launch

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/mcp/mcptest"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// TestMCPServersAreToldTheWorkspaceAndAddedDirectoriesAsRoots replays the
// real filesystem server (which narrows what it allows to the roots its
// client names) to a session with an added directory.
func TestMCPServersAreToldTheWorkspaceAndAddedDirectoriesAsRoots(t *testing.T) {
	home, cwd, other := t.TempDir(), realDir(t), realDir(t)
	log := replayFilesystem(t, home)
	llm := llmtest.New(t,
		llmtest.Reply(llmtest.ToolCall("call_1", "mcp__fs__list_allowed_directories", `{}`, 2)),
		llmtest.ReplyText("Listed."),
	)
	s, err := Open(Options{Home: home, Cwd: cwd, AddDirs: []string{other}, PermissionMode: "ask", Version: "test",
		Getenv: func(k string) string {
			return map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}[k]
		}})
	if err != nil {
		t.Fatalf("open session: %v", err)
	}
	t.Cleanup(s.Close)
	runTurn(t, s, "Which directories may the filesystem server use?")
	if got := llm.Requests()[1].ToolResult("call_1"); !strings.HasPrefix(got, "Allowed directories:") {
		t.Errorf("the tool's result reached the model as %q", got)
	}
	data, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"file://" + filepath.ToSlash(cwd), "file://" + filepath.ToSlash(other)}
	slices.Sort(want)
	for _, line := range strings.Split(string(data), "\n") {
		var m struct {
			Result struct {
				Roots []struct{ URI string } `json:"roots"`
			} `json:"result"`
		}
		if json.Unmarshal([]byte(line), &m) != nil || m.Result.Roots == nil {
			continue
		}
		var got []string
		for _, r := range m.Result.Roots {
			got = append(got, r.URI)
		}
		if !slices.Equal(got, want) {
			t.Errorf("tack answered roots/list with %q, want the workspace and the added directory %q", got, want)
		}
		return
	}
	t.Errorf("tack never answered the server's roots/list; it sent:\n%s", data)
}

// A directory /add-dir adds reaches the running servers too: tack tells
// them their roots changed, and answers their next roots/list with it.
func TestAddDirTellsTheMCPServersOfTheNewRoot(t *testing.T) {
	home, cwd, other := t.TempDir(), realDir(t), realDir(t)
	log := replayFilesystem(t, home)
	llm := llmtest.New(t, llmtest.ReplyText("ok"))
	s := openMCP(t, home, cwd, "ask", llm)
	runTurn(t, s, "Start the servers.")
	if exec, _ := s.Commands.Execute(context.Background(), s.Agent, "/add-dir "+other, nil); !strings.HasPrefix(exec.Result.Text, "Added ") {
		t.Fatalf("/add-dir: %+v", exec.Result)
	}
	testkit.Eventually(t, "the servers told their roots changed after /add-dir", func() bool {
		data, _ := os.ReadFile(log)
		return strings.Contains(string(data), `"method":"notifications/roots/list_changed"`)
	})
}

// replayFilesystem configures, in home, the real filesystem server
// replayed as server fs, trusted, and returns the file where what tack
// sends it is logged.
func replayFilesystem(t *testing.T, home string) string {
	t.Helper()
	recording, err := filepath.Abs("../mcp/testdata/filesystem.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	log := filepath.Join(t.TempDir(), "client.jsonl")
	cmd, args, env := mcptest.ReplayCommand(recording, log)
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte(serverTOML("fs", cmd, args, env)+"trusted = true\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return log
}

func realDir(t *testing.T) string {
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return dir
}
