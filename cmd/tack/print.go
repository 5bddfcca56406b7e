package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/tack-agent/tack/backend/agent"
	"github.com/tack-agent/tack/backend/launch"
	"github.com/tack-agent/tack/backend/workspace"
	"github.com/tack-agent/tack/linemode"
	"github.com/tack-agent/tack/views/iostreams"
)

// runPrint runs print mode: the task of -p (or the positional arguments,
// or stdin), then, with --input-format stream-json, the user messages on
// stdin. It exits 0 when every turn completed and no tool call was denied
// (denials count only without stream input, which the Agent SDKs use), 1
// otherwise, 2 for a missing task, and 130, 143 or 129 after a signal.
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
	debug, closeDebug, err := debugOut(o.sdk, ios.ErrOut)
	if err != nil {
		fmt.Fprintf(ios.ErrOut, "tack: %v\n", err)
		return 2
	}
	defer closeDebug()
	po := linemode.PrintOptions{
		Task: task, Format: o.outputFormat, StreamInput: stream, In: ios.In, Stdout: ios.Out, Stderr: ios.ErrOut,
		IncludePartial: o.partial, NoReasoning: o.noReasoning, Structured: o.jsonSchema != "", MaxBudgetUSD: o.maxBudget,
		ReplayUser: o.replayUser, HookEvents: o.hookEvents, NoCommands: o.noCommands, SDKApprovals: o.promptTool == "stdio",
		Debug: debug, DebugTypes: o.sdk.debugTypes, Terminal: ios.IsStdoutTTY(), Version: version, Now: time.Now,
		Turn: agent.TurnOptions{AllowedTools: o.allowedTools, DisallowedTools: o.disallowed, MaxSteps: o.maxTurns,
			FallbackModel: o.fallbackModel},
	}
	lo.Unattended, lo.NoPersistence = true, o.sdk.noPersistence
	if stream {
		po.SDK = linemode.NewSDKChannel()
		lo.MCPRelay, lo.Elicit = po.SDK.RelayMCP, po.SDK.Elicit
	}
	if o.jsonSchema != "" {
		lo.OutputSchema = json.RawMessage(o.jsonSchema)
	}
	s, err := launch.Open(lo)
	if err != nil {
		linemode.PrintFailure(po, errors.New(launchError(err)))
		return 1
	}
	defer s.Close()
	ctx, which, stop := signalContext(func(sig os.Signal) {
		// A second Ctrl+C: the user will not wait for the cancelled turn
		// (a command that ignores SIGTERM, a slow close). The tools'
		// processes die with tack; the log's open turn is closed as
		// interrupted when the session is next opened.
		fmt.Fprintf(ios.ErrOut, "tack: a second %s: leaving at once; tack --resume %s shows what the turn did\n",
			sig, s.Agent.SessionID())
		os.Exit(exitForSignal(sig))
	})
	defer stop()
	out := linemode.Print(ctx, s, po)
	if sig := which(); sig != nil {
		return exitForSignal(sig)
	}
	if out.OutputErr != nil {
		return linemode.OutputFailed(out.OutputErr, ios.ErrOut)
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
		piped, err := readPiped(nil, ios.In, ios.ErrOut)
		if err != nil {
			return "", err
		}
		task = strings.TrimSpace(piped)
	default:
		var err error
		if task, err = withPipedContext(task, ios.In, pipedWait, ios.ErrOut); err != nil {
			return "", err
		}
	}
	if strings.TrimSpace(task) == "" {
		return "", errors.New(`print mode needs a task: tack -p "fix the failing test", or pipe it on stdin`)
	}
	return task, nil
}

// pipedWait is how long a task given on the command line waits for the
// first byte of piped stdin before it runs without it. A parent process
// that leaves tack's stdin an open pipe it never writes nor closes (a
// spawn with stdin "pipe", or inherited) would otherwise hang print mode
// for good, as it hangs claude -p and codex exec.
const pipedWait = 3 * time.Second

// withPipedContext appends what was piped on stdin to the task (see
// readPiped). When nothing arrives within wait, the task runs without
// it, and warn says so and how to skip the wait.
func withPipedContext(task string, stdin io.Reader, wait time.Duration, warn io.Writer) (string, error) {
	first := make(chan []byte, 1)
	go func() {
		buf := make([]byte, 64<<10)
		n, _ := stdin.Read(buf)
		first <- buf[:n]
	}()
	var b []byte
	select {
	case b = <-first:
	case <-time.After(wait):
		fmt.Fprintf(warn, "tack: nothing came on stdin within %v, so the task runs without it; "+
			"run tack with < /dev/null to skip the wait, or close the pipe when its input is written\n", wait)
		return task, nil
	}
	piped := string(b)
	if len(b) > 0 {
		var err error
		if piped, err = readPiped(b, stdin, warn); err != nil {
			return "", err
		}
	}
	if strings.TrimSpace(piped) == "" {
		return task, nil
	}
	return task + "\n\n<stdin>\n" + strings.TrimRight(piped, "\n") + "\n</stdin>", nil
}

// readPiped is head, what was read of stdin already, and the rest of
// stdin up to maxPipedContext in all (cut at a character's start); warn
// says when more was cut, which the text also says, and when the text is
// not UTF-8. Binary data (a NUL byte near its start, git's test) is an
// error: no model reads it as text.
func readPiped(head []byte, stdin io.Reader, warn io.Writer) (string, error) {
	rest, _ := io.ReadAll(io.LimitReader(stdin, int64(maxPipedContext+1-len(head))))
	b := append(head, rest...)
	if workspace.Binary(b) {
		return "", errors.New("stdin holds binary data (a NUL byte in its first 8 KB), which the model cannot read as text; " +
			"pipe text, or name the file in the task for the model to look at with its tools")
	}
	n := min(len(b), maxPipedContext)
	for n < len(b) && n > 0 && !utf8.RuneStart(b[n]) {
		n--
	}
	if !utf8.Valid(b[:n]) {
		fmt.Fprintln(warn, "tack: stdin is not UTF-8 text (Latin-1 or another encoding?); the model reads each byte "+
			"that is not as \uFFFD; convert it first, e.g. iconv -f latin1 -t utf-8 | tack -p ...")
	}
	if n == len(b) {
		return string(b), nil
	}
	fmt.Fprintf(warn, "tack: stdin is over %d KB; only its first %d KB go with the task\n", maxPipedContext>>10, maxPipedContext>>10)
	return string(b[:n]) + fmt.Sprintf("\n[stdin cut here: it is over %d KB]", maxPipedContext>>10), nil
}
