package agent_test

import (
	"context"
	"errors"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/checkpoint"
	"github.com/tack-agent/tack/backend/llm"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/backend/tools/bash"
	tfs "github.com/tack-agent/tack/backend/tools/fs"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// journey is a session over a real workspace, real file and bash tools, a
// checkpoint store and the fake model server.
type journey struct {
	t     *testing.T
	ws    string
	srv   *llmtest.Server
	log   *session.Log
	agent *agent.Agent
	store *checkpoint.Store
}

func newJourney(t *testing.T, files map[string]string, script []llmtest.Response, mod ...func(*checkpoint.Options)) *journey {
	t.Helper()
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("bash is not installed; the rewind journey runs commands through it")
	}
	ws, home := t.TempDir(), t.TempDir()
	testkit.WriteTree(t, ws, files)
	j := &journey{t: t, ws: ws, srv: llmtest.New(t, script...)}
	var err error
	path := filepath.Join(home, "s.jsonl")
	j.log, err = session.Create(path, session.Header{Version: 1, ID: "s1", Created: time.Unix(0, 0).UTC(), Cwd: ws, Model: "deepseek-v4-flash"})
	if err != nil {
		t.Fatal(err)
	}
	opts := checkpoint.Options{Home: home, Workspace: ws, Session: "s1"}
	for _, f := range mod {
		f(&opts)
	}
	if j.store, err = checkpoint.Open(opts); err != nil {
		t.Fatal(err)
	}
	sh := bash.New(bash.Local{}, bash.Options{Environ: []string{"PATH=" + os.Getenv("PATH")}})
	reg := tools.NewRegistry(tfs.New(tfs.NewTracker())...)
	for _, tool := range sh.All() {
		reg.Add(tool)
	}
	j.agent = agent.New(agent.Config{
		Log: j.log, Provider: llm.NewClient(llm.ClientConfig{BaseURL: j.srv.URL(), APIKey: "test"}),
		System: "You are a test.", Tools: reg, Gate: unconfined{}, Checkpoints: j.store, Cwd: ws, SpillDir: t.TempDir(),
		Retry: llm.DefaultRetryPolicy(nil), Sleep: func(context.Context, time.Duration) error { return nil },
	})
	t.Cleanup(func() { j.agent.Close(); sh.Close(); j.log.Close() })
	return j
}

// unconfined allows every call, its commands outside any sandbox (a
// command without a grant to run unconfined must run in one).
type unconfined struct{}

func (unconfined) Authorize(context.Context, tools.Tool, tools.Call) (tools.Sandbox, error) {
	return tools.Sandbox{Off: true}, nil
}

func (unconfined) Grant(tools.Tool) tools.Sandbox { return tools.Sandbox{Off: true} }

// turn sends a prompt and waits for the turn to end.
func (j *journey) turn(prompt string) {
	j.t.Helper()
	j.agent.Send(prompt)
	testkit.Settle(j.t, j.agent)
}

func (j *journey) rewind(req agent.RewindRequest) agent.RewindResult {
	j.t.Helper()
	res, err := j.agent.Rewind(context.Background(), req)
	if err != nil {
		j.t.Fatalf("rewind %+v: %v", req, err)
	}
	return res
}

// lastUserTexts are the user and tool messages of the latest model
// request, in order.
func (j *journey) lastRequest() []string {
	reqs := j.srv.Requests()
	var out []string
	for _, m := range reqs[len(reqs)-1].Messages {
		if m.Role != "system" {
			out = append(out, m.Role+":"+m.Content)
		}
	}
	return out
}

func wantFiles(t *testing.T, dir, when string, want map[string]string) {
	t.Helper()
	if got := testkit.ReadTree(t, dir); !maps.Equal(got, want) {
		t.Fatalf("%s: want the workspace to hold %v, got %v", when, want, got)
	}
}

func userGit(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + dir, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=u", "GIT_AUTHOR_EMAIL=u@x", "GIT_COMMITTER_NAME=u", "GIT_COMMITTER_EMAIL=u@x"}
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// journeyScript is turns 1–3 of the acceptance journey, then two
// text-only turns.
func journeyScript() []llmtest.Response {
	call := func(id, name, args string) llmtest.Response {
		return llmtest.Reply(llmtest.ToolCall(id, name, args, 2), llmtest.Finish("tool_calls"))
	}
	return []llmtest.Response{
		call("c1", "write", `{"file_path":"a.txt","content":"turn one\n"}`),
		llmtest.ReplyText("Wrote a.txt."),
		llmtest.Reply(llmtest.ToolCall("c2", "edit", `{"file_path":"a.txt","old_string":"one","new_string":"two"}`, 2),
			llmtest.ToolCall("c3", "bash", `{"command":"echo x > b.txt","description":"Make b.txt"}`, 2), llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Edited a.txt and made b.txt."),
		call("c4", "bash", `{"command":"rm old.txt","description":"Delete old.txt"}`),
		llmtest.ReplyText("Deleted old.txt."),
		llmtest.ReplyText("Turn four."),
		llmtest.ReplyText("Turn five."),
	}
}

func TestRewindJourneyRestoresFilesAndConversationAndCanBeUndone(t *testing.T) {
	needGit(t)
	start := map[string]string{"old.txt": "from before\n"}
	j := newJourney(t, start, journeyScript())
	userGit(t, j.ws, "init", "-q")
	userGit(t, j.ws, "add", "-A")
	userGit(t, j.ws, "commit", "-q", "-m", "start")
	gitBefore := testkit.HashTree(t, filepath.Join(j.ws, ".git"))

	j.turn("write a.txt")
	j.turn("edit a.txt and make b.txt")
	j.turn("delete old.txt")
	afterThree := map[string]string{"a.txt": "turn two\n", "b.txt": "x\n"}
	wantFiles(t, j.ws, "after turn 3", afterThree)

	res := j.rewind(agent.RewindRequest{Turn: 2, Files: true, Conversation: true})
	wantFiles(t, j.ws, "after rewinding to turn 2", map[string]string{"a.txt": "turn one\n", "old.txt": "from before\n"})
	if res.Prompt != "edit a.txt and make b.txt" || !slices.Equal(res.Rewound, []int{2, 3}) {
		t.Errorf("want turn 2's prompt back and turns 2–3 rewound, got %+v", res)
	}
	if !slices.Equal(res.Files.Deleted, []string{"b.txt"}) || !slices.Equal(res.Files.Written, []string{"a.txt", "old.txt"}) {
		t.Errorf("want b.txt deleted and a.txt, old.txt written, got %+v", res.Files)
	}
	h, events, err := session.Read(j.log.Path())
	if err != nil {
		t.Fatal(err)
	}
	if got := session.RewoundTurns(h, events); !slices.Equal(got, []int{2, 3}) {
		t.Errorf("want the log to hold turns 2 and 3 marked rewound, got %v", got)
	}

	j.turn("turn four")
	want := []string{"user:write a.txt", "assistant:", "tool:", "assistant:Wrote a.txt.", "user:turn four"}
	if got := j.lastRequest(); !slices.Equal(trimTool(got), want) {
		t.Errorf("want the next request to hold only turn 1, got %q", got)
	}

	undo := j.rewind(agent.RewindRequest{Undo: true, Files: true, Conversation: true})
	if !slices.Equal(undo.Restored, []int{2, 3}) || !slices.Equal(undo.Rewound, []int{4}) {
		t.Errorf("want the undo to bring back turns 2–3 and take back turn 4, got %+v", undo)
	}
	wantFiles(t, j.ws, "after undoing the rewind", afterThree)
	j.turn("turn five")
	got := strings.Join(trimTool(j.lastRequest()), " | ")
	for _, p := range []string{"write a.txt", "edit a.txt and make b.txt", "delete old.txt", "turn five"} {
		if !strings.Contains(got, "user:"+p) {
			t.Errorf("want turn prompt %q in the request after the undo, got %s", p, got)
		}
	}
	if strings.Contains(got, "turn four") {
		t.Errorf("want turn four, taken back by the undo, out of the request, got %s", got)
	}
	if v := j.srv.Violations(); len(v) > 0 {
		t.Errorf("want valid requests, the fake server found %v", v)
	}
	if got := testkit.HashTree(t, filepath.Join(j.ws, ".git")); got != gitBefore {
		t.Error("want the user's .git byte-identical after the journey's checkpoints and restores, it changed")
	}
}

// trimTool drops tool results' text, which holds paths of the temporary
// workspace.
func trimTool(msgs []string) []string {
	out := slices.Clone(msgs)
	for i, m := range out {
		if strings.HasPrefix(m, "tool:") {
			out[i] = "tool:"
		}
	}
	return out
}

func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed; this journey needs the shadow repository")
	}
}

// eachStore runs test over each kind of checkpoint store: the git store
// (where git is installed) and the files store, which it gets by giving
// the store a git that does not exist.
func eachStore(t *testing.T, test func(t *testing.T, store ...func(*checkpoint.Options))) {
	t.Run("git", func(t *testing.T) {
		needGit(t)
		test(t)
	})
	t.Run("files", func(t *testing.T) {
		test(t, func(o *checkpoint.Options) { o.Git = filepath.Join(t.TempDir(), "no-git") })
	})
}

func TestRewindRefusesToLoseChangesMadeOutsideTackUnlessForced(t *testing.T) {
	needGit(t)
	j := newJourney(t, map[string]string{"notes.md": "mine\n"}, journeyScript()[:4])
	j.turn("write a.txt")
	// The user edits a file between turns.
	testkit.WriteTree(t, j.ws, map[string]string{"notes.md": "edited by the user\n"})
	j.turn("edit a.txt and make b.txt")
	testkit.WriteTree(t, j.ws, map[string]string{"late.txt": "made by the user after the turn\n"})

	_, err := j.agent.Rewind(context.Background(), agent.RewindRequest{Turn: 1, Files: true, Conversation: true})
	var outside *agent.OutsideChangesError
	if !errors.As(err, &outside) || !slices.Equal(outside.Paths, []string{"late.txt", "notes.md"}) {
		t.Fatalf("want a refusal listing notes.md and late.txt, got %v", err)
	}
	kept := map[string]string{"a.txt": "turn two\n", "b.txt": "x\n", "notes.md": "edited by the user\n", "late.txt": "made by the user after the turn\n"}
	wantFiles(t, j.ws, "after the refusal", kept)
	if turns := j.agent.Turns(); len(turns) != 2 {
		t.Errorf("want the conversation untouched by a refused rewind, got %d turns", len(turns))
	}

	j.rewind(agent.RewindRequest{Turn: 1, Files: true, Conversation: true, Force: true})
	wantFiles(t, j.ws, "after a forced rewind", map[string]string{"notes.md": "mine\n"})
	// Forced, and still undoable: the user's changes come back.
	j.rewind(agent.RewindRequest{Undo: true, Files: true, Conversation: true})
	wantFiles(t, j.ws, "after undoing the forced rewind", kept)
}

func TestWithoutGitRewindRestoresWhatTacksEditsChangedAndSaysShellChangesAreNot(t *testing.T) {
	noGit := func(o *checkpoint.Options) { o.Git = filepath.Join(t.TempDir(), "no-git") }
	j := newJourney(t, map[string]string{"old.txt": "from before\n"}, journeyScript()[:4], noGit)
	j.turn("write a.txt")
	j.turn("edit a.txt and make b.txt")
	for _, e := range j.log.Events() {
		if c, ok := e.Data.(session.Checkpoint); ok && c.Store != "files" {
			t.Errorf("want every checkpoint kept by the files store, got %+v", c)
		}
	}
	res := j.rewind(agent.RewindRequest{Turn: 2, Files: true, Conversation: true})
	if !strings.Contains(res.Note, "git is not installed") || !strings.Contains(res.Note, "shell commands were not undone") {
		t.Errorf("want the rewind to say shell changes were not undone without git, got %q", res.Note)
	}
	// a.txt's edit is undone; b.txt, made by bash, stays.
	wantFiles(t, j.ws, "after rewinding to turn 2 without git",
		map[string]string{"a.txt": "turn one\n", "b.txt": "x\n", "old.txt": "from before\n"})
	j.rewind(agent.RewindRequest{Turn: 1, Files: true, Conversation: true})
	wantFiles(t, j.ws, "after rewinding to turn 1 without git", map[string]string{"b.txt": "x\n", "old.txt": "from before\n"})
}

// The rewind picker lists turns from the front door's copy of the
// projection: it must hold each turn's prompt, checkpoint and the files
// tack changed, from the snapshot and from the live events applied to it.
func TestAFrontDoorsProjectionListsTurnsWithPromptsCheckpointsAndFiles(t *testing.T) {
	needGit(t)
	j := newJourney(t, map[string]string{"old.txt": "from before\n"}, journeyScript())
	j.turn("write a.txt")
	snap, sub := j.agent.Subscribe()
	defer sub.Close()
	j.turn("edit a.txt and make b.txt")
	for _, e := range j.log.Events() {
		if e.Seq >= snap.NextSeq {
			snap.Projection.Apply(e)
		}
	}
	turns := snap.Projection.Turns()
	if len(turns) != 2 {
		t.Fatalf("want 2 turns, got %+v", turns)
	}
	want := []struct {
		prompt  string
		changed []string
	}{{"write a.txt", []string{"a.txt"}}, {"edit a.txt and make b.txt", []string{"a.txt", "b.txt"}}}
	for i, w := range want {
		got := turns[i]
		if got.Prompt != w.prompt || got.Checkpoint.ID == "" || !slices.Equal(got.Changed, w.changed) {
			t.Errorf("turn %d: want prompt %q, a checkpoint and changed %v, got %+v", i+1, w.prompt, w.changed, got)
		}
	}
}

// A workspace with more files than checkpoints may hold (100,000 files
// under a lower max_files here) gets no checkpoints, says why and what to
// do, and keeps the conversation rewindable.
func TestAWorkspaceTooLargeForCheckpointsSaysWhyAndRewindsTheConversation(t *testing.T) {
	needGit(t)
	files := map[string]string{}
	for i := range 20 {
		files[filepath.Join("gen", strconv.Itoa(i)+".txt")] = "generated"
	}
	j := newJourney(t, files, journeyScript(), func(o *checkpoint.Options) { o.MaxFiles = 10 })
	j.turn("write a.txt")
	j.turn("edit a.txt and make b.txt")
	var failed []session.Checkpoint
	for _, e := range j.log.Events() {
		if c, ok := e.Data.(session.Checkpoint); ok && c.Error != "" {
			failed = append(failed, c)
		}
	}
	if len(failed) != 1 || !strings.Contains(failed[0].Error, "more than 10 files") ||
		!strings.Contains(failed[0].Error, "raise [checkpoints] max_files") || !strings.Contains(failed[0].Error, "Checkpoints are off") {
		t.Fatalf("want one failed checkpoint saying why, what to do and that checkpoints are off, got %+v", failed)
	}
	if off := j.agent.CheckpointsOff(); off == "" {
		t.Error("want checkpoints off for the rest of the session")
	}
	_, err := j.agent.Rewind(context.Background(), agent.RewindRequest{Turn: 2, Files: true, Conversation: true})
	if err == nil || !strings.Contains(err.Error(), "rewind the conversation only") {
		t.Errorf("want a files rewind refused with what to do instead, got %v", err)
	}
	res := j.rewind(agent.RewindRequest{Turn: 2, Conversation: true})
	if !slices.Equal(res.Rewound, []int{2}) || res.Prompt != "edit a.txt and make b.txt" {
		t.Errorf("want the conversation rewound to before turn 2, got %+v", res)
	}
}

// /diff and a rewind_files dry run take a checkpoint and compare it with a
// turn's. Neither may make the files tack's own tools wrote look changed
// outside tack to a rewind after them; a file the user changed after the
// turn must still stop the rewind.
func TestADiffBeforeARewindLeavesTheOutsideChangesCheckAsItWas(t *testing.T) {
	eachStore(t, func(t *testing.T, store ...func(*checkpoint.Options)) {
		newDiffed := func(t *testing.T) *journey {
			j := newJourney(t, map[string]string{"notes.md": "mine\n"}, journeyScript()[:2], store...)
			j.turn("write a.txt")
			if changes, err := j.agent.Diff(context.Background(), 1); err != nil || len(changes) != 1 || changes[0].Path != "a.txt" {
				t.Fatalf("want /diff of turn 1 to list a.txt, got %+v, %v", changes, err)
			}
			return j
		}
		t.Run("tack's own writes", func(t *testing.T) {
			j := newDiffed(t)
			j.rewind(agent.RewindRequest{Turn: 1, Files: true})
			wantFiles(t, j.ws, "after rewinding a diffed turn", map[string]string{"notes.md": "mine\n"})
		})
		t.Run("a change outside tack", func(t *testing.T) {
			j := newDiffed(t)
			testkit.WriteTree(t, j.ws, map[string]string{"a.txt": "edited by the user\n"})
			if _, err := j.agent.Diff(context.Background(), 1); err != nil {
				t.Fatalf("diff after the user's edit: %v", err)
			}
			_, err := j.agent.Rewind(context.Background(), agent.RewindRequest{Turn: 1, Files: true})
			var outside *agent.OutsideChangesError
			if !errors.As(err, &outside) || !slices.Equal(outside.Paths, []string{"a.txt"}) {
				t.Fatalf("want a refusal listing a.txt, edited by the user after the turn, got %v", err)
			}
			wantFiles(t, j.ws, "after the refusal", map[string]string{"a.txt": "edited by the user\n", "notes.md": "mine\n"})
		})
	})
}

// The user edits a.txt by hand between two turns whose tools both edit
// it. A rewind to before the first would lose the user's edit, with
// either store; forced, it can be undone.
func TestRewindRefusesToLoseAnEditMadeBetweenTwoOfTacksOwn(t *testing.T) {
	script := []llmtest.Response{
		journeyScript()[0], journeyScript()[1],
		llmtest.Reply(llmtest.ToolCall("c2", "read", `{"file_path":"a.txt"}`, 2), llmtest.Finish("tool_calls")),
		llmtest.Reply(llmtest.ToolCall("c3", "edit", `{"file_path":"a.txt","old_string":"one","new_string":"two"}`, 2),
			llmtest.Finish("tool_calls")),
		llmtest.ReplyText("Edited a.txt."),
	}
	eachStore(t, func(t *testing.T, store ...func(*checkpoint.Options)) {
		j := newJourney(t, map[string]string{"notes.md": "mine\n"}, script, store...)
		j.turn("write a.txt")
		testkit.WriteTree(t, j.ws, map[string]string{"a.txt": "turn one\nthe user's line\n"})
		j.turn("read a.txt and edit it")
		kept := map[string]string{"a.txt": "turn two\nthe user's line\n", "notes.md": "mine\n"}
		wantFiles(t, j.ws, "after turn 2", kept)

		_, err := j.agent.Rewind(context.Background(), agent.RewindRequest{Turn: 1, Files: true})
		var outside *agent.OutsideChangesError
		if !errors.As(err, &outside) || !slices.Equal(outside.Paths, []string{"a.txt"}) {
			t.Fatalf("want a refusal listing a.txt, edited by the user between the turns, got %v", err)
		}
		wantFiles(t, j.ws, "after the refusal", kept)
		j.rewind(agent.RewindRequest{Turn: 1, Files: true, Force: true})
		wantFiles(t, j.ws, "after a forced rewind", map[string]string{"notes.md": "mine\n"})
		j.rewind(agent.RewindRequest{Undo: true, Files: true})
		wantFiles(t, j.ws, "after undoing the forced rewind", kept)
	})
}
