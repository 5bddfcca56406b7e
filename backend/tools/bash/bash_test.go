//go:build unix

package bash

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/procs"
)

func TestBashResultTextMatchesGolden(t *testing.T) {
	cases := []struct {
		name string
		args map[string]any
	}{
		{"output", map[string]any{"command": "echo hello"}},
		{"no_output", map[string]any{"command": "true"}},
		{"stderr_only", map[string]any{"command": "echo oops >&2"}},
		{"stdout_and_stderr", map[string]any{"command": "printf out; echo err >&2; exit 1"}},
		{"exit_3", map[string]any{"command": "echo failing; exit 3"}},
		{"timeout_trapped", map[string]any{"command": `trap "exit 0" TERM; sleep 30 & wait`, "timeoutMs": 500}},
		{"timeout_killed", map[string]any{"command": "sleep 30", "timeoutMs": 100}},
		{"signal_death", map[string]any{"command": "echo before; kill -KILL $$"}},
		{"relative_workdir", map[string]any{"command": "pwd", "workdir": "sub"}},
		{"environment", map[string]any{"command": `echo "$NO_COLOR $TERM $PAGER $GIT_PAGER $TACK_SESSION_ID ${DEEPSEEK_API_KEY-removed} ${MCP_CLIENT_SECRET-removed}"`}},
	}
	// The sandbox must not change what the model reads: both executors
	// are held to the same golden files.
	executors := map[string]func(*testing.T) *fixture{
		"direct":    func(t *testing.T) *fixture { return newFixture(t, Local{}) },
		"sandboxed": func(t *testing.T) *fixture { return newConfinedFixture(t, Local{}) },
	}
	for exec, newF := range executors {
		for _, c := range cases {
			t.Run(exec+"/"+c.name, func(t *testing.T) {
				f := newF(t)
				if err := os.Mkdir(filepath.Join(f.env.Cwd, "sub"), 0o755); err != nil {
					t.Fatal(err)
				}
				args := maps.Clone(c.args)
				args["description"] = "Run the " + c.name + " case"
				res := f.run(t, "bash", args)
				if res.IsError {
					t.Fatalf("want a result, got error %q", res.Text)
				}
				matchGolden(t, "bash_"+c.name, f.normalise(res.Text))
			})
		}
	}
}

func TestBashCardCarriesStatusFromTheOutcome(t *testing.T) {
	f := newFixture(t, Local{})
	exit := f.run(t, "bash", map[string]any{"command": "echo failing; exit 3", "description": "Fail"})
	v := exit.Card.Terminal
	if v.ExitCode == nil || *v.ExitCode != 3 || v.Output != "failing\n" || v.Cwd != "" || exit.Card.Description != "Fail" {
		t.Fatalf("want exit 3, output %q, no cwd (the session's own) and the description, got %+v (%q)", "failing\n", v, exit.Card.Description)
	}
	sig := f.run(t, "bash", map[string]any{"command": "kill -KILL $$", "description": "Die"})
	if v := sig.Card.Terminal; v.ExitCode != nil || v.Signal != "SIGKILL" {
		t.Fatalf("want signal SIGKILL and no exit code, got %+v", v)
	}
	slow := f.run(t, "bash", map[string]any{"command": "sleep 30", "description": "Sleep", "timeoutMs": 50})
	if v := slow.Card.Terminal; !v.TimedOut || v.Signal != "SIGTERM" || strings.Contains(v.Output, "[") {
		t.Fatalf("want timed out by SIGTERM with no markers in the output, got %+v", v)
	}
}

func TestBashKeepsTheTailOfLargeOutputAndSpillsAllOfIt(t *testing.T) {
	f := newFixture(t, Local{})
	var want strings.Builder
	for i := 1; i <= 800_000; i++ {
		want.WriteString(strconv.Itoa(i))
		want.WriteByte('\n')
	}
	res := f.run(t, "bash", map[string]any{"command": "seq 1 800000", "description": "Print many numbers"})
	body, notice, ok := strings.Cut(res.Text, "\n[output truncated; full output: ")
	if !ok {
		t.Fatalf("want a truncation notice, got the end %q", res.Text[len(res.Text)-100:])
	}
	if len(body) > DefaultTailBytes || !strings.HasSuffix(want.String(), body) || !strings.HasSuffix(body, "800000\n") {
		t.Fatalf("want the last ≤%d bytes of the output, got %d bytes ending %q", DefaultTailBytes, len(body), body[len(body)-20:])
	}
	path := strings.TrimSuffix(notice, "]")
	spilled, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("want the spill file at %s, got %v", path, err)
	}
	if string(spilled) != want.String() {
		t.Fatalf("want the spill file byte-identical to the output (%d bytes), got %d bytes", want.Len(), len(spilled))
	}
	matchGolden(t, "bash_large_output", f.normalise("<"+strconv.Itoa(len(body))+" bytes of tail>\n[output truncated; full output: "+notice))
}

// Binary output (an executable, a compressed stream) reaches neither the
// model nor the card as text: they read what it is, how long, and where
// it is saved, byte for byte. NULs in text (find -print0) stay text.
func TestBashSavesBinaryOutputInsteadOfShowingIt(t *testing.T) {
	f := newFixture(t, Local{})
	for _, command := range []string{"cat /bin/sh", "gzip -n -c /bin/sh | head -c 30000"} {
		t.Run(command, func(t *testing.T) {
			want, err := exec.Command("bash", "-c", command).Output()
			if err != nil {
				t.Skipf("%s: %v", command, err)
			}
			res := f.run(t, "bash", map[string]any{"command": command, "description": "Print binary"})
			head := fmt.Sprintf("[binary output, %d bytes, not shown: saved to ", len(want))
			path, ok := strings.CutPrefix(res.Text, head)
			if !ok || !strings.HasSuffix(path, " (look at it with file, xxd or od)]") {
				t.Fatalf("want %q…, got %.200q", head, res.Text)
			}
			path = strings.TrimSuffix(path, " (look at it with file, xxd or od)]")
			if saved, err := os.ReadFile(path); err != nil || !bytes.Equal(saved, want) {
				t.Fatalf("want the output saved byte for byte at %s (%d bytes), got %d bytes, %v", path, len(want), len(saved), err)
			}
			if out := res.Card.Terminal.Output; !strings.HasPrefix(out, head) {
				t.Errorf("want the card to say the same, got %.200q", out)
			}
		})
	}
	res := f.run(t, "bash", map[string]any{"command": "printf 'a.go\\0b.go\\0'", "description": "List"})
	if res.Text != "a.go\x00b.go\x00" {
		t.Errorf("want NUL-separated names kept as text, got %q", res.Text)
	}
}

// A progress bar redrawn in place reaches the model as a terminal leaves
// it: its last state, not every one (tqdm's and pip's redraws).
func TestBashGivesTheModelTheLastStateOfARedrawnLine(t *testing.T) {
	f := newFixture(t, Local{})
	res := f.run(t, "bash", map[string]any{"command": `for i in 10 50 100; do printf '\r%3d%% [\033[32m%s\033[0m]\033[K' $i done; done; echo; echo ok`,
		"description": "Show progress"})
	if res.Text != "100% [done]\nok\n" {
		t.Errorf("want the last state of the line, got %q", res.Text)
	}
}

// TestBashKillsWhatTheShellLeftRunning: the child would outlive the
// call's timeout, so a call that waited for it would end in a timeout
// notice; a bare pid as the result shows the call ended with the shell.
func TestBashKillsWhatTheShellLeftRunning(t *testing.T) {
	f := newFixture(t, Local{})
	res := f.run(t, "bash", map[string]any{"command": "sleep 100000 & echo $!", "description": "Leave a child behind"})
	pid, err := strconv.Atoi(strings.TrimSpace(res.Text))
	if err != nil {
		t.Fatalf("want only the child's pid, the call ended with the shell, got %q", res.Text)
	}
	testkit.Eventually(t, "the child "+res.Text+" to be gone", func() bool { return procs.Gone(pid) })
}

func TestBashRejectsInvalidArguments(t *testing.T) {
	cases := []struct {
		args map[string]any
		want string
	}{
		{map[string]any{}, "Error: invalid command: expected a non-empty string"},
		{map[string]any{"command": "  ", "description": "d"}, "Error: invalid command: expected a non-empty string"},
		{map[string]any{"command": 7, "description": "d"}, "Error: invalid command: expected a non-empty string"},
		{map[string]any{"command": "ls", "description": 7}, "Error: invalid description: expected a string"},
		{map[string]any{"command": "ls", "description": "d", "timeoutMs": -1}, "Error: invalid timeoutMs: expected a positive number of milliseconds, got -1"},
		{map[string]any{"command": "ls", "description": "d", "timeoutMs": 0}, "Error: invalid timeoutMs: expected a positive number of milliseconds, got 0"},
		{map[string]any{"command": "ls", "description": "d", "timeoutMs": "soon"}, `Error: invalid timeoutMs: expected a positive number of milliseconds, got "soon"`},
		{map[string]any{"command": "ls", "timeout": "soon"}, `Error: invalid timeout: expected a positive number of milliseconds, got "soon"`},
		{map[string]any{"command": "ls", "cwd": "/tmp"}, `Error: invalid arguments: unknown argument "cwd"; the accepted arguments are command, description, timeoutMs, timeout, workdir, run_in_background, sandbox, justification, dangerouslyDisableSandbox`},
		{map[string]any{"command": "ls", "sandbox": "network"}, "Error: invalid justification: with sandbox, say in one line why the command needs it; the user reads it"},
		{map[string]any{"command": "ls", "sandbox": "root", "justification": "j"}, `Error: invalid sandbox: expected "network" or "outside"`},
		{map[string]any{"command": "ls", "dangerouslyDisableSandbox": "yes"}, "Error: invalid dangerouslyDisableSandbox: expected a boolean"},
		{map[string]any{"command": "ls", "description": "d", "workdir": 7}, "Error: invalid workdir: expected a string"},
		{map[string]any{"command": "ls", "description": "d", "run_in_background": "yes"}, "Error: invalid run_in_background: expected a boolean"},
	}
	f := newFixture(t, Local{})
	for _, c := range cases {
		res := f.run(t, "bash", c.args)
		if !res.IsError || res.Text != c.want {
			t.Errorf("args %v: want error %q, got %q (IsError %v)", c.args, c.want, res.Text, res.IsError)
		}
	}
	res := f.tool("bash").Run(context.Background(), f.call(json.RawMessage(`[1]`)))
	if res.Text != "Error: invalid arguments: expected a JSON object" {
		t.Errorf("want the object error, got %q", res.Text)
	}
}

func TestBashReportsSpawnFailureAsError(t *testing.T) {
	f := newFixture(t, Local{})
	res := f.run(t, "bash", map[string]any{"command": "true", "description": "d", "workdir": "/nonexistent-tack-dir"})
	if !res.IsError || !strings.HasPrefix(res.Text, "Error: cannot run command: workdir /nonexistent-tack-dir does not exist or is not a directory") {
		t.Fatalf("want a spawn error naming the directory, got %q", res.Text)
	}
}

func TestBashAbortKillsTheCommand(t *testing.T) {
	f := newFixture(t, Local{})
	ctx, cancel := context.WithCancel(context.Background())
	raw := json.RawMessage(`{"command":"echo started; sleep 30","description":"Sleep"}`)
	done := make(chan tools.Result)
	go func() { done <- f.tool("bash").Run(ctx, f.call(raw)) }()
	cancel()
	select {
	case res := <-done:
		if !res.IsError || res.Text != "Error: tool call aborted" {
			t.Fatalf("want Error: tool call aborted, got %q", res.Text)
		}
		if res.Card == nil || res.Card.Terminal == nil || !res.Card.Terminal.Interrupted || res.Card.Terminal.ExitCode != nil {
			t.Fatalf("want a card of the interrupted command, got %+v", res.Card)
		}
	case <-time.After(time.Minute):
		t.Fatal("want the call to return after the abort, it did not within a minute")
	}
}

func TestBashClampsTimeoutToTheMaximum(t *testing.T) {
	ts := New(Local{}, Options{MaxTimeout: time.Second})
	spec := ts.spec(bashArgs{Command: "x", Timeout: time.Hour}, &tools.Env{Cwd: "/w"})
	if spec.Timeout != time.Second {
		t.Fatalf("want the timeout clamped to 1s, got %v", spec.Timeout)
	}
	if spec = ts.spec(bashArgs{Command: "x"}, &tools.Env{Cwd: "/w"}); spec.Timeout != DefaultTimeout {
		t.Fatalf("want the default timeout %v, got %v", DefaultTimeout, spec.Timeout)
	}
	if spec = ts.spec(bashArgs{Command: "x", Background: true, Timeout: time.Hour}, &tools.Env{Cwd: "/w"}); spec.Timeout != 0 {
		t.Fatalf("want no timeout for a background task, got %v", spec.Timeout)
	}
}

func TestBashSpecStatesTheSessionsTimeouts(t *testing.T) {
	spec := New(Local{}, Options{DefaultTimeout: 5 * time.Second, MaxTimeout: 9 * time.Second}).All()[0].Spec()
	if want := "Timeout: 5000 ms by default, at most 9000 ms;"; !strings.Contains(spec.Description, want) {
		t.Errorf("want the description to say %q, got %q", want, spec.Description)
	}
	if want := "(default 5000, at most 9000;"; !strings.Contains(string(spec.Schema), want) {
		t.Errorf("want the schema to say %q, got %s", want, spec.Schema)
	}
	spec = New(Local{}, Options{}).All()[0].Spec()
	if want := "Timeout: 120000 ms by default, at most 600000 ms;"; !strings.Contains(spec.Description, want) {
		t.Errorf("want another session's description to say %q, got %q", want, spec.Description)
	}
}

func TestCommandEnvRemovesProviderKeysAndSetsPlainOutput(t *testing.T) {
	env := commandEnv([]string{"PATH=/bin", "OPENAI_API_KEY=x", "HF_TOKEN=y", "TERM=xterm", "STRIPE_API_KEY=kept"}, "s9")
	want := []string{"PATH=/bin", "STRIPE_API_KEY=kept", "NO_COLOR=1", "TERM=dumb", "PAGER=cat", "GIT_PAGER=cat",
		"GIT_EDITOR=true", "GIT_SEQUENCE_EDITOR=true", "EDITOR=true", "VISUAL=true", "TACK_SESSION_ID=s9"}
	if strings.Join(env, " ") != strings.Join(want, " ") {
		t.Fatalf("want %v, got %v", want, env)
	}
}

// Git opens an editor for a commit without -m, an interactive rebase and
// a revert. With the user's editor (here one that never returns, as vim
// does without a terminal) the command would hang until its timeout;
// real git, run by the tool directly and in the sandbox, must instead
// abort the commit for want of a message and go on with its defaults.
func TestGitNeverWaitsForAnEditor(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed: " + err.Error())
	}
	for _, v := range []string{"EDITOR", "VISUAL", "GIT_EDITOR", "GIT_SEQUENCE_EDITOR"} {
		t.Setenv(v, "sleep 600;:") // git appends the file, which ":" takes
	}
	const script = `git init -q . && git config user.name t && git config user.email t@example.com &&
echo a > f && git add f && git commit -q -m one && echo b > f && git add f
git commit; echo "commit exit $?"
git commit -q -m two && git rebase -q -i HEAD~1 && echo rebased
git revert --quiet HEAD >/dev/null && git log -1 --format=%s`
	for name, newF := range map[string]func(*testing.T) *fixture{
		"direct":    func(t *testing.T) *fixture { return newFixture(t, Local{}) },
		"sandboxed": func(t *testing.T) *fixture { return newConfinedFixture(t, Local{}) },
	} {
		t.Run(name, func(t *testing.T) {
			res := newF(t).run(t, "bash", map[string]any{"command": script, "timeoutMs": 30000})
			if v := res.Card.Terminal; v.TimedOut {
				t.Fatalf("git waited for an editor until the timeout:\n%s", res.Text)
			}
			for _, want := range []string{"Aborting commit due to empty commit message", "commit exit 1", "rebased", `Revert "two"`} {
				if !strings.Contains(res.Text, want) {
					t.Errorf("want %q in the output, got:\n%s", want, res.Text)
				}
			}
		})
	}
}

func TestBashSchemasAreStrictObjects(t *testing.T) {
	f := newFixture(t, Local{})
	wantRequired := map[string]string{"bash": "command,description", "bash_output": "task_id", "bash_kill": "task_id"}
	for _, tool := range f.tools.All() {
		var s struct {
			Type       string         `json:"type"`
			Properties map[string]any `json:"properties"`
			Required   []string       `json:"required"`
			Additional *bool          `json:"additionalProperties"`
		}
		spec := tool.Spec()
		if err := json.Unmarshal(spec.Schema, &s); err != nil {
			t.Fatalf("%s: want valid JSON schema, got %v", spec.Name, err)
		}
		if s.Type != "object" || s.Additional == nil || *s.Additional || strings.Join(s.Required, ",") != wantRequired[spec.Name] {
			t.Fatalf("%s: want a closed object requiring %s, got %+v", spec.Name, wantRequired[spec.Name], s)
		}
	}
	var props struct {
		Properties map[string]any `json:"properties"`
	}
	_ = json.Unmarshal(f.tool("bash").Spec().Schema, &props)
	for _, name := range []string{"command", "description", "timeoutMs", "workdir", "run_in_background"} {
		if props.Properties[name] == nil {
			t.Errorf("want bash property %s, it is missing", name)
		}
	}
	if g := f.tool("bash").Spec().Guidance; !strings.Contains(g, "Check the [exit code: N] marker on every bash result; investigate failures before moving on.") {
		t.Errorf("want the exit-code guidance, got %q", g)
	}
}

var taskIDRE = regexp.MustCompile(`^started background task (bash-\d+)$`)

// TestClaudeCodeBashFormsAreTaken: Claude Code's Bash takes no required
// description and a timeout in milliseconds named timeout.
func TestClaudeCodeBashFormsAreTaken(t *testing.T) {
	f := newFixture(t, Local{})
	if res := f.run(t, "bash", map[string]any{"command": "echo hi"}); res.IsError || res.Text != "hi\n" {
		t.Errorf("want a command without description run, got %q", res.Text)
	}
	res := f.run(t, "bash", map[string]any{"command": "sleep 5", "timeout": 200})
	if !strings.HasPrefix(res.Text, "[timed out after 200ms]\n") {
		t.Errorf("want timeout read as milliseconds, got %q", res.Text)
	}
}

// TestRunningCommandShowsItsOutputBeforeItEnds: a command that prints and
// then waits shows what it printed on its card while it still runs.
func TestRunningCommandShowsItsOutputBeforeItEnds(t *testing.T) {
	f := newFixture(t, Local{})
	live := make(chan card.Card, 16)
	f.env.Progress = func(callID string, c card.Card) {
		select {
		case live <- c:
		default:
		}
	}
	raw, err := json.Marshal(map[string]any{"command": "echo started; echo more; sleep 60", "description": "Wait"})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan tools.Result, 1)
	go func() { done <- f.tool("bash").Run(ctx, f.call(raw)) }()
	for c := range live {
		if c.Terminal != nil && c.Terminal.Output == "started\nmore\n" {
			if c.Terminal.ExitCode != nil || c.Label != "Bash" || c.Subject == "" {
				t.Errorf("want a running card with its header and no exit code, got %+v %+v", c, c.Terminal)
			}
			break
		}
	}
	cancel()
	if r := <-done; !r.IsError {
		t.Fatalf("want the cancelled command to end as aborted, got %q", r.Text)
	}
}
