//go:build unix

package tools_test

import (
	"bufio"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/jsonschema-go/jsonschema"
	sdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/tack-agent/tack/backend/claudemsg"
	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/mcp"
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
	"github.com/tack-agent/tack/snapshots/testkit"
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

// sdkOutputs are the JSON schemas of what the Agent SDK declares Claude
// Code's tools answer (tool_use_result), generated from the same file.
const sdkOutputs = "../../testdata/claudecode/agent-sdk-0.3.337.tool-outputs.schema.json"

// TestClaudeAgentSDKToolInputsAreAccepted runs each of those inputs, by
// Claude Code's tool name, through the tack tool that name stands for: the
// oracle is the SDK's own declaration of what a model may send, and no
// input may be refused for its arguments. What tack then says the tool
// answered, in Claude Code's terms, must be what the SDK declares; so
// must its answers to moreShapes, which reach the shapes those inputs do
// not.
func TestClaudeAgentSDKToolInputsAreAccepted(t *testing.T) {
	cwd := t.TempDir()
	testkit.WriteTree(t, cwd, map[string]string{"notes.txt": "first line\nsecond line\n", "analysis.ipynb": notebook})
	registry := replayTools(t, &recordingExec{})
	for _, tool := range resourceTools(t, cwd) {
		registry[tool.Spec().Name] = tool
	}
	env := &tools.Env{SessionID: "sdk", Cwd: cwd, SpillDir: t.TempDir(), Record: func(session.Data) error { return nil },
		Interact: choosingFirstOptions(t)}
	// NotebookEdit, as Edit, changes only a file read before.
	registry["read"].Run(context.Background(), tools.Call{ID: "call_read", Args: json.RawMessage(`{"file_path":"analysis.ipynb"}`), Env: env})
	outputs, checked, answers := readOutputSchemas(t), map[string]bool{}, map[string]any{}
	calls := append(readJSONLines[transcriptCall](t, sdkInputs), moreShapes...)
	for i, c := range calls {
		name := tools.CallName(c.Tool)
		tool, ok := registry[name]
		if !ok {
			t.Errorf("call %d: no tack tool stands for Claude Code's %s (got %q)", i+1, c.Tool, name)
			continue
		}
		args := json.RawMessage(sdkPlaces(cwd).Replace(string(c.Input)))
		r := tool.Run(context.Background(), tools.Call{ID: "call_sdk", Args: args, Env: env, Sandbox: tools.Sandbox{Off: true}})
		if r.Code == session.CodeInvalidArgs || strings.HasPrefix(r.Text, "Error: invalid") {
			t.Errorf("call %d, %s %s: refused as %q", i+1, c.Tool, clip(string(c.Input)), r.Text)
		}
		if schema, ok := outputs[c.Tool]; ok {
			if r.IsError {
				t.Errorf("call %d, %s: want an answer to check against the SDK's %s, got %q", i+1, c.Tool, schema.name, r.Text)
				continue
			}
			got := claudemsg.ToolUseResult(claudemsg.ToolCall{ID: "call_sdk", Name: c.Tool, Input: tools.ClaudeInput(args, cwd),
				Text: r.Text, IsError: r.IsError, Card: r.Card})
			if err := schema.check(got); err != nil {
				t.Errorf("call %d, %s: tool_use_result is no %s: %v\n%s", i+1, c.Tool, schema.name, err, mustJSON(t, got))
			}
			checked[c.Tool] = true
			if key := shapeKey(c.Tool, args); answers[key] == nil {
				answers[key] = got
			}
		}
	}
	if len(checked) != len(outputs) {
		t.Errorf("want a tool_use_result checked for each of %d tools, checked %v", len(outputs), checked)
	}
	compareWithRealAnswers(t, answers)
}

// realAnswers holds the toolUseResult real Claude Code runs wrote, one for
// each tool and set of keys; its first line names the sources.
const realAnswers = "../../testdata/claudecode/ccexport.tool-use-results.jsonl"

// compareWithRealAnswers holds tack's answers, by shapeKey, to what Claude
// Code really wrote for the same tool (and Grep mode): every key it wrote
// must be in tack's answer, with a value of the same JSON type, down
// through objects and the items of arrays, but for knownDifferences, and
// the files named absolute as Claude Code names them. The tools tack
// gives no answer for are passed over.
func compareWithRealAnswers(t *testing.T, answers map[string]any) {
	t.Helper()
	type realAnswer struct {
		transcriptCall
		ToolUseResult any `json:"toolUseResult"`
	}
	compared := 0
	for _, r := range readJSONLines[realAnswer](t, realAnswers) {
		tool := tools.ClaudeName(tools.CallName(r.Tool)) // today's name: Task is Agent
		if _, ok := claudeOutputs[tool]; !ok {
			continue
		}
		key := shapeKey(tool, r.Input)
		got, ok := answers[key]
		if !ok {
			t.Errorf("want tack's answer of %s to compare with Claude Code's, got none", key)
			continue
		}
		var tack any
		if err := json.Unmarshal([]byte(mustJSON(t, got)), &tack); err != nil {
			t.Fatal(err)
		}
		for _, d := range shapeDiff(r.ToolUseResult, tack, key) {
			t.Errorf("%s\nClaude Code: %s\ntack:        %s", d, clip(mustJSON(t, r.ToolUseResult)), clip(mustJSON(t, got)))
		}
		compared++
	}
	if compared == 0 {
		t.Error("want tack's answers compared with real ones, compared none")
	}
}

// shapeKey names a call's answer shape: the tool, Grep's output mode, and
// whether Bash ran the command in the background.
func shapeKey(tool string, input json.RawMessage) string {
	var in struct {
		OutputMode string `json:"output_mode"`
		Background bool   `json:"run_in_background"`
	}
	_ = json.Unmarshal(input, &in)
	switch {
	case tool == "Grep":
		return tool + " " + cmp.Or(in.OutputMode, "files_with_matches")
	case tool == "Bash" && in.Background:
		return tool + " in the background"
	}
	return tool
}

// knownDifferences are the keys of Claude Code's answers that tack's may
// leave out or fill with null, and why; the SDK declares each optional or
// nullable, or no more.
var knownDifferences = map[string]string{
	"Agent.usage.cache_creation":    "tack's providers report no cache writes; null",
	"Agent.usage.service_tier":      "tack's providers name no service tier; null",
	"TaskStop.success":              "KillBash's, before Claude Code named the tool TaskStop; the SDK declares it no more",
	"TaskStop.shell_id":             "KillBash's, as success is",
	"Bash.returnCodeInterpretation": "Claude Code's gloss of an exit code (grep's 1 as \"No matches found\"); tack's model reads the code",
}

// shapeDiff says where got lacks a key of want, or holds a value of
// another JSON type.
func shapeDiff(want, got any, at string) []string {
	if reflect.TypeOf(want) != reflect.TypeOf(got) {
		return []string{fmt.Sprintf("%s: want a %s, got %s", at, jsonType(want), jsonType(got))}
	}
	var diffs []string
	switch w := want.(type) {
	case map[string]any:
		g := got.(map[string]any)
		for k, v := range w {
			if _, ok := knownDifferences[strings.Fields(at)[0]+"."+k]; ok {
				continue
			}
			gv, ok := g[k]
			if !ok {
				diffs = append(diffs, fmt.Sprintf("%s: want key %q, missing", at, k))
				continue
			}
			if pathKeys[k] {
				diffs = append(diffs, relativePaths(gv, at+"."+k)...)
			}
			diffs = append(diffs, shapeDiff(v, gv, at+"."+k)...)
		}
	case []any:
		if g := got.([]any); len(w) > 0 && len(g) > 0 {
			diffs = append(diffs, shapeDiff(w[0], g[0], at+"[0]")...)
		}
	}
	return diffs
}

// pathKeys are the keys of Claude Code's answers that name files, always
// by absolute path, which is how programs open them.
var pathKeys = map[string]bool{"filePath": true, "filenames": true, "notebook_path": true}

// relativePaths says where v, a path or a list of them, holds one that is
// not absolute.
func relativePaths(v any, at string) []string {
	paths, ok := v.([]any)
	if !ok {
		paths = []any{v}
	}
	var diffs []string
	for _, p := range paths {
		if s, ok := p.(string); ok && !filepath.IsAbs(s) {
			diffs = append(diffs, fmt.Sprintf("%s: want an absolute path, as Claude Code's, got %q", at, s))
		}
	}
	return diffs
}

func jsonType(v any) string {
	if v == nil {
		return "null"
	}
	return reflect.TypeOf(v).String()
}

// notebook is the notebook the SDK's NotebookEdit input edits: one code
// cell, without ids (nbformat 4.4), so cell-0 names it.
const notebook = `{"cells":[{"cell_type":"code","execution_count":null,"metadata":{},"outputs":[],"source":["print(0)"]}],` +
	`"metadata":{"language_info":{"name":"python"}},"nbformat":4,"nbformat_minor":4}`

// sdkPlaces puts tack's names in place of those the SDK inputs stand
// for: the workspace, and the background task b1, which the inputs' own
// background Bash call started and tack names bash-1.
func sdkPlaces(cwd string) *strings.Replacer {
	return strings.NewReplacer("/workspace", cwd, `"b1"`, `"bash-1"`)
}

// choosingFirstOptions is a broker whose user answers every question with
// its first option, and a multi-select one with its first two.
func choosingFirstOptions(t *testing.T) *interact.Broker {
	b := interact.NewBroker()
	interacttest.Serve(t, b, func(r *interact.Request) {
		var answers []interact.Answer
		for _, q := range r.Questions {
			a := interact.Answer{ID: q.ID, Selected: []string{q.Options[0].Label}}
			if q.MultiSelect {
				a.Selected = append(a.Selected, q.Options[1].Label)
			}
			answers = append(answers, a)
		}
		r.Answer(answers)
	})
	return b
}

// moreShapes are calls, in the SDK inputs' terms, whose answers take the
// shapes those inputs do not reach: Grep's other output modes, a window
// of a file named relative to the workspace, a search that finds nothing,
// a plan that replaces one, a notebook's cell inserted and deleted, a
// notebook read.
var moreShapes = []transcriptCall{
	{Tool: "Grep", Input: json.RawMessage(`{"pattern":"line","path":"/workspace"}`)},
	{Tool: "Grep", Input: json.RawMessage(`{"pattern":"line","output_mode":"count"}`)},
	{Tool: "Grep", Input: json.RawMessage(`{"pattern":"no such text","output_mode":"content"}`)},
	{Tool: "Read", Input: json.RawMessage(`{"file_path":"notes.txt","offset":2}`)},
	{Tool: "Glob", Input: json.RawMessage(`{"pattern":"*.none"}`)},
	{Tool: "TodoWrite", Input: json.RawMessage(`{"todos":[{"content":"Read the loader","status":"completed","activeForm":"Reading the loader"}]}`)},
	{Tool: "NotebookEdit", Input: json.RawMessage(`{"notebook_path":"analysis.ipynb","new_source":"# Notes","cell_type":"markdown","edit_mode":"insert"}`)},
	{Tool: "NotebookEdit", Input: json.RawMessage(`{"notebook_path":"analysis.ipynb","cell_id":"cell-1","edit_mode":"delete"}`)},
	{Tool: "ListMcpResourcesTool", Input: json.RawMessage(`{}`)},
	{Tool: "ReadMcpResourceTool", Input: json.RawMessage(`{"server":"docs","uri":"docs://guide"}`)},
	{Tool: "ReadMcpResourceTool", Input: json.RawMessage(`{"server":"docs","uri":"docs://logo"}`)},
	{Tool: "Read", Input: json.RawMessage(`{"file_path":"analysis.ipynb"}`)},
}

// resourceTools are list_mcp_resources and read_mcp_resource of an MCP
// server made with the go-sdk, the protocol's Go implementation, over
// streamable HTTP: docs, which offers a text resource and a binary one.
func resourceTools(t *testing.T, cwd string) []tools.Tool {
	t.Helper()
	s := sdk.NewServer(&sdk.Implementation{Name: "docs", Version: "1"}, nil)
	for _, r := range []sdk.ResourceContents{
		{URI: "docs://guide", MIMEType: "text/markdown", Text: "# Guide\nRead me first.\n"},
		{URI: "docs://logo", MIMEType: "image/png", Blob: []byte("\x89PNG\r\n\x1a\n")},
	} {
		s.AddResource(&sdk.Resource{URI: r.URI, Name: strings.TrimPrefix(r.URI, "docs://"), MIMEType: r.MIMEType,
			Description: "The docs' " + r.URI},
			func(context.Context, *sdk.ReadResourceRequest) (*sdk.ReadResourceResult, error) {
				return &sdk.ReadResourceResult{Contents: []*sdk.ResourceContents{&r}}, nil
			})
	}
	ts := httptest.NewServer(sdk.NewStreamableHTTPHandler(func(*http.Request) *sdk.Server { return s }, nil))
	t.Cleanup(ts.Close)
	m := mcp.New(mcp.Options{Cwd: cwd, Servers: []mcp.Server{{Name: "docs", Origin: "test", URL: ts.URL,
		StartupTimeout: 10 * time.Second, ToolTimeout: 10 * time.Second}}})
	m.Start()
	t.Cleanup(m.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	m.Settle(ctx)
	return m.Tools()
}

// TestMCPResourceAnswersCarryWhatWasRead pins the values of the resource
// tools' answers in Claude Code's terms, whose shapes
// TestClaudeAgentSDKToolInputsAreAccepted checks: each resource listed
// with its server, a text resource's text, and the file a binary one was
// saved to (blobSavedTo), which holds its bytes.
func TestMCPResourceAnswersCarryWhatWasRead(t *testing.T) {
	cwd := t.TempDir()
	registry := map[string]tools.Tool{}
	for _, tool := range resourceTools(t, cwd) {
		registry[tool.Spec().Name] = tool
	}
	env := &tools.Env{Cwd: cwd, SpillDir: t.TempDir()}
	answer := func(tool, args string) string {
		r := registry[tools.CallName(tool)].Run(context.Background(), tools.Call{ID: "call_mcp", Args: json.RawMessage(args), Env: env})
		return mustJSON(t, claudemsg.ToolUseResult(claudemsg.ToolCall{ID: "call_mcp", Name: tool, Input: json.RawMessage(args),
			Text: r.Text, IsError: r.IsError, Card: r.Card}))
	}
	want := `[{"uri":"docs://guide","name":"guide","mimeType":"text/markdown","description":"The docs' docs://guide","server":"docs"},` +
		`{"uri":"docs://logo","name":"logo","mimeType":"image/png","description":"The docs' docs://logo","server":"docs"}]`
	if got := answer("ListMcpResourcesTool", `{}`); got != want {
		t.Errorf("ListMcpResourcesTool answered\n%s\nwant\n%s", got, want)
	}
	want = `{"contents":[{"uri":"docs://guide","mimeType":"text/markdown","text":"# Guide\nRead me first.\n"}]}`
	if got := answer("ReadMcpResourceTool", `{"server":"docs","uri":"docs://guide"}`); got != want {
		t.Errorf("ReadMcpResourceTool of a text answered\n%s\nwant\n%s", got, want)
	}
	got := answer("ReadMcpResourceTool", `{"server":"docs","uri":"docs://logo"}`)
	var logo struct {
		Contents []struct{ URI, MIMEType, Text, BlobSavedTo string }
	}
	if err := json.Unmarshal([]byte(got), &logo); err != nil || len(logo.Contents) != 1 || logo.Contents[0].BlobSavedTo == "" ||
		logo.Contents[0].Text != "" || logo.Contents[0].MIMEType != "image/png" {
		t.Fatalf("ReadMcpResourceTool of a binary answered %s, want its one content by the file it was saved to", got)
	}
	if data, err := os.ReadFile(logo.Contents[0].BlobSavedTo); err != nil || string(data) != "\x89PNG\r\n\x1a\n" {
		t.Errorf("blobSavedTo names a file of %q (%v), want the resource's bytes", data, err)
	}
}

// claudeOutputs names the SDK's output type of each Claude Code tool whose
// tool_use_result tack gives in its shape.
var claudeOutputs = map[string]string{
	"Bash": "BashOutput", "Edit": "FileEditOutput", "Write": "FileWriteOutput",
	"Read": "FileReadOutput", "Glob": "GlobOutput", "Grep": "GrepOutput",
	"TodoWrite": "TodoWriteOutput", "ExitPlanMode": "ExitPlanModeOutput", "AskUserQuestion": "AskUserQuestionOutput",
	"WebFetch": "WebFetchOutput", "WebSearch": "WebSearchOutput", "Agent": "AgentOutput", "TaskStop": "TaskStopOutput",
	"NotebookEdit": "NotebookEditOutput", "ListMcpResourcesTool": "ListMcpResourcesOutput",
	"ReadMcpResourceTool": "ReadMcpResourceOutput",
}

// outputSchema is one output type of the SDK, resolved for validation.
type outputSchema struct {
	name     string
	resolved *jsonschema.Resolved
}

func (o outputSchema) check(v any) error {
	var instance any
	b, err := json.Marshal(v)
	if err == nil {
		err = json.Unmarshal(b, &instance)
	}
	if err != nil {
		return err
	}
	return o.resolved.Validate(instance)
}

// readOutputSchemas is the SDK's output type of each Claude Code tool
// whose tool_use_result tack gives in its shape.
func readOutputSchemas(t *testing.T) map[string]outputSchema {
	t.Helper()
	b, err := os.ReadFile(sdkOutputs)
	if err != nil {
		t.Fatal(err)
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(b, &all); err != nil {
		t.Fatal(err)
	}
	out := map[string]outputSchema{}
	for tool, name := range claudeOutputs {
		var s jsonschema.Schema
		if err := json.Unmarshal(all[name], &s); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		r, err := s.Resolve(nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out[tool] = outputSchema{name: name, resolved: r}
	}
	return out
}

func mustJSON(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
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
	return task.Outcome{Answer: "Explored.", Progress: task.Progress{Child: "child-session", Model: "deepseek-flash",
		Steps: 2, ToolCalls: 1, Usage: llm.Usage{Input: 900, CacheRead: 300, Output: 120, Reasoning: 40}}}
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

// TestStructuredPatchIsWhatDiffSays: the structuredPatch of an Edit's
// tool_use_result has the hunks GNU diff -U3 finds between the file before
// and after, each with its line ranges and its two sides, for edits of
// every size and place. Within a block of changed lines the order of
// removals and additions may differ: tack shows each replaced place's
// old lines right above its new ones (replacediff.go), diff all removals
// first, and both apply the same.
func TestStructuredPatchIsWhatDiffSays(t *testing.T) {
	diff, err := exec.LookPath("diff")
	if err != nil {
		t.Skip("diff, the oracle, is not installed")
	}
	cwd := t.TempDir()
	registry := replayTools(t, &recordingExec{})
	env := &tools.Env{SessionID: "patch", Cwd: cwd, SpillDir: t.TempDir(), Record: func(session.Data) error { return nil }}
	rng := rand.New(rand.NewPCG(7, 26))
	for n := range 60 {
		// Every other edit replaces all the marker lines, some of them
		// far enough apart for hunks of their own.
		var lines []string
		for i := range 5 + rng.IntN(40) {
			text := fmt.Sprintf("line %d of file %d", i+1, n)
			if n%2 == 1 && rng.IntN(6) == 0 {
				text = "marker"
			}
			lines = append(lines, text)
		}
		before := strings.Join(lines, "\n") + "\n"
		from := rng.IntN(len(lines))
		to := min(len(lines), from+1+rng.IntN(4))
		var replacement []string
		for i := range rng.IntN(5) {
			replacement = append(replacement, fmt.Sprintf("new %d.%d", n, i))
		}
		input := map[string]any{"old_string": strings.Join(lines[from:to], "\n"), "new_string": strings.Join(replacement, "\n")}
		if strings.Contains(before, "marker") {
			input = map[string]any{"old_string": "marker", "new_string": "done", "replace_all": true}
		}
		path := filepath.Join(cwd, fmt.Sprintf("f%d.txt", n))
		if err := os.WriteFile(path, []byte(before), 0o644); err != nil {
			t.Fatal(err)
		}
		run := func(tool string, args any) tools.Result {
			raw, _ := json.Marshal(args)
			return registry[tool].Run(context.Background(), tools.Call{ID: "c", Args: raw, Env: env, Sandbox: tools.Sandbox{Off: true}})
		}
		run("read", map[string]any{"file_path": path})
		input["file_path"] = path
		r := run("edit", input)
		if r.IsError {
			t.Fatalf("edit %d: %s", n, r.Text)
		}
		raw, _ := json.Marshal(input)
		var got struct {
			StructuredPatch []unifiedHunk `json:"structuredPatch"`
		}
		if err := json.Unmarshal([]byte(mustJSON(t, claudemsg.ToolUseResult(claudemsg.ToolCall{Name: "Edit", Input: raw, Text: r.Text, Card: r.Card}))), &got); err != nil {
			t.Fatal(err)
		}
		want := diffHunks(t, diff, before, path)
		if !reflect.DeepEqual(sides(got.StructuredPatch), sides(want)) {
			t.Errorf("edit %d (%v): want diff's hunks\n%+v\ngot\n%+v", n, input, want, got.StructuredPatch)
		}
	}
}

// unifiedHunk is a hunk of a unified diff, as structuredPatch writes it.
type unifiedHunk struct {
	OldStart, OldLines, NewStart, NewLines int
	Lines                                  []string
}

// sides is each hunk's ranges and the lines of its two sides: context
// and removals, context and additions.
func sides(hunks []unifiedHunk) []unifiedHunk {
	var out []unifiedHunk
	for _, h := range hunks {
		var before, after []string
		for _, l := range h.Lines {
			if l[0] != '+' {
				before = append(before, l[1:])
			}
			if l[0] != '-' {
				after = append(after, l[1:])
			}
		}
		h.Lines = append(append(before, "|"), after...)
		out = append(out, h)
	}
	return out
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// diffHunks runs diff -U3 between before and the file at path and reads
// its hunks.
func diffHunks(t *testing.T, diff, before, path string) []unifiedHunk {
	t.Helper()
	old := filepath.Join(t.TempDir(), "before")
	if err := os.WriteFile(old, []byte(before), 0o644); err != nil {
		t.Fatal(err)
	}
	out, _ := exec.Command(diff, "-U3", old, path).Output()
	var hunks []unifiedHunk
	for _, l := range strings.Split(strings.TrimSuffix(string(out), "\n"), "\n") {
		if m := hunkHeader.FindStringSubmatch(l); m != nil {
			num := func(s string) int {
				if s == "" {
					return 1
				}
				n, _ := strconv.Atoi(s)
				return n
			}
			hunks = append(hunks, unifiedHunk{OldStart: num(m[1]), OldLines: num(m[2]), NewStart: num(m[3]), NewLines: num(m[4])})
			continue
		}
		if len(hunks) > 0 && l != "" && strings.ContainsRune(" +-", rune(l[0])) {
			h := &hunks[len(hunks)-1]
			h.Lines = append(h.Lines, l)
		}
	}
	return hunks
}
