package commands

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/tools/bash"
)

// BackgroundTasks is the session's background commands (*bash.Tools
// through launch).
type BackgroundTasks interface {
	Tasks(tail int) []bash.TaskInfo
	Stop(ctx context.Context, id string) error
}

const bashesUsage = "Usage: /bashes (list the background tasks), /bashes ID (its latest output) or /bashes kill ID"

// BashesCommand is /bashes, as in Claude Code: the background tasks the
// model started (bash with run_in_background), each with its state and
// its last line of output; /bashes ID shows a task's latest output;
// /bashes kill ID stops one, and the model is told.
func BashesCommand(tasks BackgroundTasks) Command {
	return Command{
		Name: "bashes", Description: "List the background tasks; /bashes ID shows one's output, /bashes kill ID stops it",
		Input: Input{Hint: "[ID | kill ID]"}, WhileRunning: true,
		Handler: func(ctx context.Context, inv Invocation) Result {
			args := strings.Fields(inv.RawInput)
			switch {
			case len(args) == 0:
				return Succeed(taskList(tasks.Tasks(1)))
			case len(args) == 1:
				return taskOutput(tasks.Tasks(taskTail), args[0])
			case len(args) == 2 && args[0] == "kill":
				if err := tasks.Stop(ctx, args[1]); err != nil {
					return Fail("Cannot stop " + args[1] + ": " + err.Error() + ". /bashes lists the tasks.")
				}
				return Succeed("Stopped background task " + args[1] + "; the model is told at its next step.")
			}
			return Fail(bashesUsage)
		},
	}
}

// taskTail is how many lines of output /bashes ID shows.
const taskTail = 20

func taskList(list []bash.TaskInfo) string {
	if len(list) == 0 {
		return "No background tasks. The model starts one with bash's run_in_background (a server, a watcher)."
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Background tasks (%d)\n", len(list))
	for _, t := range list {
		fmt.Fprintf(&b, "\n%s · %s · %s\n", t.ID, taskState(t), t.Command)
		if t.Description != "" {
			b.WriteString("  " + t.Description + "\n")
		}
		if t.Output != "" {
			b.WriteString("  > " + t.Output + "\n")
		}
	}
	b.WriteString("\n/bashes ID shows a task's latest output; /bashes kill ID stops it.")
	return b.String()
}

func taskOutput(list []bash.TaskInfo, id string) Result {
	for _, t := range list {
		if t.ID != id {
			continue
		}
		out := t.Output
		if out == "" {
			out = "(no output yet)"
		}
		return Succeed(fmt.Sprintf("%s · %s · %s\n%s", t.ID, taskState(t), t.Command, out))
	}
	return Failf("No background task %s. /bashes lists the tasks.", id)
}

// taskState says whether a task runs, and for how long, or how it ended.
func taskState(t bash.TaskInfo) string {
	took := t.For.Round(time.Second).String()
	switch {
	case t.Running:
		return "running for " + took
	case t.Stopped:
		return "stopped after " + took
	case t.Outcome.Signal != "":
		return "killed by " + t.Outcome.Signal + " after " + took
	}
	return fmt.Sprintf("exited %d after %s", t.Outcome.ExitCode, took)
}
