package bash

import (
	"context"
	"encoding/json"
	"fmt"
	"strconv"
	"time"

	"github.com/tack-agent/tack/backend/card"
	"github.com/tack-agent/tack/backend/tools"
)

// task is one background command of the session.
type task struct {
	id, command, description, cwd string
	proc                          Process
	env                           *tools.Env
	started                       time.Time

	// Guarded by Tools.mu.
	outOffset, errOffset int64
	killRequested        bool
	ended                time.Time // when its process group had ended
}

// startTask starts a background task and returns its id at once.
func (ts *Tools) startTask(a bashArgs, spec Spec, env *tools.Env) tools.Result {
	proc, err := ts.start(spec)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	ts.mu.Lock()
	if ts.closed { // Close ran while the command was starting
		ts.mu.Unlock()
		proc.Kill()
		<-proc.Done()
		return tools.Errorf("%v", errClosed)
	}
	ts.nextID++
	t := &task{
		id:          fmt.Sprintf("bash-%d", ts.nextID),
		command:     a.Command,
		description: a.Description,
		cwd:         spec.Workdir,
		proc:        proc,
		env:         env,
		started:     time.Now(),
	}
	ts.tasks[t.id] = t
	ts.watchers.Go(func() { ts.watch(t) })
	ts.mu.Unlock()
	return tools.Result{
		Text: "started background task " + t.id,
		Card: &card.Card{
			Kind:        card.Terminal,
			Title:       a.Command,
			Label:       "Bash",
			Subject:     a.Command,
			Description: a.Description,
			Terminal:    &card.TerminalView{Command: a.Command, Cwd: a.Workdir, Background: t.id},
		},
	}
}

// watch posts the completion notice of t: durable context for the next
// model request, not a wake-up. Tasks the model killed, and tasks ended by
// Close, get none.
func (ts *Tools) watch(t *task) {
	<-t.proc.Done()
	ts.mu.Lock()
	t.ended = time.Now()
	quiet := ts.closed || t.killRequested || t.env.Inject == nil
	ts.mu.Unlock()
	if quiet {
		return
	}
	t.env.Inject("tool-bash", fmt.Sprintf("background task %s (%s) finished %s. Read its output with bash_output.",
		t.id, t.description, statusLine(false, false, t.proc.Outcome())))
}

func (ts *Tools) lookup(id string) (*task, error) {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	t, ok := ts.tasks[id]
	if !ok {
		return nil, fmt.Errorf("unknown bash task %q", id)
	}
	return t, nil
}

// named is the task a bash_output or bash_kill call's arguments name.
func (ts *Tools) named(args json.RawMessage) (*task, error) {
	id, err := parseTaskID(args)
	if err != nil {
		return nil, err
	}
	return ts.lookup(id)
}

func taskCard(verb, label string, args json.RawMessage) card.Card {
	var a struct {
		TaskID  string `json:"task_id"`
		BashID  string `json:"bash_id"`
		ShellID string `json:"shell_id"`
	}
	_ = json.Unmarshal(args, &a)
	id := a.TaskID + a.BashID + a.ShellID
	return card.Card{Kind: card.Generic, Title: verb + " background task " + id, Label: label, Subject: id}
}

const taskSchema = `{
  "type": "object",
  "properties": {
    "task_id": {"type": "string", "description": "Task id returned by the bash tool (bash-N); bash_id and shell_id are taken too."}
  },
  "required": ["task_id"],
  "additionalProperties": false
}`

// outputTool reads what a background task wrote since the last read.
type outputTool struct{ ts *Tools }

// outputProse is what the model is told about bash_output, from output.md.
var outputProse = tools.ProseFile(specFiles, "output.md", "{{tail_bytes}}", strconv.Itoa(DefaultTailBytes))

func (outputTool) Spec() tools.Spec {
	return tools.Spec{
		Name:        "bash_output",
		Description: outputProse().Description,
		Schema:      json.RawMessage(taskSchema),
		// It only observes a task this session started.
		Access:       tools.AccessRead,
		ParallelSafe: true,
	}
}

func (outputTool) Present(args json.RawMessage) card.Card {
	return taskCard("Read output from", "Bash output", args)
}

func (o outputTool) Run(_ context.Context, call tools.Call) tools.Result {
	t, err := o.ts.named(call.Args)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	// Status first: a finished task's streams are complete, so this read
	// cannot miss output that the status line claims is final.
	var running bool
	select {
	case <-t.proc.Done():
	default:
		running = true
	}
	o.ts.mu.Lock()
	out := t.proc.Stdout().ReadFrom(t.outOffset)
	errs := t.proc.Stderr().ReadFrom(t.errOffset)
	t.outOffset, t.errOffset = out.Next, errs.Next
	killed := t.killRequested
	o.ts.mu.Unlock()

	text := renderBody(out.Text, errs.Text)
	c := &card.Card{Kind: card.Terminal, Title: t.command, Label: "Bash output", Subject: t.id, Description: t.description,
		Terminal: &card.TerminalView{Command: t.command, Cwd: t.cwd, Output: text, Background: t.id}}
	if text == "" {
		text = "(no new output)"
	}
	var lines []string
	if out.Lossy || errs.Lossy {
		var paths []string
		for _, p := range []string{out.SpillPath, errs.SpillPath} {
			if p != "" {
				paths = append(paths, p)
			}
		}
		lines = append(lines, lossNotice(paths))
	}
	var outcome Outcome
	if !running {
		outcome = t.proc.Outcome()
		c.Terminal.Signal = outcome.Signal
		if outcome.Signal == "" {
			c.Terminal.ExitCode = &outcome.ExitCode
		}
	}
	lines = append(lines, statusLine(running, killed, outcome))
	return tools.Result{Text: joinLines(text, lines), Card: c}
}

// joinLines appends lines to text, each on its own line.
func joinLines(text string, lines []string) string {
	for _, l := range lines {
		if text != "" && text[len(text)-1] != '\n' {
			text += "\n"
		}
		text += l
	}
	return text
}

// killTool stops a background task.
type killTool struct{ ts *Tools }

// killProse is what the model is told about bash_kill, from kill.md.
var killProse = tools.ProseFile(specFiles, "kill.md")

func (killTool) Spec() tools.Spec {
	return tools.Spec{
		Name:        "bash_kill",
		Description: killProse().Description,
		Schema:      json.RawMessage(taskSchema),
		// It only stops a task this session started, so it never asks.
		Access: tools.AccessRead,
	}
}

func (killTool) Present(args json.RawMessage) card.Card { return taskCard("Kill", "Kill", args) }

func (k killTool) Run(ctx context.Context, call tools.Call) tools.Result {
	t, err := k.ts.named(call.Args)
	if err != nil {
		return tools.Errorf("%v", err)
	}
	c := k.Present(call.Args)
	stopped, err := k.ts.stop(ctx, t)
	switch {
	case err != nil:
		return tools.Errorf("tool call aborted while task %s was being killed; it is still being stopped", t.id)
	case !stopped:
		return tools.Result{Text: fmt.Sprintf("task %s had already finished", t.id), Card: &c}
	}
	return tools.Result{Text: "killed background task " + t.id, Card: &c}
}

// stop kills t and waits for it to end; stopped is false when it had
// ended already, and err is ctx's when ctx ended first.
func (ts *Tools) stop(ctx context.Context, t *task) (stopped bool, err error) {
	ts.mu.Lock()
	select {
	case <-t.proc.Done():
		ts.mu.Unlock()
		return false, nil
	default:
		t.killRequested = true
	}
	ts.mu.Unlock()
	t.proc.Kill()
	select {
	case <-t.proc.Done():
		return true, nil
	case <-ctx.Done():
		return true, ctx.Err()
	}
}
