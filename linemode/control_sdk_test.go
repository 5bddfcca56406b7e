package linemode

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/snapshots/testkit"
)

// sdkRun is print mode driven line by line, as an Agent SDK drives it:
// what the test writes is stdin, what tack writes is read back.
type sdkRun struct {
	stdin  *io.PipeWriter
	stdout *testkit.Buffer
	done   chan PrintOutcome
}

func startSDKRun(t *testing.T, s *launch.Session) *sdkRun {
	t.Helper()
	r, w := io.Pipe()
	run := &sdkRun{stdin: w, stdout: &testkit.Buffer{}, done: make(chan PrintOutcome, 1)}
	go func() {
		run.done <- Print(context.Background(), s, PrintOptions{Format: FormatStreamJSON, StreamInput: true, ReplayUser: true,
			In: r, Stdout: run.stdout, Stderr: io.Discard})
	}()
	t.Cleanup(func() {
		w.Close()
		select {
		case <-run.done:
		case <-time.After(testkit.WaitLimit):
			t.Error("print mode did not end with stdin")
		}
	})
	return run
}

// send writes one stdin line.
func (r *sdkRun) send(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(r.stdin, line+"\n"); err != nil {
		t.Fatal(err)
	}
}

// ask writes a control request and waits for its answer.
func (r *sdkRun) ask(t *testing.T, id, line string) controlAnswer {
	t.Helper()
	r.send(t, line)
	var a controlAnswer
	testkit.Eventually(t, "the answer to "+id, func() bool {
		var ok bool
		a, ok = answers(t, r.stdout.String())[id]
		return ok
	})
	return a
}

// results counts the result lines written so far.
func (r *sdkRun) results() int { return strings.Count(r.stdout.String(), `"type":"result"`) }

// field is a number of an answer, or -1 when it is missing or no number.
func field(a controlAnswer, name string) float64 {
	if v, ok := a.Response.Response[name].(float64); ok {
		return v
	}
	return -1
}
