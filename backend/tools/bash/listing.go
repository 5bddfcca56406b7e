package bash

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"
)

// TaskInfo is what the user is shown of a background task (/bashes).
type TaskInfo struct {
	ID, Command, Description string
	// Running is set until the command and its process group have ended;
	// Outcome says how they ended then, and Stopped that the model or the
	// user stopped it.
	Running bool
	Outcome Outcome
	Stopped bool
	// For is how long it has run, or ran.
	For time.Duration
	// Output is the last lines of its output, stdout's then stderr's.
	Output string
}

// Tasks are the session's background tasks, the first started first.
// tail bounds each one's Output to that many lines.
func (ts *Tools) Tasks(tail int) []TaskInfo {
	ts.mu.Lock()
	list := make([]*task, 0, len(ts.tasks))
	for _, t := range ts.tasks {
		list = append(list, t)
	}
	ts.mu.Unlock()
	slices.SortFunc(list, func(a, b *task) int { return a.started.Compare(b.started) })
	infos := make([]TaskInfo, 0, len(list))
	for _, t := range list {
		infos = append(infos, ts.info(t, tail))
	}
	return infos
}

func (ts *Tools) info(t *task, tail int) TaskInfo {
	i := TaskInfo{ID: t.id, Command: t.command, Description: t.description, Running: true}
	select {
	case <-t.proc.Done():
		i.Running, i.Outcome = false, t.proc.Outcome()
	default:
	}
	ts.mu.Lock()
	stopped, ended := t.killRequested, t.ended
	ts.mu.Unlock()
	i.Stopped = stopped
	if ended.IsZero() {
		ended = time.Now()
	}
	i.For = ended.Sub(t.started)
	i.Output = lastLines(renderBody(t.proc.Stdout().Tail().Text, t.proc.Stderr().Tail().Text), tail)
	return i
}

// lastLines is the last n lines of text.
func lastLines(text string, n int) string {
	lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
	return strings.Join(lines[max(len(lines)-n, 0):], "\n")
}

// Stop stops the background task id for the user, as bash_kill does for
// the model, and tells the model so at its next request. It says when the
// task had ended already.
func (ts *Tools) Stop(ctx context.Context, id string) error {
	t, err := ts.lookup(id)
	if err != nil {
		return err
	}
	stopped, err := ts.stop(ctx, t)
	if !stopped {
		return fmt.Errorf("task %s had already finished", id)
	}
	if t.env.Inject != nil {
		what := t.id
		if t.description != "" {
			what += " (" + t.description + ")"
		}
		t.env.Inject("tool-bash", "the user stopped background task "+what+".")
	}
	return err
}
