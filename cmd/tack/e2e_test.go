package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/llm/llmtest"
	"github.com/tack-agent/tack/snapshots/testkit"
	"github.com/tack-agent/tack/snapshots/testkit/tackbin"
)

func TestMain(m *testing.M) { os.Exit(tackbin.Main(m)) }

// process is one tack process with piped stdin, stdout and stderr.
type process struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *testkit.Buffer
	stderr *testkit.Buffer
	home   string
	done   chan struct{}
	err    error
}

// startTack runs the built binary against srv in a fresh TACK_HOME and
// working directory.
func startTack(t *testing.T, srv *llmtest.Server, args ...string) *process {
	t.Helper()
	return startTackIn(t, srv, t.TempDir(), t.TempDir(), args...)
}

// startTackIn runs the built binary against srv with TACK_HOME home in the
// working directory dir; a nil srv leaves the provider unconfigured.
func startTackIn(t *testing.T, srv *llmtest.Server, home, dir string, args ...string) *process {
	t.Helper()
	r := &process{t: t, stdout: &testkit.Buffer{}, stderr: &testkit.Buffer{}, home: home, done: make(chan struct{})}
	r.cmd = exec.Command(tackbin.Path(t), args...)
	r.cmd.Dir = dir
	r.cmd.Env = tackEnv(srv, home)
	r.cmd.Stdout, r.cmd.Stderr = r.stdout, r.stderr
	var err error
	if r.stdin, err = r.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		r.err = r.cmd.Wait()
		close(r.done)
	}()
	t.Cleanup(func() {
		select {
		case <-r.done:
		default:
			_ = r.cmd.Process.Kill()
			<-r.done
		}
	})
	return r
}

// tackEnv is the environment tack runs in against srv (nil: no provider)
// with TACK_HOME and HOME home.
func tackEnv(srv *llmtest.Server, home string) []string {
	env := []string{"PATH=" + os.Getenv("PATH"), "HOME=" + home, "TACK_HOME=" + home}
	if srv != nil {
		env = append(env, "DEEPSEEK_BASE_URL="+srv.URL(), "DEEPSEEK_API_KEY=test")
	}
	return env
}

func (r *process) write(s string) {
	r.t.Helper()
	if _, err := io.WriteString(r.stdin, s); err != nil {
		r.t.Fatalf("write stdin: %v", err)
	}
}

func (r *process) closeStdin() { _ = r.stdin.Close() }

// waitOutput polls stdout until it contains want.
func (r *process) waitOutput(want string) {
	r.t.Helper()
	exited := false
	testkit.Eventually(r.t, fmt.Sprintf("stdout to contain %q", want), func() bool {
		select {
		case <-r.done:
			exited = true
		default:
		}
		return strings.Contains(r.stdout.String(), want) || exited
	}, r.output)
	if !strings.Contains(r.stdout.String(), want) {
		r.t.Fatalf("want stdout to contain %q, but tack exited: %s", want, r.output())
	}
}

// output is what the process wrote so far, for failure messages.
func (r *process) output() string {
	return fmt.Sprintf("stdout %q, stderr %q", r.stdout.String(), r.stderr.String())
}

// signal sends sig to the process.
func (r *process) signal(sig os.Signal) {
	r.t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.t.Fatal(err)
	}
}

// wantExit waits for the process to end and fails the test unless it
// exits with code.
func (r *process) wantExit(code int) {
	r.t.Helper()
	if got := r.exitCode(); got != code {
		r.t.Fatalf("want exit %d, got %d; %s", code, got, r.output())
	}
}

// exitLimit bounds the wait for tack to exit. It tells a hang from a slow
// exit on a loaded machine, not how fast tack is: a test that expects a
// prompt exit measures it itself.
const exitLimit = time.Minute

// exitCode waits for the process to end and returns its exit code.
func (r *process) exitCode() int {
	r.t.Helper()
	select {
	case <-r.done:
	case <-time.After(exitLimit):
		r.t.Fatalf("want tack to exit, still running after %s; stdout %q, stderr %q", exitLimit, r.stdout.String(), r.stderr.String())
	}
	var ee *exec.ExitError
	if errors.As(r.err, &ee) {
		return ee.ExitCode()
	}
	if r.err != nil {
		r.t.Fatalf("wait: %v", r.err)
	}
	return 0
}

// waitStalled waits until srv's stream stalled, as the script asked.
func waitStalled(t *testing.T, srv *llmtest.Server) {
	t.Helper()
	select {
	case <-srv.Stalled():
	case <-time.After(time.Minute):
		t.Fatal("want the stream to stall within a minute")
	}
}

// waitRequests polls until srv has received n requests.
func waitRequests(t *testing.T, srv *llmtest.Server, n int) {
	t.Helper()
	testkit.Eventually(t, fmt.Sprintf("%d requests", n), func() bool { return len(srv.Requests()) >= n },
		func() string { return fmt.Sprint(len(srv.Requests()), " requests") })
}

// loggedEvent is one line of a session log after the header.
type loggedEvent struct {
	Type string          `json:"type"`
	Data json.RawMessage `json:"data"`
}

// sessionEvents reads the session log of the run: the type and data of
// every event after the header.
func sessionEvents(t *testing.T, home string) []loggedEvent {
	t.Helper()
	logs, _ := filepath.Glob(filepath.Join(home, "sessions", "*", "*.jsonl"))
	if len(logs) != 1 {
		t.Fatalf("want one session log under %s, got %v", home, logs)
	}
	b, err := os.ReadFile(logs[0])
	if err != nil {
		t.Fatal(err)
	}
	var out []loggedEvent
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if i == 0 {
			continue
		}
		var e loggedEvent
		if err := json.Unmarshal([]byte(line), &e); err != nil {
			t.Fatalf("session log line %d: %v", i+1, err)
		}
		out = append(out, e)
	}
	return out
}

// lastOfTurn is the last logged event other than a session title and
// its request's usage, which the model names off the loop once a turn
// ended and which may land at any point after it.
func lastOfTurn(evs []loggedEvent) loggedEvent {
	for i := len(evs) - 1; i >= 0; i-- {
		if t := evs[i].Type; t != "session/title" && t != "usage/side" {
			return evs[i]
		}
	}
	return loggedEvent{}
}
