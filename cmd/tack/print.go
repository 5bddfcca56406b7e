package main

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/linemode"
	"github.com/tack-agent/tack/views/iostreams"
)

// runPrint runs print mode: the task of -p (or the positional arguments,
// or stdin), then, with --input-format stream-json, the user messages on
// stdin. It exits 0 when every turn completed and no tool call was denied,
// 1 otherwise, 2 for a missing task, and 130, 143 or 129 after a signal.
func runPrint(lo launch.Options, o options, ios *iostreams.IOStreams, cwd string) int {
	stream := o.inputFormat == "stream-json"
	task, err := printTask(o, ios, stream)
	if err == nil {
		task, err = withImages(task, o.images, cwd)
	}
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "tack: %v\n", err)
		return 2
	}
	po := linemode.PrintOptions{
		Task: task, Format: o.outputFormat, StreamInput: stream, In: ios.In, Stdout: ios.Out, Stderr: ios.ErrOut,
		IncludePartial: o.partial, NoReasoning: o.noReasoning, Terminal: ios.IsStdoutTTY(), Version: version, Now: time.Now,
		Turn: agent.TurnOptions{AllowedTools: o.allowedTools, DisallowedTools: o.disallowed, MaxSteps: o.maxTurns},
	}
	s, err := launch.Open(lo)
	if err != nil {
		linemode.PrintFailure(po, errors.New(launchError(err)))
		return 1
	}
	defer s.Close()
	ctx, which, stop := signalContext()
	defer stop()
	out := linemode.Print(ctx, s, po)
	if sig := which(); sig != nil {
		return exitForSignal(sig)
	}
	if !out.OK() {
		return 1
	}
	return 0
}

// printTask is the first task: -p's value, else the positional arguments;
// what is piped on stdin is appended to it as context, or, without a task,
// is the task. With stream input stdin carries the messages instead, and
// the task may be empty.
func printTask(o options, ios *iostreams.IOStreams, stream bool) (string, error) {
	task := o.print
	if task == "" {
		task = o.task
	}
	switch {
	case stream:
		return task, nil
	case ios.IsStdinTTY():
	case task == "":
		task = readPiped(ios.In)
	default:
		task = withPipedContext(task, ios.In)
	}
	if strings.TrimSpace(task) == "" {
		return "", errors.New(`print mode needs a task: tack -p "fix the failing test", or pipe it on stdin`)
	}
	return task, nil
}

// readPiped is stdin, up to maxPipedContext, as a task.
func readPiped(stdin io.Reader) string {
	b, _ := io.ReadAll(io.LimitReader(stdin, maxPipedContext))
	return strings.TrimSpace(string(b))
}
