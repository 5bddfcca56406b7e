package launch

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/llm/llmtest"
)

// requireSandbox skips, saying why, where this system cannot confine the
// session's commands.
func requireSandbox(t *testing.T, s *Session) {
	t.Helper()
	if st := s.Sandbox.Status(); !st.Active {
		t.Skip("this system cannot confine commands: " + st.Reason)
	}
}

// notices are the texts of the notices the session has shown so far.
func notices(t *testing.T, s *Session) []string {
	t.Helper()
	_, sub := s.Agent.Subscribe()
	defer sub.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	evs, err := sub.Wait(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range evs {
		if n, ok := e.(agent.Notice); ok {
			out = append(out, n.Text)
		}
	}
	return out
}

// The status row's label does not wait for the sandbox's probe, which
// forks a process: until the front door asks for it after its first frame
// (or the helper's prewarm does), the sandbox's state reads "…" in a mode
// the sandbox confines, and ProbeSandbox brings the state the policy acts
// on. Full-access is unconfined whatever the probe finds.
func TestPermissionLabelDoesNotWaitForTheSandboxProbe(t *testing.T) {
	for _, tc := range []struct{ mode, before string }{
		{"auto", "auto · " + Probing},
		{"full-access", "full-access · no sandbox"},
	} {
		s := openMCP(t, t.TempDir(), t.TempDir(), tc.mode, llmtest.New(t))
		got := s.PermissionLabel()
		select {
		case <-s.Sandbox.Probed():
			t.Logf("%s: the prewarm probed the sandbox before the label was read", tc.mode)
		default:
			if got != tc.before {
				t.Errorf("%s: want %q before the probe, got %q", tc.mode, tc.before, got)
			}
		}
		probed := s.ProbeSandbox(context.Background())
		if want := s.Policy.StatusLabel(); probed != want {
			t.Errorf("%s: want ProbeSandbox to return the policy's label %q, got %q", tc.mode, want, probed)
		}
		if after := s.PermissionLabel(); after != probed {
			t.Errorf("%s: want the label %q once probed, got %q", tc.mode, probed, after)
		}
	}
}

// With a front door's Background, the helper's start (and the other
// background start-up work) waits for it to be closed, however long that
// takes.
func TestBackgroundWorkWaitsForTheFrontDoor(t *testing.T) {
	background, ran := make(chan struct{}), make(chan string, 2)
	inBackground(background, func() { ran <- "started" })
	select {
	case <-ran:
		t.Fatal("want the work held until the front door closes Background")
	default:
	}
	close(background)
	select {
	case <-ran:
	case <-time.After(30 * time.Second): // against a hang only
		t.Fatal("want the work started once Background is closed")
	}
	// A session closes its work's stop once, and again on a second Close.
	stop := inBackground(make(chan struct{}), func() { ran <- "started after stop" })
	stop()
	stop()
}

// A directory added with --add-dir is writable in the sandbox, and the
// model is told it may work there.
func TestAddedDirectoriesAreWritableAndNamedToTheModel(t *testing.T) {
	llm := llmtest.New(t)
	other := t.TempDir()
	env := map[string]string{"DEEPSEEK_API_KEY": "test-key", "DEEPSEEK_BASE_URL": llm.URL()}
	s, err := Open(Options{Home: t.TempDir(), Cwd: t.TempDir(), Getenv: func(k string) string { return env[k] }, AddDirs: []string{other}})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !slices.Contains(s.Sandbox.Layout().Writable, other) {
		t.Errorf("want %s writable in the sandbox, got %v", other, s.Sandbox.Layout().Writable)
	}
	if !strings.Contains(s.Agent.System(), "the user gave you these directories to work in: "+other+".") {
		t.Errorf("want the directory named in the system prompt, got %q", s.Agent.System())
	}
}
