//go:build unix

package tools_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/permission"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/subagent"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/ask"
	"github.com/tack-agent/tack/backend/tools/bash"
	"github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/backend/tools/plan"
	"github.com/tack-agent/tack/backend/tools/search"
	"github.com/tack-agent/tack/backend/tools/task"
	"github.com/tack-agent/tack/backend/tools/todo"
	"github.com/tack-agent/tack/backend/tools/web"
	"github.com/tack-agent/tack/backend/workspace"
)

// transcript holds the tool calls of real Claude Code runs; its first line
// names the source.
const transcript = "../../testdata/claudecode/shared-dev-containers.tool-calls.jsonl"

// transcriptRoot is the workspace those runs worked in; the replay puts a
// temporary directory in its place, so nothing is written outside it.
const transcriptRoot = "/projects/shared-dev-containers"

// claudeCodeTools maps Claude Code's tool names to tack's.
var claudeCodeTools = map[string]string{
	"Bash": "bash", "BashOutput": "bash_output", "KillShell": "bash_kill",
	"Read": "read", "Write": "write", "Edit": "edit", "Glob": "glob", "Grep": "grep",
	"TodoWrite": "todo_write", "Task": "task",
}

// TestClaudeCodeTranscriptCallsAreAccepted replays every tool call of real
// Claude Code runs through the matching tack tool: the oracle is what a
// Claude-Code-trained model really sent, and no call may be refused for
// its arguments. Commands never run: bash gets an executor that records
// them, and the check is that each arrived whole, with Claude Code's
// millisecond timeout.
func TestClaudeCodeTranscriptCallsAreAccepted(t *testing.T) {
	cwd := t.TempDir()
	exec := &recordingExec{}
	registry := replayTools(t, exec)
	var plans []session.TodoWrite
	env := &tools.Env{SessionID: "replay", Cwd: cwd, SpillDir: t.TempDir(), Record: func(d session.Data) error {
		if tw, ok := d.(session.TodoWrite); ok {
			plans = append(plans, tw)
		}
		return nil
	}}
	calls := readJSONLines[transcriptCall](t, transcript)
	var wantCommands []bash.Spec
	todos := 0
	for i, c := range calls {
		name, ok := claudeCodeTools[c.Tool]
		if !ok {
			t.Fatalf("call %d: no tack tool stands for Claude Code's %s", i+1, c.Tool)
		}
		tool, ok := registry[name]
		if !ok {
			t.Fatalf("call %d: tack has no %s tool", i+1, name)
		}
		args := json.RawMessage(strings.ReplaceAll(string(c.Input), transcriptRoot, cwd))
		r := tool.Run(context.Background(), tools.Call{ID: "call_" + string(rune('a'+i%26)), Args: args, Env: env, Sandbox: tools.Sandbox{Off: true}})
		if r.Code == session.CodeInvalidArgs {
			t.Errorf("call %d, %s %s: refused as %q", i+1, c.Tool, clip(string(c.Input)), r.Text)
		}
		switch c.Tool {
		case "Bash":
			wantCommands = append(wantCommands, bashSpec(t, args))
		case "TodoWrite":
			todos++
		}
	}
	got := exec.specs()
	if len(got) != len(wantCommands) {
		t.Fatalf("want %d commands started, got %d", len(wantCommands), len(got))
	}
	for i, want := range wantCommands {
		if got[i].Command != want.Command || want.Timeout != 0 && got[i].Timeout != want.Timeout {
			t.Errorf("command %d: want %q with timeout %s, got %q with %s", i+1, want.Command, want.Timeout, got[i].Command, got[i].Timeout)
		}
	}
	if len(plans) != todos {
		t.Fatalf("want every TodoWrite recorded as a plan, got %d of %d", len(plans), todos)
	}
	for _, p := range plans {
		for _, item := range p.Todos {
			if item.ActiveForm == "" {
				t.Fatalf("want Claude Code's activeForm kept on every item, got %+v", p.Todos)
			}
		}
	}
}

// sdkInputs holds an input for each of Claude Code's tools that tack has in
// kind, with every property the Agent SDK declares for it; its first line
// names the source.
const sdkInputs = "../../testdata/claudecode/agent-sdk-0.3.337.tool-inputs.jsonl"

// TestClaudeAgentSDKToolInputsAreAccepted runs each of those inputs, by
// Claude Code's tool name, through the tack tool that name stands for: the
// oracle is the SDK's own declaration of what a model may send, and no
// input may be refused for its arguments.
func TestClaudeAgentSDKToolInputsAreAccepted(t *testing.T) {
	cwd := t.TempDir()
	if err := os.WriteFile(filepath.Join(cwd, "notes.txt"), []byte("first line\nsecond line\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	registry := replayTools(t, &recordingExec{})
	env := &tools.Env{SessionID: "sdk", Cwd: cwd, SpillDir: t.TempDir(), Record: func(session.Data) error { return nil }}
	for i, c := range readJSONLines[transcriptCall](t, sdkInputs) {
		name := tools.CallName(c.Tool)
		tool, ok := registry[name]
		if !ok {
			t.Errorf("line %d: no tack tool stands for Claude Code's %s (got %q)", i+2, c.Tool, name)
			continue
		}
		args := json.RawMessage(strings.ReplaceAll(string(c.Input), "/workspace", cwd))
		r := tool.Run(context.Background(), tools.Call{ID: "call_sdk", Args: args, Env: env, Sandbox: tools.Sandbox{Off: true}})
		if r.Code == session.CodeInvalidArgs || strings.HasPrefix(r.Text, "Error: invalid") {
			t.Errorf("line %d, %s %s: refused as %q", i+2, c.Tool, clip(string(c.Input)), r.Text)
		}
	}
}

type transcriptCall struct {
	Tool  string          `json:"tool"`
	Input json.RawMessage `json:"input"`
}

// readJSONLines reads the records of a transcript, one JSON value of T a
// line, passing over the comment lines that start with "#". It fails t
// when the file holds no record.
func readJSONLines[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if strings.HasPrefix(sc.Text(), "#") {
			continue
		}
		var v T
		if err := json.Unmarshal(sc.Bytes(), &v); err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		out = append(out, v)
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("want the records of %s, got %d (%v)", path, len(out), err)
	}
	return out
}

// replayTools are tack's tools by name, over exec.
func replayTools(t *testing.T, exec bash.Executor) map[string]tools.Tool {
	t.Helper()
	b := bash.New(exec, bash.Options{})
	t.Cleanup(b.Close)
	files := &workspace.Walker{}
	all := append(b.All(), fs.New(fs.NewTracker())...)
	all = append(all, search.NewGlob(files), search.NewGrep(files), todo.New(),
		task.New(answeringRunner{}, []subagent.Definition{subagent.General()}),
		ask.New(), plan.New(inPlanMode()))
	all = append(all, web.New(web.Config{Search: stubWeb{}, Fetch: stubWeb{}})...)
	out := map[string]tools.Tool{}
	for _, tool := range all {
		out[tool.Spec().Name] = tool
	}
	return out
}

// bashSpec is what a Bash call's arguments ask to run: its command, and
// its timeout read as Claude Code means it, in milliseconds.
func bashSpec(t *testing.T, args json.RawMessage) bash.Spec {
	t.Helper()
	var a struct {
		Command string `json:"command"`
		Timeout int    `json:"timeout"`
	}
	if err := json.Unmarshal(args, &a); err != nil {
		t.Fatal(err)
	}
	return bash.Spec{Command: a.Command, Timeout: time.Duration(a.Timeout) * time.Millisecond}
}

func clip(s string) string {
	if len(s) > 160 {
		return s[:160] + "…"
	}
	return s
}

// recordingExec starts nothing: each command ends at once, successfully,
// with no output.
type recordingExec struct {
	mu  sync.Mutex
	got []bash.Spec
}

func (e *recordingExec) Start(spec bash.Spec) (bash.Process, error) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.got = append(e.got, spec)
	return newDoneProcess(spec), nil
}

func (e *recordingExec) specs() []bash.Spec {
	e.mu.Lock()
	defer e.mu.Unlock()
	return append([]bash.Spec(nil), e.got...)
}

type doneProcess struct {
	out, err *bash.Stream
	done     chan struct{}
	timeout  time.Duration
}

func newDoneProcess(spec bash.Spec) *doneProcess {
	p := &doneProcess{out: bash.NewStream("", "", 1024, 0), err: bash.NewStream("", "", 1024, 0), done: make(chan struct{}), timeout: spec.Timeout}
	p.out.Close()
	p.err.Close()
	close(p.done)
	return p
}

func (p *doneProcess) Stdout() *bash.Stream  { return p.out }
func (p *doneProcess) Stderr() *bash.Stream  { return p.err }
func (p *doneProcess) Done() <-chan struct{} { return p.done }
func (p *doneProcess) Outcome() bash.Outcome { return bash.Outcome{Timeout: p.timeout} }
func (p *doneProcess) Kill()                 {}

// answeringRunner is a subagent that answers at once.
type answeringRunner struct{}

func (answeringRunner) Run(context.Context, task.Job, func(task.Progress)) task.Outcome {
	return task.Outcome{Answer: "Explored."}
}

// stubWeb answers every search with one result and every fetch with one
// page, without a network.
type stubWeb struct{}

func (stubWeb) Search(context.Context, web.Query) ([]web.Result, error) {
	return []web.Result{{Title: "Go 1.26 Release Notes", URL: "https://go.dev/doc/go1.26"}}, nil
}

func (stubWeb) Fetch(_ context.Context, rawURL string) (web.Page, error) {
	return web.Page{URL: rawURL, Title: "Docs", Markdown: "# Docs\n\nConfiguration lives in config.toml.\n"}, nil
}

// inPlanMode is a permission policy in plan mode, where exit_plan_mode
// runs.
func inPlanMode() *permission.Policy {
	p := permission.NewPolicy(permission.Auto, nil)
	p.SetPlan(true)
	return p
}
