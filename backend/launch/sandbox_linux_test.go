package launch

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/interact"
	"github.com/tack-agent/tack/backend/interact/interacttest"
	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/backend/session"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/procs"
)

// Where no sandbox can be set up (forced here by the config switch), the
// session says so once as it starts and in /status, and auto mode behaves
// as ask: a command asks first, does not run when denied, and runs
// (unconfined) once allowed. It never runs silently unconfined.
func TestWithoutASandboxTheSessionSaysSoAndAsksBeforeEveryCommand(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(home, "config.toml"), []byte("[sandbox]\nenabled = false\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	llm := llmtest.New(t, bashCall("call_1", "echo denied > F1"), bashCall("call_2", "echo allowed > F2"), llmtest.ReplyText("ok"))
	s := openMCP(t, home, cwd, "auto", llm)
	var asked atomic.Int32
	interacttest.Serve(t, s.Broker, func(r *interact.Request) {
		if r.Approval == nil {
			return
		}
		v := interact.Deny
		if asked.Add(1) == 2 {
			v = interact.Allow
		}
		r.Decide(interact.Decision{Verdict: v})
	})
	runTurn(t, s, "Write the files.")

	if _, err := os.Stat(filepath.Join(cwd, "F1")); err == nil {
		t.Error("want the denied command not run, F1 exists")
	}
	if b, err := os.ReadFile(filepath.Join(cwd, "F2")); err != nil || string(b) != "allowed\n" {
		t.Errorf("want the allowed command run, F2 = %q (%v)", b, err)
	}
	if n := asked.Load(); n != 2 {
		t.Errorf("want both commands to ask first, %d asked", n)
	}
	said := 0
	for _, n := range notices(t, s) {
		if strings.HasPrefix(n, "No sandbox: the sandbox is turned off in config.toml") && strings.Contains(n, "Every command asks before it runs") {
			said++
		}
	}
	if said != 1 {
		t.Errorf("want the missing sandbox said once, as the session started; said %d times in %q", said, notices(t, s))
	}
	if got := s.Policy.StatusLabel(); got != "auto · no sandbox" {
		t.Errorf("want the status row to say auto · no sandbox, got %q", got)
	}
	exec, _ := s.Commands.Execute(context.Background(), s.Agent, "/status", nil)
	if !strings.Contains(exec.Result.Text, "none: the sandbox is turned off in config.toml ([sandbox] enabled = false); every command asks first") {
		t.Errorf("want /status to say there is no sandbox and why, got:\n%s", exec.Result.Text)
	}
}

// In plan mode a write hidden in an arithmetic expansion, which bash runs
// although a parser reads it as text, writes nothing: the planner's
// commands run in a sandbox without writes.
func TestPlanModeCommandsWriteNothing(t *testing.T) {
	home, cwd := t.TempDir(), t.TempDir()
	llm := llmtest.New(t, bashCall("call_1", "cat $(( '$(echo x > F)' ))"), llmtest.ReplyText("planned"))
	s := openMCP(t, home, cwd, "auto", llm)
	requireSandbox(t, s)
	denyApprovals(t, s.Broker)
	runCommand(t, s, "/plan look around")
	if _, err := os.Stat(filepath.Join(cwd, "F")); err == nil {
		t.Fatal("want no file written while planning, F exists")
	}
	var result *session.ToolResult
	for _, e := range s.Agent.Events() {
		if r, ok := e.Data.(session.ToolResult); ok && r.CallID == "call_1" {
			result = &r
		}
	}
	if result == nil || !result.IsError && !strings.Contains(result.Text, "Read-only file system") {
		t.Fatalf("want the command refused or its write failed, got %+v", result)
	}
}

// Cancelling a turn ends every process of its running command at once:
// one in a session of its own and one that ignores SIGTERM too.
func TestCancelEndsTheWholeTreeOfTheRunningCommand(t *testing.T) {
	for _, mode := range []string{"auto", "full-access"} {
		t.Run(mode, func(t *testing.T) {
			escaped, stubborn := procs.UniqueSleep(601), procs.UniqueSleep(602)
			llm := llmtest.New(t, bashCall("call_1", "setsid sleep "+escaped+" & (trap '' TERM; exec sleep "+stubborn+") & wait"),
				llmtest.ReplyText("stopped"))
			s := openMCP(t, t.TempDir(), t.TempDir(), mode, llm)
			if mode == "auto" {
				requireSandbox(t, s)
			}
			s.Agent.Send("Sleep.")
			fds := []int{procs.Find(t, time.Minute, "sleep", escaped), procs.Find(t, time.Minute, "sleep", stubborn)}
			s.Agent.Cancel()
			testkit.Settle(t, s.Agent)
			for i, fd := range fds {
				if !procs.Exited(fd, 10*time.Second) {
					t.Errorf("want sleep %s ended with the cancelled turn, it still runs", []string{escaped, stubborn}[i])
				}
			}
		})
	}
}

// openGoSession opens an auto-mode session (see openAs) with env besides
// and a tiny Go module in the workspace. It skips where go or the sandbox
// is missing.
func openGoSession(t *testing.T, llm *llmtest.Server, env ...string) (s *Session, user string) {
	t.Helper()
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not installed: " + err.Error())
	}
	u := newUser(t)
	for name, text := range map[string]string{"go.mod": "module example.com/tiny\n\ngo 1.22\n", "tiny.go": "package tiny\n"} {
		if err := os.WriteFile(filepath.Join(u.cwd, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return u.open(t, llm, append([]string{"GOTOOLCHAIN=local"}, env...)...), u.home
}

// user is a tack home, a workspace, and a home and a temp directory of
// the user's own for the commands (a home in /tmp, like every test
// directory, would otherwise be writable).
type user struct{ tack, cwd, home, tmp string }

func newUser(t *testing.T) user {
	return user{tack: t.TempDir(), cwd: t.TempDir(), home: t.TempDir(), tmp: t.TempDir()}
}

// open opens an auto-mode session of u's with env besides; it skips where
// the sandbox is missing.
func (u user) open(t *testing.T, llm *llmtest.Server, env ...string) *Session {
	t.Helper()
	getenv := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL(), "HOME": u.home, "TMPDIR": u.tmp}
	environ := append([]string{"PATH=" + os.Getenv("PATH"), "HOME=" + u.home, "TMPDIR=" + u.tmp}, env...)
	s, err := Open(Options{Home: u.tack, Cwd: u.cwd, Getenv: func(k string) string { return getenv[k] }, Environ: environ,
		PermissionMode: "auto", Version: "test"})
	if err != nil {
		t.Fatalf("open session: %v", err)
	}
	t.Cleanup(s.Close)
	requireSandbox(t, s)
	return s
}

// toolResult is the result of the call id, once the turn has ended.
func toolResult(t *testing.T, s *Session, id string) session.ToolResult {
	t.Helper()
	for _, e := range s.Agent.Events() {
		if r, ok := e.Data.(session.ToolResult); ok && r.CallID == id {
			return r
		}
	}
	t.Fatalf("want a result of %s, there is none", id)
	return session.ToolResult{}
}

// cardRefusal is what the terminal card of the call id says of the
// sandbox's refusal, once the turn has ended.
func cardRefusal(t *testing.T, s *Session, id string) string {
	t.Helper()
	r := toolResult(t, s, id)
	if r.Card == nil || r.Card.Terminal == nil {
		t.Fatalf("want a terminal card, got %+v (%s)", r.Card, r.Text)
	}
	return r.Card.Terminal.Refusal
}

// A session's sandboxed commands build Go into the workspace's private
// cache under the user's cache directory, not into the user's own Go cache
// (read-only to them) and not inside $TACK_HOME: go itself, run by the bash
// tool, says which cache it uses.
func TestSessionCommandsGetAPrivateGoCache(t *testing.T) {
	llm := llmtest.New(t, bashCall("call_1", "go env GOCACHE"), llmtest.ReplyText("done"))
	s, user := openGoSession(t, llm)
	denyApprovals(t, s.Broker)
	runTurn(t, s, "Which cache?")

	out := strings.TrimSpace(toolResult(t, s, "call_1").Text)
	private := filepath.Join(user, ".cache", "tack", "sandbox") + string(filepath.Separator)
	if !strings.HasPrefix(out, private) || !strings.HasSuffix(out, "go-build") {
		t.Fatalf("want go to use a private cache under %s, it uses %q", private, out)
	}
	if fi, err := os.Stat(filepath.Dir(out)); err != nil || !fi.IsDir() {
		t.Errorf("want the workspace's private cache directory made for the commands, got %v", err)
	}
}

// A build cache the user chose outside the sandbox is left to them: go
// fails on it, the user is asked to let the build out, and when they do
// not, the model reads what was refused and the card how to allow it:
// the entry of [sandbox] writable that would.
func TestGoFailingOnAChosenCacheAsksAndSaysHowToAllowIt(t *testing.T) {
	chosen := filepath.Join(t.TempDir(), "go-build")
	llm := llmtest.New(t, bashCall("call_1", "go build ./..."), llmtest.ReplyText("done"))
	s, _ := openGoSession(t, llm, "GOCACHE="+chosen)
	asked := denyApprovals(t, s.Broker)
	runTurn(t, s, "Build it.")

	if len(*asked) != 1 || !strings.Contains((*asked)[0].Why, chosen) {
		t.Errorf("want the user asked once to let the build write %s, asked %+v", chosen, *asked)
	}
	r := toolResult(t, s, "call_1")
	if !strings.Contains(r.Text, "[sandbox: refused a write to "+chosen) {
		t.Errorf("want the model told the write to %s was refused, got:\n%s", chosen, r.Text)
	}
	entry := `add "` + filepath.Dir(chosen) + `" to [sandbox] writable`
	if r.Card == nil || r.Card.Terminal == nil || !strings.Contains(r.Card.Terminal.Refusal, entry) {
		t.Fatalf("want the card to say %s allows it, got %+v", entry, r.Card)
	}
	// The user said no to a rerun: the card says so, and offers the
	// standing ways rather than the rerun they just refused.
	if ref := r.Card.Terminal.Refusal; !strings.Contains(ref, "not run again (the user denied this call)") || strings.Contains(ref, "rerun") {
		t.Errorf("want the card to say the rerun was denied and offer no rerun, got %q", ref)
	}
}

// The entry of [sandbox] writable that the card of a refused write names
// is the one that allows it: written into config.toml as the card says,
// the same command runs in the sandbox of the next session without
// asking.
func TestTheWritableEntryARefusalNamesAllowsTheWrite(t *testing.T) {
	u := newUser(t)
	share := filepath.Join(u.home, ".local", "share")
	if err := os.MkdirAll(share, 0o755); err != nil {
		t.Fatal(err)
	}
	const command = "touch $HOME/.local/share/state.db"
	s := u.open(t, llmtest.New(t, bashCall("call_1", command), llmtest.ReplyText("refused")))
	denyApprovals(t, s.Broker)
	runTurn(t, s, "Save the state.")
	refusal := cardRefusal(t, s, "call_1")
	_, quoted, ok := strings.Cut(refusal, "add ")
	quoted, _, ok2 := strings.Cut(quoted, " to [sandbox] writable")
	entry, err := strconv.Unquote(quoted)
	if !ok || !ok2 || err != nil {
		t.Fatalf("want the card to name an entry of [sandbox] writable, it says %q", refusal)
	}
	s.Close()

	config := "[sandbox]\nwritable = [" + strconv.Quote(entry) + "]\n"
	if err := os.WriteFile(filepath.Join(u.tack, "config.toml"), []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	s = u.open(t, llmtest.New(t, bashCall("call_2", command), llmtest.ReplyText("saved")))
	var asked atomic.Int32
	interacttest.Serve(t, s.Broker, func(r *interact.Request) {
		if r.Approval != nil {
			asked.Add(1)
			r.Decide(interact.Decision{Verdict: interact.Deny})
		}
	})
	runTurn(t, s, "Save the state.")
	if _, err := os.Stat(filepath.Join(share, "state.db")); err != nil || asked.Load() != 0 {
		t.Errorf("with %s in config.toml: want the write done in the sandbox without asking, got %v after %d questions (%s)",
			strings.TrimSpace(config), err, asked.Load(), toolResult(t, s, "call_2").Text)
	}
}

// A pipe hides the exit status of its first command: curl refused the
// network, head succeeded. The user is not asked (the run succeeded), but
// the model reads what the sandbox refused and how to ask for it.
func TestANetworkRefusalInAPipeIsNamedToTheModel(t *testing.T) {
	u := newUser(t)
	const command = `(echo > /dev/tcp/example.com/80) 2>&1 | head -1`
	s := u.open(t, llmtest.New(t, bashCall("call_1", command), llmtest.ReplyText("offline")))
	asked := denyApprovals(t, s.Broker)
	runTurn(t, s, "Reach example.com.")
	r := toolResult(t, s, "call_1")
	if len(*asked) != 0 || r.IsError {
		t.Errorf("want a successful run and no question, asked %+v, got %q", *asked, r.Text)
	}
	if !strings.Contains(r.Text, `[sandbox: refused network access (`) || !strings.Contains(r.Text, `call bash again with "sandbox": "network"`) {
		t.Errorf("want the model told the network was refused and how to ask, got:\n%s", r.Text)
	}
}
